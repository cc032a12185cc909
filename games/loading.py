"""Loading, locking and what a process keeps of a table: the read side of every change.

``locked(table_id)`` is the one way a writer (games/services.py) gets a table: a transaction
holding the table row's lock (``select_for_update``; SQLite: IMMEDIATE transactions) and everything
below it, loaded in one go as a ``Live``. ``load`` is the same without a lock, for readers.

The stored deal record is the truth: the engine state is rebuilt from it. Between a table's
changes a process keeps the loaded table (``LiveCache``) and uses it whole only while the table
row, read under its lock, still has the version it was kept at (every committed change bumps it,
in whichever process); otherwise the kept deal state is only a start, caught up with the actions
stored since. An entry is taken out while a transaction works on it, so no two threads share
one, and put back only after its transaction committed.
"""
from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Callable, Generic, Iterator, TypeVar

from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import User
from games import log_context, prepared, spectator_view
from games.engine import core
from games.engine.core import DealSetup, IllegalAction, Match as EngineMatch, State

from realtime.errors import ServiceError
from .models import Deal, Match, Seat, Table

log = logging.getLogger(__name__)
SETUP_FIELDS = tuple(DealSetup.__dataclass_fields__)
T = TypeVar("T")
R = TypeVar("R")


# --- the per-process cache ---------------------------------------------------------------
class LiveCache(Generic[T]):
    """Values by table id, each stored with the table version it was loaded at; the oldest
    entries go first beyond ``size``, and any entry not stored again within ``idle_seconds``.

    The idle limit is what bounds a web process's memory: a table whose match another process
    finished (or that went quiet) is never changed here again, and, with rematches making new
    tables all the time, keeping it until the size limit would grow the process for hours
    (docs/SCALING.md, "What the move path keeps and why"). A slow table reads itself back."""

    def __init__(self, size: int = 5000, idle_seconds: float = 120.0, clock=time.monotonic):
        self.size = size
        self.idle_seconds = idle_seconds
        self._clock = clock
        self._items: OrderedDict[int, tuple[int, T, float]] = OrderedDict()
        self._lock = threading.Lock()

    def take(self, table_id: int) -> T | None:
        """The table's entry, removed from the cache (the caller checks its version)."""
        with self._lock:
            item = self._items.pop(table_id, None)
        return None if item is None else item[1]

    def look(self, table_id: int) -> T | None:
        """The table's entry, left in the cache: to read what does not change between versions."""
        with self._lock:
            item = self._items.get(table_id)
        return None if item is None else item[1]

    def put(self, table_id: int, version: int, value: T) -> None:
        now = self._clock()
        with self._lock:
            held = self._items.get(table_id)
            if held is not None and held[0] > version:
                return      # a later commit got here first
            self._items[table_id] = (version, value, now)
            self._items.move_to_end(table_id)
            while len(self._items) > self.size:
                self._items.popitem(last=False)
            # Stored in time order: the idle ones are at the front.
            while self._items:
                first = next(iter(self._items.values()))
                if now - first[2] <= self.idle_seconds:
                    break
                self._items.popitem(last=False)

    def forget(self, table_id: int | None = None) -> None:
        """Drop one table's entry (or all): for changes made outside the writers."""
        with self._lock:
            if table_id is None:
                self._items.clear()
            else:
                self._items.pop(table_id, None)


# --- loading -----------------------------------------------------------------------------------
@dataclass
class Live:
    """A table with everything its current state needs, loaded in one go."""

    table: Table
    seats: list[Seat]
    match: Match | None = None
    engine: EngineMatch | None = None
    deal: Deal | None = None
    state: State | None = None
    # Row updates of the change in progress, sent together at its end by locked() (one round trip,
    # with the commit where the database allows).
    writes: list = field(default_factory=list)
    # Whether the kept Live this one started from was still current: the next read expects the
    # same (a table whose sockets all reach this process keeps being current here).
    was_current: bool = False

    @property
    def game_rules(self):
        return core.get_rules(self.table.game)

    def people(self) -> dict:
        """The users loaded with this table (its owner and players), by id."""
        found = {s.user_id: s.user for s in self.seats if s.user_id is not None}
        if self.table.owner_id is not None:
            found[self.table.owner_id] = self.table.owner
        return found


def rebuild_state(record: dict) -> State:
    """The engine state of a stored deal record: its header, then its actions re-applied."""
    state = core.new_state(DealSetup(**{k: record[k] for k in SETUP_FIELDS if k in record}))
    for action in record.get("actions", ()):
        state.apply(action)
    return state


def _catch_up(kept: State | None, record: dict) -> State:
    """The state of a stored deal: a state kept from earlier in the same deal, brought up to date
    with the actions stored since (by another process, say), else rebuilt from the record."""
    stored = record.get("actions", ())
    if kept is not None and len(kept.log) <= len(stored):
        try:
            for action in stored[len(kept.log):]:
                kept.apply(action)
            return kept
        except IllegalAction:
            log.warning("a kept state could not follow its deal record; rebuilding it")
    return rebuild_state(record)


def select_table(for_update: bool):
    if for_update:
        return prepared.select("table_for_update", lambda pk: Table.objects.select_for_update().filter(pk=pk))
    return prepared.select("table", lambda pk: Table.objects.filter(pk=pk))


def _select_seats():
    return prepared.select("seats", lambda pk: Seat.objects.filter(table_id=pk).order_by("index"))


def _select_match():
    return prepared.select("match", lambda pk: Match.objects.filter(table_id=pk))


def _select_latest_deal():
    return prepared.select("latest_deal",
                           lambda pk: Deal.objects.filter(match__table_id=pk).order_by("-number")[:1])


def _read(table_id: int, kept: Live | None, *, for_update: bool) -> Live:
    """A table and everything below it: its seats (with their people), match, deal and state.
    ``kept``: what this process kept of the table at an earlier version, to start from. Where a
    round trip costs more than reading a match and deal that may not be needed (PostgreSQL),
    all of it is read at once, unless the kept Live was current last time too: then the table's
    changes most likely all come through this process (its sockets are here), and the match and
    deal rows (the deal record is the largest value a move reads) are read only if it was not."""
    queries = [select_table(for_update), _select_seats()]
    expect_current = kept is not None and kept.was_current
    if prepared.batches_reads(Table) and not expect_current:
        queries += [_select_match(), _select_latest_deal()]
    found = prepared.fetch_many([(q, table_id) for q in queries])
    if not found[0]:
        raise ServiceError("not_found", _("There is no such table."))
    table, seats = found[0][0], found[1]
    _attach_people(table, seats, kept.people() if kept is not None else {})
    live = Live(table=table, seats=seats)
    if kept is not None and kept.table.version == table.version:
        live.match, live.engine, live.deal, live.state = kept.match, kept.engine, kept.deal, kept.state
        live.was_current = True
        return live
    matches, deals = found[2:] or prepared.fetch_many([(_select_match(), table_id),
                                                       (_select_latest_deal(), table_id)])
    if not matches:
        return live
    live.match = matches[0]
    live.engine = EngineMatch.from_dict(live.match.state)
    if deals:
        live.deal = deals[0]
        same_deal = kept is not None and kept.deal is not None and kept.deal.pk == live.deal.pk
        live.state = _catch_up(kept.state if same_deal else None, live.deal.record)
    return live


def _attach_people(table: Table, seats: list[Seat], known: dict) -> None:
    """Give the table its owner and each seat its user, fetching only the ones not ``known``."""
    wanted = {s.user_id for s in seats if s.user_id is not None}
    if table.owner_id is not None:
        wanted.add(table.owner_id)
    missing = wanted - known.keys()
    if missing:
        known = {**known, **User.objects.in_bulk(missing)}
    for s in seats:
        if s.user_id is not None:
            s.user = known[s.user_id]
    if table.owner_id is not None:
        table.owner = known[table.owner_id]


# What each table's last change in this process loaded.
_live: LiveCache[Live] = LiveCache()


def _lock(table_id: int) -> Live:
    """The table row, locked, and everything below it, starting from what this process kept of
    the table: all of it when the version still matches, else its deal state to catch up."""
    return _read(table_id, _live.take(table_id), for_update=True)


@contextmanager
def locked(table_id: int) -> Iterator[Live]:
    """A transaction holding the table's lock. The change's row updates are its last statements,
    sent with its COMMIT in one round trip (games/prepared.py). After the commit, and after the
    messages built from the Live on commit, the Live goes back to the cache for the table's next
    change."""
    with log_context.about_table(table_id), transaction.atomic():
        live = _lock(table_id)
        yield live
        transaction.on_commit(lambda: _keep(table_id, live))
        prepared.update_many(live.writes, commit=True)
        live.writes.clear()


def _keep(table_id: int, live: Live) -> None:
    """Keep a table for its next change, unless its match is over: a finished table rarely changes
    again (a rematch offer) and reads itself back in a few queries, while keeping every finished
    table would grow each web process all the time (docs/SCALING.md, "What the move path keeps
    and why")."""
    if live.table.status == Table.Status.FINISHED:
        _live.forget(table_id)
    else:
        _live.put(table_id, live.table.version, live)


def kept_seats(table_id: int) -> list[Seat] | None:
    """The seats of what this process keeps of a table (None: nothing), left in the cache: to
    look at only, and they may be a version behind."""
    kept = _live.look(table_id)
    return None if kept is None else kept.seats


def peek(table_id: int, reader: Callable[[Live], R]) -> R:
    """``reader(live)`` on the table as committed, read with no lock held (a bot's search starts
    from it: games/services.py), from what this process kept of it when it has it, which goes
    back to the cache after. Whatever ``reader`` returns must not share the Live's objects: the
    next change takes the Live over. The read may see a change that commits meanwhile in part;
    a writer that acts on it must hold the lock and find the table still at the version read."""
    live = _read(table_id, _live.take(table_id), for_update=False)
    try:
        return reader(live)
    finally:
        _keep(table_id, live)


def forget(table_id: int | None = None) -> None:
    """Drop what this process keeps of a table whose game rows were changed outside this module
    without a new version (tests fast-forwarding a match): its spectators' snapshot too."""
    _live.forget(table_id)
    spectator_view.forget(table_id)


def load(table_id: int) -> Live:
    """A consistent read without a lock: retried if the table moved while it was being read."""
    for _attempt in range(5):
        live = _read(table_id, None, for_update=False)
        if Table.objects.filter(pk=table_id, version=live.table.version).exists():
            return live
    return live


# --- who is who --------------------------------------------------------------------------------
def seat_of(live: Live, user) -> int | None:
    """The seat a user plays (None: a spectator). A seat a bot took over is no longer his."""
    if user is None or not user.is_authenticated:
        return None
    for s in live.seats:
        if s.user_id == user.id and not s.replaced_by_bot:
            return s.index
    return None


def can_watch(table: Table, user, invite: str | None) -> bool:
    if not table.private:
        return True
    if invite and invite == table.invite_token:
        return True
    if user is not None and user.is_authenticated:
        return table.owner_id == user.id or table.seats.filter(user=user).exists()
    return False
