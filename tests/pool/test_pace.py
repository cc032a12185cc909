"""How fast the pool may be changed and told (pool/pace.py): joins and leaves per account are
limited with a readable refusal, and everyone's counts go out at most once a second, the changes
held meanwhile sent by beat's round once the next second has begun."""
import pytest
from channels.db import database_sync_to_async as db
from django.utils import timezone

from pool import pace, services
from pool.tasks import sweep
from tests.limits import clock  # noqa: F401  (fixture)

from .test_consumers import open_pool, recv
from .test_services import POOL, join, rated


@pytest.fixture
def paced(settings, clock, monkeypatch):  # noqa: F811
    settings.POOL_COUNTS_SECONDS = 1
    monkeypatch.setattr(pace, "time", clock)
    return clock


def counts_sent(sent) -> list[int]:
    return [p["message"]["counts"][POOL] for g, p in sent if g == services.COUNTS_GROUP]


@pytest.mark.django_db(transaction=True)
def test_counts_go_out_once_a_second_and_the_held_ones_with_beats_round(paced, sent, task_queue):
    now = timezone.now()
    ala, bob, eve = rated("ala"), rated("bob"), rated("eve", 2500)
    join(ala, now)
    assert counts_sent(sent) == [1]                 # the first change of the second: at once
    join(eve, now)
    services.leave(eve)
    join(bob, now)                                  # (ala and bob are paired by the round below)
    assert counts_sent(sent) == [1]                 # the others are held
    services.send_held_counts()
    assert counts_sent(sent) == [1]                 # still the same second
    paced.advance(1)
    services.send_held_counts()
    assert counts_sent(sent) == [1, 2]              # read afresh, once, when the second is up
    paced.advance(1)
    services.send_held_counts()
    assert counts_sent(sent) == [1, 2]              # nothing held: nothing sent
    sweep()                                         # beat's round pairs ala and bob
    paced.advance(1)
    sweep()
    assert counts_sent(sent)[-1] == 0


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_joins_and_leaves_over_the_rate_are_refused_with_a_reason(settings, clock, task_queue):  # noqa: F811
    settings.POOL_CHANGE_RATE = "3/m"
    ala = await db(rated)("ala")
    a = await open_pool(ala)
    await a.send_json_to({"type": "join", "pool": POOL})
    await recv(a, "waiting")
    await a.send_json_to({"type": "leave"})
    await recv(a, "left")
    await a.send_json_to({"type": "join", "pool": POOL})
    await recv(a, "waiting")
    await a.send_json_to({"type": "leave"})
    refused = await recv(a, "error")
    assert refused["code"] == "rate_limited"
    assert refused["reason"].startswith("You are joining and leaving pools too fast. Please try again in")
    assert await db(services.entry_of)(ala) is not None      # nothing half-applied: still waiting
    clock.advance(60)
    await a.send_json_to({"type": "leave"})
    await recv(a, "left")
    await a.disconnect()
