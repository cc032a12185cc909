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


async def test_it_frees_cycles_that_died_after_they_were_promoted(settings):
    ref = a_cycle_in_an_old_generation()
    assert ref() is not None       # dead, but no young collection would look at it now
    gc.collect(0)
    assert ref() is not None
    settings.GC_FULL_SECONDS = 0.01
    collector = Collector()
    collector.keep_collecting()
    while collector.runs < 1:
        await asyncio.sleep(0.01)
    collector.task.cancel()
    assert ref() is None


async def test_it_never_runs_when_turned_off(settings):
    settings.GC_FULL_SECONDS = 0
    collector = Collector()
    collector.keep_collecting()
    assert collector.task is None
