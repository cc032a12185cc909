"""Floods within the per-socket limit, with a concurrent probe of moves and pages.

    .venv/bin/python bench/flood.py --flood sync --tables 20 --spectators 58 --flood-rate 7.5
    .venv/bin/python bench/flood.py --flood pool --tables 20 --accounts 10 --flood-rate 7.5
    .venv/bin/python bench/flood.py --flood none --tables 20        # the same probe, no flood

An embedded site on uvicorn (as `make run`) with bench/live.py's tables: four scripted people each,
``--rate`` moves a second. Beside them, for the whole run:
  * ``sync``: ``--spectators`` anonymous sockets on the tables, each sending ``sync``
    ``--flood-rate`` times a second (within SOCKET_RATE, 8 a second), counting the snapshots back;
  * ``pool``: ``--accounts`` logged-in accounts on /ws/pool/, each alternating ``join`` and
    ``leave`` ``--flood-rate`` times a second, each on a pool of its own (no pairing);
  * the probe: the home page fetched one after another (a new connection each), its latency.
Reported over bench/live.py's measured window: the moves' p50/p99/max (send -> last socket),
the home page's p50/p95/max, what the flood sent and got back. The target: moves' p99 under
100 ms and pages' p95 under 300 ms while the flood runs (docs/SCALING.md, "Floods").
"""
from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import shutil
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench import _servers as S  # noqa: E402
from bench import live  # noqa: E402

import websockets  # noqa: E402

PAGE_TARGET_P95_MS = 300.0


class Flood:
    def __init__(self):
        self.sent = Counter()
        self.got = Counter()
        self.pages: list[tuple[float, float, int]] = []      # (epoch at start, seconds, status)
        self.stop = asyncio.Event()


async def _socket(port: int, path: str, session: str | None = None):
    headers = {"Cookie": f"sessionid={session}"} if session else {}
    return await websockets.connect(f"ws://127.0.0.1:{port}{path}", origin=f"http://127.0.0.1:{port}",
                                    additional_headers=headers, compression=None, max_size=None,
                                    ping_interval=None, open_timeout=60)


async def _read(ws, flood: Flood) -> None:
    try:
        async for raw in ws:
            msg = json.loads(raw)
            kind = msg.get("type")
            flood.got[kind if kind != "error" else f"error {msg.get('code')}"] += 1
    except websockets.ConnectionClosed as exc:
        flood.got[f"closed {exc.rcvd.code if exc.rcvd else ''}"] += 1


async def _every(rate: float, flood: Flood, step) -> None:
    period = 1.0 / rate
    next_at = time.perf_counter()
    while not flood.stop.is_set():
        await step()
        next_at += period
        try:
            await asyncio.wait_for(flood.stop.wait(), timeout=max(0.0, next_at - time.perf_counter()))
        except asyncio.TimeoutError:
            pass


async def sync_flood(port: int, table_ids: list[int], n: int, rate: float, flood: Flood) -> None:
    async def one(i: int) -> None:
        ws = await _socket(port, f"/ws/table/{table_ids[i % len(table_ids)]}/")
        reader = asyncio.ensure_future(_read(ws, flood))

        async def step():
            await ws.send('{"type": "sync"}')
            flood.sent["sync"] += 1
        try:
            await _every(rate, flood, step)
        except websockets.ConnectionClosed:
            pass
        finally:
            await ws.close()
            await reader
    await asyncio.gather(*(one(i) for i in range(n)))


async def pool_flood(port: int, sessions: list[str], rate: float, flood: Flood) -> None:
    first = await _socket(port, "/ws/pool/")
    pools = sorted(json.loads(await first.recv())["counts"])
    await first.close()

    async def one(i: int, session: str) -> None:
        ws = await _socket(port, "/ws/pool/", session)
        reader = asyncio.ensure_future(_read(ws, flood))
        joined = [False]

        async def step():
            kind = "leave" if joined[0] else "join"
            await ws.send(json.dumps({"type": kind, "pool": pools[i % len(pools)]}))
            flood.sent[kind] += 1
            joined[0] = not joined[0]
        try:
            await _every(rate, flood, step)
        except websockets.ConnectionClosed:
            pass
        finally:
            await ws.close()
            await reader
    await asyncio.gather(*(one(i, s) for i, s in enumerate(sessions)))


def _page(port: int) -> tuple[float, float, int]:
    started, t = time.time(), time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        conn.request("GET", "/")
        response = conn.getresponse()
        response.read()
        status = response.status
    except OSError:
        status = 0
    finally:
        conn.close()
    return started, time.perf_counter() - t, status


async def page_probe(port: int, flood: Flood) -> None:
    loop = asyncio.get_running_loop()
    while not flood.stop.is_set():
        flood.pages.append(await loop.run_in_executor(None, _page, port))
        await asyncio.sleep(0.1)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--flood", choices=("sync", "pool", "none"), default="sync")
    ap.add_argument("--tables", type=int, default=20)
    ap.add_argument("--rate", type=float, default=1.0, help="moves per second per table")
    ap.add_argument("--spectators", type=int, default=58, help="sync: the flooding sockets")
    ap.add_argument("--accounts", type=int, default=10, help="pool: the flooding accounts")
    ap.add_argument("--flood-rate", type=float, default=7.5, help="messages per second per flooding socket")
    ap.add_argument("--seconds", type=float, default=30.0)
    ap.add_argument("--warmup", type=float, default=5.0)
    ap.add_argument("--json", help="append the result row to this JSON-lines file")
    args = ap.parse_args()

    workdir = Path(tempfile.mkdtemp(prefix="bench_flood_"))
    env = S.embedded_env(workdir, bot_delay_ms=0, deal_pause_ms=1000)
    procs: list[S.Proc] = []
    try:
        log = workdir / "setup.log"
        S.run_checked([S.PYTHON, "manage.py", "migrate", "--noinput"], env, log)
        # DEBUG off serves the collected, hashed files: without them every page is a 500.
        S.run_checked([S.PYTHON, "manage.py", "collectstatic", "--noinput", "-v0"], env, log)
        specs = json.loads(S.run_checked([S.PYTHON, "bench/_setup.py", str(args.tables), "0"], env, log))
        sessions = json.loads(S.run_checked([S.PYTHON, "bench/_setup.py", "accounts", str(args.accounts)],
                                            env, log)) if args.flood == "pool" else []
        port = S.free_port()
        web = S.web_server("uvicorn", port, env, workdir / "web.log")
        procs.append(web)
        S.wait_port(port, web)
        print(f"flood {args.flood}: {args.tables} tables at {args.rate}/s on uvicorn; work dir {workdir}",
              flush=True)

        live_args = argparse.Namespace(
            mode="embedded", tables=args.tables, seconds=args.seconds, warmup=args.warmup, rate=args.rate,
            bots=False, bot_level="basic", mix=None, spectators=0, lobby=0, analyses=0, analysis_deals=1,
            seed=1, sticky=False, web=1, app="site", server="uvicorn", bot_delay_ms=0, stages=False,
            stock_loop=False)

        async def run() -> tuple[dict, Flood]:
            flood = Flood()
            loads = [page_probe(port, flood)]
            if args.flood == "sync":
                loads.append(sync_flood(port, [s["id"] for s in specs], args.spectators, args.flood_rate, flood))
            elif args.flood == "pool":
                loads.append(pool_flood(port, sessions, args.flood_rate, flood))
            tasks = [asyncio.ensure_future(load) for load in loads]
            res = await live.run_load(specs, [port], live_args, {"web": web.pid})
            flood.stop.set()
            await asyncio.gather(*tasks)
            return res, flood

        res, flood = live.run_loop(live_args)(run())
        row = live.report(live_args, res)
        start, end = res["window_epoch"]
        pages = [(took, status) for at, took, status in flood.pages if start <= at < end]
        took = [t for t, _status in pages]
        row.update({
            "flood": args.flood, "flood_sockets": {"sync": args.spectators, "pool": args.accounts}.get(args.flood, 0),
            "flood_rate": args.flood_rate, "flood_sent": dict(flood.sent), "flood_got": dict(flood.got),
            "pages": len(pages), "page_statuses": dict(Counter(s for _t, s in pages)),
            "page_p50": live.pct(took, 50), "page_p95": live.pct(took, 95),
            "page_max": 1000 * max(took) if took else float("nan"),
        })
        verdict = (row["p99"] < live.TARGET_P99_MS and row["page_p95"] < PAGE_TARGET_P95_MS
                   and set(row["page_statuses"]) == {200})       # a fast error page is no answer
        print(f"moves: {row['scripted_moves']} p50 {row['p50']:.0f} ms, p99 {row['p99']:.0f} ms, max {row['max']:.0f} ms"
              f" | home page: {len(pages)} p50 {row['page_p50']:.0f} ms, p95 {row['page_p95']:.0f} ms,"
              f" max {row['page_max']:.0f} ms {row['page_statuses']} | web CPU {row['cpu']}")
        print(f"flood sent {dict(flood.sent)}; got {dict(flood.got)}; move errors {row['error_kinds']}")
        print("within the targets" if verdict else "OVER the targets (moves p99 < 100 ms, pages p95 < 300 ms, every page 200)")
        S.append_json(args.json, row)
        return live.wrong_seat_verdict(res["stats"])
    finally:
        for p in procs:
            p.stop()
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
