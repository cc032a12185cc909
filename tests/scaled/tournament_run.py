"""What the scaled tournament tests share: a Daphne, a worker and beat as real processes, the
tournament page's socket, and the worker killed (kill -9) and replaced mid-tournament."""
from __future__ import annotations

import asyncio
from contextlib import contextmanager
from typing import Iterator

from .test_scaled import BIN, ROOT, Procs, _free_port, worker_args


@contextmanager
def tournament_processes(env: dict, name: str) -> Iterator[tuple[int, Procs]]:
    """Daphne, worker1 and beat for the test ``name``; (port, procs); all stopped at the end."""
    (ROOT / "test-artifacts").mkdir(exist_ok=True)
    port = _free_port()
    procs = Procs(env)
    try:
        procs.start(f"{name}-daphne", BIN / "daphne", "-b", "127.0.0.1", "-p", port, "config.asgi:application")
        procs.start("worker1", *worker_args(f"{name}worker1"))
        procs.start(f"{name}-beat", BIN / "celery", "-A", "config", "beat", "-l", "warning",
                    "--schedule", ROOT / "test-artifacts" / f"celerybeat-{name}-schedule")
        yield port, procs
    finally:
        procs.stop_all()


async def page_socket(port: int, tid: int):
    """The tournament page's socket, once Daphne answers."""
    import websockets

    for _ in range(100):
        try:
            return await websockets.connect(f"ws://127.0.0.1:{port}/ws/tournament/{tid}/",
                                            origin=f"http://127.0.0.1:{port}")
        except OSError:
            await asyncio.sleep(0.2)
    raise RuntimeError("daphne did not come up")


async def replace_worker(procs: Procs, name: str) -> None:
    """kill -9 the worker mid-tournament and start another one a second later."""
    procs.kill("worker1")
    await asyncio.sleep(1.0)
    procs.start("worker2", *worker_args(f"{name}worker2"))
