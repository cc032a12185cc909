"""Table and lobby sockets. Thin: authorise, parse, call games/services.py, relay what it sends
(games/messages.py builds every message a socket receives).

Each table socket takes its seat's messages (or the spectators') from the process's table hub
(games/hub.py), so it only ever receives its own seat's view.
"""
from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import parse_qs

from autobahn.exception import Disconnected   # raised by Daphne's websocket library
from uvicorn.protocols.utils import ClientDisconnected   # uvicorn's (an OSError, as ASGI asks)
from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.sessions import InstanceSessionWrapper
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _

from moderation import mutes, services as moderation

from . import (broadcast, hints, limits, loading, messages, outages, presence, services, shutdown, socket_guard,
               stages, thinking, wire)
from .hub import TableHub
from .language import of_scope as _language     # one line: the socket path is being rewritten
from .engine.core import GAME_NAMES
from .models import Table
from .errors import ServiceError

log = logging.getLogger(__name__)
SLOW_SECONDS = 2.0      # a message slower than this to apply and send is logged
GAP_SECONDS = 1.0       # an update that came ahead of a missing one waits this long for it
FORBIDDEN = 4403
NOT_FOUND = 4404
FLOODING = limits.FLOODING     # 4429: kept sending over its limit (games/limits.py)
UNPLACED = object()     # a socket with no presence record yet (games/presence.py)
CLIENT_GONE = (Disconnected, ClientDisconnected)    # a send to a socket whose client has left


# Blocking work (the database, the engine) runs off the event loop on this pool. SQLite has one
# writer at a time, so the embedded mode uses one thread: more only convoy on the write turn and
# the GIL. PostgreSQL works in parallel, so scaled mode uses a few (DB_THREADS).
_db_pool = ThreadPoolExecutor(max_workers=settings.GAMES_DB_THREADS, thread_name_prefix="db")


def in_thread(func):
    return database_sync_to_async(func, thread_sensitive=False, executor=_db_pool)


class ThinConsumer(socket_guard.Guarded, AsyncWebsocketConsumer):
    """Channels (4.2+) hops to its sync thread before every message a consumer handles, to close
    stale database connections. These consumers never touch the database on the event loop:
    their database work runs through ``in_thread``, which closes stale connections around each
    call itself. Skipping the hop halved the loop's work per message (bench/live.py, py-spy)."""

    async def dispatch(self, message):
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        try:
            await handler(message)
        except CLIENT_GONE:
            # The client closed while something was on its way to it (a player leaving a finished
            # table for its rematch). Raised on, it would end this consumer before its
            # websocket.disconnect, whose handler takes the socket off its seat's count.
            pass

    async def send_json(self, content):
        await self.send(text_data=wire.dumps(content))

    async def send(self, text_data=None, bytes_data=None, close=False):
        """A text frame goes straight to the server. Channels' session middleware wraps every
        send to save a session changed during an HTTP response, and reads the session's state
        for each websocket frame too (1.5% of a web process at 250 tables, bench/live.py
        --py-spy); a frame carries no cookie, so nothing is saved for it."""
        if text_data is None or close:
            await super().send(text_data, bytes_data, close)
            return
        send = self.base_send
        wrapper = getattr(send, "__self__", None)
        if isinstance(wrapper, InstanceSessionWrapper):
            send = wrapper.real_send
        await send({"type": "websocket.send", "text": text_data})

    limiter: limits.SocketLimiter | None = None

    async def over_limit(self, version: int | None = None) -> bool:
        """Whether the message just received is over this connection's limit (games/limits.py):
        then it is answered with the error ``rate_limited``, or the flooding socket is closed."""
        if self.limiter is None:
            self.limiter = limits.SocketLimiter()
        verdict = self.limiter.check()
        if verdict == limits.SocketLimiter.OK:
            return False
        if verdict == limits.SocketLimiter.CLOSE:
            await self.close(code=FLOODING)
        elif verdict == limits.SocketLimiter.REFUSE:
            with translation.override(_language(self.scope)):
                await self.send_json(self.limiter.error(version))
        return True


class TableConsumer(ThinConsumer):
    """One socket at one table. Service calls run on worker threads (``thread_sensitive=False``),
    so the tables of a process proceed in parallel instead of queueing on Channels' one sync
    thread; what a call commits is sent from this loop (games/broadcast.py)."""

    group: str | None = None      # the seat's (or spectators') group it takes messages for, once joined
    seat: int | None = None
    # The table version this socket's last snapshot or update showed, and updates that came
    # ahead of a missing one (by version): see table_send.
    version: int | None = None
    held: dict[int, str]
    gap_check_pending = False
    # Where this socket's presence record says it listens (games/presence.py), once placed; and
    # whether it has closed: a closed socket is never joined or placed again (see _forget).
    placed: object = UNPLACED
    placing: asyncio.Future | None = None    # the last write of its record (until it is removed)
    closed = False
    forgotten = False       # taken off its group and its record (see _forget)

    # --- connection ---------------------------------------------------------------------------
    async def connect(self):
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.held = {}
        self.outbox: deque[dict] = deque()
        self.pusher: asyncio.Task | None = None
        # Held while a snapshot is read and sent, and while an update is passed on: the hub's
        # messages do not come through Channels' one-at-a-time dispatch (see push).
        self.view_lock = asyncio.Lock()
        self.user = self.scope.get("user")
        self.language = _language(self.scope)
        query = parse_qs(self.scope.get("query_string", b"").decode())
        self.invite = (query.get("invite") or [None])[0]
        refusal = await in_thread(self._refusal)()
        if refusal is not None:
            await socket_guard.refuse(self, *refusal)
            return
        await self.accept()
        await self._watch_mutes()       # before the snapshot: its chat and later lines agree
        await self._resync(kind="snapshot")

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
                asyncio.ensure_future(self._forget())

    async def disconnect(self, code):
        self.closed = True
        if self.user_group:
            await self.channel_layer.group_discard(self.user_group, self.channel_name)
        await self._forget()

    async def _forget(self) -> None:
        """Take the socket off its group and its presence record (again, harmlessly, if it was
        cut short). Under the view lock: a resync in progress (one its own leave or sit queued,
        say) finishes first and is then undone here, and none starts after (``closed``), so a
        closed socket is never counted anywhere."""
        self.closed = True
        lock = getattr(self, "view_lock", None)
        if lock is None:        # refused before it was set up
            self.forgotten = True
            return
        async with lock:
            self._stop_pushing()
            seat = self.seat
            if self.group:
                await TableHub.of(self.channel_layer).leave(self.table_id, self.seat, self)
                self.group = None
            if self.placing is not None:
                await asyncio.gather(self.placing, return_exceptions=True)   # a record being written is written first
                if not shutdown.keeps_records():        # a restart: kept for the reconnect (games/shutdown.py)
                    await broadcast.send(self.channel_layer, await in_thread(self._placed)(None, is_open=False))
                self.placing, self.placed = None, UNPLACED
        if seat is not None and not shutdown.keeps_records():
            await broadcast.send(self.channel_layer, await in_thread(self._left)())
        self.forgotten = True

    def _stop_pushing(self) -> None:
        """Drop what the hub pushed that is not passed on yet: nothing runs for a closed socket."""
        self.outbox.clear()
        pusher = self.pusher
        if pusher is not None and pusher is not asyncio.current_task():
            pusher.cancel()
        self.pusher = None

    def _left(self) -> list:
        """A player who leaves a finished table cancels its open rematch offer: what that sends."""
        with translation.override(self.language), broadcast.collecting() as sent:
            try:
                services.rematch_left(self.table_id, self.seat)
            except ServiceError:        # the table is gone
                pass
        return sent

    async def _join(self, seat: int | None) -> None:
        """Take the messages of ``seat``'s group (None: the spectators') from the hub, then say so in
        this socket's presence record (joined first: a change counted after it reaches it)."""
        group = messages.group_of(self.table_id, seat)
        if group != self.group:
            hub = TableHub.of(self.channel_layer)
            if self.group:
                await hub.leave(self.table_id, self.seat, self)
            await hub.join(self.table_id, seat, self)
            self.group, self.seat = group, seat
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
        """Join the right group, then send a full snapshot (joining first: nothing is missed).
        Without the database the socket is told so (``unavailable``), not closed."""
        async with self.view_lock:
            if not self.closed:
                await self._resync_locked(kind, events)

    async def _resync_locked(self, kind, events) -> None:
        try:
            msg, seat = await in_thread(self._snapshot)()
            # Until the snapshot read after joining shows the seat joined: the seat can change
            # meanwhile (a sit or leave committed between the two reads, whose resync went to the
            # group left), and a socket must never show one seat while it listens at another.
            while seat != self.seat or self.group is None or self.placed != seat:
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
        self.version = msg["version"]
        self.held = {}

    def _snapshot(self):
        with translation.override(self.language):
            return messages.snapshot(self.table_id, self.user)

    # --- from the client ------------------------------------------------------------------------
    async def receive(self, text_data=None, bytes_data=None):
        if await self.over_limit(self.version):
            return
        try:
            data = wire.loads(text_data if text_data is not None else bytes_data)
        except (TypeError, ValueError):
            data = None
        if isinstance(data, dict) and data.get("type") == "sync":
            await self._resync()
            return
        if isinstance(data, dict) and data.get("type") in self.MODERATION:
            await self._moderate(data)
            return
        if isinstance(data, dict) and data.get("type") == "hint":
            # A task of its own: the socket's next messages (the player's play) need not wait
            # for the search.
            asyncio.ensure_future(self._hint())
            return
        started = time.monotonic()
        timing = stages.Move() if stages.ENABLED else None
        sent, error = await _handle_in_thread(self, data, timing)
        if timing is not None:
            timing.back_on_loop()
        await broadcast.send(self.channel_layer, sent)
        if timing is not None:
            stages.record(timing)
        took = time.monotonic() - started
        if took > SLOW_SECONDS:
            log.warning("table %s: a %s message took %.1f s to apply and send (%d messages)",
                        self.table_id, data.get("type") if isinstance(data, dict) else "bad", took, len(sent))
        if error is not None:
            await self.send_json(error)
            if error["code"] == "stale":
                await self._resync()

    def _handle(self, data, timing: stages.Move | None = None) -> tuple[list, dict | None]:
        """Run one client message through the services on a worker thread: the messages its
        commit produced, and the error to answer with (None when it was applied)."""
        if timing is None:
            return self._apply(data)
        with timing.in_thread():
            return self._apply(data)

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

    def on_seed(self, data):
        services.seed(self.table_id, self.user, data.get("commitment"), data.get("seed"))

    HANDLERS = {"action": on_action, "sit": on_sit, "leave": on_leave, "start": on_start,
                "chat": on_chat, "rematch": on_rematch, "claim_win": on_claim_win,
                "seed": on_seed}

    # --- from the group -----------------------------------------------------------------------------
    def push(self, event: dict) -> None:
        """A message for this socket from the table hub (games/hub.py): passed on in the order
        pushed, by one task at a time, so that a client slow to read holds up only itself."""
        if self.closed:
            return
        self.outbox.append(event)
        if self.pusher is None:
            self.pusher = asyncio.ensure_future(self._push_outbox())

    async def _push_outbox(self) -> None:
        try:
            while self.outbox:
                event = self.outbox.popleft()
                try:
                    await getattr(self, get_handler_name(event))(event)
                except CLIENT_GONE:
                    pass
                except Exception:
                    log.exception("table %s: a %s message could not be passed on", self.table_id, event.get("type"))
        finally:
            self.pusher = None

    async def table_send(self, event):
        async with self.view_lock:
            await self._table_send(event)

    async def _table_send(self, event):
        """Pass a group message on; updates in version order. Each process publishes what it
        commits, so a quick change committed by one (a Celery worker's bot move) can reach Redis
        before the change committed just before it by another (a Daphne busy elsewhere): the
        later one waits here for the earlier, and after GAP_SECONDS (a lost message) the socket
        gets a fresh snapshot instead. Updates its snapshot already showed are dropped."""
        version = event.get("version")
        if version is None or self.version is None:     # chat
            if event.get("author") in self.muted:       # a player this user muted
                return
            await self.send(text_data=event["text"])
            return
        if version <= self.version:
            return
        if event.get("seat", self.seat) != self.seat:
            # Built for another seat: never passed on. Cannot happen (the hub hands a socket its
            # own seat's texts, and a socket changes seat only under this lock); if it ever does,
            # it is a defect to see in the logs, and the socket starts again from its own snapshot.
            log.error("table %s: an update for seat %s reached a socket of seat %s; it resyncs instead",
                      self.table_id, event.get("seat"), self.seat)
            await self._resync_locked("snapshot", None)
            return
        if version > self.version + 1:
            self.held[version] = event["text"]
            self._check_gap_later()
            return
        await self.send(text_data=event["text"])
        self.version = version
        while (text := self.held.pop(self.version + 1, None)) is not None:
            await self.send(text_data=text)
            self.version += 1

    def _check_gap_later(self) -> None:
        if self.gap_check_pending:
            return
        self.gap_check_pending = True
        message = {"type": "table.gap", "version": self.version}

        async def ask():
            # Through the layer, so that the check is dispatched in turn with everything else.
            try:
                await self.channel_layer.send(self.channel_name, message)
            except Exception:       # the layer is down: not pending, or no gap would be checked again
                self.gap_check_pending = False
                log.warning("table %s: could not schedule a gap check", self.table_id, exc_info=True)
        asyncio.get_running_loop().call_later(GAP_SECONDS, lambda: asyncio.ensure_future(ask()))

    async def table_gap(self, event):
        self.gap_check_pending = False
        if not self.held:
            return
        if self.version == event["version"]:        # still missing the same update
            log.warning("table %s: update %s never came; resending a snapshot", self.table_id, self.version + 1)
            await self._resync()
        else:
            self._check_gap_later()

    async def table_resync(self, event):
        await self._resync(kind="update", events=event.get("events"))

    async def table_lost(self, event):
        """This process's Redis subscriptions were renewed (games/layers.py): what was published
        meanwhile is lost, so the socket starts again from a fresh snapshot."""
        if self.user_group:         # a change of his mutes may have been lost too (moderation)
            self.muted = await in_thread(mutes.muted_ids)(self.user.pk)
        await self._resync()

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
            except (OperationalError, InterfaceError):
                log.warning("table %s: the database is unavailable", self.table_id, exc_info=True)
                return None, self._unavailable()

    # --- mutes and reports (moderation/) ----------------------------------------------------------
    # A muted player's chat never reaches the muter's sockets: each socket of a user keeps the set
    # of players he muted (``table_send`` drops their lines; the snapshot leaves them out) and is
    # in his own group (messages.user_group), where moderation/services.py announces a change of
    # his mutes from whichever process made it (a socket, his profile page): each reloads the set.
    MODERATION = ("mute", "unmute", "report")
    muted: frozenset = frozenset()
    user_group: str | None = None

    async def _watch_mutes(self) -> None:
        if not getattr(self.user, "is_authenticated", False):
            return
        self.user_group = messages.user_group(self.user.pk)
        await self.channel_layer.group_add(self.user_group, self.channel_name)
        self.muted = await in_thread(mutes.muted_ids)(self.user.pk)     # after joining: no change missed

    async def user_mutes(self, event):
        """This user's mutes changed: reload them; the client hides the lines of those now muted."""
        self.muted, names = await in_thread(mutes.muted)(self.user.pk)
        await self.send_json({"type": "muted", "muted": names})

    async def _moderate(self, data) -> None:
        sent, reply = await in_thread(self._moderation)(data)
        await broadcast.send(self.channel_layer, sent)
        if reply is not None:
            await self.send_json(reply)

    def _moderation(self, data) -> tuple[list, dict | None]:
        """``mute``/``unmute`` (answered through the user's group, see ``user_mutes``) or ``report``
        (answered ``reported``): what the commit sends, and the reply or error."""
        with translation.override(self.language), broadcast.collecting() as sent:
            try:
                if data["type"] == "mute":
                    moderation.mute(self.user, data.get("name"))
                elif data["type"] == "unmute":
                    moderation.unmute(self.user, data.get("name"))
                else:
                    moderation.report(self.user, data.get("name"), data.get("reason"), data.get("text"),
                                      table_id=self.table_id)
                    return sent, {"type": "reported", "name": data.get("name")}
            except ServiceError as err:
                return sent, self._error(err)
        return sent, None


class LobbyConsumer(ThinConsumer):
    async def connect(self):
        self.game = self.scope["url_route"]["kwargs"]["game"]
        if self.game not in GAME_NAMES:
            with translation.override(_language(self.scope)):
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
        await self.send_json({"type": "error", "code": "unknown_type",
                              "reason": "The lobby socket only sends.", "version": None})

    async def lobby_send(self, event):
        await self.send_json({"type": "tables", "tables": event["tables"]})


# Built once: the per-call construction of the wrapper showed in the loop's profile.
_handle_in_thread = in_thread(TableConsumer._handle)
