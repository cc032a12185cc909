"""Idle sockets: what thousands of connected lobby and spectator sockets cost the web processes.

    .venv/bin/python bench/idle.py --sockets 10000 --server daphne --seconds 30
    .venv/bin/python bench/idle.py --sockets 10000 --server uvicorn --seconds 30

Scaled mode as bench/live.py runs it (two web processes, PostgreSQL, Redis pub/sub; no Celery
worker: nothing here is due). Half the sockets watch the lobby (``/ws/lobby/<game>/``), half
watch tables as anonymous spectators (``/ws/table/<id>/``, spread over --tables public tables),
split between the two processes. Reported: how fast they connected (each is a handshake plus a
snapshot read from the database), then over the idle window each web process's CPU (100 = one
core) and resident memory, and the sockets the servers closed (a server that cannot keep up with
its pings drops them).

The heartbeat (docs/PROTOCOL.md "Heartbeat"): uvicorn pings every socket as the Procfile says;
``--no-server-ping`` runs it without, and ``--heartbeat`` has every socket send the table page's
ping each 2.5 s, as a page at a quiet table does (the worst case: a busy table's page never pings).

    .venv/bin/python bench/idle.py --sockets 2000 --server uvicorn --seconds 30 [--heartbeat] [--no-server-ping]
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench import _servers as S  # noqa: E402

import websockets  # noqa: E402


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def connect_all(urls: list[tuple[int, str]], parallel: int) -> tuple[list, float, int]:
    sem = asyncio.Semaphore(parallel)
    socks, failed = [], 0

    async def one(port: int, path: str):
        nonlocal failed
        async with sem:
            try:
                ws = await websockets.connect(f"ws://127.0.0.1:{port}{path}", origin=f"http://127.0.0.1:{port}",
                                              compression=None, max_size=None, open_timeout=120)
                await ws.recv()           # the lobby's tables / the table's snapshot
                socks.append(ws)
            except Exception:
                failed += 1
    t0 = time.perf_counter()
    await asyncio.gather(*(one(p, u) for p, u in urls))
    return socks, time.perf_counter() - t0, failed


PING = '{"type":"ping"}'
PING_SECONDS = 2.5          # static/js/table/heartbeat.js's QUIET_MS


async def ping(ws, phase: float) -> None:
    """The page's half of the heartbeat on a socket that hears nothing: a ping every 2.5 s,
    spread over the interval so the sockets do not all ping in one instant."""
    await asyncio.sleep(phase * PING_SECONDS)
    try:
        while True:
            await ws.send(PING)
            await asyncio.sleep(PING_SECONDS)
    except websockets.ConnectionClosed:
        pass


async def run(args, ports: list[int], table_ids: list[int], pids: dict[str, int]) -> dict:
    urls = []
    for i in range(args.sockets):
        port = ports[i % len(ports)]
        if i % 2 == 0:
            urls.append((port, f"/ws/lobby/{('hearts', 'spades', 'sixtysix')[i // 2 % 3]}/"))
        else:
            urls.append((port, f"/ws/table/{table_ids[i // 2 % len(table_ids)]}/"))
    socks, took, failed = await connect_all(urls, args.parallel)
    print(f"  {len(socks)} sockets connected in {took:.1f} s ({len(socks) / took:.0f}/s), {failed} failed",
          flush=True)

    async def drain(ws):          # idle means nothing comes: count whatever does
        n = 0
        try:
            async for _ in ws:
                n += 1
        except websockets.ConnectionClosed:
            pass
        return n
    readers = [asyncio.ensure_future(drain(ws)) for ws in socks]
    pingers = [asyncio.ensure_future(ping(ws, i / len(socks))) for i, ws in enumerate(socks)] if args.heartbeat else []
    await asyncio.sleep(2)        # the connection burst's tail settles
    cpu0, w0 = S.cpu_sample(pids), time.perf_counter()
    await asyncio.sleep(args.seconds)
    cpu1, w1 = S.cpu_sample(pids), time.perf_counter()
    rss = {name: rss_mb(pid) for name, pid in pids.items() if name.startswith("web")}
    closed = sum(1 for ws in socks if ws.state is not websockets.protocol.State.OPEN)
    await asyncio.gather(*(ws.close() for ws in socks), return_exceptions=True)
    for r in readers + pingers:
        r.cancel()
    cpu = {k: 100.0 * v / (w1 - w0) for k, v in S.cpu_delta(cpu0, cpu1).items()}
    return {"server": args.server, "heartbeat": args.heartbeat, "server_ping": not args.no_server_ping,
            "sockets": len(socks), "failed": failed, "connect_s": took,
            "connect_per_s": len(socks) / took, "closed_by_server": closed,
            "cpu": {k: round(v, 1) for k, v in cpu.items()}, "rss_mb": {k: round(v) for k, v in rss.items()}}


def without_pings(words_of):
    """The Procfile's words less its --ws-ping-interval and --ws-ping-timeout (and their values)."""
    def words(name: str) -> list[str]:
        out, skip = [], False
        for w in words_of(name):
            if skip:
                skip = False
            elif w in ("--ws-ping-interval", "--ws-ping-timeout"):
                skip = True
            else:
                out.append(w)
        return out
    return words


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sockets", type=int, default=10000)
    ap.add_argument("--tables", type=int, default=50, help="public tables the spectators watch")
    ap.add_argument("--server", choices=("daphne", "uvicorn"), default="daphne")
    ap.add_argument("--seconds", type=float, default=30, help="the idle window measured")
    ap.add_argument("--parallel", type=int, default=64, help="handshakes in flight at once")
    ap.add_argument("--json", help="append the result row to this JSON-lines file")
    ap.add_argument("--heartbeat", action="store_true", help="every socket pings as a quiet table's page does")
    ap.add_argument("--no-server-ping", action="store_true", help="uvicorn without the Procfile's protocol pings")
    args = ap.parse_args()
    if args.no_server_ping:
        S.procfile_words = without_pings(S.procfile_words)
    import resource
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    if args.sockets + 100 > hard:
        raise SystemExit(f"{args.sockets} sockets need more than this shell's {hard} file descriptors")

    workdir = Path(tempfile.mkdtemp(prefix="bench_idle_"))
    procs: list[S.Proc] = []
    try:
        env = S.scaled_env(workdir, bot_delay_ms=0, deal_pause_ms=1000)
        S.reset_postgres()
        S.reset_redis()
        log = workdir / "setup.log"
        S.run_checked([S.PYTHON, "manage.py", "migrate", "--noinput"], env, log)
        specs = json.loads(S.run_checked([S.PYTHON, "bench/_setup.py", str(args.tables), "0"], env, log))
        ports = [S.free_port() for _ in range(2)]
        webs = [S.web_server(args.server, p, env, workdir / f"web-{p}.log") for p in ports]
        procs += webs
        for p, w in zip(ports, webs):
            S.wait_port(p, w)
        pids = {f"web{i + 1}": w.pid for i, w in enumerate(webs)}
        print(f"idle sockets on {args.server}: {args.sockets} sockets, {args.tables} tables", flush=True)
        import uvloop
        row = uvloop.run(run(args, ports, [s["id"] for s in specs], pids))
        cpu = ", ".join(f"{k} {v:.1f}" for k, v in row["cpu"].items())
        rss = ", ".join(f"{k} {v} MB" for k, v in row["rss_mb"].items())
        print(f"  idle {args.seconds:.0f} s: CPU % {cpu}; resident {rss}; "
              f"{row['closed_by_server']} sockets closed by the servers")
        S.append_json(args.json, row)
        return 0
    finally:
        for p in procs:
            p.stop()
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
