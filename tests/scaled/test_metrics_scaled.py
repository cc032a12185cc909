"""/metrics on a scaled site (prometheus-client's multiprocess mode): two web processes as the
Procfile runs them, a Celery worker and beat sharing PROMETHEUS_MULTIPROC_DIR. Two people play
over sockets on the two processes; each process answers /metrics with the whole site's numbers,
and every move is counted once: not by the process that only relays it to its socket. /healthz
and /readyz answer on the real servers (Redis checked in this mode)."""
import asyncio
import json
import random
import shutil
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest
from prometheus_client.parser import text_string_to_metric_families

from tests.scaled.test_scaled import BIN, Procs, _free_port, artifact, manage_shell, scaled_env, worker_args

pytestmark = pytest.mark.scaled
MOVES = 14

SETUP = """
import json
from django.test import Client
from accounts.models import User
from games import services
users = [User.objects.create_user(username=f"mp{i}", password="x-Secret-123") for i in range(2)]
t = services.create_table(users[0], "sixtysix", "kurnik")
services.sit(t.pk, users[1], 1)          # the last open seat: the match starts
cookies = []
for u in users:
    c = Client(); c.force_login(u); cookies.append(c.cookies["sessionid"].value)
print(json.dumps({"table": t.pk, "cookies": cookies}))
"""
ACTIONS = """
import json
from games.models import Deal
print(json.dumps(sum(len(d.record["actions"]) for d in Deal.objects.filter(match__table_id=%d))))
"""


def scrape(port: int) -> dict[tuple, float]:
    text = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=30).read().decode()
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


def value(samples, name, **labels) -> float:
    return sum(v for (n, ls), v in samples.items() if n == name and all(dict(ls).get(k) == m for k, m in labels.items()))


async def play(ports, table_id, cookies, moves: int, read_while_open):
    import websockets

    from games.bots import choose_action

    async def open_ws(port, cookie):
        end = time.monotonic() + 180
        while time.monotonic() < end:
            try:
                return await websockets.connect(f"ws://127.0.0.1:{port}/ws/table/{table_id}/",
                                                origin=f"http://127.0.0.1:{port}",
                                                additional_headers={"Cookie": f"sessionid={cookie}"})
            except OSError:
                await asyncio.sleep(0.2)
        raise RuntimeError("the web server did not come up")

    socks = [await open_ws(ports[0], cookies[0]), await open_ws(ports[1], cookies[1])]
    last = [None, None]
    rng, acted = random.Random(3), 0
    deadline = time.monotonic() + 120
    while acted < moves and time.monotonic() < deadline:
        for i, sock in enumerate(socks):
            try:
                while True:
                    msg = json.loads(await asyncio.wait_for(sock.recv(), 0.2))
                    if msg["type"] in ("snapshot", "update"):
                        last[i] = msg
            except asyncio.TimeoutError:
                pass
        for i, sock in enumerate(socks):
            m = last[i]
            if (acted < moves and m and m["table"]["status"] == "playing" and m["view"]
                    and m["you"] in m["view"]["to_act"] and m["view"]["legal"]):
                await sock.send(json.dumps({"type": "action", "version": m["version"],
                                            "action": choose_action("random", m["view"], rng)}))
                acted += 1
                last[i] = None          # wait for the update that answers it
    open_now = await asyncio.to_thread(read_while_open)
    for sock in socks:
        await sock.close()
    return acted, open_now


def test_two_web_processes_count_each_move_once_and_answer_the_sites_sums(tmp_path):
    metrics_dir = tmp_path / "metrics"
    metrics_dir.mkdir()
    env = scaled_env("cards_ops_metrics", BOT_DELAY_MS="30", DEAL_PAUSE_MS="100", OPS_SAMPLE_SECONDS="0.5",
                     PROMETHEUS_MULTIPROC_DIR=str(metrics_dir))
    from bench._servers import procfile_web

    setup = manage_shell(env, SETUP)
    ports = [_free_port(), _free_port()]
    procs = Procs(env)
    try:
        procs.start("web1", *procfile_web("web1", ports[0]))
        procs.start("web2", *procfile_web("web2", ports[1]))
        procs.start("worker", *worker_args("worker"))
        procs.start("beat", BIN / "celery", "-A", "config", "beat", "-l", "warning",
                    "--schedule", artifact("ops-celerybeat-schedule"))

        def while_open():
            time.sleep(1.5)             # past a sample of each process (OPS_SAMPLE_SECONDS)
            return scrape(ports[0])

        with ThreadPoolExecutor(1) as pool:
            acted, open_now = pool.submit(asyncio.run, play(ports, setup["table"], setup["cookies"], MOVES,
                                                            while_open)).result()
        stored = manage_shell(env, ACTIONS % setup["table"])
        first, second = scrape(ports[0]), scrape(ports[1])
        health = urllib.request.urlopen(f"http://127.0.0.1:{ports[0]}/healthz", timeout=30).read()
        ready = json.loads(urllib.request.urlopen(f"http://127.0.0.1:{ports[1]}/readyz", timeout=30).read())
    finally:
        procs.stop_all()
        shutil.rmtree(metrics_dir, ignore_errors=True)
    assert health == b"ok\n"
    assert ready == {"ready": True, "checks": {"database": "ok", "redis": "ok"}}
    assert acted == MOVES and stored == MOVES
    for samples in (first, second):             # either process answers for the whole site
        assert value(samples, "cards_moves_total", game="sixtysix", by="person") == MOVES
        assert value(samples, "cards_moves_total", by="bot") == 0
        assert value(samples, "cards_move_seconds_count") == MOVES
        assert value(samples, "cards_tables_live", game="sixtysix") == 1
    assert value(open_now, "cards_sockets_open") == 2       # one on each process
    web_pids = {dict(ls)["pid"] for (n, ls), _v in open_now.items()
                if n == "cards_process_resident_bytes" and dict(ls).get("kind") == "web"}
    assert len(web_pids) == 2
