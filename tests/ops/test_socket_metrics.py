"""Over a table socket: a person's move is timed and counted, a refusal counted by its code, and
what is logged meanwhile names the socket's table, user and connection (ops/context.py)."""
from __future__ import annotations

import random

import pytest
from asgiref.sync import sync_to_async

from games import bots, log_context, services, signals
from ops import metrics
from tests.games.sockets import connect

pytestmark = pytest.mark.django_db(transaction=True)


def _count(metric, *labels) -> float:
    return (metric.labels(*labels) if labels else metric)._value.get()


def _histogram_count() -> float:
    return next(s.value for m in metrics.MOVE_SECONDS.collect() for s in m.samples if s.name.endswith("_count"))


async def test_a_move_is_timed_and_a_refusal_counted_with_the_sockets_context(make_user, task_queue, guard):
    ala, ola = await sync_to_async(make_user)("ala"), await sync_to_async(make_user)("ola")
    table = await sync_to_async(services.create_table)(ala, "sixtysix", "kurnik")
    await sync_to_async(services.sit)(table.pk, ola, 1)
    socks = {u.pk: (await connect(table.pk, u))[0] for u in (ala, ola)}
    mover = next(s for s in socks.values() if s.seat in s.last["view"]["to_act"])
    other = next(s for s in socks.values() if s is not mover)
    user_of = {s: pk for pk, s in socks.items()}
    seen = []

    def remember(sender, **kwargs):
        seen.append(log_context.current())

    signals.move_committed.connect(remember, dispatch_uid="test-socket-context")
    timed, stale = _histogram_count(), _count(metrics.REFUSALS, "stale")
    try:
        action = bots.choose_action("random", mover.last["view"], random.Random(2))
        await mover.send({"type": "action", "version": mover.version, "action": action})
        await mover.drain(mover.version + 1)
        await other.send({"type": "action", "version": 0, "action": {"type": "play", "card": "AS"}})
        reply = await other.recv()
        while reply["type"] != "error":
            reply = await other.recv()
    finally:
        signals.move_committed.disconnect(dispatch_uid="test-socket-context")
        for s in socks.values():
            await s.comm.disconnect()
    assert _histogram_count() == timed + 1
    assert reply["code"] == "stale" and _count(metrics.REFUSALS, "stale") == stale + 1
    assert len(seen) == 1
    assert seen[0]["table_id"] == table.pk and seen[0]["user_id"] == user_of[mover]
    assert seen[0]["request_id"]
