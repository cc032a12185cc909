"""CPU cost of one move through games.services, without sockets: where a live move's time goes.

    .venv/bin/python bench/service.py [--tables 50] [--moves 2000] [--runs 3] [--profile]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench_service .venv/bin/python bench/service.py

Sets up its own database (a fresh SQLite file by default; with DATABASE_URL, that PostgreSQL
database, recreated), creates four-human hearts and spades tables, starts their matches, then plays
moves round-robin over the tables: each move is a legal action from the acting seat's own view,
sent through ``services.act`` exactly as the table socket does (inside ``broadcast.collecting``;
that includes encoding each group's message). Reported per move (median of the runs): the time
of the service call, its thread's CPU time, the queries it issued and, on PostgreSQL, the CPU its backend process used. ``--profile`` prints a cProfile of one run.
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from bench.live import choose  # noqa: E402  (the same legal action a scripted seat picks)


def configure_database() -> None:
    url = os.environ.get("DATABASE_URL")
    if url:
        import psycopg
        base, _, name = url.rpartition("/")
        with psycopg.connect(f"{base}/postgres", autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            conn.execute(f'CREATE DATABASE "{name}"')
    else:
        os.environ["SQLITE_PATH"] = os.path.join(tempfile.mkdtemp(prefix="bench_service_"), "db.sqlite3")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("SECRET_KEY", "bench-only-not-secret-" + "x" * 40)
    os.environ["EMBEDDED_WORKER"] = "0"
    os.environ["BOT_DELAY_MS"] = "0"
    os.environ["DEAL_PAUSE_MS"] = "0"


def setup(n_tables: int) -> list[tuple[int, list]]:
    from django.core.management import call_command
    from accounts.models import User
    from games import scheduling, services
    from games.models import Seat

    call_command("migrate", verbosity=0)
    scheduling._scheduler = lambda *a, **k: None      # nothing runs the table's due work here
    users = [User.objects.create(username=f"svc{i:05d}") for i in range(n_tables * 4)]
    tables = []
    for t in range(n_tables):
        group = users[4 * t:4 * t + 4]
        table = services.create_table(group[0], ("hearts", "spades")[t % 2],
                                      seats=["me"] + group[1:], start=True)
        tables.append((table.pk, group))
    # Every seat has a socket open, as in live play: each move builds and encodes four views
    # (messages.listeners sends only to the groups someone listens to).
    Seat.objects.update(connections=1)
    return tables


def play(tables, moves: int, rng: random.Random, profiler=None) -> dict:
    from django.db import connection, reset_queries
    from games import services
    from realtime import broadcast
    from games.loading import load as loaded

    service_s = backend_s = cpu_s = 0.0
    queries = done = 0
    while done < moves:
        for table_id, users in tables:
            live = loaded(table_id)
            if live.table.status != "playing":
                services.advance(table_id)           # the next deal (DEAL_PAUSE_MS=0)
                continue
            seat = live.state.seats_to_act()[0]
            action = choose(live.state.view(seat), rng)
            version = live.table.version
            reset_queries()
            connection.force_debug_cursor = True
            b0 = _backend_cpu()
            if profiler is not None:
                profiler.enable()
            t0, c0 = time.perf_counter(), time.thread_time()
            with broadcast.collecting():
                services.act(table_id, users[seat], version, action)
            service_s += time.perf_counter() - t0
            cpu_s += time.thread_time() - c0
            if profiler is not None:
                profiler.disable()
            backend_s += _backend_cpu() - b0
            connection.force_debug_cursor = False
            queries += len(connection.queries)
            done += 1
    return {"service": service_s / done * 1e3, "cpu": cpu_s / done * 1e3, "queries": queries / done,
            "backend": backend_s / done * 1e3}


def _backend_cpu() -> float:
    """CPU seconds used so far by this connection's PostgreSQL backend process (0 on SQLite,
    whose work is in our own process)."""
    from django.db import connection
    if connection.vendor != "postgresql":
        return 0.0
    pid = connection.connection.info.backend_pid
    with open(f"/proc/{pid}/stat") as fh:
        fields = fh.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tables", type=int, default=50)
    ap.add_argument("--moves", type=int, default=2000, help="moves per run")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--profile", action="store_true")
    args = ap.parse_args()
    configure_database()
    import django
    django.setup()
    from django.db import connection

    tables = setup(args.tables)
    rng = random.Random(7)
    play(tables, min(200, args.moves), rng)          # warm up caches and code paths
    if args.profile:
        import cProfile
        import pstats
        prof = cProfile.Profile(time.thread_time)   # CPU, not waiting for the database
        play(tables, args.moves, rng, prof)     # the service calls only, not the bench's reads
        pstats.Stats(prof).sort_stats("cumulative").print_stats(60)
        pstats.Stats(prof).sort_stats("tottime").print_stats(30)
    rows = [play(tables, args.moves, rng) for _ in range(args.runs)]
    med = {k: statistics.median(r[k] for r in rows) for k in rows[0]}
    print(f"{connection.vendor}: {args.tables} tables, {args.runs} runs x {args.moves} moves (median)")
    print(f"  services.act  {med['service']:6.2f} ms/move   ({med['queries']:.1f} queries)")
    print(f"  its CPU       {med['cpu']:6.2f} ms/move   (this thread: Python, drivers, system calls)")
    if connection.vendor == "postgresql":
        print(f"  backend CPU   {med['backend']:6.2f} ms/move   (the PostgreSQL process serving it)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
