"""The arena's steps: what tournaments/services.py does for an arena inside the tournament's lock.

An arena has one round (number 1, the time window); its games are numbered by board in the order
they were paired. A step records finished matches, pairs every free player at once
(tournaments/arena.py) and, once the window has closed and the last running match has ended,
publishes the final ranking. Like every tournament step it does only what is due, so a task
delivered twice pairs nobody twice: a player at a running arena table is not free, and boards are
unique per round.

Who is *free*: registered, not paused, and not at a running arena table. Presence is "not
paused": a player pauses himself with the page's button, and a player who loses a match on time
or by leaving it is paused by the step that records it, so an absent player costs his opponents
one forfeit at most; he comes back with the same button.
"""
from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone

from games.engine import core

from . import arena, pairing
from .models import Entry, Game, Round, Tournament

ARENA_ROUND = 1


def begin(t: Tournament, entries: list[Entry], now: datetime) -> None:
    """Open the window and pair everyone (in the caller's transaction, the row locked)."""
    from . import services

    t.ends_at = now + timedelta(minutes=t.arena_minutes)
    Entry.objects.filter(pk__in=[e.pk for e in entries]).update(free_since=now, paused=False)
    rnd = Round.objects.create(tournament=t, number=ARENA_ROUND, started_at=now)
    t.current_round = ARENA_ROUND
    t.next_round_at = None
    _pair(t, rnd, [], now)
    services._bump(t)
    services._enqueue_advance_at(t.pk, t.ends_at)


def advance(t: Tournament, now: datetime) -> bool:
    """Whatever is due: pair the free players, or after the window the final ranking."""
    from . import services

    rnd = Round.objects.filter(tournament=t, number=ARENA_ROUND).first()
    if rnd is None:
        return False
    games = list(rnd.games.all())
    services._fill_missing_results(t, games)
    if t.paused_at is not None:             # matches go on; nothing new, the window waits too
        return False
    if now >= t.ends_at:
        if any(g.result is None for g in games):
            return False                    # running matches finish and count
        rnd.status = Round.Status.FINISHED
        rnd.finished_at = now
        rnd.save(update_fields=["status", "finished_at"])
        services._finish(t, now)
        return True
    created, fill_in = _pair(t, rnd, games, now)
    # When the waiting get bots: one task for that moment, not one per step that finds them waiting.
    fill_at = None if fill_in is None else now + timedelta(seconds=fill_in)
    if fill_at != t.next_round_at:
        t.next_round_at = fill_at
        if fill_at is not None:
            services._enqueue_advance_at(t.pk, fill_at)
        if not created:
            t.save(update_fields=["next_round_at"])
    if created:
        services._bump(t)
    return bool(created)


def after_result(g: Game, now: datetime | None = None) -> None:
    """A match of the arena has its result (in the transaction that stored it): its players are
    free from now, and whoever lost it on time or by leaving is paused."""
    now = now or timezone.now()
    timed_out = set(g.result.get("timed_out") or [])
    away = [p for s, p in enumerate(g.players) if p is not None and s in timed_out]
    here = [p for s, p in enumerate(g.players) if p is not None and s not in timed_out]
    Entry.objects.filter(pk__in=here).update(free_since=now)
    Entry.objects.filter(pk__in=away).update(free_since=now, paused=True)


def results(games) -> list[arena.ArenaResult]:
    return [arena.ArenaResult(players=list(g.players), shares=list(g.result["points"]))
            for g in sorted(games, key=lambda g: g.board) if g.result is not None]


def standings(t: Tournament, entries: list[Entry]) -> list[arena.Row]:
    from .services import DEFAULT_RATING

    games = Game.objects.filter(round__tournament=t).only("board", "players", "result")
    ents = [arena.Entrant(id=e.pk, rating=e.seed_rating or DEFAULT_RATING, order=e.pk) for e in entries]
    return arena.standings(ents, results(games))


def _pair(t: Tournament, rnd: Round, games: list[Game], now: datetime) -> tuple[int, float | None]:
    """Seat the free players; returns (tables made, seconds until the waiting get bots)."""
    from . import services

    busy = {p for g in games if g.result is None for p in g.players if p is not None}
    entries = [e for e in services._active_entries(t) if not e.paused and e.pk not in busy]
    if not entries:
        return 0, None
    rows = {r.id: r for r in arena.standings(
        [arena.Entrant(id=e.pk) for e in entries], results(games))}
    free = [arena.Free(id=e.pk, points=rows[e.pk].points, rating=e.seed_rating or services.DEFAULT_RATING,
                       last_opponents=rows[e.pk].last_opponents, games=rows[e.pk].games,
                       waited=(now - (e.free_since or t.started_at or now)).total_seconds())
            for e in entries]
    seats = services.seats_of(t)
    wait = settings.TOURNAMENT_ARENA_WAIT_SECONDS
    plan = arena.pair_two(free, repeat_after=wait) if seats == 2 else arena.seat_four(free, wait, seats)
    users = {e.pk: e.user for e in entries}
    board = max((g.board for g in games), default=0)
    for table in plan.tables:
        board += 1
        services._create_game(t, rnd, board, _seating(t, table, free), users)
    return len(plan.tables), plan.fill_in


def _seating(t: Tournament, table: list, free: list[arena.Free]) -> list:
    """Partnership games: partners chosen inside the table as the Swiss does (1st+4th against
    2nd+3rd by points); otherwise in points order, bots last."""
    rules = core.get_rules(t.game)
    teams = rules.teams(t.variant or None)
    if len(teams) >= rules.seats:
        return list(table)
    by_id = {f.id: pairing.Player(id=f.id, score=f.points, rating=f.rating) for f in free}
    return pairing.partnership_seating([by_id.get(p) for p in table], teams)
