"""A process's table sockets take a move's messages from one subscription per table.

One message per table rather than one per seat's group, because at a few hundred moves a second
the per-socket machinery of Channels (a subscription, a receive task and a dispatch for each
socket's message) would cost a web process more CPU than the game (docs/SCALING.md, "The fan-out: done"):

* ``bundle`` (called by realtime/broadcast.py on every send) folds a commit's messages addressed to
  one table's seats (``ToSeat``, realtime/addresses.py) into one message to the table's group
  ``table.<id>``: each seat's payload under its seat (None: the spectators'), as
  games/messages.py built them;
* ``TableHub``, one per process (per event loop), is that group's only member: it receives the
  table's message once, deserialised once, and hands each local socket the payload of its own
  seat (``TableConsumer.push``). A socket still receives only its seat's text: each update
  says the seat it was built for, which the hub checks against the seat it is listed under and
  the socket against its own seat at the moment it passes it on.

A socket's updates stay in order and a lost one is still noticed (realtime/ordering.py);
after Redis comes back (realtime/layers.py ``_Resubscribed``), or when a committed change was never
published (games/republish.py), the hub tells each socket of the table to resync.
"""
from __future__ import annotations

import asyncio
import logging
import weakref
from typing import Protocol

from .addresses import Message, ToSeat
from .spawn import spawn

log = logging.getLogger(__name__)

EACH = "table.each"      # a bundle: {"type", "table", "version", "to": [[seat, payload], ...]}
BEHIND = "table.behind"  # {"type", "table", "version"}: the table stored a version its sockets were not sent


class Socket(Protocol):
    def push(self, event: dict) -> None: ...


def table_group(table_id: int) -> str:
    return f"table.{table_id}"


def _table_of(group: str) -> int | None:
    """The table id of a ``table_group`` name, else None."""
    prefix, _, rest = group.partition(".")
    return int(rest) if prefix == "table" and rest.isdigit() else None


def bundle(messages: list[Message]) -> list[tuple[str, dict]]:
    """One message per table for a commit's messages addressed to its seats (``ToSeat``), in the
    place of the table's first; every message to a named group as it was."""
    out: list[tuple[str, dict]] = []
    bundles: dict[int, dict] = {}
    for address, payload in messages:
        if type(address) is not ToSeat:
            out.append((address, payload))
            continue
        found = bundles.get(address.table)
        if found is None:
            found = bundles[address.table] = {"type": EACH, "table": address.table, "to": []}
            out.append((table_group(address.table), found))
        found["to"].append([address.seat, payload])
        version = payload.get("version")
        if type(version) is int and version > found.get("version", -1):
            found["version"] = version      # recorded by the scaled layer (games/republish.py)
    return out


class TableHub:
    """This process's member of every table group that has a socket here."""

    def __init__(self, layer):
        self.layer = layer
        self.tables: dict[int, dict[int | None, set[Socket]]] = {}
        self.channel: str | None = None
        self._opening: asyncio.Future | None = None

    _hubs: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[int, TableHub]]" = weakref.WeakKeyDictionary()

    @classmethod
    def of(cls, layer) -> "TableHub":
        """The hub of this event loop and layer (a loop's layer connections are its own)."""
        per_layer = cls._hubs.setdefault(asyncio.get_running_loop(), {})
        hub = per_layer.get(id(layer))
        if hub is None or hub.layer is not layer:
            hub = per_layer[id(layer)] = cls(layer)
        return hub

    async def join(self, table_id: int, seat: int | None, socket: Socket) -> None:
        """Deliver the table's messages for ``seat`` to ``socket`` from now on: subscribed when
        this returns, so a snapshot read after it misses nothing."""
        await self._open()
        seats = self.tables.setdefault(table_id, {})
        seats.setdefault(seat, set()).add(socket)
        # Every time, not only for the table's first socket here: a join racing the first one's
        # subscription (or the last one's unsubscription) returns only once subscribed.
        await self.layer.group_add(table_group(table_id), self.channel)

    async def leave(self, table_id: int, seat: int | None, socket: Socket) -> None:
        seats = self.tables.get(table_id)
        if seats is None:
            return
        sockets = seats.get(seat)
        if sockets is not None:
            sockets.discard(socket)
            if not sockets:
                del seats[seat]
        if not seats:
            del self.tables[table_id]
            await self.layer.group_discard(table_group(table_id), self.channel)

    async def _open(self) -> None:
        if self._opening is None:
            self._opening = asyncio.ensure_future(self._start())
        await asyncio.shield(self._opening)

    async def _start(self) -> None:
        self.channel = await self.layer.new_channel()
        # Lives as long as the loop: the hub's channel is gone once its receive is cancelled.
        spawn(self._read(self.channel))

    async def _read(self, channel: str) -> None:
        while True:
            message = await self.layer.receive(channel)
            try:
                self.deliver(message)
            except Exception:       # one bad message must not stop every table of the process
                log.exception("a table message could not be delivered: %r", message.get("type"))

    def deliver(self, message: dict) -> None:
        kind = message.get("type")
        if kind == EACH:
            seats = self.tables.get(message["table"])
            if not seats:
                return
            for seat, payload in message["to"]:
                if payload.get("seat", seat) != seat:
                    # A text built for one seat listed under another (games/messages.py stamps
                    # each update with its seat): never handed to anyone.
                    log.error("table %s: an update for seat %s was listed for seat %s; dropped",
                              message["table"], payload.get("seat"), seat)
                    continue
                for socket in list(seats.get(seat, ())):
                    socket.push(payload)
        elif kind == BEHIND:
            # A committed version never published (games/republish.py): each socket shown less resyncs.
            for sockets in list(self.tables.get(message["table"], {}).values()):
                for socket in list(sockets):
                    socket.push({"type": BEHIND, "version": message["version"]})
        elif kind == "table.lost":
            # The layer's subscriptions were renewed (realtime/layers.py): every socket of the table.
            for sockets in list(self.tables.get(_table_of(message.get("group", "")), {}).values()):
                for socket in list(sockets):
                    socket.push({"type": "table.lost"})
        else:
            log.warning("the table hub got a %r message", kind)
