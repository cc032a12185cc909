"""Bot turns, clocks and the next deal: what a table's due work does without a player.

A searching bot thinks with no lock held, on the table as read at a version, and its move is
applied under the lock only if the table is still there (``advance``); instant bots, clock
expiries and the next deal are done under the lock at once.
"""
from __future__ import annotations

import copy
import logging
import threading
from dataclasses import dataclass
from datetime import datetime

from django.core.cache import cache
from django.utils import timezone

from games import bots, clocks, fair_deals, loading, prepared, scheduling, thinking
from games.engine.core import IllegalAction
from realtime.errors import ServiceError
from games.loading import Live, locked
from games.models import Table

from . import bot_seats, forfeits, steps

log = logging.getLogger(__name__)
Status = Table.Status


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
    if seats is not None and not any(bot_seats.searches(s) for s in seats):
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


# Searches handed to the bot processes and not chosen yet, by thought key. Per process, not in the
# shared cache: the pool that runs the searches is this process's own (embedded mode), and its
# answer comes back to this process's ``chosen``; another process's tasks have their own pool.
_in_flight: set[str] = set()
_in_flight_lock = threading.Lock()
_THINKING = object()       # ``_think``: the pool is choosing the move


def _bot_turn(live: Live, version: int | None, now: datetime) -> BotTurn | None:
    t = live.table
    if (version is not None and t.version != version) or t.due_at is None:
        return None
    found = bot_seats.bot_to_search(live)
    if found is None:
        return None
    seat, level = found
    # A copy: the Live goes back to the cache, and the next change takes it over.
    return BotTurn(t.version, seat, level, copy.deepcopy(live.state.view(seat)), t.due_at)


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
        forfeits.time_out(live, gone, now, abandoned=True)
        return None
    if t.status == Status.BETWEEN_DEALS and (t.next_deal_at is None or t.next_deal_at <= now):
        if fair_deals.held(live, now):      # a duplicate board still being played at another table
            return _not_due(live, now)
        steps.new_deal(live, now)
        steps.bump(live, now)
        steps.send(live, [{"kind": "deal_start", "deal_number": live.deal.number}], now)
        return None
    if t.status != Status.PLAYING or live.state is None:
        # Between deals with the pause not over: what was due (a leaver's grace) is gone.
        return _not_due(live, now) if t.status == Status.BETWEEN_DEALS else None
    late = clocks.expired(live, now)
    if late is not None:
        forfeits.time_out(live, late, now)
        return None
    for i in live.state.seats_to_act():
        seat = live.seats[i]
        if seat.is_bot:
            view = live.state.view(i)
            if thought is not None and thought.seat == i:
                action = thought.action
            else:
                action = _choose_locked(bot_seats.bot_level(seat.bot_level), view)
            try:
                steps.commit_action(live, i, dict(action, seat=i), now)
            except IllegalAction as exc:  # a bot bug must not stall the table
                log.error("bot %s chose an illegal action %s: %s", seat.bot_level, action, exc.reason)
                fallback = bots.choose_action("random", view)
                steps.commit_action(live, i, dict(fallback, seat=i), now)
            return None
    return _not_due(live, now)


def _not_due(live: Live, now: datetime) -> None:
    """Nothing was due after all: store the right due time and look again then."""
    t = live.table
    t.due_at = clocks.due_at(live, now)
    prepared.update(t, ("due_at",))
    steps.schedule(live)
    return None


def _choose_locked(level: str, view: dict) -> dict:
    """A bot's move chosen under the table's lock: an instant level, or a searching one whose
    table kept moving while it thought (``advance``)."""
    if bots.levels.get(level).searches:
        return thinking.choose(level, view, timezone.now().timestamp())
    return bots.choose_action(level, view)
