"""Soak: N four-seat tables played by scripted websocket seats in scaled mode for D minutes, with
each process's memory, the errors, the move rate and the latency reported every minute.

    .venv/bin/python bench/soak.py                          # 200 tables, 30 minutes
    .venv/bin/python bench/soak.py --tables 50 --minutes 2  # a smoke run

Like bench/live.py --mode scaled (whose clients, pacing and measurement it imports: each table
about ``--rate`` moves a second, seat i of table t on Daphne (t + i) % 2, latency = sending an
action -> its update on the table's last socket), it starts and stops its own servers on 127.0.0.1:
two Daphne processes, a Celery worker (-c 4, as the Procfile) and Celery beat as a process of its
own, on PostgreSQL database ``bench_soak`` (recreated) and Redis DB 7 (flushed). A match that ends
is followed by a rematch (the owner offers, the others accept: a new table, the same seats) and
the sockets move to the new table, so the load lasts as long as the soak.

Every ``--interval`` seconds (60) a row: moves/s, p50/p99 latency of the moves measured in that
interval, errors (what the sockets were told or missed: error messages, updates that never came,
closed sockets; and error lines in the servers' logs), and the resident memory (RSS, MB) of web1,
web2, the worker (its processes together), beat, PostgreSQL's backends on the soak database
(together; their RSS counts the shared buffers each has touched, so "pg anon" gives their private
memory too) and Redis. At the end: each process's memory growth from the first row to the last,
and the errors in total. Memory that grows steadily over a long soak (rather than settling after
the first minutes) is the thing to look for.
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
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench import _servers as S  # noqa: E402
from bench.live import Stats, TableRun, drive, now, pct, probe_loop_lag, run_loop, wrong_seat_verdict  # noqa: E402

import orjson  # noqa: E402
import websockets  # noqa: E402

S.PG_DB = "bench_soak"      # our own database (bench/live.py uses bench_live)
S.REDIS_DB = 7              # and Redis database (live.py: 9; tests/scaled: 8, 10-15): broker and channels
MB = 1024 * 1024


# --- memory from /proc ------------------------------------------------------------------------------
def _status(pid: int) -> dict[str, int]:
    """VmRSS and RssAnon of a process, in bytes (empty when it is gone)."""
    out = {}
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            key, _sep, value = line.partition(":")
            if key in ("VmRSS", "RssAnon", "PPid"):
                out[key] = int(value.split()[0]) * (1024 if key != "PPid" else 1)
    except OSError:
        pass
    return out


def _pids() -> list[int]:
    return [int(d) for d in os.listdir("/proc") if d.isdigit()]


def tree_rss(root: int) -> int:
    """RSS of a process and all its descendants (a prefork worker's children)."""
    parents = {pid: _status(pid).get("PPid") for pid in _pids()}
    todo, total, seen = [root], 0, set()
    while todo:
        pid = todo.pop()
        if pid in seen:
            continue
        seen.add(pid)
        total += _status(pid).get("VmRSS", 0)
        todo.extend(p for p, pp in parents.items() if pp == pid)
    return total


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def pg_backends(db: str) -> tuple[int, int, int]:
    """(count, RSS, RssAnon) of the PostgreSQL backends connected to ``db`` (their process title
    is "postgres: <cluster>: <user> <db> <client> <state>")."""
    n = rss = anon = 0
    for pid in _pids():
        title = _cmdline(pid)
        if title.startswith("postgres:") and f" {db} " in title:
            st = _status(pid)
            n, rss, anon = n + 1, rss + st.get("VmRSS", 0), anon + st.get("RssAnon", 0)
    return n, rss, anon


def redis_pid() -> int | None:
    for pid in _pids():
        if _cmdline(pid).startswith("redis-server") and ":6379" in _cmdline(pid):
            return pid
    return None


def memory(procs: dict[str, S.Proc]) -> dict[str, float]:
    out = {name: tree_rss(p.pid) / MB for name, p in procs.items()}
    n, rss, anon = pg_backends(S.PG_DB)
    out["pg"], out["pg anon"], out["pg n"] = rss / MB, anon / MB, n
    rp = redis_pid()
    out["redis"] = (_status(rp).get("VmRSS", 0) / MB) if rp else float("nan")
    return out


def log_errors(logs: list[Path], lines: list[str] | None = None) -> int:
    """Error lines in the servers' logs so far (Python tracebacks, ERROR/CRITICAL records, and
    the last line of each traceback into ``lines``)."""
    total = 0
    for path in logs:
        try:
            text = path.read_text(errors="replace").splitlines()
        except OSError:
            continue
        for i, line in enumerate(text):
            if line.startswith("Traceback") or "ERROR" in line or "CRITICAL" in line:
                total += 1
                if lines is not None:
                    tail = next((t for t in text[i + 1:] if t and not t.startswith((" ", "Traceback", "During", "The above"))), "")
                    lines.append(f"{path.name}: {line.strip()[:150]} | {tail.strip()[:200]}")
    return total


# --- tables that rematch ------------------------------------------------------------------------------
class SoakTable(TableRun):
    """bench/live.py's table, also following its rematch offer (the table JSON's ``rematch``)."""

    rematch: dict | None = None
    last_change: float = 0.0

    def arrived(self, sock, msg, t, prev_arrival):
        self.rematch = msg["table"].get("rematch")
        self.last_change = t
        super().arrived(sock, msg, t, prev_arrival)

    def idle_report(self) -> str:
        return f"table {self.id} unchanged for 20 s: sockets (version, status, legal) " + str(
            [(s.version, s.status, len((s.view or {}).get("legal") or ())) for s in self.socks])

    def finished(self) -> bool:
        return any(s.status == "finished" for s in self.socks)


async def play_table(spec: dict, index: int, ports: list[int], stats: Stats, args, stop_at: float,
                     t0: float, rng: random.Random, inflight: list[int], sem: asyncio.Semaphore,
                     counts: Counter) -> None:
    """Play one seat group's matches until the soak ends; a group whose driver fails is counted
    as an error (it would otherwise drop out silently and the load with it)."""
    try:
        await _play_matches(spec, index, ports, stats, args, stop_at, t0, rng, inflight, sem, counts)
    except Exception as exc:
        stats.errors[f"group stopped: {type(exc).__name__}"] += 1
        stats.incidents.append(f"table group {index} (table {spec['id']}): {type(exc).__name__}: {exc}")


PHASE: dict[int, str] = {}     # what each table group is doing now (the rows count them)
RUNS: dict[int, "SoakTable"] = {}


def playing_detail() -> dict:
    out = Counter()
    for i, tr in RUNS.items():
        if PHASE.get(i) != "playing":
            continue
        statuses = ",".join(sorted({str(s.status) for s in tr.socks}))
        out["pending" if tr.pending else ("actor" if tr.actor() else f"no actor {statuses}")] += 1
    return dict(out)


async def _play_matches(spec, index, ports, stats, args, stop_at, t0, rng, inflight, sem, counts) -> None:
    """Connect, drive (bench/live.py) until the match is over, rematch, move to the new table, again."""
    while now() < stop_at:
        tr = SoakTable(spec, ports, index, stats, False, 0.0)
        PHASE[index] = "connecting"
        RUNS[index] = tr
        try:
            await connect_all(tr, sem)
            await asyncio.wait_for(asyncio.gather(*(s.ready.wait() for s in tr.socks)), timeout=60)
            if tr.socks[0].status == "waiting":
                await tr.socks[0].ws.send(json.dumps({"type": "start"}))
            PHASE[index] = "playing"
            driver = asyncio.ensure_future(drive(tr, args.rate, max(t0, now()), stop_at, rng, inflight))
            tr.last_change, idle_told = now(), False
            while not driver.done() and not tr.finished():
                if not idle_told and now() - tr.last_change > 20:
                    idle_told = True    # a table nobody can act at: lost load the rows would hide
                    stats.errors["table idle 20 s"] += 1
                    stats.incidents.append(tr.idle_report())
                tr.changed.clear()
                try:
                    await asyncio.wait_for(tr.changed.wait(), timeout=1.0)
                except asyncio.TimeoutError:
                    pass
            # Stop the driver by a flag it checks, not by cancelling it alone: Python 3.11's
            # wait_for can swallow a cancellation that meets its timeout, and a driver that went
            # on waiting for a move at a finished table held its seat group there until the end
            # of the soak (the throughput decay of the first 30-minute soaks).
            tr.stopped = True
            tr.changed.set()
            try:
                await asyncio.wait_for(asyncio.shield(driver), timeout=15)
            except (asyncio.TimeoutError, Exception):
                if not driver.done():
                    driver.cancel()
                    if tr.pending is not None:
                        inflight[0] -= 1
                    stats.errors["driver did not stop"] += 1
            await asyncio.gather(driver, return_exceptions=True)
            if now() >= stop_at:
                return
            counts["matches"] += 1
            PHASE[index] = "rematch"
            new_id = await rematch(tr, stop_at)
            if new_id is None:
                if now() < stop_at:     # not merely cut short by the end of the soak
                    stats.errors["rematch never started"] += 1
                return
            counts["rematches"] += 1
            spec = dict(spec, id=new_id)
        finally:
            tr.closing = True
            await asyncio.gather(*(s.ws.close() for s in tr.socks if s.ws is not None), return_exceptions=True)


HANDSHAKE_ATTEMPTS = 3


async def connect_all(tr: SoakTable, sem: asyncio.Semaphore, pause: float = 0.5) -> None:
    """Open every seat's socket, each retried as the browser's client retries (static/js/table/socket.js):
    Daphne drops a handshake its application has not accepted within 5 s (its
    websocket_connect_timeout), which a loaded database can make happen (the check before the
    accept waits for a database thread). Each failed handshake is counted; a socket that never
    opens stops the group, but only once the others have finished opening, so that the caller
    closes them all. (Raised at the first failure, the group stopped while its other sockets
    went on opening and stayed open unnoticed: their seats, undriven, ran out of time five
    minutes later, bots took them, and each of those sockets, a spectator's from then, counted
    every bot move as a ``wrong_seat``: the 793 of issue 38.)"""
    async def open_one(sock) -> None:
        for attempt in range(1, HANDSHAKE_ATTEMPTS + 1):
            try:
                await sock.connect(sem)
                return
            except (OSError, asyncio.TimeoutError, websockets.InvalidHandshake) as exc:
                tr.stats.errors[f"handshake failed: {type(exc).__name__}"] += 1
                if attempt == HANDSHAKE_ATTEMPTS:
                    raise
                await asyncio.sleep(pause * attempt)

    results = await asyncio.gather(*(open_one(s) for s in tr.socks), return_exceptions=True)
    failed = next((r for r in results if isinstance(r, BaseException)), None)
    if failed is not None:
        raise failed


async def rematch(tr: SoakTable, stop_at: float) -> int | None:
    """The owner offers; each other seat accepts once it sees the offer. The new table's id."""
    owner = tr.socks[0]
    await owner.ws.send(orjson.dumps({"type": "rematch", "answer": "offer", "version": owner.version}).decode())
    answered: dict[int, float] = {owner.seat: now()}
    end = min(stop_at, now() + 30)
    while now() < end:
        offer = tr.rematch or {}
        if offer.get("status") == "started":
            return offer["table"]
        if offer.get("status") != "open" and now() - answered[owner.seat] > 3:
            answered[owner.seat] = now()        # the offer did not take: make it again
            await owner.ws.send(orjson.dumps({"type": "rematch", "answer": "offer",
                                              "version": owner.version}).decode())
        if offer.get("status") == "open":
            for s in tr.socks:
                # Each seat answers once its own socket has seen the offer (an answer from an
                # earlier version is stale), and again if its answer did not count.
                if (s.seat not in offer.get("accepted", ()) and s.version >= offer.get("since", 0)
                        and now() - answered.get(s.seat, float("-inf")) > 3):
                    answered[s.seat] = now()
                    await s.ws.send(orjson.dumps({"type": "rematch", "answer": "accept",
                                                  "version": s.version}).decode())
        tr.changed.clear()
        try:
            await asyncio.wait_for(tr.changed.wait(), timeout=1.0)
        except asyncio.TimeoutError:
            pass
    return None


# --- the soak ---------------------------------------------------------------------------------------
HEAD = (f"{'min':>5}{'moves/s':>9}{'p50 ms':>8}{'p99 ms':>8}{'errors':>7}{'log err':>8}"
        f"{'web1':>8}{'web2':>8}{'worker':>8}{'beat':>7}{'pg':>8}{'pg anon':>8}{'pg n':>5}{'redis':>7}   (MB)")


def row(minute: float, r: dict) -> str:
    m = r["mem"]
    return (f"{minute:>5.1f}{r['moves_s']:>9.1f}{r['p50']:>8.1f}{r['p99']:>8.1f}{r['errors']:>7}{r['log_errors']:>8}"
            f"{m['web1']:>8.1f}{m['web2']:>8.1f}{m['worker']:>8.1f}{m['beat']:>7.1f}{m['pg']:>8.1f}"
            f"{m['pg anon']:>8.1f}{m['pg n']:>5}{m['redis']:>7.1f}")


async def soak(specs: list[dict], ports: list[int], procs: dict[str, S.Proc], logs: list[Path], args) -> dict:
    stats = Stats()
    rng = random.Random(args.seed)
    sem = asyncio.Semaphore(32)
    inflight = [0]
    counts: Counter = Counter()
    t0 = now()
    stop_at = t0 + args.warmup + args.minutes * 60
    stats.window = (t0 + args.warmup, stop_at)
    tables = [asyncio.ensure_future(play_table(spec, i, ports, stats, args, stop_at, t0,
                                               random.Random(rng.random()), inflight, sem, counts))
              for i, spec in enumerate(specs)]
    lag = asyncio.ensure_future(probe_loop_lag(stats, stop_at))
    print(f"  {len(specs)} tables ({4 * len(specs)} sockets) connecting; warm-up {args.warmup:.0f} s, "
          f"then {args.minutes:g} min, a row every {args.interval:.0f} s", flush=True)
    await asyncio.sleep(max(0.0, stats.window[0] - now()))
    rows = []
    mark = {"t": now(), "lat": len(stats.lat), "moves": stats.actions_in_window,
            "errors": sum(stats.errors.values()), "log": log_errors(logs)}
    base = memory(procs)
    print(f"  baseline memory (MB): " + ", ".join(f"{k} {v:.1f}" if k != "pg n" else f"{k} {v}"
                                                   for k, v in base.items()), flush=True)
    print(HEAD, flush=True)
    while now() < stop_at - 0.5:
        await asyncio.sleep(max(0.0, min(args.interval, stop_at - now())))
        t = now()
        lat = stats.lat[mark["lat"]:]
        errors, logged = sum(stats.errors.values()), log_errors(logs)
        r = {"at_min": (t - stats.window[0]) / 60, "moves_s": (stats.actions_in_window - mark["moves"]) / (t - mark["t"]),
             "p50": pct(lat, 50), "p99": pct(lat, 99), "samples": len(lat),
             "errors": errors - mark["errors"], "log_errors": logged - mark["log"], "mem": memory(procs),
             "error_kinds": dict(stats.errors)}
        rows.append(r)
        print(row(r["at_min"], r), "  groups:", dict(Counter(PHASE.values())), playing_detail(), flush=True)
        mark = {"t": t, "lat": len(stats.lat), "moves": stats.actions_in_window, "errors": errors, "log": logged}
        for name, p in procs.items():
            if not p.alive():
                print(f"  WARNING: {name} died; see {p.log}", flush=True)
    await asyncio.wait_for(asyncio.gather(*tables, lag, return_exceptions=True), timeout=60)
    lines: list[str] = []
    return {"rows": rows, "base": base, "stats": stats, "counts": counts, "log_errors": log_errors(logs, lines),
            "log_lines": lines}


def summary(res: dict, args) -> dict:
    rows, base, st = res["rows"], res["base"], res["stats"]
    names = ["web1", "web2", "worker", "beat", "pg", "pg anon", "redis"]
    out = {"tables": args.tables, "minutes": args.minutes, "moves_s": sum(r["moves_s"] for r in rows) / max(1, len(rows)),
           "p50": pct(st.lat, 50), "p99": pct(st.lat, 99), "errors": dict(st.errors),
           "log_errors": res["log_errors"], "matches_finished": res["counts"]["matches"],
           "rematches": res["counts"]["rematches"], "memory": {}}
    print()
    print(f"summary: {args.tables} tables, {args.minutes:g} min: {out['moves_s']:.1f} moves/s on average, "
          f"latency p50 {out['p50']:.1f} ms, p99 {out['p99']:.1f} ms over {len(st.lat)} measured moves; "
          f"{out['matches_finished']} matches finished, {out['rematches']} rematches started")
    settled = f"after {args.settle:g}"
    print(f"  memory (MB)      {'start':>8}{'first row':>10}{'end':>8}{'growth':>8}{'per min':>9}{settled:>12}   "
          "(growth: end - first row; per min: least-squares slope over the rows, and over the rows "
          f"after minute {args.settle:g}, once start-up's caches have filled)")
    for name in names:
        series = [(r["at_min"], r["mem"][name]) for r in rows]
        first, last = (series[0][1], series[-1][1]) if series else (float("nan"),) * 2
        slope = _slope(series)
        slope_settled = _slope([(m, mb) for m, mb in series if m > args.settle])
        out["memory"][name] = {"start": base[name], "first": first, "end": last, "growth": last - first,
                               "per_min": slope, "per_min_settled": slope_settled}
        print(f"  {name:<15}{base[name]:>8.1f}{first:>10.1f}{last:>8.1f}{last - first:>+8.1f}{slope:>+9.2f}"
              f"{slope_settled:>+12.2f}")
    total = sum(st.errors.values())
    print(f"  errors: {total} on the sockets {dict(st.errors) if total else ''}; "
          f"{res['log_errors']} error lines in the servers' logs")
    for line in st.incidents[:10]:
        print(f"    {line}")
    for line in res["log_lines"][:5]:
        print(f"    {line}")
    return out


def _slope(series: list[tuple[float, float]]) -> float:
    if len(series) < 2:
        return float("nan")
    n = len(series)
    mx = sum(x for x, _ in series) / n
    my = sum(y for _, y in series) / n
    var = sum((x - mx) ** 2 for x, _ in series)
    return sum((x - mx) * (y - my) for x, y in series) / var if var else float("nan")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tables", type=int, default=200)
    ap.add_argument("--minutes", type=float, default=30.0)
    ap.add_argument("--interval", type=float, default=60.0, help="seconds between rows")
    ap.add_argument("--warmup", type=float, default=10.0, help="seconds before the first row's interval")
    ap.add_argument("--rate", type=float, default=1.0, help="moves per second per table")
    ap.add_argument("--settle", type=float, default=15.0,
                    help="minutes left out of the settled slope (issue 34's target: 0.2 MB/min after 15)")
    ap.add_argument("--workers", type=int, default=4, help="Celery worker processes (-c, as the Procfile)")
    ap.add_argument("--deal-pause-ms", type=int, default=1000, help="DEAL_PAUSE_MS for the servers")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--stock-loop", action="store_true", help="asyncio's own loop instead of uvloop")
    ap.add_argument("--keep", action="store_true", help="keep the work directory (logs)")
    ap.add_argument("--json", help="write the rows and the summary to this JSON file")
    ap.add_argument("--database", default=S.PG_DB, help="PostgreSQL database (dropped and recreated)")
    ap.add_argument("--redis-db", type=int, default=S.REDIS_DB, help="Redis database number (flushed)")
    args = ap.parse_args()
    S.PG_DB, S.REDIS_DB = args.database, args.redis_db

    workdir = Path(tempfile.mkdtemp(prefix="bench_soak_"))
    env = S.scaled_env(workdir, bot_delay_ms=0, deal_pause_ms=args.deal_pause_ms)
    procs: dict[str, S.Proc] = {}
    print(f"soak: {args.tables} tables for {args.minutes:g} min in scaled mode; work dir {workdir}", flush=True)
    try:
        S.reset_postgres()
        S.reset_redis()
        log = workdir / "setup.log"
        S.run_checked([S.PYTHON, "manage.py", "migrate", "--noinput"], env, log)
        specs = json.loads(S.run_checked([S.PYTHON, "bench/_setup.py", str(args.tables), "0"], env, log))
        print(f"  migrated and set up {len(specs)} tables", flush=True)
        ports = [S.free_port(), S.free_port()]
        for i, port in enumerate(ports, start=1):
            procs[f"web{i}"] = S.daphne(port, env, workdir / f"web{i}.log")
        procs["worker"] = S.Proc("worker", [str(S.VENV_BIN / "celery"), "-A", "config", "worker", "-l", "WARNING",
                                            "-c", str(args.workers), "--without-gossip", "--without-mingle"],
                                 env, workdir / "worker.log")
        procs["beat"] = S.Proc("beat", [str(S.VENV_BIN / "celery"), "-A", "config", "beat", "-l", "WARNING",
                                        "-s", str(workdir / "celerybeat-schedule")], env, workdir / "beat.log")
        for i, port in enumerate(ports, start=1):
            S.wait_port(port, procs[f"web{i}"])
        time.sleep(3)   # the worker and beat connect to the broker
        logs = [p.log for p in procs.values()]
        res = run_loop(args)(soak(specs, ports, procs, logs, args))
        out = summary(res, args)
        for name, p in procs.items():
            if not p.alive():
                print(f"  WARNING: {name} died; see {p.log}")
        if args.json:
            Path(args.json).write_text(json.dumps({"rows": res["rows"], "summary": out}, indent=1, default=str))
        return wrong_seat_verdict(res["stats"])
    finally:
        for p in procs.values():
            p.stop()
        if not args.keep:
            shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
