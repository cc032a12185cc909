"""Which loop a committed change's messages leave on, by who committed it (realtime/broadcast.py)."""
import asyncio
import threading

from asgiref.sync import sync_to_async

from realtime import broadcast

MESSAGES = [("table.1", {"type": "table.behind", "table": 1, "version": 7})]


def record_sends(monkeypatch) -> list[tuple[str, asyncio.AbstractEventLoop]]:
    seen = []

    async def send(layer, messages):
        seen.append((threading.current_thread().name, asyncio.get_running_loop()))
    monkeypatch.setattr(broadcast, "send", send)
    return seen


def test_a_thread_without_a_loop_sends_on_one_kept_loop_and_starts_no_thread_per_message(monkeypatch):
    seen = record_sends(monkeypatch)
    broadcast.deliver(MESSAGES)
    threads_after_the_first = {t.ident for t in threading.enumerate()}
    for _ in range(5):
        broadcast.deliver(MESSAGES)
    assert {t.ident for t in threading.enumerate()} == threads_after_the_first
    assert {name for name, _ in seen} == {"broadcast-loop"} and len({loop for _, loop in seen}) == 1
    assert len(seen) == 6


async def test_a_thread_that_async_code_awaits_sends_on_the_awaiting_loop(monkeypatch):
    seen = record_sends(monkeypatch)
    await sync_to_async(broadcast.deliver)(MESSAGES)
    assert seen == [(threading.main_thread().name, asyncio.get_running_loop())]
