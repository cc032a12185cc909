"""The only writer of live games.

Every write follows one pattern (STYLE.md, habit 7): inside ``transaction.atomic`` lock the table row
(``select_for_update``), check, apply through the engine, store the deal record, bump
``Table.version``; then, only on commit, send each seat group its own view, the spectator group the
public view, and schedule the table's next due work (a bot move, a clock deadline, the next deal) as
one Celery task tied to the new version.

The stored deal record is the truth: the engine state is rebuilt from it, and between a table's
changes a process may keep the rebuilt state (games/live_cache.py) for as long as the table's
version says nothing else changed it.
"""
from __future__ import annotations

import logging
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Iterator

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import BOT_LEVELS, User, bot_user
from games import bots, broadcast, prepared, reasons, wire
from games.engine import core
from games.engine.core import DealSetup, IllegalAction, Match as EngineMatch, State

from . import signals
from .live_cache import LiveCache
from .models import ChatMessage, Deal, Match, Seat, Table

log = logging.getLogger(__name__)
Status = Table.Status
CHAT_HISTORY = 50
SETUP_FIELDS = tuple(DealSetup.__dataclass_fields__)
CLOCK_FIELDS = ("bank_ms", "turn_started_at")


class ServiceError(Exception):
    """A refused request: ``code`` is the protocol's error code, ``reason`` is for the player."""

    def __init__(self, code: str, reason: str, version: int | None = None):
        super().__init__(reason)
        self.code = code
        self.reason = reason
        self.version = version


# --- groups ------------------------------------------------------------------------------------
def seat_group(table_id: int, seat: int) -> str:
    return f"table.{table_id}.seat.{seat}"


def spectator_group(table_id: int) -> str:
    return f"table.{table_id}.spectators"


def lobby_group(game: str) -> str:
    return f"lobby.{game}"


def group_of(table_id: int, seat: int | None) -> str:
    """The group of a seat's sockets, or (None) of the spectators'."""
    return spectator_group(table_id) if seat is None else seat_group(table_id, seat)


def all_groups(table_id: int, seats: int) -> list[str]:
    return [seat_group(table_id, s) for s in range(seats)] + [spectator_group(table_id)]


def listeners(live: "Live") -> list[int | None]:
    """The seats with a socket open, then None when someone watches: a change is sent to their
    groups, not to groups nobody listens to (a bot's seat, mostly). A socket joins its group
    before it is counted (under the table's lock) and reads its snapshot after: no change
    falls in between."""
    seats: list[int | None] = [s.index for s in live.seats if s.connections > 0]
    return seats + [None] if live.table.spectators > 0 else seats


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
    # Row updates of the change in progress, sent together at its end by _locked (one round trip,
    # with the commit where the database allows).
    writes: list = field(default_factory=list)

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


def _select_table(for_update: bool):
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
    all of it is read at once."""
    queries = [_select_table(for_update), _select_seats()]
    if prepared.batches_reads(Table):
        queries += [_select_match(), _select_latest_deal()]
    found = prepared.fetch_many([(q, table_id) for q in queries])
    if not found[0]:
        raise ServiceError("not_found", _("There is no such table."))
    table, seats = found[0][0], found[1]
    _attach_people(table, seats, kept.people() if kept is not None else {})
    live = Live(table=table, seats=seats)
    if kept is not None and kept.table.version == table.version:
        live.match, live.engine, live.deal, live.state = kept.match, kept.engine, kept.deal, kept.state
        return live
    matches = found[2] if len(found) > 2 else _select_match().fetch(table_id)
    if not matches:
        return live
    live.match = matches[0]
    live.engine = EngineMatch.from_dict(live.match.state)
    deals = found[3] if len(found) > 3 else _select_latest_deal().fetch(table_id)
    if deals:
        live.deal = deals[0]
        same_deal = kept is not None and kept.deal is not None and kept.deal.pk == live.deal.pk
        live.state = _catch_up(kept.state if same_deal else None, live.deal.record)
    return live


_OWNER = Table._meta.get_field("owner")
_SEAT_USER = Seat._meta.get_field("user")


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
            _SEAT_USER.set_cached_value(s, known[s.user_id])
    if table.owner_id is not None:
        _OWNER.set_cached_value(table, known[table.owner_id])


# What each table's last change in this process loaded (games/live_cache.py).
_live = LiveCache()


def _lock(table_id: int) -> Live:
    """The table row, locked, and everything below it, starting from what this process kept of
    the table: all of it when the version still matches, else its deal state to catch up."""
    return _read(table_id, _live.take(table_id), for_update=True)


@contextmanager
def _locked(table_id: int) -> Iterator[Live]:
    """A transaction holding the table's lock. The change's row updates are its last statements,
    sent with its COMMIT in one round trip (games/prepared.py). After the commit, and after the
    messages built from the Live on commit, the Live goes back to the cache for the table's next
    change."""
    with transaction.atomic():
        live = _lock(table_id)
        yield live
        transaction.on_commit(lambda: _live.put(table_id, live.table.version, live))
        prepared.update_many(live.writes, commit=True)
        live.writes.clear()


def forget(table_id: int | None = None) -> None:
    """Drop what this process keeps of a table whose game rows were changed outside this module
    without a new version (tests fast-forwarding a match)."""
    _live.forget(table_id)


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


def _is_bot_seat(seat: Seat) -> bool:
    return bool(seat.replaced_by_bot) or bool(seat.user_id and seat.user.is_bot)


def _seat_name(seat: Seat) -> str | None:
    if seat.user_id is None:
        return None
    return seat.user.display_name


# --- JSON for the wire -------------------------------------------------------------------------
def _epoch_ms(when: datetime | None) -> int | None:
    return None if when is None else int(when.timestamp() * 1000)


def _deadline(seat: Seat) -> datetime | None:
    if seat.turn_started_at is None:
        return None
    return seat.turn_started_at + timedelta(milliseconds=seat.bank_ms)


def table_json(live: Live, now: datetime | None = None, *, summary: bool = False) -> dict:
    t = live.table
    now = now or timezone.now()
    # The lobby tells open, playing and finished tables apart, so it is told of a match's start
    # and end, not of every deal's.
    status = Status.PLAYING if summary and t.status == Status.BETWEEN_DEALS else t.status
    data = {
        "id": t.pk, "game": t.game, "variant": t.variant, "rated": t.rated, "private": t.private,
        "status": status,
        "time_control": {"bank_seconds": t.bank_seconds, "increment_seconds": t.increment_seconds},
        "seats": [{"seat": s.index, "name": _seat_name(s), "is_bot": _is_bot_seat(s),
                   "bot_level": s.bot_level or None, "connected": s.connections > 0}
                  for s in live.seats],
        "owner": t.owner.username if t.owner_id else None,
        "version": t.version,
    }
    if summary:
        return data
    m, e = live.match, live.engine
    data["match"] = None if m is None else {
        "scores": e.scores, "bags": e.bags, "deal_number": e.deal_number, "dealer": e.dealer,
        "over": m.finished, "winners": m.winners, "ranks": m.ranks, "results": e.results,
        "timed_out": m.timed_out, "ended_by": m.ended_by or None,
    }
    running = [s for s in live.seats if s.turn_started_at is not None]
    deadlines = [_deadline(s) for s in live.seats]
    data["clocks"] = {
        "banks_ms": [max(0, int((d - now).total_seconds() * 1000)) if d else s.bank_ms
                     for s, d in zip(live.seats, deadlines)],
        "to_act": list(live.state.seats_to_act()) if live.state is not None and t.status == Status.PLAYING else [],
        "running": [s.index for s in running],
        "deadlines": [_epoch_ms(d) for d in deadlines],
        "deadline": _epoch_ms(min((d for d in deadlines if d), default=None)),
    }
    data["next_deal_at"] = _epoch_ms(t.next_deal_at) if t.status == Status.BETWEEN_DEALS else None
    return data


def send_text(msg: dict) -> dict:
    """A group message carrying ``msg`` as the JSON its sockets send: encoded once per group, by
    the committing thread, so the text is fixed before the table's next change can begin. An
    update says its version beside the text: sockets pass updates on in version order."""
    out = {"type": "table.send", "text": wire.dumps(msg)}
    if msg.get("type") == "update":
        out["version"] = msg["version"]
    return out


def view_for(live: Live, seat: int | None) -> dict | None:
    if live.state is None:
        return None
    return live.state.view(seat)


def message(live: Live, seat: int | None, kind: str = "snapshot", events: list[dict] | None = None,
            now: datetime | None = None, table: dict | None = None) -> dict:
    """A ``snapshot``/``update`` message for one seat (None: the public one). ``event`` is the
    last of the commit's ``events`` (an action that ends a deal: action, deal_end[, match_end]).
    ``now``: the server's time (epoch ms) the message's clocks were computed at; clients take their
    clock offset from it."""
    now = now or timezone.now()
    msg = {"type": kind, "version": live.table.version, "table": table or table_json(live, now),
           "view": view_for(live, seat), "you": seat, "now": _epoch_ms(now)}
    if events:
        msg["event"] = events[-1]
        msg["events"] = events
    return msg


def snapshot(table_id: int, user, invite: str | None = None) -> tuple[dict, int | None]:
    live = load(table_id)
    seat = seat_of(live, user)
    msg = message(live, seat)
    msg["chat"] = [c.as_json() for c in reversed(ChatMessage.objects.filter(table_id=table_id)
                                                  .order_by("-id")[:CHAT_HISTORY])]
    msg["invite"] = live.table.invite_token if (seat is not None or live.table.owner_id == getattr(user, "id", None)) else None
    return msg, seat


def public_action(action: dict) -> dict:
    """What everyone may learn about an action: a hearts pass without its cards."""
    if action.get("type") == "pass":
        return {"seat": action["seat"], "type": "pass"}
    return dict(action)


def lobby_tables(game: str) -> list[dict]:
    tables = (Table.objects.filter(game=game, private=False)
              .exclude(status=Status.FINISHED).select_related("owner").order_by("-id")[:200])
    seats: dict[int, list[Seat]] = {}
    for s in Seat.objects.filter(table__in=list(tables)).select_related("user"):
        seats.setdefault(s.table_id, []).append(s)
    return [table_json(Live(table=t, seats=sorted(seats.get(t.pk, []), key=lambda s: s.index)),
                       summary=True) for t in tables]


# --- sending, on commit only ---------------------------------------------------------------------
def _send_many(messages: list[tuple[str, dict]]) -> None:
    """Hand a committed change's messages to the broadcaster (tests capture them here)."""
    broadcast.deliver(messages)


def _on_commit_send(messages: list[tuple[str, dict]]) -> None:
    transaction.on_commit(lambda: _send_many(messages))


def _broadcast(live: Live, events: list[dict], now: datetime, *, resync: bool = False,
               lobby: bool = False) -> None:
    """Queue, for after the commit, one message per seat group and one for the spectators.

    The messages are built after the commit too: ``live`` no longer changes then, and the views
    are not built while the transaction (on SQLite, the one write turn) is held.
    ``resync``: seats changed hands, so each socket rebuilds its own snapshot (and its group).
    """
    t = live.table
    event = events[-1]

    def send_views():
        audience = listeners(live)
        if resync:
            out = [(group_of(t.pk, s), {"type": "table.resync", "event": event, "events": events})
                   for s in audience]
        elif audience:
            table = table_json(live, now)
            out = [(group_of(t.pk, s), send_text(message(live, s, "update", events, now, table)))
                   for s in audience]
        else:
            out = []
        _send_many(out)

    transaction.on_commit(send_views)
    if lobby:
        game = t.game
        transaction.on_commit(lambda: _send_many([(lobby_group(game),
                                                    {"type": "lobby.send", "tables": lobby_tables(game)})]))
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

    def enqueue():
        from . import tasks
        tasks.schedule_advance(table_id, version, due)
    transaction.on_commit(enqueue)


def _bump(live: Live, now: datetime) -> None:
    t = live.table
    t.version += 1
    t.due_at = _due_at(live, now)
    live.writes.append((t, ("version", "due_at", "status", "next_deal_at", "updated_at")))


def _due_at(live: Live, now: datetime) -> datetime | None:
    t = live.table
    if t.status == Status.BETWEEN_DEALS:
        return t.next_deal_at
    if t.status != Status.PLAYING or live.state is None:
        return None
    times = []
    for i in live.state.seats_to_act():
        seat = live.seats[i]
        if _is_bot_seat(seat):
            times.append(now + timedelta(milliseconds=settings.GAMES_BOT_DELAY_MS))
        elif (d := _deadline(seat)) is not None:
            times.append(d)
    return min(times, default=None)


# --- clocks ----------------------------------------------------------------------------------------
def _run_clocks(live: Live, now: datetime) -> None:
    """Start the clock of every human seat that must act and is not running yet (adding the
    increment: a turn's deadline is bank + increment); stop every other clock."""
    acting = set(live.state.seats_to_act()) if live.state is not None and live.table.status == Status.PLAYING else set()
    inc = live.table.increment_seconds * 1000
    for seat in live.seats:
        running = seat.turn_started_at is not None
        if seat.index in acting and not _is_bot_seat(seat):
            if not running:
                seat.bank_ms += inc
                seat.turn_started_at = now
                live.writes.append((seat, CLOCK_FIELDS))
        elif running:
            _stop_clock(live, seat, now)


def _stop_clock(live: Live, seat: Seat, now: datetime) -> None:
    if seat.turn_started_at is not None:
        used = int((now - seat.turn_started_at).total_seconds() * 1000)
        seat.bank_ms = max(0, seat.bank_ms - used)
        seat.turn_started_at = None
        live.writes.append((seat, CLOCK_FIELDS))


# --- table life --------------------------------------------------------------------------------------
def create_table(owner, game: str, variant: str | None = None, *, rated: bool = False,
                 bank_seconds: int = 300, increment_seconds: int = 5, private: bool = False,
                 seats: list[str] | None = None, start: bool = False) -> Table:
    """A new table. ``seats``: one entry per seat, ``"me"`` (the owner), ``""`` (open), a bot
    level, or a user (a player seated by the system, e.g. a tournament pairing). By default the
    owner takes seat 0 and the rest are open."""
    try:
        rules = core.get_rules(game)
        variant = rules.check_variant(variant)
    except ValueError as exc:
        raise ServiceError("bad_request", str(exc)) from None
    if owner is None or not owner.is_authenticated:
        raise ServiceError("forbidden", _("Log in or play as a guest to create a table."))
    if rated and owner.is_guest:
        raise ServiceError("forbidden", _("Guests play on unrated tables only."))
    if not (10 <= bank_seconds <= 3600 and 0 <= increment_seconds <= 120):
        raise ServiceError("bad_request", _("That time control is not offered."))
    spec = list(seats) if seats is not None else ["me"] + [""] * (rules.seats - 1)
    if len(spec) != rules.seats or spec.count("me") > 1 or any(
            isinstance(s, str) and s not in ("me", "") and s not in BOT_LEVELS for s in spec):
        raise ServiceError("bad_request", _("Each seat must be you, open, or a bot level."))
    # Bots have ratings too, so they may sit at rated tables; guests never do.
    if rated and any(not isinstance(s, str) and s.is_guest for s in spec):
        raise ServiceError("forbidden", _("Guests play on unrated tables only."))
    now = timezone.now()
    with transaction.atomic():
        table = Table.objects.create(game=game, variant=variant, rated=rated, bank_seconds=bank_seconds,
                                     increment_seconds=increment_seconds, private=private, owner=owner)
        for i, who in enumerate(spec):
            if not isinstance(who, str):
                user = who
            else:
                user = owner if who == "me" else (bot_user(who) if who else None)
            Seat.objects.create(table=table, index=i, user=user, bank_ms=bank_seconds * 1000)
        with _locked(table.pk) as live:
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
    with _locked(table_id) as live:
        t = live.table
        if t.status != Status.WAITING:
            raise ServiceError("bad_request", _("The match has already started."), t.version)
        if t.rated and (user.is_guest or user.is_bot):
            raise ServiceError("forbidden", _("Guests play on unrated tables only."), t.version)
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(live.seats):
            raise ServiceError("bad_request", _("There is no such seat."), t.version)
        if any(s.user_id == user.id for s in live.seats):
            raise ServiceError("bad_request", _("You already sit at this table."), t.version)
        target = live.seats[seat]
        if target.user_id is not None:
            raise ServiceError("bad_request", _("That seat is taken."), t.version)
        target.user = user
        target.save(update_fields=["user"])
        _bump(live, now)
        _broadcast(live, [{"kind": "seat", "seat": seat, "name": user.display_name}], now,
                   resync=True, lobby=True)


def leave(table_id: int, user) -> None:
    now = timezone.now()
    with _locked(table_id) as live:
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
    with _locked(table_id) as live:
        t = live.table
        if t.owner_id != getattr(user, "id", None):
            raise ServiceError("forbidden", _("Only the table's owner can start the match."), t.version)
        if t.status != Status.WAITING:
            raise ServiceError("bad_request", _("The match has already started."), t.version)
        if any(s.user_id is None for s in live.seats):
            raise ServiceError("bad_request", _("Every seat must be taken first."), t.version)
        _start_match(live, now)


def _start_match(live: Live, now: datetime) -> None:
    t = live.table
    players = [_seat_name(s) for s in live.seats]
    engine = EngineMatch.start(t.game, t.variant, players)
    live.match = Match.objects.create(table=t, state=engine.to_dict())
    live.engine = engine
    for s in live.seats:
        s.bank_ms = t.bank_seconds * 1000
        s.turn_started_at = None
        s.save(update_fields=["bank_ms", "turn_started_at"])
    _new_deal(live, now)
    _bump(live, now)
    _broadcast(live, [{"kind": "match_start"}], now, lobby=True)


def _new_deal(live: Live, now: datetime) -> None:
    state = live.engine.new_deal()
    live.deal = Deal.objects.create(match=live.match, number=live.engine.deal_number,
                                    record=state.record())
    live.state = state
    live.table.status = Status.PLAYING
    live.table.next_deal_at = None
    _run_clocks(live, now)


# --- acting ------------------------------------------------------------------------------------------
def act(table_id: int, user, version, action) -> None:
    """A player's action. Refusals raise ServiceError and change nothing."""
    if not isinstance(action, dict):
        raise ServiceError("bad_request", _("An action must be an object with a type."))
    now = timezone.now()
    with _locked(table_id) as live:
        t = live.table
        mine = [s.index for s in live.seats
                if user is not None and user.is_authenticated and s.user_id == user.id and not s.replaced_by_bot]
        if not mine:
            raise ServiceError("spectator", _("Spectators cannot act."), t.version)
        seat = action.get("seat", mine[0])
        if seat not in mine:
            raise ServiceError("not_your_seat", _("You can act only for your own seat."), t.version)
        if not isinstance(version, int) or isinstance(version, bool) or version != t.version:
            raise ServiceError("stale", _("The table has moved on; here is its current state."), t.version)
        if t.status != Status.PLAYING or live.state is None:
            raise ServiceError("bad_request", _("No deal is in progress."), t.version)
        if seat not in live.state.seats_to_act():
            raise ServiceError("not_your_turn", _("It is not your turn."), t.version)
        try:
            _commit_action(live, seat, dict(action, seat=seat), now)
        except IllegalAction as exc:
            raise ServiceError("illegal", reasons.translate(exc.reason), t.version) from None


def _commit_action(live: Live, seat: int, action: dict, now: datetime, extra_events=()) -> None:
    state = live.state
    state.apply(action)                       # IllegalAction leaves everything untouched
    stored = state.action_of(*state.log[-1])
    deal = live.deal
    deal.record["actions"].append(stored)
    _stop_clock(live, live.seats[seat], now)
    events = list(extra_events) + [{"kind": "action", "seat": seat, "action": public_action(stored)}]
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
            live.table.next_deal_at = now + timedelta(milliseconds=settings.GAMES_DEAL_PAUSE_MS)
        live.match.save()
    live.writes.append((deal, ("record", "result", "finished")))
    _run_clocks(live, now)
    _bump(live, now)
    _broadcast(live, events, now, lobby=lobby)


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
    if ended_by == "score":
        ranks = final_ranks(live.engine.ranks(), m.timed_out)
    else:  # a two-player forfeit: the one who timed out loses
        ranks = [2 if s in m.timed_out else 1 for s in range(len(live.seats))]
    m.ranks = ranks
    m.winners = [s for s, r in enumerate(ranks) if r == 1]
    m.finished = True
    m.ended_by = ended_by
    m.finished_at = now
    m.save()
    live.table.status = Status.FINISHED
    live.table.next_deal_at = None
    signals.match_finished.send(sender=Match, match=m, table=live.table)
    return {"kind": "match_end", "winners": m.winners, "ranks": ranks, "ended_by": ended_by,
            "scores": live.engine.scores}


# --- what tasks do: bots, clocks, the next deal -----------------------------------------------------------
def advance(table_id: int, version: int | None = None) -> datetime | None:
    """Do whatever is due at a table without a player: one bot move, a clock expiry or the next
    deal. Idempotent: nothing happens when ``version`` is given and the table has moved on, or
    when nothing is due yet. Returns the table's next due time when it is in the future."""
    now = timezone.now()
    try:
        with _locked(table_id) as live:
            return _advance(live, version, now)
    except ServiceError:        # the table is gone
        return None


def _advance(live: Live, version: int | None, now: datetime) -> datetime | None:
    t = live.table
    if version is not None and t.version != version:
        return None
    if t.due_at is None:
        return None
    if t.due_at > now:
        return t.due_at
    if t.status == Status.BETWEEN_DEALS:
        _new_deal(live, now)
        _bump(live, now)
        _broadcast(live, [{"kind": "deal_start", "deal_number": live.deal.number}], now)
        return None
    if t.status != Status.PLAYING or live.state is None:
        return None
    acting = live.state.seats_to_act()
    for i in acting:
        seat = live.seats[i]
        d = _deadline(seat)
        if not _is_bot_seat(seat) and d is not None and d <= now:
            _time_out(live, i, now)
            return None
    for i in acting:
        seat = live.seats[i]
        if _is_bot_seat(seat):
            view = live.state.view(i)
            action = bots.choose_action(_bot_level(seat.bot_level), view)
            try:
                _commit_action(live, i, dict(action, seat=i), now)
            except IllegalAction as exc:  # a bot bug must not stall the table
                log.error("bot %s chose an illegal action %s: %s", seat.bot_level, action, exc.reason)
                fallback = bots.choose_action("random", view)
                _commit_action(live, i, dict(fallback, seat=i), now)
            return None
    # Nothing was due after all: store the right due time and look again then.
    t.due_at = _due_at(live, now)
    prepared.update(t, ("due_at",))
    _schedule(live)
    return None


def _bot_level(level: str) -> str:
    return level if level in bots.BOTS else "random"


def _time_out(live: Live, seat_index: int, now: datetime) -> None:
    seat = live.seats[seat_index]
    _stop_clock(live, seat, now)
    m = live.match
    m.timed_out = sorted(set(m.timed_out) | {seat_index})
    event = {"kind": "timeout", "seat": seat_index}
    if len(live.seats) == 2:
        m.save()
        events = [event, _finish_match(live, now, "timeout")]
        _run_clocks(live, now)
        _bump(live, now)
        _broadcast(live, events, now, lobby=True)
        return
    level = _bot_level(settings.GAMES_REPLACEMENT_BOT)
    seat.replaced_by_bot = level
    seat.save(update_fields=["replaced_by_bot"])
    m.save()
    event["replaced_by"] = f"bot:{level}"
    _run_clocks(live, now)
    _bump(live, now)
    # The player's socket becomes a spectator's: every socket rebuilds its snapshot.
    _broadcast(live, [event], now, resync=True)


# --- chat and presence ---------------------------------------------------------------------------
def chat(table_id: int, user, text) -> dict:
    if user is None or not user.is_authenticated:
        raise ServiceError("forbidden", _("Log in or play as a guest to chat."))
    if not isinstance(text, str) or not text.strip() or len(text) > 500:
        raise ServiceError("bad_request", _("A chat message has 1 to 500 characters."))
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        raise ServiceError("not_found", _("There is no such table."))
    msg = ChatMessage.objects.create(table=table, user=user, name=user.display_name, text=text.strip())
    payload = send_text({"type": "chat", "message": msg.as_json()})
    n = core.get_rules(table.game).seats
    _on_commit_send([(g, payload) for g in all_groups(table_id, n)])
    return msg.as_json()


def set_connected(table_id: int, seat: int | None, delta: int) -> None:
    """Count a seat's open sockets (shown as "connected"), or the spectators' (seat None); not a
    versioned change. The counts decide which groups a change is sent to (listeners), so they
    are counted under the table's lock: a change in progress has read them already, and a
    socket counted meanwhile would get neither that change's update nor, in the snapshot it
    reads next, its result."""
    with transaction.atomic():
        _select_table(True).fetch(table_id)
        if seat is None:
            Table.objects.filter(pk=table_id).update(spectators=F("spectators") + delta)
        else:
            Seat.objects.filter(table_id=table_id, index=seat).update(connections=F("connections") + delta)


# --- the sweeper ---------------------------------------------------------------------------------
def overdue_tables(grace_seconds: float | None = None) -> list[int]:
    """Tables whose due work is late by more than the grace: a player's clock deadline (those
    get no task) or a lost task. The grace keeps the sweeper from doubling the work of tasks
    that are merely running late on a busy worker (at 0.5 s it did half the worker's bot moves
    a second time in bench/live.py --bots)."""
    if grace_seconds is None:
        grace_seconds = settings.GAMES_SWEEP_GRACE_SECONDS
    limit = timezone.now() - timedelta(seconds=grace_seconds)
    return list(Table.objects.filter(status__in=[Status.PLAYING, Status.BETWEEN_DEALS], due_at__lte=limit)
                .values_list("pk", flat=True)[:500])
