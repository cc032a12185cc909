"""Outages a player can read: a message that needs PostgreSQL or Redis while it is out of reach is
answered with the error ``unavailable`` and a reason, the socket stays open and works again after
(realtime/outages.py). The real outages: tests/scaled/test_faults.py."""
import pytest
from channels.db import database_sync_to_async as db
from django.db import OperationalError
from redis.exceptions import ConnectionError as RedisConnectionError

from games import messages, services
from games.models import Table

from tests.games.sockets import connect

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.mark.parametrize("failure, words", [
    (RedisConnectionError("Connection refused"), "message service"),
    (OperationalError("the database system is shutting down"), "database"),
])
async def test_it_answers_a_chat_meanwhile_with_unavailable_and_recovers(make_user, task_queue, monkeypatch,
                                                                        failure, words):
    ala = await db(make_user)("ala")
    table = await db(services.create_table)(ala, "sixtysix", seats=["me", "random"], start=True)
    sock, _code = await connect(table.pk, ala)
    real = services.chat

    def down(*args, **kwargs):
        raise failure

    monkeypatch.setattr(services, "chat", down)
    reply = await sock.request({"type": "chat", "text": "hello"})
    assert reply["type"] == "error" and reply["code"] == "unavailable" and words in reply["reason"]
    assert reply["version"] == sock.last["version"]
    monkeypatch.setattr(services, "chat", real)      # it is back: the same socket goes on
    reply = await sock.request({"type": "sync"})
    assert reply["type"] == "snapshot"
    assert reply["version"] == await db(lambda: Table.objects.get(pk=table.pk).version)()


async def test_a_snapshot_asked_for_meanwhile_is_answered_the_same_way(make_user, task_queue, monkeypatch):
    ala = await db(make_user)("ala")
    table = await db(services.create_table)(ala, "sixtysix", seats=["me", "random"], start=True)
    sock, _code = await connect(table.pk, ala)

    def down(*args, **kwargs):
        raise RedisConnectionError("Connection refused")

    monkeypatch.setattr(messages, "snapshot", down)
    reply = await sock.request({"type": "sync"})
    assert reply["type"] == "error" and reply["code"] == "unavailable" and reply["reason"]
