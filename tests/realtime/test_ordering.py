"""realtime/ordering.py: a socket's updates in version order, and a resync when one is lost."""
import asyncio

import pytest

from realtime import ordering
from realtime.ordering import UpdateOrder


async def _never():
    raise AssertionError("no resync expected")


def test_it_passes_the_next_update_on_and_drops_one_already_shown():
    order = UpdateOrder(_never)
    assert order.is_old(1)                      # nothing shown yet: no update is passed on
    order.shown(5)
    assert order.is_old(5) and order.is_old(3) and not order.is_old(6)
    assert order.admit(6, "six") == ["six"] and order.version == 6
    assert order.is_old(6)


async def test_it_holds_an_update_that_came_early_and_passes_it_on_after_the_missing_one():
    order = UpdateOrder(_never)
    order.shown(1)
    assert order.admit(4, "four") == [] and order.admit(3, "three") == []
    assert order.version == 1 and set(order.held) == {3, 4}
    assert order.admit(2, "two") == ["two", "three", "four"]
    assert order.version == 4 and order.held == {}
    order.stop()


async def test_a_snapshot_covers_what_was_held():
    order = UpdateOrder(_never)
    order.shown(1)
    order.admit(3, "three")
    order.shown(3)                              # a snapshot at 3 was sent meanwhile
    assert order.held == {} and order.is_old(3)
    assert order.admit(4, "four") == ["four"]
    order.stop()


async def test_it_resyncs_when_the_missing_update_never_comes(monkeypatch):
    monkeypatch.setattr(ordering, "GAP_SECONDS", 0.01)
    resynced = asyncio.Event()

    async def resync():
        order.shown(7)
        resynced.set()

    order = UpdateOrder(resync)
    order.shown(1)
    assert order.admit(3, "three") == []        # 2 is lost
    await asyncio.wait_for(resynced.wait(), 10)
    assert order.version == 7 and order.held == {}


async def test_it_waits_again_when_the_missing_update_came_but_another_is_missing(monkeypatch):
    monkeypatch.setattr(ordering, "GAP_SECONDS", 0.01)
    resynced = asyncio.Event()

    async def resync():
        resynced.set()

    order = UpdateOrder(resync)
    order.shown(1)
    order.admit(3, "three")
    assert order.admit(2, "two") == ["two", "three"]
    assert order.admit(5, "five") == []         # 4 missing now: the check waits again, from 3
    await asyncio.wait_for(resynced.wait(), 10)
    assert order.version == 3 and order.held == {5: "five"}


async def test_a_closed_socket_checks_no_gap(monkeypatch):
    monkeypatch.setattr(ordering, "GAP_SECONDS", 0.01)
    order = UpdateOrder(_never)
    order.shown(1)
    order.admit(3, "three")
    order.stop()
    assert order._timer is None and order.held == {}
    await asyncio.sleep(0.05)       # nothing to wait for: it must not resync (_never would raise)


@pytest.mark.parametrize("arrival", [[2, 3, 4], [4, 3, 2], [3, 2, 4], [2, 4, 3], [4, 2, 3]])
async def test_any_arrival_order_is_passed_on_in_version_order(arrival):
    order = UpdateOrder(_never)
    order.shown(1)
    out = []
    for v in arrival:
        out += order.admit(v, str(v))
    assert out == ["2", "3", "4"]
    order.stop()
