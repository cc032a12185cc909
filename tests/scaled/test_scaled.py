"""Scaled mode for real: PostgreSQL, Redis (pub/sub channel layer + Celery broker), two Daphne
processes, a separate Celery worker and beat. Players of one table sit on different processes;
the worker is killed mid-match and replaced, and the match still ends with no move lost or doubled.
"""
import asyncio
import atexit
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.forking_shell import Shell
from tests.services import require, per_worker, worker_redis_db

pytestmark = pytest.mark.scaled

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
DB = "cards_scaled_test"


def _open(port):
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
        return True
    except OSError:
        return False


def _free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


TEMPLATE = "cards_scaled_template"
_migrated: set[str] = set()


def _environment(db: str, redis_db: int, **settings) -> dict:
    return dict(os.environ, DJANGO_SETTINGS_MODULE="tests.site_settings", DEBUG="1", SECRET_KEY="scaled-test",
                DATABASE_URL=f"postgres://postgres@127.0.0.1:5432/{db}", REDIS_URL=f"redis://127.0.0.1:6379/{redis_db}",
                EMBEDDED_WORKER="0", SWEEP_SECONDS="1", LOG_LEVEL="WARNING", SHOWCASE="0", **settings)


def _recreate(conn, db: str, template: str | None = None) -> None:
    conn.execute(f"DROP DATABASE IF EXISTS {db} WITH (FORCE)")
    conn.execute(f"CREATE DATABASE {db}" + (f" TEMPLATE {template}" if template else ""))


def _template(conn, redis_db: int) -> str:
    """This worker's migrated, empty database, made once per test session: each test's database
    is a copy of it (a file copy in PostgreSQL) instead of a migration of its own (tens of seconds)."""
    template = per_worker(TEMPLATE)
    if template not in _migrated:
        _recreate(conn, template)
        subprocess.run([BIN / "python", "manage.py", "migrate", "-v0"], cwd=ROOT,
                       env=_environment(template, redis_db), check=True)
        _migrated.add(template)
    return template


def scaled_env(name: str, **settings) -> dict:
    """A fresh PostgreSQL database, migrated, and a flushed Redis DB; the environment for processes
    on them. Both are this xdist worker's own (the database named after ``name`` and the worker)."""
    db, redis_db = per_worker(name), worker_redis_db()
    require(_open(5432) and _open(6379), "PostgreSQL and Redis must answer on 127.0.0.1 (.ci/run starts them)")
    import psycopg
    with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", autocommit=True) as conn:
        _recreate(conn, db, template=_template(conn, redis_db))
    import redis
    redis.Redis.from_url(f"redis://127.0.0.1:6379/{redis_db}").flushdb()
    return _environment(db, redis_db, **settings)


@pytest.fixture(scope="module")
def env():
    return scaled_env(DB, BOT_DELAY_MS="30", DEAL_PAUSE_MS="100")


def artifact(name: str) -> Path:
    """A file in test-artifacts/ (logs, beat's schedule) of this xdist worker's own."""
    (ROOT / "test-artifacts").mkdir(exist_ok=True)
    return ROOT / "test-artifacts" / per_worker(name)


_shells: dict[str, Shell] = {}
KEPT_SHELLS = 3          # the environments in use at once (a module's, a restore's); older ones close


def manage_shell(env, code):
    """``manage.py shell -c code`` in ``env``, its last line read as JSON (through a shell that
    stays up per environment: tests/forking_shell.py)."""
    key = json.dumps(sorted(env.items()))
    shell = _shells.pop(key, None) or Shell(env, BIN / "python")
    _shells[key] = shell                       # the most recently used last
    while len(_shells) > KEPT_SHELLS:
        _shells.pop(next(iter(_shells))).close()
    return json.loads(shell.run(code))


@atexit.register
def _close_shells():
    for shell in _shells.values():
        shell.close()


SETUP = """
import json
from django.test import Client
from accounts.models import User
from games import loading, services
from games.models import Match
users = [User.objects.create_user(username=f"sp{i}", password="x-Secret-123") for i in range(2)]
t = services.create_table(users[0], "hearts", seats=["me", "random", "", "random"])
services.sit(t.pk, users[1], 2)          # the last open seat: the match starts
m = Match.objects.get(table=t)
m.state = dict(m.state, scores=[90, 85, 88, 80])   # one or two deals to the end
m.save()
cookies = []
for u in users:
    c = Client(); c.force_login(u); cookies.append(c.cookies["sessionid"].value)
print(json.dumps({"table": t.pk, "cookies": cookies}))
"""

CHECK = """
import json
from games import loading
from games.models import Deal, Table
t = Table.objects.get(pk=%d)
deals = list(Deal.objects.filter(match__table=t))
ok = all(loading.rebuild_state(d.record).result() == d.result for d in deals if d.finished)
print(json.dumps({"status": t.status, "version": t.version, "replays": ok,
                  "actions": sum(len(d.record["actions"]) for d in deals), "deals": len(deals)}))
"""


class Procs:
    def __init__(self, env):
        self.env, self.procs = env, {}

    def start(self, name, *args):
        # Named by the test too: tests start processes of the same names, and a failed test's logs
        # must outlive the next test's.
        test = os.environ.get("PYTEST_CURRENT_TEST", "").split("::")[-1].split(" ")[0]
        log = open(artifact(f"scaled-{test + '-' if test else ''}{name}.log"), "w")
        self.procs[name] = subprocess.Popen([str(a) for a in args], cwd=ROOT, env=self.env,
                                            stdout=log, stderr=subprocess.STDOUT)

    def kill(self, name):
        p = self.procs.pop(name)
        p.send_signal(signal.SIGKILL)
        p.wait(10)

    def stop(self, name, seconds=30):
        """SIGTERM, as a process manager stops a process, and wait for it to exit."""
        p = self.procs.pop(name)
        p.terminate()
        try:
            p.wait(seconds)
        except subprocess.TimeoutExpired:
            p.kill()
            raise

    def stop_all(self):
        for name in list(self.procs):
            p = self.procs.pop(name)
            p.terminate()
            try:
                p.wait(10)
            except subprocess.TimeoutExpired:
                p.kill()


def worker_args(name):
    return (BIN / "celery", "-A", "config", "worker", "--pool", "solo", "-c", "1", "-n", f"{name}@%h",
            "--without-heartbeat", "--without-mingle", "--without-gossip", "-l", "warning")


async def _play(ports, table_id, cookies, procs, rng, stored_version):
    import websockets

    async def open_ws(port, cookie=None):
        headers = {"Cookie": f"sessionid={cookie}"} if cookie else {}
        end = time.monotonic() + 180        # a loaded machine starts servers slowly; nothing waits on it
        while time.monotonic() < end:
            try:
                return await websockets.connect(f"ws://127.0.0.1:{port}/ws/table/{table_id}/",
                                                origin=f"http://127.0.0.1:{port}",
                                                additional_headers=headers)
            except OSError:
                await asyncio.sleep(0.2)
        raise RuntimeError("the web server did not come up")

    socks = [await open_ws(ports[0], cookies[0]), await open_ws(ports[1], cookies[1]),
             await open_ws(ports[1])]
    versions = [[] for _ in socks]
    last = [None] * len(socks)
    seats = (0, 2, None)                # each socket's seat (SETUP): every message it gets is built for it
    wrong_seat = []

    async def pump(i, timeout):
        try:
            while True:
                msg = json.loads(await asyncio.wait_for(socks[i].recv(), timeout))
                if msg["type"] in ("snapshot", "update"):   # (a stale action is answered by a snapshot)
                    versions[i].append((msg["type"], msg["version"]))
                    last[i] = msg
                    if msg["you"] != seats[i]:
                        wrong_seat.append((i, msg["type"], msg["version"], msg["you"]))
                timeout = 0.05
        except asyncio.TimeoutError:
            pass

    from games.bots import choose_action
    killed = False
    acted = 0
    deadline = time.monotonic() + 150
    while time.monotonic() < deadline:
        await asyncio.gather(*(pump(i, 0.3) for i in range(len(socks))))
        if last[0] and last[0]["table"]["status"] == "finished" and last[2]["table"]["status"] == "finished":
            break
        if not killed and last[0] and len(versions[2]) > 25:
            procs.kill("worker1")                       # mid-match
            await asyncio.sleep(0.5)
            procs.start("worker2", *worker_args("worker2"))
            killed = True
        for i in (0, 1):
            m = last[i]
            if m and m["table"]["status"] == "playing" and m["view"] and m["you"] in m["view"]["to_act"] \
                    and m["view"]["legal"]:
                action = choose_action("random", m["view"], rng)
                await socks[i].send(json.dumps({"type": "action", "version": m["version"], "action": action}))
                acted += 1
    # Finished for two sockets: each reads on up to the version the table stored. Stopping at a
    # quiet moment instead lost the race with a last update still on its way to the third socket
    # (57 of 58 in one fresh-clone run); a version that never comes still fails below.
    final = await asyncio.to_thread(stored_version)
    settle = time.monotonic() + 30
    while time.monotonic() < settle and any(not v or v[-1][1] < final for v in versions):
        await asyncio.gather(*(pump(i, 0.3) for i in range(len(socks))))
    for s in socks:
        await s.close()
    assert wrong_seat == [], f"sockets were sent another seat's messages: {wrong_seat}"
    return versions, last, killed, acted


def test_it_runs_one_table_across_two_web_servers_and_survives_a_worker_kill(env):
    """One web process as the Procfile runs it (uvicorn), the other Daphne: both servers stay
    supported, and a table's sockets on the two of them play one match."""
    from bench._servers import procfile_web

    (ROOT / "test-artifacts").mkdir(exist_ok=True)
    setup = manage_shell(env, SETUP)
    ports = [_free_port(), _free_port()]
    procs = Procs(env)
    try:
        procs.start("uvicorn0", *procfile_web("web1", ports[0]))
        procs.start("daphne1", BIN / "daphne", "-b", "127.0.0.1", "-p", ports[1], "config.asgi:application")
        procs.start("worker1", *worker_args("worker1"))
        procs.start("beat", BIN / "celery", "-A", "config", "beat", "-l", "warning",
                    "--schedule", artifact("celerybeat-schedule"))
        # A thread of its own: other tests (playwright, pytest-asyncio) may own this thread's loop.
        with ThreadPoolExecutor(1) as pool:
            versions, last, killed, acted = pool.submit(
                asyncio.run, _play(ports, setup["table"], setup["cookies"], procs, random.Random(5),
                                   lambda: manage_shell(env, CHECK % setup["table"])["version"])).result()
    finally:
        procs.stop_all()
    final = manage_shell(env, CHECK % setup["table"])
    assert killed and acted > 0
    assert final["status"] == "finished" and final["replays"], final
    for seen in versions:
        # Everyone saw every version from his first snapshot on, in order: nothing lost, nothing
        # twice. A later snapshot (after a stale action) shows the table as it is by then.
        assert seen[0][0] == "snapshot", seen
        for (_kind, before), (kind, version) in zip(seen, seen[1:]):
            assert version == before + 1 if kind == "update" else version >= before, seen
        assert seen[-1][1] == final["version"]
    assert all(m["table"]["status"] == "finished" for m in last)
