"""The only writer of tournaments: it ties the pure pairing and standings modules to the models.

Every step follows the games' pattern (docs/ARCHITECTURE.md): inside ``transaction.atomic`` lock the
tournament row (``select_for_update``; SQLite: IMMEDIATE transactions), check where it stands, do
the one thing that is due, bump ``Tournament.version``; broadcast and enqueue only on commit.
A step that finds nothing due does nothing, so a task delivered twice, a late tick or a worker
killed mid-step (its transaction rolls back whole: a round and its tables are created together)
never creates a duplicate round or loses a result. The unique constraints on rounds and games
make a duplicate impossible even for code that forgot the lock.

Tables are ordinary tables made by ``games.services.create_table(..., start=True)``: the clocks,
bots and forfeits of the table machinery apply unchanged. A table's result is stored by the
``match_finished`` receiver in the very transaction that finishes the match.
"""
from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.db import DatabaseError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _, gettext_noop

from accounts.models import BOT_LEVELS, bot_user
from games import services as game_services
from games.broadcast import send_on_commit
from games.messages import tournament_group
from games.engine import core
from games.labels import player_labels
from games.models import Match, Table

from . import arena_steps, duplicate_steps, pairing, scheduling, standings
from .models import Entry, Game, Round, Tournament

log = logging.getLogger(__name__)
Status = Tournament.Status
Format = Tournament.Format
DEFAULT_RATING = 1500
TOO_FEW = gettext_noop("Too few players entered: the tournament needed at least %(min)s.")


class TournamentError(Exception):
    """A refused request, with a reason for the player."""


def group_name(tournament_id: int) -> str:
    return tournament_group(tournament_id)


def seats_of(t: Tournament) -> int:
    return core.get_rules(t.game).seats


def current_rating(user, game: str, variant: str) -> int:
    """The user's rating for seeding: from the ratings app when it is installed, else 1500."""
    try:
        from ratings.services import current_rating as rating_of
    except ImportError:
        return DEFAULT_RATING
    try:
        value = rating_of(user, game, variant)
    except Exception:   # a ratings bug must not stop a tournament from starting
        log.exception("rating of %s failed; seeding with %s", user, DEFAULT_RATING)
        return DEFAULT_RATING
    if value is None:
        return DEFAULT_RATING
    return int(round(getattr(value, "rating", value)))


# --- registration ------------------------------------------------------------------------------------
def registration_open(t: Tournament, now: datetime | None = None) -> bool:
    now = now or timezone.now()
    return (t.status == Status.SCHEDULED and now < t.starts_at
            and (t.registration_opens_at is None or t.registration_opens_at <= now))


def register(tournament_id: int, user) -> Entry:
    if user is None or not user.is_authenticated or user.is_guest:
        raise TournamentError(_("Register an account to enter tournaments."))
    with transaction.atomic():
        t = Tournament.objects.select_for_update().get(pk=tournament_id)
        if not registration_open(t):
            raise TournamentError(_("Registration is closed."))
        if t.rated and user.is_bot:
            raise TournamentError(_("Rated tournaments are for people only."))
        if user.is_bot_account and not t.bots_allowed:
            raise TournamentError(_("This tournament does not allow bot accounts."))
        entry = Entry.objects.filter(tournament=t, user=user).first()
        if entry is not None and not entry.withdrawn:
            return entry
        if Entry.objects.filter(tournament=t, withdrawn=False).count() >= t.max_entries:
            raise TournamentError(_("The tournament is full."))
        if entry is None:
            entry = Entry.objects.create(tournament=t, user=user)
        else:
            entry.withdrawn = False
            entry.save(update_fields=["withdrawn"])
        _bump(t)
    return entry


def withdraw(tournament_id: int, user) -> None:
    with transaction.atomic():
        t = Tournament.objects.select_for_update().get(pk=tournament_id)
        if t.status != Status.SCHEDULED:
            raise TournamentError(_("The tournament has started: you can no longer withdraw."))
        updated = Entry.objects.filter(tournament=t, user=user, withdrawn=False).update(withdrawn=True)
        if not updated:
            raise TournamentError(_("You are not registered."))
        _bump(t)


# --- the steps Celery runs -------------------------------------------------------------------------
def _lock(tournament_id: int) -> Tournament | None:
    return Tournament.objects.select_for_update().filter(pk=tournament_id).first()


def start(tournament_id: int) -> bool:
    """Start a due tournament (or cancel it when too few entered) and pair round 1.
    Returns whether anything happened."""
    now = timezone.now()
    with transaction.atomic():
        t = _lock(tournament_id)
        if t is None or t.status != Status.SCHEDULED or t.starts_at > now:
            return False
        _start(t, now)
    return True


def _start(t: Tournament, now: datetime) -> None:
    entries = list(t.entries.filter(withdrawn=False).select_related("user"))
    if len(entries) < max(2, t.min_entries):
        t.status = Status.CANCELLED
        t.cancel_reason = TOO_FEW
        t.finished_at = now
        _bump(t)
        log.info("tournament %s cancelled: %s entries", t.pk, len(entries))
        return
    for e in entries:
        e.seed_rating = current_rating(e.user, t.game, t.variant or core.get_rules(t.game).variants[0])
        e.save(update_fields=["seed_rating"])
    t.status = Status.RUNNING
    t.started_at = now
    if t.format == Format.ARENA:
        arena_steps.begin(t, entries, now)
    else:
        _start_round(t, 1, now)


def advance(tournament_id: int) -> bool:
    """Whatever is due in a running tournament: record finished tables, close the round when its
    last table has ended, start the next round when the break is over, or finish."""
    now = timezone.now()
    with transaction.atomic():
        t = _lock(tournament_id)
        if t is None or t.status != Status.RUNNING or t.current_round == 0:
            return False
        if t.format == Format.ARENA:
            return arena_steps.advance(t, now)
        rnd = Round.objects.get(tournament=t, number=t.current_round)
        games = list(rnd.games.select_related("table"))
        _fill_missing_results(t, games)
        if rnd.status == Round.Status.PLAYING:
            if any(g.result is None for g in games):
                return False
            rnd.status = Round.Status.FINISHED
            rnd.finished_at = now
            rnd.save(update_fields=["status", "finished_at"])
            if t.format == Format.DUPLICATE:
                duplicate_steps.reveal(rnd)
            if _is_last_round(t, rnd.number):
                if t.paused_at is None:
                    _finish(t, now)
                else:                    # held: the staff may still add a round before resuming
                    _bump(t)
                return True
            t.next_round_at = now + timedelta(seconds=t.break_seconds)
            _bump(t)
            _enqueue_advance_at(t.pk, t.next_round_at)
            return True
        if t.paused_at is not None:       # paused: no round starts, running matches go on
            return False
        if _is_last_round(t, rnd.number):  # the last round ended while paused
            _finish(t, now)
            return True
        if t.next_round_at is None or t.next_round_at <= now:
            _start_round(t, rnd.number + 1, now)
            return True
        return False


def due_to_start(now: datetime | None = None) -> list[int]:
    now = now or timezone.now()
    return list(Tournament.objects.filter(status=Status.SCHEDULED, starts_at__lte=now)
                .values_list("pk", flat=True)[:100])


def running() -> list[int]:
    return list(Tournament.objects.filter(status=Status.RUNNING).values_list("pk", flat=True)[:500])


# --- rounds ----------------------------------------------------------------------------------------
def _active_entries(t: Tournament) -> list[Entry]:
    return list(t.entries.filter(withdrawn=False).select_related("user"))


def seed_order(entries: list[Entry]) -> list[Entry]:
    return sorted(entries, key=lambda e: (-(e.seed_rating or DEFAULT_RATING), e.pk))


def total_rounds(t: Tournament, n: int) -> int:
    if t.format == Format.ROUND_ROBIN:
        return n - 1 if n % 2 == 0 else n
    if t.format == Format.ELIMINATION:
        return pairing.elimination_rounds(n)
    if t.format == Format.ARENA:
        return 1
    return t.rounds


def _is_last_round(t: Tournament, number: int) -> bool:
    n = t.entries.filter(withdrawn=False).count()
    return number >= total_rounds(t, n)


def _start_round(t: Tournament, number: int, now: datetime) -> Round:
    """Pair round ``number`` and create its tables, all in the caller's transaction."""
    if t.format == Format.DUPLICATE:
        return duplicate_steps.start_round(t, number, now)
    entries = _active_entries(t)
    plan = _plan(t, number, entries)
    rnd = Round.objects.create(tournament=t, number=number, started_at=now)
    users = {e.pk: e.user for e in entries}
    for board, (players, bye) in enumerate(plan, start=1):
        if bye:
            Game.objects.create(round=rnd, board=board, players=players, bye=True,
                                result={"points": [1.0], "game_points": [0.0], "ranks": [1], "timed_out": []})
            continue
        _create_game(t, rnd, board, players, users)
    t.current_round = number
    t.next_round_at = None
    _bump(t)
    return rnd


def _create_game(t: Tournament, rnd: Round, board: int, players: list, users: dict, *,
                 private: bool = False, duplicate: dict | None = None) -> Game:
    """A started table with the entrants (None: a bot of the tournament's level) in their seats;
    ``duplicate``: the round's deal source (tournaments/duplicate_steps.py)."""
    has_bot = any(p is None for p in players)
    owner = t.created_by or bot_user(_bot_level(t))
    table = game_services.create_table(
        owner, t.game, t.variant or None, rated=t.rated and not has_bot,
        bank_seconds=t.bank_seconds, increment_seconds=t.increment_seconds, private=private,
        seats=[users[p] if p is not None else _bot_level(t) for p in players], start=True,
        duplicate=duplicate, tournament=True)
    return Game.objects.create(round=rnd, board=board, table=table, players=players)


def _bot_level(t: Tournament) -> str:
    return t.bot_level if t.bot_level in BOT_LEVELS else "basic"


def _plan(t: Tournament, number: int, entries: list[Entry]) -> list[tuple[list, bool]]:
    """The round's tables as (entry ids per seat, None for a bot seat; is it a bye)."""
    seeds = [e.pk for e in seed_order(entries)]
    if t.format == Format.ROUND_ROBIN:
        pairs = pairing.round_robin_rounds(seeds)[number - 1]
        return [([a], True) if b is None else ([a, b], False) for a, b in pairs]
    if t.format == Format.ELIMINATION:
        if number == 1:
            slots = pairing.elimination_slots(seeds)
        else:
            slots = elimination_winners(t, number - 1, seeds)
        out = []
        for a, b in pairing.elimination_pairs(slots):
            if a is None and b is None:
                continue
            out.append(([a if a is not None else b], True) if a is None or b is None else ([a, b], False))
        return out
    return swiss_plan(t, standings.pairing_players(standings_rows(t, entries)))


def swiss_plan(t: Tournament, players: list[pairing.Player]) -> list[tuple[list, bool]]:
    """The Swiss round of ``players`` (in standings order): pairs and a bye, or tables of the
    game's size with partnerships seated by the pairing module."""
    if seats_of(t) == 2:
        result = pairing.swiss_pairs(players)
        out = [([a, b], False) for a, b in result.pairs]
        if result.bye is not None:
            out.append(([result.bye], True))
        return out
    by_id = {p.id: p for p in players}
    rules = core.get_rules(t.game)
    teams = rules.teams(t.variant or None)
    partnerships = len(teams) < rules.seats           # some team has several seats
    out = []
    for table in pairing.swiss_tables(players, seats_of(t)):
        if partnerships:
            table = pairing.partnership_seating([by_id.get(p) for p in table], teams)
        out.append((list(table), False))
    return out


def elimination_winners(t: Tournament, number: int, seeds: list[int]) -> list[int]:
    """Who goes through from round ``number``, in board order (a draw: the better seed)."""
    rank = {pk: i for i, pk in enumerate(seeds)}
    out = []
    for g in Game.objects.filter(round__tournament=t, round__number=number).order_by("board"):
        out.append(_game_winner(g, rank))
    return out


def _game_winner(g: Game, seed_rank: dict) -> int:
    pts = g.result["points"]
    best = max(pts)
    tied = [p for p, x in zip(g.players, pts) if x == best and p is not None]
    return min(tied, key=lambda p: seed_rank.get(p, 10**9))


# --- results ----------------------------------------------------------------------------------------
def seat_teams(game: str, variant: str | None, seats: int) -> list[int] | None:
    """Each seat's team for the standings (None: everyone plays alone)."""
    rules = core.get_rules(game)
    if len(rules.teams(variant)) == seats:
        return None
    return [rules.team_of(s, variant) for s in range(seats)]


def result_of_match(game: str, variant: str | None, players: list, match: Match) -> dict:
    rules = core.get_rules(game)
    n = len(players)
    ranks = list(match.ranks or [1] * n)
    scores = (match.state or {}).get("scores") or [0] * len(rules.teams(variant))
    return {"points": standings.table_points(ranks, seat_teams(game, variant, n)),
            "game_points": rules.margins(variant, scores),
            "ranks": ranks, "timed_out": list(match.timed_out or [])}


def record_result(sender, match: Match, table: Table, **kwargs) -> None:
    """``games.signals.match_finished`` receiver: runs inside the transaction that finishes the
    match, so the result is stored exactly when the match is, or not at all."""
    g = Game.objects.select_related("round__tournament").filter(table_id=table.pk).first()
    if g is None:
        return
    if g.result is None:
        g.result = result_of_match(table.game, table.variant, g.players, match)
        g.save(update_fields=["result"])
        if g.round.tournament.format == Format.ARENA:
            arena_steps.after_result(g)
    tid = g.round.tournament_id
    arena = g.round.tournament.format == Format.ARENA
    transaction.on_commit(lambda: _after_table(tid, arena))


def _after_table(tid: int, arena: bool) -> None:
    """After a tournament table's match has committed. A round closes here, at once, when this was
    its last table (a duplicate round's seed is revealed with it): a queued step waits behind a busy
    worker's table work, or for the next tick, and the page meanwhile showed the round as playing.
    The arena pairs its free players in the task (tables are created there)."""
    if not arena:
        try:
            if not advance(tid):          # done, its broadcast tells the page; else other tables play
                broadcast(tid)
            return
        except DatabaseError:             # the queued step below does it instead
            log.warning("tournament %s: could not close the round after a table ended", tid, exc_info=True)
    broadcast(tid)
    scheduling.enqueue_advance(tid)


def _fill_missing_results(t: Tournament, games: list[Game]) -> None:
    """Belt and braces: a finished match whose result the receiver did not store."""
    for g in games:
        if g.result is None and g.table_id is not None:
            m = Match.objects.filter(table_id=g.table_id, finished=True).first()
            if m is not None:
                g.result = result_of_match(t.game, t.variant or None, g.players, m)
                g.save(update_fields=["result"])
                if t.format == Format.ARENA:
                    arena_steps.after_result(g)


def _finish(t: Tournament, now: datetime) -> None:
    entries = _active_entries(t)
    if t.format == Format.ELIMINATION:
        ranks = elimination_ranks(t, entries)
    elif t.format == Format.ARENA:
        ranks = {r.id: r.rank for r in arena_steps.standings(t, entries)}
    elif t.format == Format.DUPLICATE:
        ranks = {r.id: r.rank for r in duplicate_steps.standings(t, entries)}
    else:
        ranks = {r.id: r.rank for r in standings_rows(t, entries)}
    for e in entries:
        e.final_rank = ranks.get(e.pk)
        e.save(update_fields=["final_rank"])
    t.status = Status.FINISHED
    t.finished_at = now
    t.next_round_at = None
    _bump(t)


def elimination_ranks(t: Tournament, entries: list[Entry]) -> dict[int, int]:
    """1 the winner, 2 the finalist, then by the round of exit, sharing: 3, 3, 5, 5, 5, 5, ..."""
    seeds = [e.pk for e in seed_order(entries)]
    rank = {pk: i for i, pk in enumerate(seeds)}
    out_in: dict[int, int] = {}
    last = 0
    for g in Game.objects.filter(round__tournament=t).select_related("round").order_by("round__number", "board"):
        last = max(last, g.round.number)
        if g.result is None:
            continue
        winner = _game_winner(g, rank)
        for p in g.players:
            if p is not None and p != winner:
                out_in[p] = g.round.number
    reached = {pk: out_in.get(pk, last + 1) for pk in seeds}
    return {pk: 1 + sum(1 for o in seeds if reached[o] > reached[pk]) for pk in seeds}


# --- standings -------------------------------------------------------------------------------------
def game_results(t: Tournament) -> list[standings.GameResult]:
    out = []
    for g in Game.objects.filter(round__tournament=t).select_related("round").order_by("round__number", "board"):
        if g.result is None:
            continue
        out.append(standings.GameResult(
            round=g.round.number, players=list(g.players), points=g.result["points"],
            game_points=g.result["game_points"], bye=g.bye,
            teams=None if g.bye else seat_teams(t.game, t.variant or None, len(g.players))))
    return out


def standings_rows(t: Tournament, entries: list[Entry] | None = None) -> list[standings.Row]:
    entries = _active_entries(t) if entries is None else entries
    ents = [standings.Entrant(id=e.pk, rating=e.seed_rating or DEFAULT_RATING, order=e.pk) for e in entries]
    return standings.compute(ents, game_results(t))


# --- live page ----------------------------------------------------------------------------------------
def _bump(t: Tournament) -> None:
    t.version += 1
    t.save()
    tid = t.pk
    transaction.on_commit(lambda: broadcast(tid))


def _enqueue_advance_at(tid: int, when: datetime) -> None:
    transaction.on_commit(lambda: scheduling.enqueue_advance(tid, eta=when))


def cancel_reason_text(t: Tournament) -> str:
    if not t.cancel_reason:
        return ""
    try:
        return _(t.cancel_reason) % {"min": t.min_entries}
    except (KeyError, ValueError, TypeError):
        return t.cancel_reason


def state(t: Tournament) -> dict:
    """Everything the tournament page shows, as plain data (the socket sends it; the page's
    template renders the same)."""
    entries = list(t.entries.select_related("user").order_by("pk"))
    active = [e for e in entries if not e.withdrawn]
    names = {e.pk: e.user.username for e in entries}
    n = len(active)
    started = t.status in (Status.RUNNING, Status.FINISHED)
    is_arena = t.format == Format.ARENA
    is_duplicate = t.format == Format.DUPLICATE
    rows = standings_rows(t, active) if started and not (is_arena or is_duplicate) else []
    final = {e.pk: e.final_rank for e in active}
    table_ids = [g.table_id for g in Game.objects.filter(round__tournament=t) if g.table_id]
    table_status = dict(Table.objects.filter(pk__in=table_ids).values_list("pk", "status"))
    playing = playing_entries(t)
    ratings = {e.pk: e.seed_rating for e in active}
    rounds = []
    for rnd in t.round_set.prefetch_related("games"):
        games = list(rnd.games.all())
        if is_arena:     # the latest matches first; the leaderboard holds the rest
            games = sorted(games, key=lambda g: -g.board)[:ARENA_GAMES_SHOWN]
        rounds.append({
            "number": rnd.number, "status": rnd.status,
            "games": [{
                "board": g.board, "table": g.table_id, "bye": g.bye,
                "players": player_labels([names.get(p) if p is not None else f"bot:{t.bot_level}"
                                          for p in g.players]),
                "points": (g.result or {}).get("points"),
                "status": "finished" if g.result is not None else table_status.get(g.table_id, "playing"),
            } for g in games],
        })
    return {
        "id": t.pk, "version": t.version, "name": t.name, "game": t.game, "variant": t.variant,
        "format": t.format, "status": t.status, "cancel_reason": cancel_reason_text(t),
        "starts_at": t.starts_at.isoformat(), "current_round": t.current_round,
        "rounds_total": total_rounds(t, n) if n else t.rounds,
        "next_round_at": t.next_round_at.isoformat() if t.next_round_at else None,
        "paused": t.paused_at is not None,
        "ends_at": t.ends_at.isoformat() if t.ends_at else None,
        "leaderboard": arena_leaderboard(t, active, names, final, playing) if started and is_arena else [],
        "duplicate": (duplicate_steps.page_state(t, names, active, started, rounds, playing)
                      if is_duplicate else None),
        "entries": [{"id": e.pk, "name": e.user.username, "rating": e.seed_rating if started else
                     current_rating(e.user, t.game, t.variant or core.get_rules(t.game).variants[0])}
                    for e in active],
        "rounds": rounds,
        "standings": [{"rank": final.get(r.id) or r.rank, "entry": r.id, "name": names.get(r.id),
                       "rating": ratings.get(r.id), "playing": r.id in playing,
                       "match_points": r.match_points, "buchholz": r.buchholz,
                       "game_points": r.game_points, "games": r.games, "byes": r.byes}
                      for r in sorted(rows, key=lambda r: (final.get(r.id) or r.rank, r.rank))],
    }


def playing_entries(t: Tournament) -> set[int]:
    """The entries whose match is being played now (the page marks them in its ranking)."""
    if t.status != Status.RUNNING:
        return set()
    return {p for g in Game.objects.filter(round__tournament=t, result__isnull=True, bye=False)
            for p in g.players if p is not None}


ARENA_GAMES_SHOWN = 40


def arena_leaderboard(t: Tournament, active: list[Entry], names: dict, final: dict, playing: set[int]) -> list[dict]:
    paused = {e.pk for e in active if e.paused}
    ratings = {e.pk: e.seed_rating for e in active}
    return [{"rank": final.get(r.id) or r.rank, "entry": r.id, "name": names.get(r.id), "points": r.points,
             "rating": ratings.get(r.id),
             "sheet": r.sheet, "on_fire": r.on_fire, "games": r.games, "wins": r.wins,
             "playing": r.id in playing, "paused": r.id in paused}
            for r in arena_steps.standings(t, active)]


def broadcast(tid: int) -> None:
    """Tell the tournament's page sockets that something changed: called after a commit, it sends
    the page's state through the one sending path (games/broadcast.py), which reaches the layer
    from whichever thread committed (in embedded mode, often the worker's)."""
    send_on_commit(lambda: page_messages(tid))


def page_messages(tid: int) -> list:
    t = Tournament.objects.filter(pk=tid).first()
    if t is None:
        return []
    return [(group_name(tid), {"type": "tournament.send", "state": state(t)})]


def visible() -> dict[str, list[Tournament]]:
    """The list page: upcoming, running and recently finished or cancelled tournaments."""
    qs = Tournament.objects.all()
    return {
        "upcoming": list(qs.filter(status=Status.SCHEDULED).order_by("starts_at")[:50]),
        "running": list(qs.filter(status=Status.RUNNING).order_by("starts_at")[:50]),
        "finished": list(qs.filter(Q(status=Status.FINISHED) | Q(status=Status.CANCELLED))
                         .order_by("-starts_at")[:30]),
    }
