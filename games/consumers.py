"""Table and lobby sockets. Thin: authorise, parse, call games/services.py, relay what it sends
(games/messages.py builds every message a socket receives).

Each table socket takes its seat's messages (or the spectators') from the process's table hub
(realtime/hub.py), so it only ever receives its own seat's view. Around it: realtime/socket_base.py
(the thread pool, per-connection limits), realtime/outbox.py (what the hub pushed, in
order), realtime/ordering.py (updates in version order, a resync after a lost one),
games/socket_hooks.py (what other apps add: moderation's commands and mutes) and realtime/stages.py
(a move's hops timed, for bench/live.py --stages only).
"""
from __future__ import annotations

import asyncio
import logging
import time
from urllib.parse import parse_qs

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _

from . import hints, loading, messages, presence, services, signals, socket_hooks, thinking
from realtime import broadcast, language, outages, socket_base, socket_guard, stages
from .engine.core import GAME_NAMES
from .web_process import shutdown
from realtime.errors import ServiceError
from realtime.hub import BEHIND, TableHub
from .models import Table
from realtime.ordering import UpdateOrder
from realtime.outbox import Outbox
from realtime.socket_base import CLIENT_GONE, ThinConsumer, in_thread
from realtime.spawn import spawn
from .sync_pace import SyncPace

log = logging.getLogger(__name__)
SLOW_SECONDS = 2.0      # a message slower than this to apply and send is logged
FORBIDDEN = 4403
NOT_FOUND = 4404
UNPLACED = object()     # a socket with no presence record yet (games/presence.py)


class TableConsumer(ThinConsumer):
    """One socket at one table. Service calls run on worker threads (``thread_sensitive=False``),
    so the tables of a process proceed in parallel instead of queueing on Channels' one sync
    thread; what a call commits is sent from this loop (realtime/broadcast.py)."""

    seat: int | None = None     # the seat whose messages it takes from the hub (None: spectators')
    joined = False              # whether it takes them yet
    order: UpdateOrder | None = None     # its updates in version order (realtime/ordering.py)
    # Where this socket's presence record says it listens (games/presence.py), once placed; and
    # whether it has closed: a closed socket is never joined or placed again (see _forget).
    placed: object = UNPLACED
    placing: asyncio.Future | None = None    # the last write of its record (until it is removed)
    closed = False
    forgotten = False       # taken off the hub and its record (see _forget)
    companions: list = []   # what other apps keep beside this socket (games/socket_hooks.py)

    @property
    def version(self) -> int | None:
        """The table version this socket's last snapshot or update showed."""
        return None if self.order is None else self.order.version

    # --- connection ---------------------------------------------------------------------------
    async def connect(self):
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.user = self.scope.get("user")
        self.language = language.of_scope(self.scope)
        query = parse_qs(self.scope.get("query_string", b"").decode())
        self.invite = (query.get("invite") or [None])[0]
        self.prepare()
        refusal = await in_thread(self._refusal)()
        if refusal is not None:
            await socket_guard.refuse(self, *refusal)
            return
        await self.accept()
        for companion in self.companions:   # before the snapshot: its chat and later lines agree
            await companion.opened()
        await self._resync(kind="snapshot")

    def prepare(self) -> None:
        """What a socket keeps from the start: its outbox, its updates' order, its companions."""
        name = f"table {self.table_id}"
        self.outbox = Outbox(self._from_hub, name)
        self.order = UpdateOrder(self._resync, name)
        # Held while a snapshot is read and sent, and while an update is passed on: the hub's
        # messages do not come through Channels' one-at-a-time dispatch (see push).
        self.view_lock = asyncio.Lock()
        self.sync_pace = SyncPace(settings.SYNC_SECONDS)      # a sync's snapshot at most once a second
        self.companions = socket_hooks.companions_of(self)
        self.events = {kind: c.handle for c in self.companions for kind in c.events}

    def _refusal(self) -> tuple[int, str] | None:
        with translation.override(self.language):
            table = Table.objects.filter(pk=self.table_id).first()
            if table is None:
                return NOT_FOUND, _("There is no such table.")
            if not loading.can_watch(table, self.user, self.invite):
                return FORBIDDEN, _("You may not watch this private table.")
        return None

    async def __call__(self, scope, receive, send):
        """Whatever ends this consumer, its presence record goes with it: also when the server
        kills it, as Daphne does with a consumer whose close takes longer than its
        application_close_timeout (a loaded database), before or during ``disconnect``."""
        try:
            await super().__call__(scope, receive, send)
        finally:
            if not self.forgotten:
                spawn(self._forget())

    async def disconnect(self, code):
        self.closed = True
        for companion in self.companions:
            await companion.closed()
        await self._forget()

    async def _forget(self) -> None:
        """Take the socket off the hub and its presence record (again, harmlessly, if it was
        cut short). Under the view lock: a resync in progress (one its own leave or sit queued,
        say) finishes first and is then undone here, and none starts after (``closed``), so a
        closed socket is never counted anywhere."""
        self.closed = True
        lock = getattr(self, "view_lock", None)
        if lock is None:        # refused before it was set up
            self.forgotten = True
            return
        async with lock:
            self.sync_pace.stop()
            self.outbox.clear()         # nothing runs for a closed socket
            self.order.stop()
            seat = self.seat
            if self.joined:
                await TableHub.of(self.channel_layer).leave(self.table_id, self.seat, self)
                self.joined = False
            if self.placing is not None:
                await asyncio.gather(self.placing, return_exceptions=True)   # a record being written is written first
                if not shutdown.keeps_records():        # a restart: kept for the reconnect (web_process/shutdown.py)
                    await broadcast.send(self.channel_layer, await in_thread(self._placed)(None, is_open=False))
                self.placing, self.placed = None, UNPLACED
        if seat is not None and not shutdown.keeps_records():
            await broadcast.send(self.channel_layer, await in_thread(self._left)())
        self.forgotten = True

    def _left(self) -> list:
        """A player who leaves a finished table cancels its open rematch offer: what that sends."""
        with translation.override(self.language), broadcast.collecting() as sent:
            try:
                services.rematch_left(self.table_id, self.seat)
            except ServiceError:        # the table is gone
                pass
        return sent

    async def _join(self, seat: int | None) -> None:
        """Take ``seat``'s messages (None: the spectators') from the hub, then say so in this
        socket's presence record (joined first: a change counted after it reaches it)."""
        if not self.joined or seat != self.seat:
            hub = TableHub.of(self.channel_layer)
            if self.joined:
                await hub.leave(self.table_id, self.seat, self)
            await hub.join(self.table_id, seat, self)
            self.joined, self.seat = True, seat
        if self.placed != seat:
            # A task of its own, which a kill of this consumer does not stop: _forget waits for it.
            self.placing = asyncio.ensure_future(in_thread(self._placed)(seat))
            await broadcast.send(self.channel_layer, await asyncio.shield(self.placing))
            self.placed = seat

    def _placed(self, seat: int | None, *, is_open: bool = True) -> list:
        """Set (or, closed, remove) this socket's presence record: what a player's first socket
        opening or his last closing sends the table (services.seat_presence_changed)."""
        with translation.override(self.language), broadcast.collecting() as sent:
            if is_open:
                presence.place(self.table_id, self.channel_name, seat)
            else:
                presence.remove(self.table_id, self.channel_name)
        return sent

    async def _resync(self, kind="snapshot", events=None) -> None:
        """Join the right seat at the hub, then send a full snapshot (joining first: nothing is
        missed). Without the database the socket is told so (``unavailable``), not closed."""
        async with self.view_lock:
            if not self.closed:
                await self._resync_locked(kind, events)

    async def _resync_locked(self, kind, events) -> None:
        try:
            msg, seat = await in_thread(self._snapshot)()
            # Until the snapshot read after joining shows the seat joined: the seat can change
            # meanwhile (a sit or leave committed between the two reads, whose resync went to the
            # seat left), and a socket must never show one seat while it listens at another.
            while seat != self.seat or not self.joined or self.placed != seat:
                await self._join(seat)
                msg, seat = await in_thread(self._snapshot)()
        except outages.UNAVAILABLE as exc:
            log.warning("table %s: the database or Redis is unavailable", self.table_id, exc_info=True)
            await self.send_json(outages.error(exc, self.language, self.version))
            return
        msg["type"] = kind
        if events:
            msg["event"] = events[-1]
            msg["events"] = events
        await self.send_json(msg)
        self.order.shown(msg["version"])
        self.sync_pace.sent()

    def _snapshot(self):
        with translation.override(self.language):
            return messages.snapshot(self.table_id, self.user)

    # --- from the client ------------------------------------------------------------------------
    async def receive(self, text_data=None, bytes_data=None):
        if await self.over_limit(self.version):
            return
        if text_data == socket_base.PING:
            await self.send(text_data=socket_base.PONG)
            return
        data, kind = socket_base.parse(text_data, bytes_data)
        if kind == "sync":
            await self.sync_pace.ask(self._resync)
            return
        command = socket_hooks.command(kind)
        if command is not None:
            await self._command(command, data)
            return
        if kind == "hint":
            # A task of its own: the socket's next messages (the player's play) need not wait
            # for the search.
            spawn(self._hint())
            return
        started = time.monotonic()
        sent, error = await self.apply_and_publish(data)
        took = time.monotonic() - started
        if kind == "action" and error is None:
            signals.move_answered.send(sender=Table, seconds=took)
        if took > SLOW_SECONDS:
            log.warning("table %s: a %s message took %.1f s to apply and send (%d messages)",
                        self.table_id, kind if isinstance(kind, str) else "bad", took, len(sent))
        if error is not None:
            await self.send_json(error)
            if error["code"] == "stale":
                await self._resync()

    async def apply_and_publish(self, data) -> tuple[list, dict | None]:
        """Apply one client message on a worker thread, then send what its commit produced: those
        messages, and the error to answer with (None when it was applied). With bench/live.py
        --stages, the same step with each hop timed takes its place (at the end of this module)."""
        sent, error = await _apply_in_thread(self, data)
        await broadcast.send(self.channel_layer, sent)
        return sent, error

    def _apply(self, data) -> tuple[list, dict | None]:
        with translation.override(self.language), broadcast.collecting() as sent:
            try:
                if data is None:
                    raise ServiceError("bad_json", _("That message is not valid JSON."))
                if not isinstance(data, dict) or not isinstance(data.get("type"), str):
                    raise ServiceError("bad_request", _("A message must be an object with a type."))
                handler = self.HANDLERS.get(data["type"])
                if handler is None:
                    raise ServiceError("unknown_type", _("Unknown message type."))
                if (data["type"] != "chat" and self.scope.get("bot_token") is None
                        and getattr(self.user, "is_bot_account", False)):
                    # A bot account plays through the bot API (docs/BOTS.md), not the browser's table.
                    raise ServiceError("bot_account", _("A bot account plays through the bot API with its "
                                                        "token, not in the browser."), category="forbidden")
                handler(self, data)
            except ServiceError as err:
                return sent, self._error(err)
            except outages.UNAVAILABLE as exc:
                # The database or Redis is out of reach (restarting, say): the change was rolled
                # back whole (were its COMMIT's answer what got lost, a retry finds the table moved
                # on: stale). Answered, not a crash of the socket; the client may try again.
                log.warning("table %s: the database or Redis is unavailable", self.table_id, exc_info=True)
                return sent, outages.error(exc, self.language, self.version)
        return sent, None

    def _error(self, err: ServiceError) -> dict:
        signals.refused.send(sender=ServiceError, code=err.code)
        version = err.version
        if version is None:
            version = Table.objects.filter(pk=self.table_id).values_list("version", flat=True).first()
        return err.as_json(version)

    def on_action(self, data):
        services.act(self.table_id, self.user, data.get("version"), data.get("action"))

    def on_sit(self, data):
        services.sit(self.table_id, self.user, data.get("seat"))

    def on_leave(self, data):
        services.leave(self.table_id, self.user)

    def on_start(self, data):
        services.start(self.table_id, self.user)

    def on_chat(self, data):
        services.chat(self.table_id, self.user, data.get("text"))

    def on_rematch(self, data):
        services.rematch(self.table_id, self.user, data.get("version"), data.get("answer"))

    def on_claim_win(self, data):
        services.claim_win(self.table_id, self.user, data.get("version"))

    def on_resign(self, data):
        services.resign(self.table_id, self.user, data.get("version"))

    def on_abort(self, data):
        services.abort(self.table_id, self.user, data.get("version"))

    def on_claim_rest(self, data):
        services.claim_rest(self.table_id, self.user, data.get("version"))

    def on_seed(self, data):
        services.seed(self.table_id, self.user, data.get("commitment"), data.get("seed"))

    HANDLERS = {"action": on_action, "sit": on_sit, "leave": on_leave, "start": on_start,
                "chat": on_chat, "rematch": on_rematch, "claim_win": on_claim_win,
                "seed": on_seed, "resign": on_resign, "abort": on_abort, "claim_rest": on_claim_rest}

    # --- hints (games/hints.py) -------------------------------------------------------------------
    hinting = False

    async def _hint(self) -> None:
        """Answer this socket alone with the strong bot's verdict on its seat's options. The hint is
        taken (checked and counted) under the table's lock on a database thread; the search runs
        after, on no database thread and with no lock (the bot processes, or the hint thread),
        while this consumer awaits it; one hint at a time per socket."""
        if self.hinting:
            with translation.override(self.language):
                await self.send_json(ServiceError("hint_busy", _("A hint is being worked out already."),
                                                  self.version, category="rate_limited").as_json(self.version))
            return
        self.hinting = True
        try:
            taken, error = await in_thread(self._take_hint)()
            if error is not None:
                await self.send_json(error)
                return
            evaluations = await asyncio.wrap_future(
                thinking.hint_search(taken["view"], taken["options"], hints.BUDGET_MS))
            if not self.closed:
                await self.send_json(hints.answer(taken["version"], evaluations))
        except CLIENT_GONE:
            pass
        except Exception:       # a failed search must not end the socket; the player may ask again
            log.exception("table %s: a hint failed", self.table_id)
        finally:
            self.hinting = False

    def _take_hint(self) -> tuple[dict | None, dict | None]:
        with translation.override(self.language):
            try:
                return services.take_hint(self.table_id, self.user), None
            except ServiceError as err:
                return None, self._error(err)
            except outages.UNAVAILABLE as exc:
                log.warning("table %s: the database or Redis is unavailable", self.table_id, exc_info=True)
                return None, outages.error(exc, self.language, self.version)

    # --- what other apps add (games/socket_hooks.py) ------------------------------------------------
    async def _command(self, command, data) -> None:
        sent, reply = await in_thread(self._run_command)(command, data)
        await broadcast.send(self.channel_layer, sent)
        if reply is not None:
            await self.send_json(reply)

    def _run_command(self, command, data) -> tuple[list, dict | None]:
        """An app's command (moderation's ``mute``, say): what its commit sends, and the reply or
        the error to answer with."""
        with translation.override(self.language), broadcast.collecting() as sent:
            try:
                return sent, command(socket_hooks.Asker(self.user, self.table_id), data)
            except ServiceError as err:
                return sent, self._error(err)

    def other_handler(self, message):
        """A layer message to this socket's channel that a companion takes (moderation's
        ``user.mutes``)."""
        return self.events.get(message.get("type")) if self.companions else None

    # --- from the hub ---------------------------------------------------------------------------------
    def push(self, event: dict) -> None:
        """A message for this socket from the table hub (realtime/hub.py): passed on in the order
        pushed, by one task at a time (realtime/outbox.py)."""
        if not self.closed:
            self.outbox.push(event)

    async def _from_hub(self, event: dict) -> None:
        kind = event.get("type")
        if kind == "table.send":
            async with self.view_lock:
                await self._table_send(event)
        elif kind == "table.resync":
            await self._resync(kind="update", events=event.get("events"))
        elif kind == "table.lost":
            await self._lost()
        elif kind == BEHIND:
            await self._behind(event["version"])
        else:
            log.warning("table %s: the hub pushed a %r message", self.table_id, kind)

    async def _table_send(self, event):
        """Pass a message on: chat unless a companion hides it; updates in version order
        (realtime/ordering.py), after checking each was built for this socket's seat."""
        version = event.get("version")
        order = self.order
        if version is None or order.version is None:     # chat
            if self.companions and any(c.hides(event) for c in self.companions):
                return
            await self.send(text_data=event["text"])
            return
        if order.is_old(version):
            return
        if event.get("seat", self.seat) != self.seat:
            # Built for another seat: never passed on. Cannot happen (the hub hands a socket its
            # own seat's texts, and a socket changes seat only under this lock); if it ever does,
            # it is a defect to see in the logs, and the socket starts again from its own snapshot.
            log.error("table %s: an update for seat %s reached a socket of seat %s; it resyncs instead",
                      self.table_id, event.get("seat"), self.seat)
            await self._resync_locked("snapshot", None)
            return
        for text in order.admit(version, event["text"]):
            await self.send(text_data=text)

    async def _behind(self, version: int):
        """The table stored ``version`` and its publication was lost (games/republish.py): a
        socket shown less starts again from a fresh snapshot. One not shown anything yet is about
        to read its first."""
        shown = self.order.version
        if shown is not None and shown < version:
            log.warning("table %s: version %s was never sent; resending a snapshot", self.table_id, version)
            await self._resync()

    async def _lost(self):
        """This process's Redis subscriptions were renewed (realtime/layers.py): what was published
        meanwhile is lost, so the socket starts again from a fresh snapshot."""
        for companion in self.companions:       # what they keep may have changed meanwhile too
            await companion.lost()
        await self._resync()


class LobbyConsumer(ThinConsumer):
    async def connect(self):
        self.game = self.scope["url_route"]["kwargs"]["game"]
        if self.game not in GAME_NAMES:
            with translation.override(language.of_scope(self.scope)):
                await socket_guard.refuse(self, NOT_FOUND, _("There is no such game."))
            return
        self.group = messages.lobby_group(self.game)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        tables = await in_thread(messages.lobby_tables)(self.game)
        await self.send_json({"type": "tables", "tables": tables})

    async def disconnect(self, code):
        if getattr(self, "group", None):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        if await self.over_limit():
            return
        if text_data == socket_base.PING:
            await self.send(text_data=socket_base.PONG)
            return
        await self.send_json({"type": "error", "code": "unknown_type",
                              "reason": "The lobby socket only sends.", "version": None})

    async def lobby_send(self, event):
        await self.send_json({"type": "tables", "tables": event["tables"]})


# Built once: the per-call construction of the wrapper showed in the loop's profile.
_apply_in_thread = in_thread(TableConsumer._apply)

if stages.ENABLED:      # bench/live.py --stages: the same step, each hop timed (off: not even a flag read)
    TableConsumer.apply_and_publish = stages.timed(TableConsumer._apply, in_thread, broadcast.send)
