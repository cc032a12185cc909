"""The event loop's watch (games/web_process/loop_watch.py): a loop blocked past the limit gets every thread's
stack reported while it is stuck, once per stall; a loop that comes round is never reported."""
import asyncio
import threading

import pytest

from games.web_process import loop_watch


@pytest.fixture
def quick_beats(monkeypatch):
    monkeypatch.setattr(loop_watch, "BEAT_SECONDS", 0.02)


def run(watch, body):
    before = set(threading.enumerate())

    async def main():
        watch.keep_watching()
        await body()
        watch.loop = None                   # the watching thread ends

    asyncio.run(main())
    # ... before the test does: one left behind once read the next test's settings and reported.
    for thread in set(threading.enumerate()) - before:
        if thread.name == "loop-watch":
            thread.join(5)
            assert not thread.is_alive()


def test_a_blocked_loop_is_reported_while_it_is_stuck_and_once(quick_beats, settings):
    settings.LOOP_STALL_SECONDS = 0.2
    watch, reported = loop_watch.LoopWatch(), threading.Event()
    stacks = []

    def report(late):
        stacks.append(late)
        reported.set()

    watch.report = report

    async def body():
        # Blocks the loop's thread until the watch has reported it: no race with the clock.
        assert reported.wait(30), "the stall was never reported"
        await asyncio.sleep(0.2)            # it comes round again: nothing more is reported

    run(watch, body)
    assert watch.stalls == 1 and len(stacks) == 1 and stacks[0] >= 0.2


def test_a_loop_that_comes_round_is_never_reported(quick_beats, settings):
    settings.LOOP_STALL_SECONDS = 5
    watch = loop_watch.LoopWatch()
    watch.report = lambda late: pytest.fail(f"reported a stall of {late:.1f} s")
    run(watch, lambda: asyncio.sleep(0.3))
    assert watch.stalls == 0


def test_it_watches_nothing_when_switched_off(settings):
    settings.LOOP_STALL_SECONDS = 0
    watch = loop_watch.LoopWatch()
    before = threading.active_count()
    run(watch, lambda: asyncio.sleep(0))
    assert watch.loop is None and threading.active_count() == before
