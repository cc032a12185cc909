"""What the scaled tournament tests share: a Daphne, a worker and beat as real processes, the
tournament page's socket, an admin's "start now" once that socket listens, and the worker killed
(kill -9) and replaced mid-tournament."""
from __future__ import annotations

import asyncio
import time
from contextlib import contextmanager
from typing import Iterator

from .test_scaled import BIN, Procs, _free_port, artifact, manage_shell, worker_args


@contextmanager
def tournament_processes(env: dict, name: str) -> Iterator[tuple[int, Procs]]:
    """Daphne, worker1 and beat for the test ``name``; (port, procs); all stopped at the end."""
    port = _free_port()
    procs = Procs(env)
    try:
        procs.start(f"{name}-daphne", BIN / "daphne", "-b", "127.0.0.1", "-p", port, "config.asgi:application")
        procs.start("worker1", *worker_args(f"{name}worker1"))
        procs.start(f"{name}-beat", BIN / "celery", "-A", "config", "beat", "-l", "warning",
                    "--schedule", artifact(f"celerybeat-{name}-schedule"))
        yield port, procs
    finally:
        procs.stop_all()


async def page_socket(port: int, tid: int, patience: float = 180):
    """The tournament page's socket, once Daphne answers (a loaded machine may take long to start
    it: nothing starts before this socket listens, so waiting costs the test no meaning)."""
    import websockets

    end = time.monotonic() + patience
    while time.monotonic() < end:
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


START_NOW = """
import json
from accounts.models import User
from tournaments import controls
admin, _ = User.objects.get_or_create(username="arbiter", defaults={"is_staff": True, "is_superuser": True})
for tid in %s:
    controls.start_now(tid, admin)
print(json.dumps(True))
"""


async def start_now(env: dict, *tids: int) -> None:
    """An admin starts the tournaments now, through the site's own "start now" (its broadcast goes
    through Redis): the tests start them once the page sockets listen, instead of setting a time
    that a slow machine may miss before its processes are up, or a fast one waits out."""
    await asyncio.get_running_loop().run_in_executor(None, manage_shell, env, START_NOW % list(tids))
