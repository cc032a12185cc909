"""Restarts that lose nothing (games/web_process/shutdown.py): on SIGTERM every socket is closed with 4503
("going away, reconnect"), a socket that opens meanwhile too, closing sockets keep their presence
records, and the server's own handler runs once the clients have answered. The real thing, with
uvicorn and Daphne under play: tests/scaled/test_lifecycle.py."""
import asyncio
import signal
import threading

import pytest

from games.web_process import liveness, shutdown

pytestmark = pytest.mark.asyncio


@pytest.fixture
def fresh(monkeypatch):
    monkeypatch.setattr(shutdown, "GOING_AWAY", threading.Event())
    monkeypatch.setattr(shutdown, "_sockets", {})
    monkeypatch.setattr(liveness, "HEART", liveness.Heart())
    monkeypatch.setattr(shutdown, "_expire_soon", lambda: None)     # no database here
    return shutdown


class Server:
    """One websocket as a server would drive an application: what it was sent, and a way to end it."""

    def __init__(self):
        self.sent: list[dict] = []
        self.incoming: asyncio.Queue = asyncio.Queue()
        self.incoming.put_nowait({"type": "websocket.connect"})

    async def receive(self):
        return await self.incoming.get()

    async def send(self, message):
        self.sent.append(message)
        if message["type"] == "websocket.close":        # the client answers the close
            self.incoming.put_nowait({"type": "websocket.disconnect", "code": message.get("code")})


async def echo_app(scope, receive, send):
    """Accepts, then says hello after every message until the socket is gone."""
    assert (await receive())["type"] == "websocket.connect"
    await send({"type": "websocket.accept"})
    while (await receive())["type"] != "websocket.disconnect":
        pass
    await send({"type": "websocket.send", "text": "too late"})     # dropped: closed already


async def test_it_closes_every_socket_with_4503_and_drops_what_the_app_sends_after(fresh):
    servers = [Server(), Server()]
    apps = [asyncio.ensure_future(shutdown.serve(echo_app, {"type": "websocket"}, s.receive, s.send))
            for s in servers]
    while len(shutdown._sockets) < 2:
        await asyncio.sleep(0.01)
    await shutdown.close_all()
    await asyncio.wait_for(asyncio.gather(*apps), 5)
    for s in servers:
        assert s.sent == [{"type": "websocket.accept"}, {"type": "websocket.close", "code": 4503}]
    assert shutdown._sockets == {}


async def test_on_sigterm_it_closes_the_sockets_then_runs_the_servers_own_handler(fresh, monkeypatch):
    stopped = asyncio.Event()
    calls = []

    def servers_handler(signum, frame):
        calls.append((signum, list(shutdown._sockets)))
        stopped.set()

    monkeypatch.setattr(shutdown, "_previous", servers_handler)
    monkeypatch.setattr(shutdown, "_loop", asyncio.get_running_loop())
    server = Server()
    app = asyncio.ensure_future(shutdown.serve(echo_app, {"type": "websocket"}, server.receive, server.send))
    while not shutdown._sockets:
        await asyncio.sleep(0.01)
    shutdown.on_terminate(signal.SIGTERM, None)
    assert shutdown.keeps_records()         # closing sockets keep their presence records from now on
    await asyncio.wait_for(stopped.wait(), 10)
    await asyncio.wait_for(app, 5)
    # The server stopped only after its socket was closed and answered.
    assert calls == [(signal.SIGTERM, [])]
    assert server.sent[-1] == {"type": "websocket.close", "code": 4503}
    # A socket that opens while the process stops is closed with 4503 at once.
    late = Server()
    await shutdown.serve(echo_app, {"type": "websocket"}, late.receive, late.send)
    assert late.sent == [{"type": "websocket.accept"}, {"type": "websocket.close", "code": 4503}]


async def test_http_passes_untouched(fresh):
    seen = []

    async def app(scope, receive, send):
        seen.append(scope["type"])

    await shutdown.serve(app, {"type": "http"}, None, None)
    assert seen == ["http"] and shutdown._sockets == {}


@pytest.mark.django_db(transaction=True)
async def test_a_table_socket_closed_by_a_restart_keeps_its_presence_record(fresh, make_user, task_queue):
    from channels.db import database_sync_to_async as db

    from games import services
    from games.models import Seat, TableSocket

    from tests.games.sockets import connect

    ala = await db(make_user)("ala")
    table = await db(services.create_table)(ala, "sixtysix", seats=["me", "random"], start=True)
    sock, _code = await connect(table.pk, ala)
    assert await db(lambda: TableSocket.objects.filter(table=table).count())() == 1
    shutdown.GOING_AWAY.set()
    await sock.comm.disconnect()
    # Kept for the reconnect elsewhere (the sweep removes it once the process's grace is over).
    assert await db(lambda: TableSocket.objects.filter(table=table).count())() == 1
    seat = await db(lambda: Seat.objects.get(table=table, index=0))()
    assert seat.connections == 1 and seat.away_since is None
