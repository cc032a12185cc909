"""The server's answer to the client's heartbeat (docs/PROTOCOL.md "Heartbeat"): the table and lobby
sockets answer the exact text ``{"type":"ping"}`` with ``{"type":"pong"}`` at once, changing
nothing; the server's own half (protocol pings) is config/serve.py's and tests/browser/test_heartbeat.py's."""
import json

import pytest
from channels.db import database_sync_to_async as db

from games import services
from games.models import Table

from .sockets import connect

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def test_a_table_socket_answers_a_ping_with_a_pong_and_nothing_else(make_user, task_queue):
    ala = await db(make_user)("ala")
    table = await db(services.create_table)(ala, "sixtysix", seats=["me", "random"])
    sock, _ = await connect(table.pk, ala)
    version = await db(lambda: Table.objects.get(pk=table.pk).version)()
    await sock.comm.send_to(text_data='{"type":"ping"}')
    assert json.loads(await sock.comm.receive_from()) == {"type": "pong"}
    assert await sock.comm.receive_nothing(0.2)
    assert await db(lambda: Table.objects.get(pk=table.pk).version)() == version
    await sock.comm.disconnect()


async def test_a_lobby_socket_answers_a_ping_with_a_pong():
    lobby, _ = await connect(None, path="/ws/lobby/hearts/")
    assert json.loads(await lobby.comm.receive_from())["type"] == "tables"
    await lobby.comm.send_to(text_data='{"type":"ping"}')
    assert json.loads(await lobby.comm.receive_from()) == {"type": "pong"}
    await lobby.comm.disconnect()


async def test_pings_faster_than_one_a_second_reach_the_consumer_whose_limit_counts_them(make_user, task_queue, settings):
    settings.SOCKET_BURST = 3
    settings.SOCKET_RATE = 0.001
    ala = await db(make_user)("ala")
    table = await db(services.create_table)(ala, "sixtysix", seats=["me", "random"])
    sock, _ = await connect(table.pk, ala)
    answers = []
    for _ in range(6):
        await sock.comm.send_to(text_data='{"type":"ping"}')
        answers.append(json.loads(await sock.comm.receive_from()))
    # The first answered before the consumer; the next three by it, within its burst; then refused.
    assert [a["type"] for a in answers] == ["pong"] * 4 + ["error"] * 2
    assert answers[-1]["code"] == "rate_limited"
    await sock.comm.disconnect()
