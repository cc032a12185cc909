"""The pool in scaled mode (PostgreSQL + Redis): concurrent pairers never pair anyone twice; two
players joining at once on two web processes get one table; beat pairs from the database what no
web process paired; a killed web process's waiters drop out within the lease."""
import asyncio
import json
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.scaled.test_scaled import BIN, ROOT, Procs, _free_port, artifact, manage_shell, scaled_env, worker_args

pytestmark = pytest.mark.scaled

DB = "cards_pool_test"
POOL = "sixtysix/kurnik/300+5"

CONCURRENT = """
import json, threading
from datetime import timedelta
from django.db import connection
from django.utils import timezone
from accounts.models import User
from games.models import Seat, Table
from pool import services
from pool.models import PoolEntry
from ratings.models import Rating
users = [User.objects.create_user(username=f"c{i}") for i in range(40)]   # no password: no slow hashing
now = timezone.now()            # after the users: their places' leases start now
for i, u in enumerate(users):
    Rating.objects.create(user=u, game="sixtysix", variant="kurnik", display=1500 + (i % 5) * 30)
    PoolEntry.objects.create(user=u, pool="POOL_KEY", rating=1500 + (i % 5) * 30, channel=f"ch{i}",
                             joined_at=now - timedelta(seconds=i % 7), lease_until=now + timedelta(seconds=60))
barrier = threading.Barrier(6)
made, swept, errors = [], [], []
def pairer():
    try:
        barrier.wait()
        for _ in range(3):
            made.extend(services.pair("POOL_KEY"))
            swept.append(services.sweep())
    except Exception as exc:
        errors.append(repr(exc))
    finally:
        connection.close()
threads = [threading.Thread(target=pairer) for _ in range(6)]
[t.start() for t in threads]
[t.join() for t in threads]
tables = made
seated = list(Seat.objects.filter(table__in=Table.objects.all()).values_list("user__username", flat=True))
print(json.dumps({"errors": errors, "tables": len(tables) + sum(swept), "distinct_tables": len(set(tables)) + sum(swept),
                  "db_tables": Table.objects.count(), "rated": Table.objects.filter(rated=True).count(),
                  "seated": len(seated), "distinct_seated": len(set(seated)), "left": PoolEntry.objects.count()}))
"""


def test_concurrent_pairers_on_postgresql_never_pair_anyone_twice():
    env = scaled_env(DB)
    out = manage_shell(env, CONCURRENT.replace("POOL_KEY", POOL))
    assert out["errors"] == [], out
    assert out["seated"] == out["distinct_seated"] == 40 and out["left"] == 0, out
    assert out["tables"] == out["distinct_tables"] == out["db_tables"] == out["rated"] == 20


SETUP = """
import json
from django.test import Client
from accounts.models import User
from ratings.models import Rating
cookies = {}
for name, rating in (("ala", 1500), ("bob", 1510), ("cat", 1500), ("dan", 2000), ("eve", 1500)):
    u = User.objects.create_user(username=name, password="x-Secret-123")
    Rating.objects.create(user=u, game="sixtysix", variant="kurnik", display=rating)
    c = Client(); c.force_login(u); cookies[name] = c.cookies["sessionid"].value
print(json.dumps(cookies))
"""


async def _open(port, cookie=None):
    import websockets
    headers = {"Cookie": f"sessionid={cookie}"} if cookie else {}
    end = time.monotonic() + 180        # a loaded machine starts servers slowly; nothing waits on it
    while True:
        try:
            ws = await websockets.connect(f"ws://127.0.0.1:{port}/ws/pool/", origin=f"http://127.0.0.1:{port}",
                                          additional_headers=headers)
            assert json.loads(await ws.recv())["type"] == "pools"
            return ws
        except OSError:
            if time.monotonic() > end:
                raise
            await asyncio.sleep(0.2)


async def _until(ws, test, timeout=60):
    """The first message that passes ``test`` (a state to wait for, not a time)."""
    async def read():
        while True:
            msg = json.loads(await ws.recv())
            if test(msg):
                return msg
    return await asyncio.wait_for(read(), timeout)


async def _scenario(ports, cookies, procs):
    out = {}
    ala, bob = await _open(ports[0], cookies["ala"]), await _open(ports[1], cookies["bob"])
    await asyncio.gather(ala.send(json.dumps({"type": "join", "pool": POOL})),
                         bob.send(json.dumps({"type": "join", "pool": POOL})))
    paired = await asyncio.gather(*(_until(ws, lambda m: m["type"] == "paired") for ws in (ala, bob)))
    out["pair_tables"] = [m["table"] for m in paired]

    # Too far apart to pair at once (500 points, a window of 100): beat pairs them as it widens.
    cat, dan = await _open(ports[1], cookies["cat"]), await _open(ports[0], cookies["dan"])
    for ws in (cat, dan):
        await ws.send(json.dumps({"type": "join", "pool": "sixtysix/kurnik/180+3"}))
        await _until(ws, lambda m: m["type"] == "waiting")
    paired = await asyncio.gather(*(_until(ws, lambda m: m["type"] == "paired") for ws in (cat, dan)))
    out["beat_tables"] = [m["table"] for m in paired]

    # A waiter on a web process killed outright: his place runs out with its lease; beat drops it.
    watcher = await _open(ports[0])
    eve = await _open(ports[1], cookies["eve"])
    await eve.send(json.dumps({"type": "join", "pool": "sixtysix/santase/300+5"}))
    await _until(watcher, lambda m: m["type"] == "pools" and m["counts"]["sixtysix/santase/300+5"] == 1)
    killed_at = time.monotonic()
    procs.kill("daphne1")
    await _until(watcher, lambda m: m["type"] == "pools" and m["counts"]["sixtysix/santase/300+5"] == 0)
    out["dropped_after"] = time.monotonic() - killed_at
    for ws in (ala, dan, watcher):
        await ws.close()
    return out


def test_two_web_processes_pair_two_players_once_and_a_killed_ones_waiters_drop_out():
    from bench._servers import procfile_web

    env = scaled_env(DB, POOL_LEASE_SECONDS="3", POOL_WINDOW_GROWTH="250", POOL_BOT_OFFER_SECONDS="600")
    cookies = manage_shell(env, SETUP)
    (ROOT / "test-artifacts").mkdir(exist_ok=True)
    ports = [_free_port(), _free_port()]
    procs = Procs(env)
    try:
        procs.start("uvicorn0", *procfile_web("web1", ports[0]))
        procs.start("daphne1", BIN / "daphne", "-b", "127.0.0.1", "-p", ports[1], "config.asgi:application")
        procs.start("worker1", *worker_args("pool-worker1"))
        procs.start("beat", BIN / "celery", "-A", "config", "beat", "-l", "warning",
                    "--schedule", artifact("pool-celerybeat-schedule"))
        with ThreadPoolExecutor(1) as pool:
            out = pool.submit(asyncio.run, _scenario(ports, cookies, procs)).result()
    finally:
        procs.stop_all()
    assert out["pair_tables"][0] == out["pair_tables"][1]
    assert out["beat_tables"][0] == out["beat_tables"][1]
    final = manage_shell(env, "import json; from games.models import Seat, Table; from pool.models import PoolEntry; "
                              "print(json.dumps({'tables': [sorted(Seat.objects.filter(table=t).values_list('user__username', flat=True)) "
                              "for t in Table.objects.order_by('pk')], 'rated': Table.objects.filter(rated=True).count(), "
                              "'left': PoolEntry.objects.count()}))")
    assert final == {"tables": [["ala", "bob"], ["cat", "dan"]], "rated": 2, "left": 0}
    # The lease (3 s) plus beat's round (1 s), on a loaded machine: stated as "within a minute".
    assert out["dropped_after"] < 60
