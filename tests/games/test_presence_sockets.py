"""Presence over the table socket: a seat's connection state follows from the sockets actually open
there, whatever order sit, leave, close, reload and resync come in.

The attack of "a seat the server forgets": a socket sits, leaves and closes at once. Were the
``table.resync`` its leave queued run after the socket closed, it would take the seat off its count
a second time and add the dead socket to the spectators: the victim who then sat there would be
counted -1, sent nothing, shown away for ever, and his opponent could claim the win."""
from __future__ import annotations

import asyncio
import random

import pytest
from channels.db import database_sync_to_async as db

from games import loading, services
from games.models import Seat, Table, TableSocket

from .sockets import Sock, connect

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]
SETTLE_SECONDS = 10     # the longest a socket may take to reach a state it is sure to reach


def counts(table_id: int) -> tuple[list[int], int]:
    seats = list(Seat.objects.filter(table_id=table_id).order_by("index").values_list("connections", flat=True))
    return seats, Table.objects.get(pk=table_id).spectators


def table_version(table_id: int) -> int:
    return Table.objects.get(pk=table_id).version


def seat_of_user(table_id: int, user) -> int | None:
    return loading.seat_of(loading.load(table_id), user)


async def until(sock: Sock, done) -> dict:
    """Read until ``done(sock)`` holds (a state the socket is sure to reach)."""
    async def read():
        while not done(sock):
            await sock.recv(timeout=SETTLE_SECONDS)
    await asyncio.wait_for(read(), SETTLE_SECONDS)
    return sock.last


async def up_to_date(sock: Sock, table_id: int) -> dict:
    version = await db(table_version)(table_id)
    return await until(sock, lambda s: s.last is not None and s.last["version"] >= version)


async def test_a_socket_that_sits_leaves_and_closes_at_once_leaves_no_trace_and_the_next_player_is_seen(
        make_user, task_queue):
    attacker, victim = await db(make_user)("mallory"), await db(make_user)("victor")
    table = await db(services.create_table)(attacker, "sixtysix", seats=["", ""])
    first, _ = await connect(table.pk, attacker)
    reply = await first.request({"type": "sit", "seat": 1})
    await until(first, lambda s: s.last["you"] == 1)
    await first.send({"type": "leave"})
    await first.comm.disconnect()           # at once: the leave's resync is still on its way
    second, _ = await connect(table.pk, attacker)
    await second.request({"type": "sit", "seat": 0})
    await until(second, lambda s: s.last["you"] == 0)
    target, _ = await connect(table.pk, victim)
    await target.request({"type": "sit", "seat": 1})          # the last seat: the match starts
    await until(target, lambda s: s.last["you"] == 1 and s.last["table"]["status"] == "playing")
    await up_to_date(second, table.pk)
    assert reply["type"] != "error"
    assert await db(counts)(table.pk) == ([1, 1], 0)
    assert await db(TableSocket.objects.filter(table_id=table.pk).count)() == 2

    # The victim reloads: away for a moment, back at once, never forgotten.
    await target.comm.disconnect()
    await until(second, lambda s: s.last["table"]["seats"][1]["away_since"] is not None)
    target, _ = await connect(table.pk, victim)
    assert target.seat == 1
    await until(second, lambda s: s.last["table"]["seats"][1]["away_since"] is None)
    assert await db(counts)(table.pk) == ([1, 1], 0)
    assert await db(lambda: Seat.objects.get(table_id=table.pk, index=1).away_since)() is None
    reply = await second.request({"type": "claim_win", "version": second.version})
    assert reply["type"] == "error" and reply["code"] == "opponent_here"

    # Every change of the match reaches him: whoever is to act acts, both see it.
    for _ in range(3):
        actor = next(s for s in (second, target) if (s.last["view"] or {}).get("legal"))
        action = next(a for a in actor.last["view"]["legal"] if a["type"] == "play")
        action = {k: v for k, v in action.items() if k != "seat"}
        before = actor.version
        await actor.send({"type": "action", "version": before, "action": action})
        for sock in (second, target):
            await until(sock, lambda s: s.last["version"] > before)
            await up_to_date(sock, table.pk)
        assert second.version == target.version == await db(table_version)(table.pk)
        assert all(seat["connected"] for seat in second.last["table"]["seats"])
    for sock in (second, target):
        await sock.comm.disconnect()
    assert await db(counts)(table.pk) == ([0, 0], 0)


async def test_a_consumer_the_server_kills_takes_its_presence_record_with_it(make_user, task_queue):
    """Daphne kills a consumer whose close outlasts its application_close_timeout (a loaded
    database): its record must not outlive it, or its player would look present for good."""
    ala, ola = await db(make_user)("ala"), await db(make_user)("ola")
    table = await db(services.create_table)(ala, "sixtysix", seats=[ala, ola], start=True)
    north, _ = await connect(table.pk, ala)
    south, _ = await connect(table.pk, ola)
    assert await db(counts)(table.pk) == ([1, 1], 0)
    south.comm.future.cancel()              # killed, no websocket.disconnect handled

    async def gone():
        while (await db(counts)(table.pk))[0] != [1, 0]:
            await asyncio.sleep(0.02)
    await asyncio.wait_for(gone(), SETTLE_SECONDS)
    assert await db(TableSocket.objects.filter(table_id=table.pk).count)() == 1
    await until(north, lambda s: s.last["table"]["seats"][1]["away_since"] is not None)
    await north.comm.disconnect()
