"""The only writer of live games.

Every write follows one pattern (docs/ARCHITECTURE.md): ``loading.locked`` opens a transaction with the
table row's lock and loads the table; the writer checks, applies through the engine, stores the deal
record and bumps ``Table.version``; then, only on commit, each listening seat group gets its own view
and the spectators the public one (games/messages.py builds them, realtime/broadcast.py sends them),
and the table's next due work (a bot move, a clock deadline, the next deal) is scheduled as one
Celery task tied to the new version (games/scheduling.py).

Where things are: the rules in games/engine/, loading and locking in games/loading.py, what clients
receive in games/messages.py, players' clocks in games/clocks.py.
"""
from __future__ import annotations

import copy
import logging
import threading
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _, ngettext

from accounts.models import BOT_LEVELS, bot_user
from games import (bots, chat_text, clocks, fair_deals, first_moves, hints, limits, loading, messages,
                   prepared, reasons, scheduling, thinking)
from realtime import broadcast
from games.engine import core
from games.engine.core import IllegalAction, Match as EngineMatch

from . import signals
from realtime.errors import ServiceError
from .loading import Live, locked, seat_of, select_table
from .models import ChatMessage, Deal, Match, Seat, Table

log = logging.getLogger(__name__)
Status = Table.Status

__all__ = ["ServiceError", "create_table", "sit", "leave", "start", "act", "advance", "chat",
           "seat_presence_changed", "claim_win", "final_ranks", "rematch", "rematch_left", "seed", "take_hint"]


# --- after a change: versions, messages, the next task -------------------------------------------------
def _bump(live: Live, now: datetime) -> None:
    t = live.table
    t.version += 1
    t.due_at = clocks.due_at(live, now)
    live.writes.append((t, ("version", "due_at", "status", "next_deal_at", "updated_at")))


def _broadcast(live: Live, events: list[dict], now: datetime, *, resync: bool = False,
               lobby: bool = False) -> None:
    """Queue, for after the commit, the change's messages to the table's sockets (and the lobby's
    when a table opens, fills, starts or ends), and the table's next due work."""
    broadcast.send_on_commit(lambda: messages.commit_messages(live, events, now, resync=resync))
    if lobby:
        game = live.table.game
        broadcast.send_on_commit(lambda: [messages.lobby_message(game)])
    _schedule(live)


def _schedule(live: Live) -> None:
    """Enqueue the table's next due work after the commit, if it is due soon. A deadline further
    off (a player's clock) is left to the sweeper, which runs every second: otherwise every move
    would leave a long-delayed task behind in the broker, and most of them would find the version
    moved on."""
    t = live.table
    if t.due_at is None or t.due_at > timezone.now() + timedelta(seconds=settings.GAMES_TASK_HORIZON_SECONDS):
        return
    table_id, version, due = t.pk, t.version, t.due_at
    if _bot_to_search(live) is not None:
        # A searching bot thinks during its human-like pause (``advance``): its task starts now.
        due = min(due, timezone.now())
    transaction.on_commit(lambda: scheduling.schedule_advance(table_id, version, due))


# --- table life --------------------------------------------------------------------------------------
def _only_bots_besides_owner(spec: list) -> bool:
    """Every seat but the owner's is a bot (a level or a bot user): nobody waits on his clock, so
    such an unrated table may be untimed (games/time_controls.py)."""
    return all(s == "me" or (isinstance(s, str) and s in BOT_LEVELS)
               or (not isinstance(s, str) and getattr(s, "is_bot", False)) for s in spec)


def create_table(owner, game: str, variant: str | None = None, *, rated: bool = False,
                 bank_seconds: int = 300, increment_seconds: int = 5, private: bool = False,
                 seats: list[str] | None = None, start: bool | None = None,
                 bots_allowed: bool = False, duplicate: dict | None = None, counted: bool = False,
                 tournament: bool = False) -> Table:
    """A new table. ``seats``: one entry per seat, ``"me"`` (the owner), ``""`` (open), a bot
    level, or a user (a player seated by the system, e.g. a tournament pairing). By default the
    owner takes seat 0 and the rest are open. ``start``: by default the match starts at once when
    no seat is left open (nobody else can come, so there is nothing to wait for); False keeps a
    full table waiting for its owner's ``start``. ``bots_allowed``: bot accounts (the bot API)
    may take its open seats. ``duplicate``: a duplicate tournament's deal source
    (``fair_deals.duplicate_source``): its match plays those boards from the round's seed.
    ``counted``: a table a person asked for (the lobby, "Play now", an accepted challenge), counted
    against its owner's TABLE_CREATE_RATE (games/limits.py) once it is known to be valid; over the
    limit it is refused (``too_many_tables``) and nothing is made. ``tournament``: a tournament's
    table (no hints there, games/hints.py)."""
    try:
        rules = core.get_rules(game)
        variant = rules.check_variant(variant)
    except ValueError as exc:
        raise ServiceError("bad_request", str(exc)) from None
    if owner is None or not owner.is_authenticated:
        raise ServiceError("forbidden", _("Log in or play as a guest to create a table."))
    if rated and owner.is_guest:
        raise ServiceError("forbidden", _("Guests play on unrated tables only."))
    spec = list(seats) if seats is not None else ["me"] + [""] * (rules.seats - 1)
    untimed = bank_seconds == 0 and increment_seconds == 0 and not rated and _only_bots_besides_owner(spec)
    if not (untimed or (10 <= bank_seconds <= 3600 and 0 <= increment_seconds <= 120)):
        raise ServiceError("bad_request", _("That time control is not offered."))
    if len(spec) != rules.seats or spec.count("me") > 1 or any(
            isinstance(s, str) and s not in ("me", "") and s not in BOT_LEVELS for s in spec):
        raise ServiceError("bad_request", _("Each seat must be you, open, or a bot level."))
    if rated and any(not isinstance(s, str) and s.is_guest for s in spec):
        raise ServiceError("forbidden", _("Guests play on unrated tables only."))
    if rated and any(_is_house_bot(s) for s in spec):
        # House bots are never rated (ratings/house_bots.py): a win against one is worth nothing.
        raise ServiceError("rated_house_bot", _("Tables with house bots are never rated: untick "
                                                "\"Rated\" or leave the seats open for people."),
                           category="forbidden")
    if "me" in spec:            # the owner seats himself: as if he sat down (players the system seats are its choice)
        _check_may_sit(owner, rated=rated, bots_allowed=bots_allowed)
    if counted:
        limits.take_table(owner)
    now = timezone.now()
    with transaction.atomic():
        table = Table.objects.create(game=game, variant=variant, rated=rated, bank_seconds=bank_seconds,
                                     increment_seconds=increment_seconds, private=private, owner=owner,
                                     bots_allowed=bots_allowed, duplicate=duplicate,
                                     tournament_table=tournament)
        for i, who in enumerate(spec):
            if not isinstance(who, str):
                user = who
            else:
                user = owner if who == "me" else (bot_user(who) if who else None)
            Seat.objects.create(table=table, index=i, user=user, bank_ms=bank_seconds * 1000)
        if start is None:
            start = "" not in spec
        with locked(table.pk) as live:
            if start:
                _start_match(live, now)
            else:
                _bump(live, now)
                _broadcast(live, [{"kind": "created"}], now, resync=True, lobby=True)
    return table


def sit(table_id: int, user, seat: int) -> None:
    if user is None or not user.is_authenticated:
        raise ServiceError("forbidden", _("Log in or play as a guest to take a seat."))
    now = timezone.now()
    with locked(table_id) as live:
        t = live.table
        if t.status != Status.WAITING:
            raise ServiceError("bad_request", _("The match has already started."), t.version)
        _check_may_sit(user, rated=t.rated, bots_allowed=t.bots_allowed, version=t.version)
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(live.seats):
            raise ServiceError("bad_request", _("There is no such seat."), t.version)
        if any(s.user_id == user.id for s in live.seats):
            raise ServiceError("bad_request", _("You already sit at this table."), t.version)
        target = live.seats[seat]
        if target.user_id is not None:
            raise ServiceError("bad_request", _("That seat is taken."), t.version)
        target.user = user
        target.save(update_fields=["user"])
        event = {"kind": "seat", "seat": seat, "name": user.display_name}
        if all(s.user_id is not None for s in live.seats):
            # The last open seat: the match starts in the same change (as on Kurnik/PlayOK), so
            # nobody waits for an owner who may be gone.
            _start_match(live, now, [event], resync=True)
            return
        _bump(live, now)
        _broadcast(live, [event], now, resync=True, lobby=True)


def _is_house_bot(who) -> bool:
    """A seat's entry of ``create_table`` that is a house bot: a level's name or a bot user."""
    return who in BOT_LEVELS if isinstance(who, str) else bool(who.is_bot)


def _check_may_sit(user, *, rated: bool, bots_allowed: bool, version: int | None = None) -> None:
    """Whether ``user`` may take a seat of a table so made: sitting down (``sit``) and seating
    oneself at one's new table (``create_table``) ask the same."""
    if rated and (user.is_guest or user.is_bot):
        raise ServiceError("forbidden", _("Guests play on unrated tables only."), version)
    if user.is_bot_account and not bots_allowed:
        raise ServiceError("bots_not_allowed", _("This table does not allow bot accounts: its owner "
                                                 "did not tick \"Bots may join\"."), version,
                           category="forbidden")


def leave(table_id: int, user) -> None:
    now = timezone.now()
    with locked(table_id) as live:
        t = live.table
        mine = [s for s in live.seats if user.is_authenticated and s.user_id == user.id]
        if not mine:
            raise ServiceError("spectator", _("You do not sit at this table."), t.version)
        if t.status != Status.WAITING:
            raise ServiceError("bad_request", _("You cannot leave a match in progress."), t.version)
        for s in mine:
            s.user = None
            s.save(update_fields=["user"])
        _bump(live, now)
        _broadcast(live, [{"kind": "seat", "seat": mine[0].index, "name": None}], now,
                   resync=True, lobby=True)


def start(table_id: int, user) -> None:
    now = timezone.now()
    with locked(table_id) as live:
        t = live.table
        if t.owner_id != getattr(user, "id", None):
            raise ServiceError("forbidden", _("Only the table's owner can start the match."), t.version)
        if t.status != Status.WAITING:
            raise ServiceError("bad_request", _("The match has already started."), t.version)
        if any(s.user_id is None for s in live.seats):
            raise ServiceError("bad_request", _("Every seat must be taken first."), t.version)
        _start_match(live, now)


def _start_match(live: Live, now: datetime, events: tuple | list = (), *, resync: bool = False) -> None:
    """Start the match; ``events``: what else the same change did (the seat taken last), sent
    with it in one update. ``resync``: seats changed hands in this change."""
    t = live.table
    players = [s.player_name for s in live.seats]
    engine = EngineMatch.start(t.game, t.variant, players,
                               dealers=t.duplicate["dealers"] if t.duplicate else None)
    live.match = Match.objects.create(table=t, state=engine.to_dict())
    live.engine = engine
    clocks.reset(live)
    # The first deal's commitment goes out with the match's start; the deal is drawn at once
    # unless a player's client seed is awaited (games/fair_deals.py), then by the due work.
    fair_deals.commit_next(live, now, first=True)
    if fair_deals.ready(live, now) and not fair_deals.held(live, now):
        _new_deal(live, now)
    else:
        t.status = Status.BETWEEN_DEALS
    _bump(live, now)
    _broadcast(live, [*events, {"kind": "match_start"}], now, resync=resync, lobby=True)


def _new_deal(live: Live, now: datetime) -> None:
    seeds = fair_deals.take(live)           # the committed seeds: the deck is derived from them
    state = live.engine.new_deal(seeds=seeds)
    live.deal = Deal.objects.create(match=live.match, number=live.engine.deal_number,
                                    record=state.record(), server_seed=seeds.server_seed.hex())
    live.state = state
    live.table.status = Status.PLAYING
    live.table.next_deal_at = None
    clocks.run(live, now)


# --- acting ------------------------------------------------------------------------------------------
def act(table_id: int, user, version, action) -> None:
    """A player's action. Refusals raise ServiceError and change nothing."""
    if not isinstance(action, dict):
        raise ServiceError("bad_request", _("An action must be an object with a type."))
    now = timezone.now()
    with locked(table_id) as live:
        t = live.table
        mine = [s.index for s in live.seats
                if user is not None and user.is_authenticated and s.user_id == user.id and not s.replaced_by_bot]
        if not mine:
            raise ServiceError("spectator", _("Spectators cannot act."), t.version)
        seat = action.get("seat", mine[0])
        if seat not in mine:
            raise ServiceError("not_your_seat", _("You can act only for your own seat."), t.version)
        action = dict(action, seat=seat)
        if not _current(live, version, action):
            raise ServiceError("stale", _("The table has moved on; here is its current state."), t.version)
        if t.status != Status.PLAYING or live.state is None:
            raise ServiceError("bad_request", _("No deal is in progress."), t.version)
        if seat not in live.state.seats_to_act():
            raise ServiceError("not_your_turn", _("It is not your turn."), t.version)
        try:
            _commit_action(live, seat, action, now)
        except IllegalAction as exc:
            raise _refused(exc, t.version) from None


def take_hint(table_id: int, user) -> dict:
    """A player asks for a hint (games/hints.py): refused, or counted on his seat and answered with
    what the search needs, ``{"version", "view", "options"}`` (his own view only). The hint's
    count is not a versioned change: nobody else is told of it until the result shows it."""
    with locked(table_id) as live:
        t = live.table
        seat = seat_of(live, user)
        refusal = hints.table_refusal(live, seat)
        if refusal is not None:
            raise refusal
        if user.is_bot_account:     # a program plays the seat: the house bot does not play it for him
            raise ServiceError("bot_account", _("A bot account gets no hints."), t.version, category="forbidden")
        if t.status != Status.PLAYING or live.state is None or seat not in live.state.seats_to_act():
            raise ServiceError(hints.NOT_YOUR_TURN, _("A hint is for your own turn."), t.version)
        view = live.state.view(seat)
        options = hints.options_of(view)
        hints.check_choice(view, options, t.version)
        mine = live.seats[seat]
        hints.take_allowance(user, mine, t.version)
        Seat.objects.filter(pk=mine.pk).update(hints_used=F("hints_used") + 1, hint_version=t.version)
        mine.hints_used += 1
        mine.hint_version = t.version
        return {"version": t.version, "view": view, "options": options}


def _current(live: Live, version, action: dict) -> bool:
    """Whether an action acted on what the table shows now. An action that commutes with what
    others did since (a Hearts pass: passes are simultaneous) still counts while it is from this
    deal: each change of a deal in progress is one of its actions, so a version at most that many
    changes old was shown in this deal."""
    if not isinstance(version, int) or isinstance(version, bool):
        return False
    behind = live.table.version - version
    if behind == 0:
        return True
    state = live.state
    return (state is not None and live.table.status == Status.PLAYING
            and 0 < behind <= len(state.log) and state.commutes(action))


def _refused(exc: IllegalAction, version: int) -> ServiceError:
    """The engine's refusal as the socket's error: its code and parameters, and its text in the
    player's language."""
    return ServiceError(exc.code, reasons.translate(exc), version, params=exc.params, category="illegal")


def _commit_action(live: Live, seat: int, action: dict, now: datetime, extra_events=()) -> None:
    state = live.state
    state.apply(action)                       # IllegalAction leaves everything untouched
    stored = state.action_of(*state.log[-1])
    deal = live.deal
    deal.record["actions"].append(stored)
    clocks.stop(live, live.seats[seat], now)
    events = list(extra_events) + [messages.action_event(live.table.game, seat, stored)]
    lobby = False
    if state.is_over():
        result = state.result()
        deal.record["result"] = result
        deal.result = result
        deal.finished = True
        live.engine.finish_deal(state)
        live.match.state = live.engine.to_dict()
        events.append({"kind": "deal_end", "deal_number": deal.number, "result": result,
                       "scores": live.engine.scores})
        if live.engine.is_over():
            events.append(_finish_match(live, now, "score"))
            lobby = True
        else:
            live.table.status = Status.BETWEEN_DEALS
            fair_deals.commit_next(live, now, first=False)     # sets next_deal_at: the pause
        live.match.save()
    live.writes.append((deal, ("record", "result", "finished")))
    clocks.run(live, now)
    _bump(live, now)
    _broadcast(live, events, now, lobby=lobby)
    transaction.on_commit(partial(signals.move_committed.send, sender=Table, game=live.table.game,
                                  by="bot" if live.seats[seat].is_bot else "person"))


def final_ranks(engine_ranks: list[int], timed_out: list[int]) -> list[int]:
    """The engine's ranks, except that seats that ran out of time come last (sharing it)."""
    n = len(engine_ranks)
    ok = [s for s in range(n) if s not in timed_out]
    ranks = [0] * n
    for s in ok:
        ranks[s] = 1 + sum(1 for o in ok if engine_ranks[o] < engine_ranks[s])
    for s in timed_out:
        ranks[s] = len(ok) + 1
    return ranks


def _finish_match(live: Live, now: datetime, ended_by: str) -> dict:
    m = live.match
    if ended_by in ("timeout", "abandoned", "resigned") and first_moves.may_abort(live):
        ended_by = "aborted"        # nobody won a match not every seat played in: unrated
    out = sorted(set(m.timed_out) | set(m.resigned or []))
    if ended_by == "aborted":
        ranks = [1] * len(live.seats)
    elif ended_by in ("score", "resigned"):
        ranks = final_ranks(live.engine.ranks(), out)
    else:  # a forfeit (two players, or one alone among bots): who timed out or left loses
        ranks = [2 if s in m.timed_out else 1 for s in range(len(live.seats))]
    m.ranks = ranks
    m.winners = [] if ended_by == "aborted" else [s for s, r in enumerate(ranks) if r == 1]
    m.finished = True
    m.ended_by = ended_by
    m.finished_at = now
    m.save()
    live.table.status = Status.FINISHED
    live.table.next_deal_at = None
    fair_deals.clear(live)          # a commitment no deal will use
    signals.match_finished.send(sender=Match, match=m, table=live.table)
    return {"kind": "match_end", "winners": m.winners, "ranks": ranks, "ended_by": ended_by,
            "scores": live.engine.scores}


# --- what tasks do: bots, clocks, the next deal -----------------------------------------------------------
def advance(table_id: int, version: int | None = None) -> datetime | None:
    """Do whatever is due at a table without a player: one bot move, a clock expiry or the next
    deal. Idempotent: nothing happens when ``version`` is given and the table has moved on, or
    when nothing is due yet. Returns the table's next due time when it is in the future.

    A searching bot thinks with no lock held (``_think``), on the table as read at version v,
    during its pause (BOT_DELAY_MS: its task starts at the change before it); a move chosen before
    it is due waits in the cache for its time (the task looks again then). It is applied under
    the lock only if the table is still at v. If it moved on meanwhile (a
    player's hearts pass, a clock), the choice is dropped and the bot thinks again from the new
    state: for a task, in the task that the change which moved the table scheduled at its new
    version; for the sweeper (no ``version``), here and now, at most ``RETHINKS`` times, then
    under the lock."""
    try:
        for _attempt in range(RETHINKS + 1):
            thought = _think(table_id, version)
            if thought is _THINKING:
                return None     # the pool has it; when it is chosen, the table's task is scheduled
            if thought is not None and thought.due_at > timezone.now():
                cache.set(_thought_key(table_id, thought.version), thought, THOUGHT_SECONDS)
                return thought.due_at
            try:
                with locked(table_id) as live:
                    return _advance(live, version, timezone.now(), thought)
            except _MovedOn:
                if version is not None:
                    return None         # the change that moved the table scheduled its own task
        with locked(table_id) as live:
            return _advance(live, version, timezone.now())
    except ServiceError:        # the table is gone
        return None


RETHINKS = 2
THOUGHT_SECONDS = 120       # how long a move chosen ahead of its time is kept for it


@dataclass(frozen=True)
class BotTurn:
    """A searching bot to act at ``version``: its seat, level, view and when its move is due."""
    version: int
    seat: int
    level: str
    view: dict
    due_at: datetime


@dataclass(frozen=True)
class Thought:
    """The action a bot chose, outside the lock, at ``version``; it is due at ``due_at``."""
    version: int
    seat: int
    action: dict
    due_at: datetime


def _thought_key(table_id: int, version: int) -> str:
    return f"games:thought:{table_id}:{version}"


class _MovedOn(Exception):
    """The table changed while its bot thought: the thought is stale."""


def _think(table_id: int, version: int | None) -> Thought | None:
    """The due searching bot's move, chosen on the table as committed with no lock held (a strong
    bot thinks for hundreds of milliseconds; under SQLite the table's lock is the database's write
    lock). None when no such bot is due at ``version``: the rest is done under the lock."""
    seats = loading.kept_seats(table_id)
    if seats is not None and not any(_searches(s) for s in seats):
        return None         # no searching bot at the table: not worth a read of its own
    turn = loading.peek(table_id, lambda live: _bot_turn(live, version, timezone.now()))
    if turn is None:
        return None
    key = _thought_key(table_id, turn.version)
    ready = cache.get(key)
    if ready is not None and ready.seat == turn.seat:
        return ready
    due = turn.due_at.timestamp()
    with _in_flight_lock:
        if key in _in_flight:
            return _THINKING        # another task of the table's asked already
        _in_flight.add(key)

    def chosen(action: dict) -> None:
        """In the pool's thread: keep the move for its time, and have the table's task apply it then."""
        cache.set(key, Thought(turn.version, turn.seat, action, turn.due_at), THOUGHT_SECONDS)
        with _in_flight_lock:
            _in_flight.discard(key)
        scheduling.schedule_advance(table_id, turn.version, turn.due_at)

    if thinking.think_later(turn.level, turn.view, due, chosen):
        return _THINKING
    with _in_flight_lock:
        _in_flight.discard(key)
    return Thought(turn.version, turn.seat, thinking.choose(turn.level, turn.view, due), turn.due_at)


# Searches handed to the bot processes and not chosen yet, by thought key (the pool is one
# process's: embedded mode).
_in_flight: set[str] = set()
_in_flight_lock = threading.Lock()
_THINKING = object()       # ``_think``: the pool is choosing the move


def _bot_turn(live: Live, version: int | None, now: datetime) -> BotTurn | None:
    t = live.table
    if (version is not None and t.version != version) or t.due_at is None:
        return None
    found = _bot_to_search(live)
    if found is None:
        return None
    seat, level = found
    # A copy: the Live goes back to the cache, and the next change takes it over.
    return BotTurn(t.version, seat, level, copy.deepcopy(live.state.view(seat)), t.due_at)


def _searches(seat: Seat) -> bool:
    return seat.is_bot and bots.levels.get(_bot_level(seat.bot_level)).searches


def _bot_to_search(live: Live) -> tuple[int, str] | None:
    """The seat and level of the bot to act next when it is one that searches, else None."""
    if live.table.status != Status.PLAYING or live.state is None:
        return None
    for i in live.state.seats_to_act():
        seat = live.seats[i]
        if seat.is_bot:
            return (i, _bot_level(seat.bot_level)) if _searches(seat) else None
    return None


def _advance(live: Live, version: int | None, now: datetime, thought: Thought | None = None) -> datetime | None:
    t = live.table
    if thought is not None and thought.version != t.version:
        raise _MovedOn
    if version is not None and t.version != version:
        return None
    if t.due_at is None:
        return None
    if t.due_at > now:
        return t.due_at
    gone = clocks.abandoned(live, now) if clocks.grace_is_due_work(live) else None
    if gone is not None:        # a leaver's grace is over: a bot takes his seat, or he was alone: it ends
        _time_out(live, gone, now, abandoned=True)
        return None
    if t.status == Status.BETWEEN_DEALS and (t.next_deal_at is None or t.next_deal_at <= now):
        if fair_deals.held(live, now):      # a duplicate board still being played at another table
            return _not_due(live, now)
        _new_deal(live, now)
        _bump(live, now)
        _broadcast(live, [{"kind": "deal_start", "deal_number": live.deal.number}], now)
        return None
    if t.status != Status.PLAYING or live.state is None:
        # Between deals with the pause not over: what was due (a leaver's grace) is gone.
        return _not_due(live, now) if t.status == Status.BETWEEN_DEALS else None
    late = clocks.expired(live, now)
    if late is not None:
        _time_out(live, late, now)
        return None
    for i in live.state.seats_to_act():
        seat = live.seats[i]
        if seat.is_bot:
            view = live.state.view(i)
            if thought is not None and thought.seat == i:
                action = thought.action
            else:
                action = _choose_locked(_bot_level(seat.bot_level), view)
            try:
                _commit_action(live, i, dict(action, seat=i), now)
            except IllegalAction as exc:  # a bot bug must not stall the table
                log.error("bot %s chose an illegal action %s: %s", seat.bot_level, action, exc.reason)
                fallback = bots.choose_action("random", view)
                _commit_action(live, i, dict(fallback, seat=i), now)
            return None
    return _not_due(live, now)


def _not_due(live: Live, now: datetime) -> None:
    """Nothing was due after all: store the right due time and look again then."""
    t = live.table
    t.due_at = clocks.due_at(live, now)
    prepared.update(t, ("due_at",))
    _schedule(live)
    return None


def _choose_locked(level: str, view: dict) -> dict:
    """A bot's move chosen under the table's lock: an instant level, or a searching one whose
    table kept moving while it thought (``advance``)."""
    if bots.levels.get(level).searches:
        return thinking.choose(level, view, timezone.now().timestamp())
    return bots.choose_action(level, view)


def _bot_level(level: str) -> str:
    return level if level in bots.BOTS else "random"


def _time_out(live: Live, seat_index: int, now: datetime, *, abandoned: bool = False) -> None:
    """A seat's clock ran out, or (``abandoned``) its player left and did not come back within
    the grace: the same loss (Match.timed_out; the leaver is also in Match.abandoned)."""
    seat = live.seats[seat_index]
    clocks.stop(live, seat, now)
    m = live.match
    m.timed_out = sorted(set(m.timed_out) | {seat_index})
    event = {"kind": "timeout", "seat": seat_index}
    if abandoned:
        m.abandoned = sorted(set(m.abandoned or []) | {seat_index})
        event = {"kind": "abandoned", "seat": seat_index}
    if not clocks.bot_takes_over(live) or (abandoned and clocks.alone_among_bots(live)):
        m.save()
        events = [event, _finish_match(live, now, "abandoned" if abandoned else "timeout")]
        clocks.run(live, now)
        _bump(live, now)
        _broadcast(live, events, now, lobby=True)
        return
    level = _bot_level(settings.GAMES_REPLACEMENT_BOT)
    seat.replaced_by_bot = level
    seat.away_since = None
    seat.save(update_fields=["replaced_by_bot", "away_since"])
    m.save()
    signals.seat_taken_over.send(sender=Match, match=m, seat=seat_index, deal=live.deal)
    event["replaced_by"] = f"bot:{level}"
    clocks.run(live, now)
    _bump(live, now)
    # The player's socket becomes a spectator's: every socket rebuilds its snapshot.
    _broadcast(live, [event], now, resync=True)


# --- provably fair deals ----------------------------------------------------------------------------
def seed(table_id: int, user, commitment, client_seed) -> None:
    """A player's client adds its seed to the next deal, named by its commitment (docs/FAIRNESS.md).
    When no awaited seat is left without one and the pause is over, the deal is drawn at once."""
    now = timezone.now()
    with locked(table_id) as live:
        me = seat_of(live, user)
        if me is None or live.seats[me].is_bot:
            raise ServiceError("spectator", _("Only a player of this match can add a seed to its deals."),
                               live.table.version)
        fair_deals.add_seed(live, me, commitment, client_seed)
        events = [{"kind": "seeded", "seat": me}]
        if live.table.status == Status.BETWEEN_DEALS and fair_deals.ready(live, now):
            _new_deal(live, now)
            events.append({"kind": "deal_start", "deal_number": live.deal.number})
        _bump(live, now)
        _broadcast(live, events, now)


# --- chat and presence ---------------------------------------------------------------------------
def chat(table_id: int, user, text) -> dict:
    if user is None or not user.is_authenticated:
        raise ServiceError("forbidden", _("Log in or play as a guest to chat."))
    if isinstance(text, str):
        text = chat_text.clean(text)     # no control or bidi-override characters
    if not isinstance(text, str) or not text or len(text) > 500:
        raise ServiceError("bad_request", _("A chat message has 1 to 500 characters."))
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        raise ServiceError("not_found", _("There is no such table."))
    limits.check_chat(user, text)       # per user, in the shared cache: rate and repeated words
    msg = ChatMessage.objects.create(table=table, user=user, name=user.display_name, text=text)
    game = table.game
    broadcast.send_on_commit(lambda: messages.chat_messages(table_id, game, msg))
    return msg.as_json()


def seat_presence_changed(table_id: int, seat: int, before: int, after: int) -> None:
    """A seat's count of open sockets went from ``before`` to ``after`` (games/presence.py recounted
    it from the sockets' records, under the table's lock). Not a versioned change, except:

    * for leavers: a player's last socket closing during a match (he is away from then,
      ``Seat.away_since``), or his first opening again while he is away, is a versioned change
      that everyone at the table is sent (games/clocks.py: what his leaving leads to);
    * before the match, a seated player's first socket (he just sat down, or came back) or his
      last one closing is shown to the others at once, not with the next change.

    Counts are what the processes report: a web process killed without closing its sockets
    never removes their records itself; once its heartbeat stops, the socket sweep removes them
    (games/web_process/liveness.py), which lands here like any close."""
    if (before > 0) == (after > 0):
        return
    with locked(table_id) as live:
        now = timezone.now()
        s = live.seats[seat]
        if live.table.status != Status.WAITING:
            _presence(live, seat, now)
        elif s.user_id is not None and not s.is_bot:
            _bump(live, now)
            _broadcast(live, [{"kind": "presence", "seat": seat, "connected": after > 0}], now)


def _presence(live: Live, index: int, now: datetime) -> None:
    """A player's last socket closed (away), or one opened while he was away (back)."""
    seat = live.seats[index]
    if seat.connections <= 0:
        if seat.away_since is not None or seat.user_id is None or seat.is_bot or not clocks.running(live):
            return
        seat.away_since = now
        event = {"kind": "away", "seat": index, "since": messages.epoch_ms(now)}
    else:
        if seat.away_since is None:
            return
        seat.away_since = None
        event = {"kind": "back", "seat": index}
    live.writes.append((seat, ("away_since",)))
    if not clocks.running(live):        # the match ended meanwhile: nothing to tell
        return
    _bump(live, now)
    _broadcast(live, [event], now)


def claim_win(table_id: int, user, version) -> None:
    """In a two-player match, the player whose opponent left and did not come back within
    LEAVER_GRACE_SECONDS wins at once (as on Lichess); the leaver loses as on time."""
    now = timezone.now()
    with locked(table_id) as live:
        t = live.table
        me = seat_of(live, user)
        if me is None:
            raise ServiceError("spectator", _("Only a player of this match can claim the win."), t.version)
        if clocks.bot_takes_over(live):
            raise ServiceError("bad_request", _("At this table a bot takes the place of a player who left: "
                                                "there is no win to claim."), t.version)
        if not clocks.running(live):
            raise ServiceError("bad_request", _("No match is in progress."), t.version)
        other = live.seats[1 - me]
        end = clocks.grace_end(live, other)
        if end is None:
            raise ServiceError("opponent_here", _("Your opponent is at the table."), t.version)
        if end > now:
            wait = max(1, int((end - now).total_seconds() + 0.999))
            raise ServiceError("claim_too_early", ngettext(
                "Your opponent may still come back: you can claim the win in %(n)d second.",
                "Your opponent may still come back: you can claim the win in %(n)d seconds.", wait) % {"n": wait},
                t.version, params={"retry_after": wait})
        if not isinstance(version, int) or isinstance(version, bool) or version != t.version:
            raise ServiceError("stale", _("The table has moved on; here is its current state."), t.version)
        _time_out(live, other.index, now, abandoned=True)


# --- rematch -------------------------------------------------------------------------------------
# A finished table's match is over for good (a Match is one-to-one with its Table, and the match
# history, replays and ratings point at it), so a rematch is a new table with the same seats and
# settings. The offer lives on the finished table (Table.rematch), written under its lock and
# versioned like every change there: everyone at the table sees who accepted.
REMATCH_ANSWERS = ("offer", "accept", "decline")


def rematch(table_id: int, user, version, answer) -> None:
    """A player of a finished match offers a rematch ("offer") or answers the open offer ("accept",
    "decline"). Bots accept at once; when every seat has accepted, the new table starts and the
    old table's clients are told where it is. Accepting twice changes nothing."""
    if answer not in REMATCH_ANSWERS:
        raise ServiceError("bad_request", _("A rematch answer is offer, accept or decline."))
    now = timezone.now()
    with locked(table_id) as live:
        t = live.table
        seat = _rematch_seat(live, user)
        offer = _open_offer(t)
        if offer is None and answer != "offer":
            raise ServiceError("no_rematch_offer", _("No rematch is on offer."), t.version)
        if offer is not None and (not isinstance(version, int) or version < offer["since"]):
            raise ServiceError("stale", _("The table has moved on; here is its current state."), t.version)
        if answer == "decline":
            _cancel_rematch(live, "declined", seat, now)
            return
        if offer is None:
            # A new table asked for: counted against the offerer's TABLE_CREATE_RATE now (the
            # others' yes, a bot's at once, must not find it refused).
            limits.take_table(user)
            offer = {"status": "open", "by": seat, "since": t.version + 1,
                     "accepted": [s.index for s in live.seats if _bot_seat(s)]}
        if seat in offer["accepted"]:
            return
        offer = dict(offer, accepted=sorted(offer["accepted"] + [seat]))
        if len(offer["accepted"]) == len(live.seats):
            offer = dict(offer, status="started", table=_start_rematch(live, offer).pk)
        _store_rematch(live, offer, now)


def rematch_left(table_id: int, seat: int | None) -> None:
    """A player's last socket at a finished table closed: his seat's open rematch offer is
    cancelled (he is no longer there to play it)."""
    if seat is None or not Table.objects.filter(pk=table_id, status=Status.FINISHED,
                                                rematch__status="open").exists():
        return      # the usual case, without taking the table's lock
    now = timezone.now()
    with locked(table_id) as live:
        s = live.seats[seat]
        if _open_offer(live.table) is not None and s.connections <= 0 and not _bot_seat(s):
            _cancel_rematch(live, "left", seat, now)


def _rematch_seat(live: Live, user) -> int:
    t = live.table
    if t.status != Status.FINISHED:
        raise ServiceError("match_not_over", _("A rematch can be offered once the match is over."), t.version)
    if t.rematch and t.rematch.get("status") == "started":
        raise ServiceError("rematch_started", _("The rematch has already started."), t.version)
    mine = [s.index for s in live.seats
            if user is not None and user.is_authenticated and s.user_id == user.id and not user.is_bot]
    if not mine:
        raise ServiceError("spectator", _("Only the match's players can offer or answer a rematch."), t.version)
    if t.tournament_table:
        raise ServiceError("tournament_table", _("A tournament's match has no rematch: the tournament "
                                                 "pairs your next match."), t.version)
    if any(s.user_id is None for s in live.seats):
        raise ServiceError("seat_gone", _("A player of this match no longer has an account."), t.version)
    return mine[0]


def _bot_seat(seat: Seat) -> bool:
    """A bot user's seat (a bot that took over from a player still needs that player's yes)."""
    return bool(seat.user_id and seat.user.is_bot)


def _open_offer(t: Table) -> dict | None:
    return t.rematch if t.rematch and t.rematch.get("status") == "open" else None


def _start_rematch(live: Live, offer: dict) -> Table:
    """The new table: same game, variant, time control, rating and privacy, each player in his
    seat, already started. Its owner is the old owner when he played, else whoever offered."""
    t = live.table
    players = {s.user_id for s in live.seats}
    owner = t.owner if t.owner_id in players and not t.owner.is_bot else live.seats[offer["by"]].user
    seats = [s.user.bot_level if _bot_seat(s) else s.user for s in live.seats]
    return create_table(owner, t.game, t.variant, rated=t.rated, bank_seconds=t.bank_seconds,
                        increment_seconds=t.increment_seconds, private=t.private, seats=seats, start=True,
                        bots_allowed=t.bots_allowed)


def _cancel_rematch(live: Live, reason: str, seat: int, now: datetime) -> None:
    offer = dict(_open_offer(live.table), status="cancelled", reason=reason, seat=seat)
    _store_rematch(live, offer, now)


def _store_rematch(live: Live, offer: dict, now: datetime) -> None:
    t = live.table
    t.rematch = offer
    live.writes.append((t, ("rematch",)))
    _bump(live, now)
    _broadcast(live, [dict(offer, kind="rematch")], now)


# --- the steps other writers of live games share (games/exits.py) --------------------------------
def commit_change(live: Live, events: list[dict], now: datetime, *, resync: bool = False,
                  lobby: bool = False) -> None:
    """Bump the version and send ``events`` with every seat's view on commit; schedule what is due."""
    clocks.run(live, now)
    _bump(live, now)
    _broadcast(live, events, now, resync=resync, lobby=lobby)


def finish_match(live: Live, now: datetime, ended_by: str) -> dict:
    """End the match (ranks, history, ratings, tournaments: ``match_finished``); its event."""
    return _finish_match(live, now, ended_by)


def commit_action(live: Live, seat: int, action: dict, now: datetime, extra_events=()) -> None:
    """Apply one action through the engine and commit it as ``act`` does (IllegalAction: nothing changed)."""
    _commit_action(live, seat, action, now, extra_events)


def refused(exc: IllegalAction, version: int) -> ServiceError:
    return _refused(exc, version)


def replacement_bot() -> str:
    """The level of the bot that takes a seat a player left."""
    return _bot_level(settings.GAMES_REPLACEMENT_BOT)
