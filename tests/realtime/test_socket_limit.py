"""Messages per socket (realtime/socket_limit.py): a token bucket per connection; a connection that
keeps flooding is closed with 4429. On the table socket and on the lobby's."""
import json

import pytest
from channels.db import database_sync_to_async as db

from games import services
from games.models import ChatMessage
from tests.games.sockets import connect
from tests.limits import clock  # noqa: F401  (fixture)

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def socket_limits(settings, clock):
    settings.SOCKET_BURST = 20
    settings.SOCKET_RATE = 8.0
    settings.SOCKET_FLOOD_CLOSE = 50
    settings.SOCKET_FLOOD_SECONDS = 10.0
    return clock


async def table_socket_with_its_burst_spent(make_user):
    """A table socket that has just sent its SOCKET_BURST (20) messages."""
    ala = await db(make_user)("ala")
    t = await db(services.create_table)(ala, "sixtysix")
    sock, _ = await connect(t.pk, ala)
    for _ in range(20):
        await sock.request({"type": "nonsense"})
    return sock


async def test_it_refuses_socket_messages_beyond_the_burst_and_refills(make_user, socket_limits, task_queue):
    ala = await db(make_user)("ala")
    t = await db(services.create_table)(ala, "sixtysix")
    sock, _ = await connect(t.pk, ala)
    for _ in range(20):
        assert (await sock.request({"type": "nonsense"}))["code"] == "unknown_type"    # handled
    err = await sock.request({"type": "chat", "text": "over the limit"})
    assert err["type"] == "error" and err["category"] == err["code"] == "rate_limited"
    assert err["reason"] == "Too many messages: slow down. Please try again in 1 second."
    assert err["version"] == sock.version
    assert await db(ChatMessage.objects.count)() == 0                                  # not handled
    socket_limits.advance(1)                                                            # 8 tokens back
    for _ in range(8):
        assert (await sock.request({"type": "nonsense"}))["code"] == "unknown_type"
    assert (await sock.request({"type": "nonsense"}))["code"] == "rate_limited"
    await sock.comm.disconnect()


async def test_it_closes_a_socket_that_keeps_flooding_with_4429(make_user, socket_limits, task_queue):
    sock = await table_socket_with_its_burst_spent(make_user)
    for _ in range(49):
        assert (await sock.request({"type": "sync"}))["code"] == "rate_limited"
    await sock.send({"type": "sync"})                   # the 50th refused within 10 s
    assert await sock.comm.receive_output(timeout=2) == {"type": "websocket.close", "code": 4429}


async def test_refusals_spread_out_do_not_close_the_socket(make_user, socket_limits, task_queue):
    sock = await table_socket_with_its_burst_spent(make_user)
    for _ in range(3):
        for _ in range(40):
            assert (await sock.request({"type": "nonsense"}))["code"] == "rate_limited"
        socket_limits.advance(11)        # a new 10 s span of refusals (and a full bucket again)
        for _ in range(20):
            assert (await sock.request({"type": "nonsense"}))["code"] == "unknown_type"
    await sock.comm.disconnect()


async def test_the_lobby_socket_is_limited_too(socket_limits):
    from channels.testing import WebsocketCommunicator

    from config.routing import application

    comm = WebsocketCommunicator(application, "/ws/lobby/hearts/", headers=[(b"origin", b"http://localhost")])
    assert (await comm.connect())[0]
    await comm.receive_from()                           # the tables
    for _ in range(20):
        await comm.send_to(text_data="{}")
        assert json.loads(await comm.receive_from())["code"] == "unknown_type"
    for _ in range(49):
        await comm.send_to(text_data="{}")
        assert json.loads(await comm.receive_from())["code"] == "rate_limited"
    await comm.send_to(text_data="{}")
    assert await comm.receive_output(timeout=2) == {"type": "websocket.close", "code": 4429}
