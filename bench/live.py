"""Live-load benchmark: N four-seat tables played by scripted websocket clients on loopback.

    .venv/bin/python bench/live.py --mode embedded --tables 200 --seconds 30 --warmup 5
    .venv/bin/python bench/live.py --mode scaled   --tables 200 --seconds 30
    .venv/bin/python bench/live.py --mode scaled   --tables 200 --bots      # 3 basic bots + 1 client
    .venv/bin/python bench/live.py --mode embedded --tables 20 --bots --bot-level strong --rate 0.5
    .venv/bin/python bench/live.py --mode embedded --mix people:20,basic:4,strong:4,expert:2 \
        --spectators 40 --lobby 20 --rate 0.5 --analyses 10      # a mixed load (below)

The script starts its own servers and stops them when it is done (everything on 127.0.0.1):
  * embedded: one Daphne with the default settings and a fresh SQLite file (in-memory channel
    layer, Celery worker and beat as threads of that process);
  * scaled: two Daphne processes (DATABASE_URL -> PostgreSQL database ``bench_live``, recreated;
    REDIS_URL -> Redis DB 9, flushed), one separate Celery worker of the ``celery`` queue (-c 4 -Q celery
    as in the Procfile, with beat) and the Procfile's ``analysis`` worker (niced, -c 1 -Q analysis).
It migrates, creates the users and tables through Django (bench/_setup.py), and gives each player a
session (the ``sessionid`` cookie a login would set). Each seat is a ``websockets`` client; in scaled
mode seat i of table t connects to web process (t + i) % W, so every move crosses processes
(``--sticky``: all of table t's seats to process t % W, as a proxy routing by table id would); W is
``--web``, 2 unless asked. The owners
start their matches over the socket; after the warm-up, each table makes about ``--rate`` moves per
second: when a seat's own view lists legal actions, it sends one of them (hearts pass: 3 cards of
its hand), waits for the resulting update, and the table's next move follows at the next tick.

Measured: the time from sending an action to the arrival of its update (the next version) on the
LAST socket of the table. Clients and servers share one machine and one clock; on loopback the
send time is the server's arrival time to within the kernel's copy (tens of microseconds), so this
is "arrival at the server -> view on the last socket" plus the client's own receive overhead.
That overhead is kept small (the clients run on uvloop, see run_loop) and reported: the client
loop's own lag, measured by a probe that sleeps 5 ms at a time.
With --bots, seats 1-3 are server-side basic bots (Celery) and one scripted client sits at seat 0;
bot moves are measured from the arrival of the previous update to the arrival of the bot's update,
minus the bot's configured delay (BOT_DELAY_MS, set to 1000/rate so the table keeps the pace).

--mix: tables of each kind at once ("people": four scripted people; a level: one person and three
bots of it), with --spectators sockets watching the tables round the list and --lobby sockets on
the lobby pages (no session; what they receive is counted). The report gives the people's moves
per kind of table and each level's bot lag.

--analyses N (with --mix or --tables): post-match analyses through the site's own path. N more
tables of one person and three basic bots are set up (bench/_setup.py ending_table) with a match
that basic bots played in the engine from its first deal to its last, cut at the person's last
decision of the last deal, where every continuation ends the match (checked by enumerating them);
--analysis-deals K of its deals are on record (the last included; the analysis covers those; K=99:
the whole match). The people's single moves are spread evenly over the measured window; the bots
finish the deal, the server ends the match, its match_finished receiver creates the Analysis and
enqueues analysis.tasks.analyse_match, and the mode's own analysis worker runs it (embedded: the
worker thread of the web process, config/embedded.py; scaled: the Procfile's ``analysis`` process).
After the window the Analysis rows are read back (``bench/_setup.py analyses``; with
--analysis-wait S, once none is pending or running, or S s after the window; those done after it
ran without the tables' load): matches ended in the window, analyses by status, those done within
the window, queue wait (created -> started) and run (started -> finished) p50 / max of the finished
ones, the longest wait of those not started. The moves at these tables (the person's last move, the
bots' after it) are reported on their own line and left out of every other figure (the overall and
per-kind latencies, bot lag, moves/s), so those measure the same tables with or without --analyses.

Target (issue): 200 tables x 1 move/s, p99 < 100 ms, in both modes. Server CPU is read from
/proc/<pid>/stat over the measured window (100% = one core; the machine has os.cpu_count()).
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench import _servers as S  # noqa: E402

import orjson  # noqa: E402
import websockets  # noqa: E402

TARGET_P99_MS = 100.0
now = time.perf_counter


# --- clients ------------------------------------------------------------------------------------
@dataclass
class Pending:
    version: int
    seat: int
    sent: float
    measured: bool
    done: asyncio.Event = field(default_factory=asyncio.Event)


class Stats:
    def __init__(self):
        self.lat: list[float] = []          # scripted moves: send -> last socket (s)
        self.spread: list[float] = []       # first socket -> last socket of the same update (s)
        self.bot_lat: list[float] = []      # bot moves: previous update -> bot update - delay (s)
        self.bot_lat_by_level: dict[str, list[float]] = {}     # the same, per bot level (--mix)
        self.people_lat_by_kind: dict[str, list[float]] = {}   # scripted moves at "people" or bot tables
        self.watched = Counter()            # messages received by spectators and lobby watchers
        self.actions_in_window = 0          # every action update completed in the window
        self.ending_actions = 0             # of which at --analyses tables (not in the figure above)
        self.match_ends_seen = 0            # match_end events that reached the sockets in the window
        self.errors: Counter = Counter()
        self.window = (float("inf"), float("-inf"))
        self.max_inflight = 0
        self.incidents: list[str] = []      # what the sockets knew when an update never came
        self.loop_lag: list[float] = []     # how late this process's own loop woke (s): the
                                            # measuring side's share of the latencies above

    def in_window(self, t: float) -> bool:
        return self.window[0] <= t < self.window[1]


class Sock:
    def __init__(self, table: "TableRun", seat: int, port: int, session: str):
        self.table, self.seat, self.port, self.session = table, seat, port, session
        self.ws = None
        self.version = -1
        self.view = None
        self.status = None
        self.last_arrival = 0.0
        self.ready = asyncio.Event()

    async def connect(self, sem: asyncio.Semaphore) -> None:
        uri = f"ws://127.0.0.1:{self.port}/ws/table/{self.table.id}/"
        async with sem:
            self.ws = await websockets.connect(
                uri, origin=f"http://127.0.0.1:{self.port}",
                additional_headers={"Cookie": f"sessionid={self.session}"},
                compression=None, max_size=None, ping_interval=None, open_timeout=60)
        asyncio.get_running_loop().create_task(self.reader())

    async def reader(self) -> None:
        st = self.table.stats
        try:
            async for raw in self.ws:
                t = now()
                msg = orjson.loads(raw)     # the load generator's own CPU is the machine's too
                kind = msg.get("type")
                if kind in ("snapshot", "update"):
                    prev_arrival = self.last_arrival
                    self.version = msg["version"]
                    self.view = msg["view"]
                    self.status = msg["table"]["status"]
                    self.last_arrival = t
                    self.check_seat(msg)
                    if kind == "update":
                        self.table.arrived(self, msg, t, prev_arrival)
                    self.ready.set()
                    self.table.changed.set()
                elif kind == "error":
                    code = msg.get("code")
                    if code == "stale":
                        # With bots a human's hearts pass may cross a bot's: the server refuses it
                        # and resends a snapshot (counted apart). Without bots it must not happen.
                        self.table.stale += 1
                        if not self.table.bots:
                            st.errors[code] += 1
                    else:
                        st.errors[code] += 1
                    p = self.table.pending
                    if p is not None and p.seat == self.seat:
                        p.done.set()
        except websockets.ConnectionClosed as exc:
            if not self.table.closing:
                st.errors[f"closed {exc.rcvd.code if exc.rcvd else ''}"] += 1

    def check_seat(self, msg: dict) -> None:
        """Every snapshot and update must be built for this socket's seat (``you``). Only a bot's
        taking over the seat (its player ran out of time, docs/PROTOCOL.md "Leavers") makes the
        socket a spectator's: counted as ``seat taken by a bot`` (nobody should time out here), and
        from then on the socket is one. Anything else is ``wrong_seat``, with what it was."""
        you = msg.get("you", self.seat)     # the echo's updates have none
        if you == self.seat:
            return
        st = self.table.stats
        seats = msg["table"].get("seats") or []
        taken = (you is None and self.seat is not None and self.seat < len(seats)
                 and seats[self.seat].get("is_bot"))
        if taken:
            st.errors["seat taken by a bot"] += 1
            st.incidents.append(f"table {self.table.id}: seat {self.seat}'s player lost his seat to a bot "
                                f"at version {msg['version']}")
            self.seat = None
            return
        st.errors["wrong_seat"] += 1
        st.incidents.append(f"table {self.table.id}: the socket of seat {self.seat} was sent a {msg['type']} "
                            f"for seat {you} at version {msg['version']}")


class TableRun:
    def __init__(self, spec: dict, ports: list[int], index: int, stats: Stats, bots: bool,
                 bot_delay: float, sticky: bool = False):
        self.id, self.game, self.stats = spec["id"], spec["game"], stats
        self.level = spec.get("level")      # the bots' level; None: four people
        # What its figures are reported under: "people", the bots' level, or "ending" (--analyses:
        # kept out of the overall figures, so that they measure the same load with or without it).
        self.kind = spec.get("kind") or self.level or "people"
        self.ending = self.kind == "ending"
        self.bots = bots or self.level is not None
        self.bot_delay = bot_delay
        self.socks = [Sock(self, seat, ports[(index + (0 if sticky else seat)) % len(ports)], key)
                      for seat, key in enumerate(spec["sessions"]) if key]
        self.arrivals: dict[int, list] = {}     # version -> [count, first, last]
        self.pending: Pending | None = None
        self.changed = asyncio.Event()
        self.closing = False
        self.stopped = False     # the driver returns at its next step (bench/soak.py: match over)
        self.stale = 0

    def arrived(self, sock: Sock, msg: dict, t: float, prev_arrival: float) -> None:
        v = msg["version"]
        a = self.arrivals.get(v)
        if a is None:
            a = self.arrivals[v] = [0, t, t]
        a[0] += 1
        a[2] = t
        if a[0] < len(self.socks):
            return
        del self.arrivals[v]
        for old in [k for k in self.arrivals if k < v - 8]:   # versions some socket skipped
            del self.arrivals[old]
        st = self.stats
        event = msg.get("event") or {}
        # Every event of the commit: the action that ends a deal comes with deal_end (and
        # match_end) after it, and ``event`` is only the last of them.
        events = msg.get("events") or (event.get("events", [event]) if event.get("kind") == "batch" else [event])
        action = next((e for e in events if e.get("kind") == "action"), None)
        if st.in_window(t) and any(e.get("kind") == "match_end" for e in events):
            st.match_ends_seen += 1
        if action is not None and st.in_window(t):
            if self.ending:
                st.ending_actions += 1
            else:
                st.actions_in_window += 1
            if len(self.socks) > 1:
                st.spread.append(a[2] - a[1])
        p = self.pending
        if p is not None and p.version + 1 == v and action is not None and action.get("seat") == p.seat:
            if p.measured:
                if not self.ending:
                    st.lat.append(t - p.sent)
                st.people_lat_by_kind.setdefault(self.kind, []).append(t - p.sent)
            p.done.set()
        elif self.bots and action is not None and action.get("seat") != self.socks[0].seat:
            if st.in_window(t) and prev_arrival:
                if not self.ending:
                    st.bot_lat.append(t - prev_arrival - self.bot_delay)
                key = "bots" if self.kind == "people" else self.kind
                st.bot_lat_by_level.setdefault(key, []).append(t - prev_arrival - self.bot_delay)

    def actor(self) -> Sock | None:
        top = max(s.version for s in self.socks)
        for s in self.socks:
            if s.version == top and s.status == "playing" and s.view and s.view.get("legal"):
                return s
        return None


def choose(view: dict, rng: random.Random) -> dict:
    action = dict(rng.choice(view["legal"]))
    if action.get("type") == "pass" and len(action.get("cards", ())) > 3:
        action["cards"] = rng.sample(list(action["cards"]), 3)   # hearts: the pass lists the hand
    action.pop("seat", None)
    return action


async def drive(tr: TableRun, rate: float, t0: float, stop_at: float, rng: random.Random,
                inflight: list[int], only_at: float | None = None) -> None:
    """The table's moves, one every 1/rate s from a random offset; ``only_at``: one move then
    (an --analyses table's person, whose move ends the match)."""
    interval = 1.0 / rate
    next_t = t0 + rng.uniform(0, interval) if only_at is None else only_at
    st = tr.stats
    while True:
        delay = next_t - now()
        if delay > 0:
            await asyncio.sleep(delay)
        if now() >= stop_at or tr.stopped:
            return
        sock = tr.actor()
        while sock is None:
            tr.changed.clear()
            try:
                await asyncio.wait_for(tr.changed.wait(), timeout=max(0.01, stop_at - now()))
            except asyncio.TimeoutError:
                return
            if tr.stopped:
                return
            sock = tr.actor()
        action = choose(sock.view, rng)
        sent = now()
        if sent >= stop_at:
            return
        p = tr.pending = Pending(sock.version, sock.seat, sent, st.in_window(sent))
        inflight[0] += 1
        st.max_inflight = max(st.max_inflight, inflight[0])
        await sock.ws.send(orjson.dumps({"type": "action", "version": sock.version, "action": action}).decode())
        try:
            await asyncio.wait_for(p.done.wait(), timeout=10)
        except asyncio.TimeoutError:
            st.errors["no update within 10 s"] += 1
            st.incidents.append(f"table {tr.id}: seat {p.seat} acted on version {p.version}; "
                                f"sockets now at {[s.version for s in tr.socks]}")
        inflight[0] -= 1
        tr.pending = None
        if only_at is not None:
            return
        next_t += interval
        if next_t < now():
            next_t = now()


def wrong_seat_verdict(stats: Stats) -> int:
    """The exit status: 1 when a single socket was sent a message built for another seat (the
    worst defect the site can have: someone else's hand), whatever else the run measured."""
    if not stats.errors.get("wrong_seat"):
        return 0
    print(f"FAILED: {stats.errors['wrong_seat']} messages built for another seat reached a socket:")
    for line in [i for i in stats.incidents if "was sent a" in i][:10]:
        print(f"    {line}")
    return 1


async def watch(port: int, path: str, kind: str, stats: Stats, sem: asyncio.Semaphore,
                stop_at: float) -> None:
    """A spectator of a table, or a lobby watcher (``path``), without a session: it only reads,
    adding the fan-out a site with an audience has; what it receives is counted by ``kind``."""
    async with sem:
        ws = await websockets.connect(f"ws://127.0.0.1:{port}{path}", origin=f"http://127.0.0.1:{port}",
                                      compression=None, max_size=None, ping_interval=None, open_timeout=60)
    try:
        while now() < stop_at:
            try:
                await asyncio.wait_for(ws.recv(), timeout=max(0.01, stop_at - now()))
            except asyncio.TimeoutError:
                break
            if stats.in_window(now()):
                stats.watched[kind] += 1
    except websockets.ConnectionClosed:
        stats.errors[f"{kind} closed"] += 1
    finally:
        await ws.close()


async def probe_loop_lag(stats: Stats, stop_at: float, period: float = 0.005) -> None:
    """Sleep a few ms at a time and record how late the loop woke: time the load generator's
    loop spent elsewhere, which delays the receive timestamps of the sockets too."""
    while now() < stop_at:
        t = now()
        await asyncio.sleep(period)
        if stats.in_window(t):
            stats.loop_lag.append(now() - t - period)


async def run_load(specs: list[dict], ports: list[int], args, cpu_pids: dict[str, int],
                   on_window=lambda: None) -> dict:
    stats = Stats()
    rng = random.Random(args.seed)
    bot_delay = args.bot_delay_ms / 1000.0
    tables = [TableRun(spec, ports, i, stats, args.bots, bot_delay, args.sticky) for i, spec in enumerate(specs)]
    socks = [s for t in tables for s in t.socks]
    sem = asyncio.Semaphore(32)
    t_conn = now()
    await asyncio.gather(*(s.connect(sem) for s in socks))
    await asyncio.wait_for(asyncio.gather(*(s.ready.wait() for s in socks)), timeout=120)
    t_conn = now() - t_conn
    print(f"  {len(socks)} sockets connected in {t_conn:.1f} s", flush=True)

    # The owners start their matches, a few at a time (start also refreshes the lobby); the
    # --analyses tables are playing already (bench/_setup.py ending_table).
    owners = [t.socks[0] for t in tables if not t.ending]
    for i in range(0, len(owners), 20):
        for s in owners[i:i + 20]:
            await s.ws.send(json.dumps({"type": "start"}))
        await asyncio.sleep(0.05)

    async def started(t: TableRun):
        while not all(s.status in ("playing", "between_deals") for s in t.socks):
            t.changed.clear()
            await t.changed.wait()
    await asyncio.wait_for(asyncio.gather(*(started(t) for t in tables)), timeout=120)
    print(f"  {len(tables)} matches started; warm-up {args.warmup} s, measuring {args.seconds} s",
          flush=True)

    t0 = now()
    stats.window = (t0 + args.warmup, t0 + args.warmup + args.seconds)
    stop_at = stats.window[1]
    watchers = [asyncio.get_running_loop().create_task(
        watch(ports[i % len(ports)], f"/ws/table/{tables[i % len(tables)].id}/", "spectator", stats, sem, stop_at))
        for i in range(args.spectators)]
    watchers += [asyncio.get_running_loop().create_task(
        watch(ports[i % len(ports)], f"/ws/lobby/{('hearts', 'spades')[i % 2]}/", "lobby", stats, sem, stop_at))
        for i in range(args.lobby)]
    inflight = [0]
    drivers = [asyncio.get_running_loop().create_task(
        drive(t, args.rate, t0, stop_at, random.Random(rng.random()), inflight)) for t in tables if not t.ending]
    # The --analyses tables' people play their last move evenly spread over the window, so that
    # matches end, and analyses are queued, at a steady rate.
    endings = [t for t in tables if t.ending]
    drivers += [asyncio.get_running_loop().create_task(
        drive(t, args.rate, t0, stop_at, random.Random(rng.random()), inflight,
              only_at=stats.window[0] + (i + 0.5) * args.seconds / len(endings)))
        for i, t in enumerate(endings)]
    lag_probe = asyncio.get_running_loop().create_task(probe_loop_lag(stats, stop_at))

    await asyncio.sleep(max(0.0, stats.window[0] - now()))
    cpu0, w0 = S.cpu_sample(cpu_pids), now()
    on_window()
    await asyncio.sleep(max(0.0, stats.window[1] - now()))
    cpu1, w1 = S.cpu_sample(cpu_pids), now()
    await asyncio.wait_for(asyncio.gather(*drivers, lag_probe), timeout=15)
    await asyncio.gather(*watchers, return_exceptions=True)
    for t in tables:
        t.closing = True
    await asyncio.gather(*(s.ws.close() for s in socks), return_exceptions=True)

    wall = w1 - w0
    cpu = {k: 100.0 * v / wall for k, v in S.cpu_delta(cpu0, cpu1).items()}
    to_epoch = time.time() - now()
    return {"stats": stats, "cpu": cpu, "sockets": len(socks), "connect_s": t_conn,
            "stale": sum(t.stale for t in tables),
            "window_epoch": (stats.window[0] + to_epoch, stats.window[1] + to_epoch)}


# --- reporting ----------------------------------------------------------------------------------
def pct(samples: list[float], q: float) -> float:
    if not samples:
        return float("nan")
    s = sorted(samples)
    return 1000.0 * s[min(len(s) - 1, max(0, int(round(q / 100.0 * len(s) + 0.5)) - 1))]


def report(args, res: dict) -> dict:
    st: Stats = res["stats"]
    row = {
        "mode": args.mode + (f"+bots ({args.bot_level})" if args.bots else "") + ("+mix" if args.mix else ""),
        "tables": args.tables, "mix": args.mix, "spectators": args.spectators, "lobby": args.lobby,
        "app": args.app, "server": args.server, "rate": args.rate, "sticky": args.sticky,
        "web": args.web,
        "sockets": res["sockets"], "target_moves_s": args.tables * args.rate,
        "moves_s": st.actions_in_window / args.seconds,
        "scripted_moves": len(st.lat),
        "p50": pct(st.lat, 50), "p95": pct(st.lat, 95), "p99": pct(st.lat, 99),
        "max": 1000 * max(st.lat) if st.lat else float("nan"),
        "spread_p99": pct(st.spread, 99),
        "loadgen_lag_p50": pct(st.loop_lag, 50), "loadgen_lag_p99": pct(st.loop_lag, 99),
        "bot_p50": pct(st.bot_lat, 50), "bot_p95": pct(st.bot_lat, 95), "bot_p99": pct(st.bot_lat, 99),
        "bot_moves": len(st.bot_lat),
        "bot_by_level": {k: {"n": len(v), "p50": pct(v, 50), "p95": pct(v, 95), "p99": pct(v, 99),
                             "max": 1000 * max(v)}
                         for k, v in sorted(st.bot_lat_by_level.items())},
        "people_by_table": {k: {"n": len(v), "p50": pct(v, 50), "p95": pct(v, 95), "p99": pct(v, 99),
                                "max": 1000 * max(v)}
                            for k, v in sorted(st.people_lat_by_kind.items())},
        "watched_per_s": {k: v / args.seconds for k, v in st.watched.items()},
        "analyses_asked": args.analyses, "analysis_deals": args.analysis_deals,
        "ending_moves": st.ending_actions, "match_ends_seen": st.match_ends_seen,
        "analyses": res.get("analyses"),
        "errors": sum(st.errors.values()), "error_kinds": dict(st.errors), "stale": res["stale"],
        "incidents": st.incidents,
        "cpu": {k: round(v, 1) for k, v in res["cpu"].items()},
    }
    if args.stages:
        from realtime import stages
        found = stages.read(args.stages, *res["window_epoch"])
        row["stages"] = {name: {"p50": pct_ms(v, 50), "p90": pct_ms(v, 90), "p99": pct_ms(v, 99)}
                         for name, v in found.items()}
    return row


def pct_ms(samples_ms: list[float], q: float) -> float:
    return pct(samples_ms, q) / 1000.0


def print_rows(rows: list[dict]) -> None:
    head = (f"{'mode':<15}{'app/server':<16}{'tables':>7}{'moves/s':>9}{'target':>8}{'p50 ms':>8}{'p95 ms':>8}"
            f"{'p99 ms':>8}{'max ms':>8}{'errors':>7}  server CPU % (100 = 1 core)")
    print(head)
    print("-" * len(head) + "-" * 30)
    for r in rows:
        cpu = ", ".join(f"{k} {v:.0f}" for k, v in r["cpu"].items())
        app = f"{r.get('app', 'site')}/{r.get('server', 'daphne')}"
        print(f"{r['mode']:<15}{app:<16}{r['tables']:>7}{r['moves_s']:>9.1f}{r['target_moves_s']:>8.0f}"
              f"{r['p50']:>8.1f}{r['p95']:>8.1f}{r['p99']:>8.1f}{r['max']:>8.1f}{r['errors']:>7}  {cpu}")
        if "+bots" in r["mode"]:
            print(f"{'  bot moves':<15}{'':<16}{'':>7}{'':>9}{'':>8}{r['bot_p50']:>8.1f}{r['bot_p95']:>8.1f}"
                  f"{r['bot_p99']:>8.1f}   (previous update -> bot update, minus the bot delay)")
        if r.get("mix"):
            for kind, v in r["people_by_table"].items():
                if kind == "ending":
                    continue        # print_analyses
                print(f"  people's moves at {kind} tables: {v['n']} moves, p50 / p95 / p99 "
                      f"{v['p50']:.1f} / {v['p95']:.1f} / {v['p99']:.1f} ms")
            for level, v in r["bot_by_level"].items():
                if level == "ending":
                    continue
                print(f"  {level} bots' lag beyond their delay: {v['n']} moves, p50 / p95 / p99 "
                      f"{v['p50']:.0f} / {v['p95']:.0f} / {v['p99']:.0f} ms")
            watched = ", ".join(f"{k} {v:.0f}/s" for k, v in r["watched_per_s"].items()) or "none"
            print(f"  messages to {r['spectators']} spectators and {r['lobby']} lobby watchers: {watched}")
        if r.get("analyses"):
            print_analyses(r)
        if r["error_kinds"]:
            print(f"  errors: {r['error_kinds']}")
            for line in r["incidents"][:5]:
                print(f"    {line}")
        verdict = "meets" if r["p99"] < TARGET_P99_MS else "MISSES"
        spread = ("n/a (one socket per table)" if r["spread_p99"] != r["spread_p99"]     # NaN
                  else f"{r['spread_p99']:.1f} ms")
        print(f"  p99 {verdict} the {TARGET_P99_MS:.0f} ms target; fan-out spread (first -> last socket)"
              f" p99 {spread}; {r['scripted_moves']} scripted moves measured")
        print(f"  load generator's own loop lag p50 {r['loadgen_lag_p50']:.1f} ms, p99 {r['loadgen_lag_p99']:.1f} ms"
              " (part of every latency above)")
        if r.get("stages"):
            print("  a move inside the web processes, ms (p50 / p90 / p99; realtime/stages.py): " + "; ".join(
                f"{name} {v['p50']:.2f} / {v['p90']:.2f} / {v['p99']:.2f}" for name, v in r["stages"].items()))


def print_analyses(r: dict) -> None:
    a = r["analyses"]

    def secs(key: str) -> str:
        return "-" if a[key] is None else f"{a[key]:.1f}"
    status = ", ".join(f"{n} {k}" for k, n in a["by_status"].items() if n)
    print(f"  analyses ({r['analyses_asked']} tables ending, {r['analysis_deals']} deal(s) on record each;"
          f" their moves are in none of the figures above): {a['matches_ended_in_window']} matches ended in"
          f" the window ({r['match_ends_seen']} seen by the sockets); {a['done_in_window']} analyses done"
          f" within the window; read {a['read_after_s']:.0f} s after it: {a['analyses']} analyses, {status}")
    print(f"    queue wait (created -> started) p50 / max {secs('wait_p50')} / {secs('wait_max')} s;"
          f" run (started -> finished) p50 / max {secs('run_p50')} / {secs('run_max')} s;"
          f" {secs('cpu_p50')} CPU s and {a['decisions_p50'] or 0:.0f} decisions per analysis (p50);"
          f" the longest still waiting {secs('waiting_max')} s")
    if a["by_status"].get("running"):
        print(f"    under way at the read: {a['running_done']} of {a['running_total']} decisions judged")
    mine, bots = r["people_by_table"].get("ending"), r["bot_by_level"].get("ending")
    parts = []
    if mine:
        parts.append(f"the people's last moves there: {mine['n']}, p50 / max {mine['p50']:.1f} / {mine['max']:.1f} ms")
    if bots:
        parts.append(f"their bots' lag beyond the delay: {bots['n']} moves, p50 / max "
                     f"{bots['p50']:.0f} / {bots['max']:.0f} ms")
    if parts:
        print("    " + "; ".join(parts))


# --- orchestration ------------------------------------------------------------------------------
def read_analyses(window_epoch: tuple[float, float], wait: float, env: dict, log: Path) -> dict:
    """The Analysis rows (bench/_setup.py analyses), read at the end of the window or, with
    --analysis-wait, once none is pending or running (the servers keep working meanwhile), at most
    that many seconds later."""
    deadline = time.time() + wait
    while True:
        found = json.loads(S.run_checked([S.PYTHON, "bench/_setup.py", "analyses", *map(str, window_epoch)],
                                         env, log))
        found["read_after_s"] = round(time.time() - window_epoch[1], 1)
        unfinished = found["by_status"]["pending"] + found["by_status"]["running"]
        if not unfinished or time.time() >= deadline:
            return found
        time.sleep(min(3.0, max(0.0, deadline - time.time())))


def run_loop(args):
    """The load generator stands for hundreds of clients on other machines, so its own CPU and
    loop lag are measurement error here: it runs on uvloop, which spends less of both than the
    stock loop (docs/SCALING.md, "The load generator's own loop")."""
    if args.stock_loop:
        return asyncio.run
    import uvloop
    return uvloop.run


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mode", choices=("embedded", "scaled"), default="embedded")
    ap.add_argument("--tables", type=int, default=200)
    ap.add_argument("--seconds", type=float, default=30.0, help="measured duration")
    ap.add_argument("--warmup", type=float, default=5.0)
    ap.add_argument("--rate", type=float, default=1.0, help="moves per second per table")
    ap.add_argument("--stock-loop", action="store_true",
                    help="run the load generator on asyncio's own loop instead of uvloop")
    ap.add_argument("--server", choices=("daphne", "uvicorn"), default="daphne",
                    help="the ASGI server of the web processes (uvicorn: uvloop + httptools)")
    ap.add_argument("--app", choices=("site", "echo"), default="site",
                    help="echo: the bare floor, a Channels echo with no game or database (bench/echo_asgi.py)")
    ap.add_argument("--web", type=int, default=2,
                    help="scaled: the number of web processes (the Procfile runs two, one per core)")
    ap.add_argument("--sticky", action="store_true",
                    help="scaled: all sockets of a table on one web process (a proxy routing "
                         "/ws/table/<id>/ by id, docs/SCALING.md), instead of every seat on another")
    ap.add_argument("--bots", action="store_true", help="seats 1-3 are bots (Celery)")
    ap.add_argument("--bot-level", default="basic", help="the bots' level (games/bots/levels.py)")
    ap.add_argument("--mix", help="tables by kind instead of --tables/--bots, e.g. people:20,strong:5,expert:2"
                                  " (people: four scripted people; a level: one person and three bots)")
    ap.add_argument("--spectators", type=int, default=0, help="sockets watching the tables (no session)")
    ap.add_argument("--analyses", type=int, default=0,
                    help="N more tables of a person and three basic bots, one move of the person from their "
                         "match's end; the people play it spread over the window, and the site analyses the "
                         "matches (its own worker; scaled: the Procfile's analysis worker)")
    ap.add_argument("--analysis-wait", type=float, default=0,
                    help="after the window, wait up to this many seconds for the analyses to finish before "
                         "reading them (those finished after the window ran without the tables' load)")
    ap.add_argument("--analysis-deals", type=int, default=1,
                    help="deals on record in each of those matches, the last included (the analysis covers "
                         "them; more than the match had, e.g. 99: the whole match, about 10 deals of hearts)")
    ap.add_argument("--lobby", type=int, default=0, help="sockets watching the lobby pages (no session)")
    ap.add_argument("--workers", type=int, default=4, help="scaled: Celery worker processes (-c, as the Procfile)")
    ap.add_argument("--deal-pause-ms", type=int, default=1000, help="DEAL_PAUSE_MS for the servers")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--keep", action="store_true", help="keep the work directory (logs, SQLite)")
    ap.add_argument("--json", help="append the result row to this JSON-lines file")
    ap.add_argument("--py-spy", dest="pyspy", type=float, default=0,
                    help="record py-spy profiles of each server for this many seconds of the window "
                         "(a profiling aid, not a dependency: `.venv/bin/pip install py-spy` first)")
    ap.add_argument("--stages", action="store_true",
                    help="time each hop of a move inside the web processes (realtime/stages.py): queued for a "
                         "pool thread, the service call's wall and CPU time, back to the loop, the publish")
    args = ap.parse_args()
    if args.mode == "embedded":
        args.web = 1        # embedded mode is one process
    if args.mix:
        kinds = [part.split(":") for part in args.mix.split(",")]
        args.tables = sum(int(n) for _kind, n in kinds)
        mixed_bots = any(kind != "people" for kind, _n in kinds)
    args.bot_delay_ms = int(1000 / args.rate) if args.bots or (args.mix and mixed_bots) or args.analyses else 0

    workdir = Path(tempfile.mkdtemp(prefix=f"bench_live_{args.mode}_"))
    kw = dict(bot_delay_ms=args.bot_delay_ms, deal_pause_ms=args.deal_pause_ms)
    procs: list[S.Proc] = []
    print(f"{args.mode}{' +bots' if args.bots else ''} {args.app} on {args.server}: {args.tables} tables; "
          f"work dir {workdir}", flush=True)
    try:
        if args.mode == "embedded":
            env = S.embedded_env(workdir, **kw)
        else:
            env = S.scaled_env(workdir, **kw)
            S.reset_postgres()
            S.reset_redis()
        echo = args.app == "echo"
        if args.stages:
            args.stages = str(workdir / "stages")
            env["STAGES_FILE"] = args.stages
        if echo:
            if args.bots or args.analyses:
                raise SystemExit("--bots and --analyses need the site (--app site)")
            env.pop("DATABASE_URL", None)
            env.pop("DJANGO_SETTINGS_MODULE", None)     # the echo configures its own settings
            specs = [{"id": t, "game": "echo", "sessions": [f"{t}.{s}" for s in range(4)]}
                     for t in range(1, args.tables + 1)]
        else:
            log = workdir / "setup.log"
            S.run_checked([S.PYTHON, "manage.py", "migrate", "--noinput"], env, log)
            ending = ["--ending", str(args.analyses), "--ending-deals", str(args.analysis_deals)]
            specs = json.loads(S.run_checked(
                [S.PYTHON, "bench/_setup.py", *(["mix", args.mix] if args.mix else
                                                 [str(args.tables), "1" if args.bots else "0", args.bot_level]),
                 *(ending if args.analyses else [])],
                env, log))
            print(f"  migrated and set up {len(specs)} tables", flush=True)

        ports = [S.free_port() for _ in range(args.web)]
        daphnes = [S.web_server(args.server, p, env, workdir / f"web-{p}.log", S.ECHO_APP if echo else S.SITE_APP)
                   for p in ports]
        procs += daphnes
        cpu_pids = {f"web{i + 1}": d.pid for i, d in enumerate(daphnes)}
        if args.mode == "scaled" and not echo:
            worker = S.celery_worker(env, workdir / "celery.log", concurrency=args.workers)
            procs.append(worker)
            cpu_pids["celery"] = worker.pid
            analyst = S.analysis_worker(env, workdir / "analysis.log")
            procs.append(analyst)
            cpu_pids["analysis"] = analyst.pid
        for p, d in zip(ports, daphnes):
            S.wait_port(p, d)
        if args.mode == "scaled" and not echo:
            time.sleep(3)   # the worker connects to the broker

        spies = []

        def on_window():   # at the start of the measured window
            if not args.pyspy:
                return
            import subprocess
            targets = [(d.name.replace(":", "-"), d.pid) for d in procs]
            for name, pid in targets:
                out = workdir / f"pyspy-{name}.txt"
                spies.append(subprocess.Popen(
                    [str(S.VENV_BIN / "py-spy"), "record", "-p", str(pid), "-d", str(int(args.pyspy)),
                     "-f", "raw", "-o", str(out), "-r", "200", "--threads", "--subprocesses"] + (["--idle"] if os.environ.get("BENCH_PYSPY_IDLE") else [])
                    + (["--gil"] if os.environ.get("BENCH_PYSPY_GIL") else []),
                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))

        res = run_loop(args)(run_load(specs, ports, args, cpu_pids, on_window))
        if args.analyses:       # read back with the servers still up: what the run left
            res["analyses"] = read_analyses(res["window_epoch"], args.analysis_wait, env, workdir / "setup.log")
        for sp in spies:
            sp.wait(timeout=args.pyspy + 30)
        for d in procs:
            if not d.alive():
                print(f"  WARNING: {d.name} died; see {d.log}")
        row = report(args, res)
        print()
        print_rows([row])
        S.append_json(args.json, row)
        return wrong_seat_verdict(res["stats"])
    finally:
        for p in procs:
            p.stop()
        if not args.keep and not args.pyspy:
            shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
