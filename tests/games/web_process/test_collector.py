"""games/web_process/collector.py: the web process's scheduled full garbage collection."""
import asyncio
import gc
import weakref

import pytest

from games.web_process.collector import Collector

pytestmark = pytest.mark.asyncio


class Node:
    pass


def a_cycle_in_an_old_generation() -> weakref.ref:
    a, b = Node(), Node()
    a.other, b.other = b, a
    gc.collect()        # survives, as a structure alive at a young collection does: promoted
    return weakref.ref(a)


async def test_a_collection_frees_cycles_that_died_after_they_were_promoted():
    ref = a_cycle_in_an_old_generation()
    assert ref() is not None       # dead, but no young collection would look at it now
    gc.collect(0)
    assert ref() is not None
    collector = Collector()
    collector.collect()
    assert ref() is None
    assert collector.runs == 1


async def test_it_collects_again_and_again_on_its_schedule_one_task_per_loop(settings):
    settings.GC_FULL_SECONDS = 0.01
    collector = Collector()
    collector.keep_collecting()
    task = collector.task
    collector.keep_collecting()
    assert collector.task is task              # asked again on the same loop: still the one task

    async def two_runs():
        while collector.runs < 2:
            await asyncio.sleep(0.01)

    try:
        await asyncio.wait_for(two_runs(), timeout=30)      # a bound, so a broken schedule fails
    finally:
        task.cancel()


async def test_it_never_runs_when_turned_off(settings):
    settings.GC_FULL_SECONDS = 0
    collector = Collector()
    collector.keep_collecting()
    assert collector.task is None
