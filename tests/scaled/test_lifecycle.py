"""A server that runs for weeks: web processes die and are restarted under play (scaled mode, real
processes, players on real sockets).

  a. A web process killed outright (SIGKILL): its player, who does not come back, is shown away to
     his opponent once the process's heartbeat has expired and the socket sweep ran (games/web_process/liveness.py:
     stated bound 15 + 5 + 5 = 25 s by default), and the opponent may then claim the win.
  b. A rolling restart (SIGTERM, then start again) of every web process, one after the other, while
     two tables play: every socket is closed with 4503 ("going away, reconnect") and reconnects
     elsewhere, no player is ever shown away, and the streams check out against the database (tests/scaled/test_faults.py
     ``check_streams``: no move lost or applied twice). The latency blip is reported.

What each saw goes to test-artifacts/lifecycle-*.json (and stdout with pytest -s).
"""
from __future__ import annotations

import asyncio
import json
import random
import time
from concurrent.futures import ThreadPoolExecutor

import psycopg
import pytest

from bench._servers import procfile_web

from .test_faults import PRESENCE, Socket, check_streams, daphne, mid_match, scenario, show, until, updates_seen
from .test_scaled import BIN, ROOT, Procs, _free_port, _open, artifact, manage_shell, scaled_env, worker_args
from tests.services import per_worker

pytestmark = pytest.mark.scaled

DB = "cards_lifecycle_test"
GRACE = 3           # LEAVER_GRACE_SECONDS here: the claim is the point, not the wait
AWAY_WITHIN = 60    # the longest this test waits for the away (the stated bound is 25 s)


@pytest.fixture(scope="module")
def env():
    return scaled_env(DB, BOT_DELAY_MS="40", DEAL_PAUSE_MS="300", LEAVER_GRACE_SECONDS=str(GRACE))


def uvicorn(port: int) -> list:
    return procfile_web("web1", port)


def sql(query: str, *args):
    with psycopg.connect(f"postgresql://postgres@127.0.0.1:5432/{per_worker(DB)}", autocommit=True) as conn:
        return conn.execute(query, args).fetchall()


SETUP_PAIR = """
import json
from django.test import Client
from accounts.models import User
from games import services
people = [User.objects.create_user(username=f"%(prefix)s{i}", password="x-Secret-123") for i in range(2)]
t = services.create_table(people[0], "sixtysix", seats=["me", people[1]], start=True)
cookies = []
for u in people:
    c = Client(); c.force_login(u); cookies.append(c.cookies["sessionid"].value)
print(json.dumps({"table": t.pk, "cookies": cookies}))
"""


# --- a. killed outright --------------------------------------------------------------------------
def test_a_web_process_killed_outright_its_player_turns_away_and_the_opponent_may_claim(env):
    prefix = "lk"
    setup = manage_shell(env, SETUP_PAIR % {"prefix": prefix})
    tid = setup["table"]
    ports = [_free_port(), _free_port()]
    procs = Procs(env)
    # The leaver only ever tries the process that was killed: he does not come back.
    leaver = Socket("leaver (web1)", tid, 0, setup["cookies"][0], [ports[0]], 0, random.Random(1))
    stayer = Socket("stayer (web2)", tid, 1, setup["cookies"][1], [ports[1]], 0, random.Random(2))
    try:
        procs.start(f"{prefix}web1", *uvicorn(ports[0]))
        procs.start(f"{prefix}web2", *daphne(ports[1]))
        procs.start(f"{prefix}worker", *worker_args(f"{prefix}worker"))
        procs.start(f"{prefix}beat", BIN / "celery", "-A", "config", "beat", "-l", "warning",
                    "--schedule", artifact(f"celerybeat-{prefix}schedule"))
        for port in ports:
            _until_sync(lambda: _open(port), 120, "a web process did not come up")
        with ThreadPoolExecutor(1) as pool:
            out = pool.submit(asyncio.run, _kill_and_claim(leaver, stayer, procs, prefix, tid)).result()
    finally:
        procs.stop_all()
    (ROOT / "test-artifacts").mkdir(exist_ok=True)
    (ROOT / "test-artifacts" / "lifecycle-kill.json").write_text(json.dumps(out, indent=1))
    print(json.dumps(out, indent=1))
    assert out["records_of_the_dead_process_left"] == 0
    assert out["ended_by"] == "abandoned" and out["winners"] == [1]


def _until_sync(check, seconds, failure):
    end = time.monotonic() + seconds
    while not check():
        if time.monotonic() > end:
            raise AssertionError(failure)
        time.sleep(0.1)


def _away(sock: Socket, seat: int) -> bool:
    return any(e[0] == "update" and any(ev.get("kind") == "away" and ev.get("seat") == seat for ev in e[2] or [])
               for e in sock.log)


async def _kill_and_claim(leaver: Socket, stayer: Socket, procs: Procs, prefix: str, tid: int) -> dict:
    stop = asyncio.Event()
    tasks = [asyncio.ensure_future(s.connection(stop)) for s in (leaver, stayer)]
    players = [asyncio.ensure_future(s.play(stop)) for s in (leaver, stayer)]
    try:
        # Under play: both counted (a record each), a few moves made.
        await until(lambda: sql("SELECT count(*) FROM games_tablesocket WHERE table_id = %s", tid)[0][0] == 2
                    and updates_seen(stayer) >= 4, 120)
        dead = sql("SELECT DISTINCT process FROM games_tablesocket WHERE table_id = %s AND seat = 0", tid)[0][0]
        await asyncio.get_running_loop().run_in_executor(None, procs.kill, f"{prefix}web1")
        killed = time.monotonic()
        await until(lambda: _away(stayer, 0), AWAY_WITHIN)
        away_after = time.monotonic() - killed
        for p in players:
            p.cancel()
        left = sql("SELECT count(*) FROM games_tablesocket WHERE process = %s", dead)[0][0]
        # The leaver rules apply: after the grace the opponent claims the win.
        for _attempt in range(200):
            await stayer._send({"type": "claim_win", "version": stayer.msg["version"]})
            await stayer.wait_change(2)
            if stayer.finished:
                break
            last = stayer.errors[-1] if stayer.errors else {}
            if last.get("code") == "claim_too_early":
                await asyncio.sleep(min(1.0, float(last.get("params", {}).get("retry_after", 1))))
        match = stayer.msg["table"]["match"] or {}
        return {"away_after_kill_s": round(away_after, 1), "records_of_the_dead_process_left": left,
                "ended_by": match.get("ended_by"), "winners": match.get("winners"),
                "stayer_errors": [e["code"] for e in stayer.errors]}
    finally:
        stop.set()
        for s in (leaver, stayer):
            if s.ws is not None:
                await s.ws.close()
        for t in tasks + players:
            t.cancel()
        await asyncio.gather(*tasks, *players, return_exceptions=True)


# --- b. a rolling restart ------------------------------------------------------------------------------
def test_b_a_rolling_restart_of_every_web_process_loses_and_doubles_no_move(env):
    prefix = "lr"

    async def fault(socks, procs, ports):
        await until(mid_match(socks, updates=6), 120)
        loop = asyncio.get_running_loop()
        marks = {}
        for n, (port, web) in enumerate(zip(ports, (uvicorn, daphne)), start=1):
            name = f"{prefix}web{n}"
            marks[f"web{n}_term"] = time.monotonic()
            await loop.run_in_executor(None, procs.stop, name)
            marks[f"web{n}_exited"] = time.monotonic()
            # Its sockets are on the other process before it comes back (none is left behind).
            await until(lambda: all(s.finished or (s.ws is not None and s.port != port) for s in socks), 60)
            procs.start(name, *web(port))
            await loop.run_in_executor(None, _until_sync, lambda: _open(port), 120, f"{name} did not come back")
            await warm(port)        # as a deployment's readiness check: ready before the next one stops
            marks[f"web{n}_back"] = time.monotonic()
        return marks

    started = time.monotonic()
    setup, socks, final, run = scenario(env, prefix, fault, webs=(uvicorn, daphne), hearts=[60, 60, 60, 60],
                                        spades=[400, 400], seconds=300)
    report = check_streams(setup, socks, final)
    marks = run["fault"]
    blip = latency_blip(socks, marks)
    show("rolling-restart", started, report, socks, marks, blip=blip)
    for s in socks:
        closes = [e for e in s.log if e[0] == "closed"]
        # Closed only by the restarts, each time with "going away, reconnect", and back each time.
        assert closes and all(e[2] == 4503 for e in closes), (s.name, closes)
        opened = sum(1 for e in s.log if e[0] == "open")
        assert opened == len(closes) + 1 or (s.finished and opened == len(closes)), s.name
        # Its records were kept for the reconnect: no player was ever shown away.
        assert not any(e[0] == "update" and (e[2] or [{}])[0].get("kind") in PRESENCE for e in s.log), s.name


async def warm(port: int) -> None:
    """One socket served end to end (a lobby's first message): the process's first database and
    Redis connections are made, so the sockets that move to it next do not wait for them."""
    import websockets

    async with websockets.connect(f"ws://127.0.0.1:{port}/ws/lobby/hearts/", origin=f"http://127.0.0.1:{port}",
                                  open_timeout=60) as ws:
        await asyncio.wait_for(ws.recv(), 60)


def latency_blip(socks: list[Socket], marks: dict) -> dict:
    """Per restart, how long its sockets were without a table (the last message before the close ->
    the snapshot after it: an upper bound), and the
    latency of the scripted moves (sent -> the update with it), in and out of the restarts."""
    windows = [(marks[f"web{n}_term"], marks[f"web{n}_back"]) for n in (1, 2)]
    reconnect = []
    for s in socks:
        heard, closed = None, False
        for e in s.log:
            if e[0] == "closed":
                closed = True
            elif e[0] in ("snapshot", "update"):
                if closed and e[0] == "snapshot" and heard is not None:
                    reconnect.append(e[4] - heard)     # at most this long without its table
                closed, heard = False, e[4]
    during, outside = [], []
    for s in socks:
        for at, version, _action, _port in s.sent:
            answer = next((e[4] for e in s.log if e[0] in ("update", "snapshot") and e[1] > version and e[4] >= at), None)
            if answer is None:
                continue
            (during if any(a <= at <= b for a, b in windows) else outside).append(answer - at)

    def summary(xs):
        xs = sorted(xs)
        if not xs:
            return None
        return {"n": len(xs), "p50_ms": round(1000 * xs[len(xs) // 2]), "max_ms": round(1000 * xs[-1])}
    return {"reconnect_last_message_to_snapshot": summary(reconnect), "moves_outside_restarts": summary(outside),
            "moves_during_restarts": summary(during)}
