"""Interleaved A/B runs of bench/live.py: every configuration once per round, rounds repeated,
medians reported. Noise on this machine is as large as the effects sought, so configurations are
never compared across sessions or in blocks: each round runs all of them, in a shuffled order.

    .venv/bin/python bench/matrix.py --modes scaled --apps site,echo --servers daphne,uvicorn \\
        --tables 200 --runs 3 --seconds 20 --out /tmp/ab.jsonl

Each run is a separate ``bench/live.py`` (its own servers and database); rows are appended to
``--out`` as they come, and the summary is printed at the end (or with ``--summary FILE`` alone).

A change of code is an A/B of two checkouts, e.g. the last commit in a worktree beside this one
(``git worktree add --detach /tmp/base HEAD~1; ln -s $PWD/.venv /tmp/base/.venv``):

    .venv/bin/python bench/matrix.py --checkouts /tmp/base,. --tables 400 --servers uvicorn --runs 3
"""
from __future__ import annotations

import argparse
import itertools
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = str(ROOT / ".venv" / "bin" / "python") if (ROOT / ".venv" / "bin" / "python").exists() else sys.executable


def configs(args) -> list[dict]:
    out = []
    for checkout, mode, app, server, tables, sticky, web in itertools.product(
            args.checkouts.split(","), args.modes.split(","), args.apps.split(","), args.servers.split(","),
            [int(t) for t in args.tables.split(",")], args.sticky.split(","), [int(w) for w in args.web.split(",")]):
        if mode != "scaled" and (sticky == "yes" or web != 2):
            continue
        out.append({"checkout": checkout, "mode": mode, "app": app, "server": server, "tables": tables,
                    "sticky": sticky == "yes", "web": web})
    return out


def run(cfg: dict, args) -> None:
    """One bench/live.py, run from the configuration's checkout (its code, this machine's venv);
    its row goes to --out labelled with the checkout."""
    root = (ROOT / cfg["checkout"]).resolve()
    with tempfile.NamedTemporaryFile(suffix=".jsonl") as row_file:
        cmd = [PYTHON, str(root / "bench" / "live.py"), "--mode", cfg["mode"], "--app", cfg["app"],
               "--server", cfg["server"], "--tables", str(cfg["tables"]), "--seconds", str(args.seconds),
               "--warmup", str(args.warmup), "--rate", str(args.rate), "--json", row_file.name]
        if cfg["sticky"]:
            cmd.append("--sticky")
        if cfg["mode"] == "scaled":
            cmd += ["--web", str(cfg["web"])]
        print(f"$ ({cfg['checkout']})", " ".join(cmd[1:]), flush=True)
        done = subprocess.run(cmd, cwd=root, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        lines = done.stdout.strip().splitlines()
        print("\n".join(lines[-5:-2]) if done.returncode == 0 else done.stdout[-2000:], flush=True)
        with open(args.out, "a") as out:
            for line in open(row_file.name):
                out.write(json.dumps(dict(json.loads(line), checkout=cfg["checkout"])) + "\n")


def key(row: dict) -> tuple:
    web = row.get("web", 2) if row["mode"].startswith("scaled") else 2
    return (row["mode"] + ("/sticky" if row.get("sticky") else "") + (f"/{web}web" if web != 2 else ""),
            row.get("app", "site"),
            row.get("server", "daphne"), row["tables"], row.get("rate", 1.0), row.get("checkout", "."))


def summary(path: str) -> None:
    groups: dict[tuple, list[dict]] = {}
    for line in open(path):
        row = json.loads(line)
        groups.setdefault(key(row), []).append(row)
    print(f"\n{'checkout':<12}{'mode':<20}{'app':<6}{'server':<9}{'tables':>7}{'runs':>5}{'moves/s':>9}{'p50':>8}"
          f"{'p95':>8}{'p99':>8}  p99 of each run          web CPU % (median, each process)")
    for k in sorted(groups):
        rows = groups[k]
        med = lambda f: statistics.median(r[f] for r in rows)   # noqa: E731
        webs = sorted(n for n in rows[0]["cpu"] if n.startswith(("web", "daphne")))
        cpu = ", ".join(f"{statistics.median(r['cpu'].get(n, 0) for r in rows):.0f}" for n in webs)
        each = " ".join(f"{r['p99']:.0f}" for r in rows)
        print(f"{k[5][-12:]:<12}{k[0]:<20}{k[1]:<6}{k[2]:<9}{k[3]:>7}{len(rows):>5}{med('moves_s'):>9.0f}{med('p50'):>8.1f}"
              f"{med('p95'):>8.1f}{med('p99'):>8.1f}  {each:<24} {cpu}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--checkouts", default=".", help="checkouts to compare, paths from here (A/B of code)")
    ap.add_argument("--modes", default="scaled")
    ap.add_argument("--apps", default="site")
    ap.add_argument("--servers", default="daphne")
    ap.add_argument("--tables", default="200")
    ap.add_argument("--runs", type=int, default=2)
    ap.add_argument("--seconds", type=float, default=20)
    ap.add_argument("--warmup", type=float, default=5)
    ap.add_argument("--rate", type=float, default=1.0)
    ap.add_argument("--sticky", default="no", help="no, yes or no,yes: live.py --sticky")
    ap.add_argument("--web", default="2", help="scaled: web processes, e.g. 2,3,4: live.py --web")
    ap.add_argument("--seed", type=int, default=0, help="the order of each round")
    ap.add_argument("--out", default="/tmp/bench_matrix.jsonl")
    ap.add_argument("--summary", action="store_true", help="only summarise --out")
    args = ap.parse_args()
    if not args.summary:
        rng = random.Random(args.seed or os.getpid())
        todo = configs(args)
        for r in range(args.runs):
            print(f"# round {r + 1} of {args.runs}", flush=True)
            rng.shuffle(todo)
            for cfg in todo:
                run(cfg, args)
    summary(args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
