"""A real embedded-mode site for end-to-end tests: the one server process `make run` starts
(config/serve.py: uvicorn) with its Celery worker and beat as threads (config/embedded.py), the
in-memory channel layer and a throw-away SQLite file."""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from types import SimpleNamespace
from typing import Iterator

from bench._servers import DAPHNE_FRAME_LIMIT, DAPHNE_PINGS
from tests.forking_shell import Shell

ROOT = Path(__file__).resolve().parent.parent


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_for_port(port: int, proc, timeout: float = 180) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise RuntimeError("the server exited early")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("the server did not start listening")


@contextmanager
def embedded_site(work: Path, server: str = "uvicorn", **settings: str) -> Iterator[SimpleNamespace]:
    """Serve the site in embedded mode (``server``: uvicorn as `make run` starts it, or Daphne as
    the Procfile's comment runs it); ``settings`` are environment variables on top of the test
    defaults. Yields ``url``, ``port``, ``env`` and ``shell(code)`` (runs ``manage.py shell``
    against the same database and returns its output's last line)."""
    env = dict(os.environ)
    for key in ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL"):
        env.pop(key, None)
    env.update({
        "DJANGO_SETTINGS_MODULE": "tests.site_settings", "SQLITE_PATH": str(work / "db.sqlite3"),
        "EMBEDDED_WORKER": "1", "BOT_DELAY_MS": "0", "DEAL_PAUSE_MS": "400", "SWEEP_SECONDS": "1",
        "DEBUG": "1", "LOG_LEVEL": "WARNING", "SHOWCASE": "0",
        # The test process's settings set it to 0 in os.environ: the site runs with the real wait.
        "FAIR_SEED_WAIT_MS": "1500",
        # The pool offers a bot after 20 s alone: the test of the offer waits 5 instead.
        "POOL_BOT_OFFER_SECONDS": "5",
        # A finished match's analysis runs in the server's own worker: at the real 800 draws per
        # decision it took minutes of the CPU every later test shares; the tests check that it
        # runs and what it shows, not how well it judges (tests/analysis does that).
        "ANALYSIS_ITERATIONS": "24",
        # Every browser test comes from 127.0.0.1 and types fast: limits it cannot reach.
        "LOGIN_FAILURE_LIMIT": "1000", "REGISTER_RATE": "100000/m", "GUEST_RATE": "100000/m",
        "TABLE_CREATE_RATE": "100000/m", "CHAT_RATE": "100000/m", "CHAT_REPEAT_SECONDS": "0",
        "SOCKET_PER_ADDRESS": "0", "HTTP_CONNECTIONS_PER_ADDRESS": "0", "POOL_CHANGE_RATE": "100000/m",
    })
    env.update(settings)
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    port = _free_port()
    log_path = work / "server.log"
    log = open(log_path, "w")
    command = {"uvicorn": [sys.executable, "-m", "config.serve", "--port", str(port), "--access-log"],
               "daphne": [str(Path(sys.executable).parent / "daphne"), "-b", "127.0.0.1", "-p", str(port),
                          *DAPHNE_FRAME_LIMIT, *DAPHNE_PINGS, "config.asgi:application"]}[server]
    proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)

    shells: list[Shell] = []

    def shell(code: str, extra_env: dict | None = None) -> str:
        if not shells:                  # started at the first use: most sites never need one
            shells.append(Shell(env))
        return shells[0].run(code, extra_env)

    try:
        _wait_for_port(port, proc)
        yield SimpleNamespace(url=f"http://127.0.0.1:{port}", port=port, env=env, shell=shell, pid=proc.pid,
                              log=log_path, server=server)
    finally:
        for started in shells:
            started.close()
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()
