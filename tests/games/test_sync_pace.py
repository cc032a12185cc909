"""A table socket's ``sync`` is answered at most once a second (games/sync_pace.py): those that
come sooner are answered together, once, when the time is up; none is left unanswered."""
import asyncio

import pytest
from channels.db import database_sync_to_async as db

from games import services
from games.consumers import TableConsumer
from games.sync_pace import SyncPace

from .sockets import connect


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


@pytest.mark.asyncio
async def test_syncs_within_the_interval_are_answered_once_when_it_is_up():
    clock, answered = Clock(), []

    async def answer():
        answered.append(clock.now)

    pace = SyncPace(0.05, clock)
    await pace.ask(answer)
    assert answered == [100.0]                  # the first at once
    for _ in range(10):
        await pace.ask(answer)                  # sooner: one answer is coming for all of them
    assert len(answered) == 1 and pace.coming is not None
    clock.now += 0.05
    await pace.coming
    assert len(answered) == 2 and pace.coming is None
    clock.now += 1
    await pace.ask(answer)                      # later than the interval: at once again
    assert len(answered) == 3 and pace.coming is None


@pytest.mark.asyncio
async def test_a_snapshot_sent_for_another_reason_counts_and_stop_cancels_the_coming_one():
    clock, answered = Clock(), []

    async def answer():
        answered.append(clock.now)

    pace = SyncPace(10, clock)
    pace.sent()                                 # the snapshot on connecting
    await pace.ask(answer)
    assert answered == [] and pace.coming is not None
    coming = pace.coming
    pace.stop()
    with pytest.raises(asyncio.CancelledError):
        await coming
    assert answered == [] and pace.coming is None


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_spectator_flooding_sync_gets_one_snapshot_for_all_of_them(make_user, monkeypatch):
    built = []
    snapshot = TableConsumer._snapshot

    def counted(self):
        built.append(self.table_id)
        return snapshot(self)

    monkeypatch.setattr(TableConsumer, "_snapshot", counted)
    ala = await db(make_user)("ala")
    table = await db(services.create_table)(ala, "sixtysix")
    watcher, _seat = await connect(table.pk)
    on_connecting = len(built)
    for _ in range(10):
        await watcher.send({"type": "sync"})
    await watcher.send({"type": "no_such_thing"})
    # Answered in order: the unknown type at once, the syncs' one snapshot when the second is up.
    first = await watcher.recv()
    assert first["type"] == "error"
    second = await watcher.recv()
    assert second["type"] == "snapshot" and second["version"] == watcher.version
    assert len(built) == on_connecting + 1
    await watcher.comm.disconnect()
