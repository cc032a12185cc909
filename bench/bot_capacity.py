"""What a searching bot level costs: CPU per move and moves per core per second, per game.

    python bench/bot_capacity.py [--levels strong,expert] [--deals 2] [--pace 2.0]

Deals are played with the level in every seat through ``games.bots.choose_action`` (the search
the site runs, games/thinking.py), and each decision's wall and CPU time are read. A level thinks
for a wall-clock budget: on an idle core a move's CPU is its wall time, on a busy one it gets less
CPU in the same time. The capacity is reckoned from the wall time (what a dedicated core spends),
so a busy machine does not make it look better. The table count is the capacity of the
machine's cores for tables of one person and bots of the level (three; sixty-six: one), at one
move every ``--pace`` seconds per table (the bots' share of the moves: bench/live.py --rate 1/pace).

    python bench/bot_capacity.py --by-kind --levels git:f455a5f:strong,strong --deals 6

``--by-kind``: instead, CPU and wall time per decision (p50, p95, mean, max) per level, game and
kind of decision (``play``, ``pass``, ``bid``; only decisions with two or more options, since a
forced one costs nothing; every pass), beside the level's budget. A level may be ``git:REV:LEVEL`` (the arena's
baseline: that level as it was at REV), and the levels play the same deals one after the other,
deal by deal, so a before/after comparison shares the machine's load. ``--cpu-clock``: every level
(a ``git:`` one too) reads its budget on its thread's CPU clock, so a busy machine measures what a
core of its own would: the CPU a decision takes at its budget.
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from games.bots import choose_action, levels  # noqa: E402
from games.bots.lab.duel import choose_action as duel_choose, percentile  # noqa: E402
from games.engine.core import GAME_NAMES, deal  # noqa: E402


def decision_times(game: str, level: str, deals: int, rng: random.Random) -> list[tuple[float, float]]:
    """(wall, CPU) seconds of each decision of ``deals`` deals played by ``level`` in every seat."""
    spent = []
    for number in range(deals):
        state = deal(game, dealer=number % len(state_seats(game)), deal_number=number, rng=rng)
        while not state.is_over():
            seat = state.seats_to_act()[0]
            wall, cpu = time.perf_counter(), time.thread_time()
            action = choose_action(level, state.view(seat), rng)
            spent.append((time.perf_counter() - wall, time.thread_time() - cpu))
            state.apply(dict(action, seat=seat))
    return spent


def kind_of(view: dict) -> str:
    kind = view["legal"][0]["type"]
    return "bid" if kind in ("bid", "blind_nil") else "pass" if kind == "pass" else "play"


def timed_deal(game: str, level: str, number: int) -> list[tuple[str, float, float]]:
    """(kind, wall s, CPU s) of each decision with two or more options of deal ``number`` (the
    same cards for every level) played by ``level`` in every seat."""
    state = deal(game, dealer=number % len(state_seats(game)), deal_number=number,
                 rng=random.Random(f"kinds-{game}-{number}"))
    bot_rng = random.Random(f"kinds-bot-{number}")
    out = []
    while not state.is_over():
        seat = state.seats_to_act()[0]
        view = state.view(seat)
        wall, cpu = time.perf_counter(), time.thread_time()
        action = duel_choose(level, view, bot_rng, None)
        if len(view["legal"]) > 1 or kind_of(view) == "pass":     # a pass lists the hand once
            out.append((kind_of(view), time.perf_counter() - wall, time.thread_time() - cpu))
        state.apply(dict(action, seat=seat))
    return out


def use_cpu_clock(level_names: list[str]) -> None:
    """Budgets on the thread's CPU clock, today's levels (``base.clock``) and the ``git:`` ones
    (their searches read ``time.perf_counter``: it is replaced in their modules only)."""
    import importlib
    import types

    from games.bots import base
    from games.bots.lab import baseline

    base.clock = time.thread_time
    cpu_time = types.SimpleNamespace(perf_counter=time.thread_time)
    for name in level_names:
        if baseline.is_baseline(name):
            package = baseline._package(name[len(baseline.PREFIX):].partition(":")[0])
            for module in ("strong", "paired"):
                try:
                    found = importlib.import_module(f"{package}.{module}")
                except ImportError:
                    continue
                if hasattr(found, "time"):
                    found.time = cpu_time


def by_kind(level_names: list[str], games: list[str], deals: int) -> None:
    print(f"{'level':22} {'game':9} {'kind':5} {'budget':>7} {'n':>5} {'CPU p50':>8} {'p95':>6} "
          f"{'mean':>6} {'max':>6} {'wall p95':>9} {'max':>6}  (ms)")
    for game in games:
        spent = {name: [] for name in level_names}
        for number in range(deals):          # deal by deal, every level: they share the load
            for name in level_names:
                spent[name] += timed_deal(game, name, number)
        for name in level_names:
            base = name.rpartition(":")[2]
            budget = levels.get(base).budget_ms if base in levels.NAMES else None
            for kind in ("play", "pass", "bid"):
                rows = [(w, c) for k, w, c in spent[name] if k == kind]
                if not rows:
                    continue
                cpus = [1000 * c for _w, c in rows]
                walls = [1000 * w for w, _c in rows]
                print(f"{name:22} {game:9} {kind:5} {budget or '-':>7} {len(rows):5} "
                      f"{percentile(cpus, 0.5):8.0f} {percentile(cpus, 0.95):6.0f} "
                      f"{statistics.fmean(cpus):6.0f} {max(cpus):6.0f} {percentile(walls, 0.95):9.0f} "
                      f"{max(walls):6.0f}", flush=True)


def state_seats(game: str) -> range:
    return range(2 if game == "sixtysix" else 4)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--levels", default="strong,expert")
    ap.add_argument("--deals", type=int, default=2, help="deals per game and level")
    ap.add_argument("--pace", type=float, default=2.0, help="seconds between two moves of a table")
    ap.add_argument("--cores", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--by-kind", action="store_true", help="time per decision per kind (see above)")
    ap.add_argument("--games", default=",".join(GAME_NAMES))
    ap.add_argument("--cpu-clock", action="store_true", help="budgets on each bot's CPU clock (see above)")
    args = ap.parse_args()
    if args.cpu_clock:
        use_cpu_clock(args.levels.split(","))
    if args.by_kind:
        by_kind(args.levels.split(","), args.games.split(","), args.deals)
        return 0
    rng = random.Random(2026)
    print(f"{'level':8} {'game':9} {'moves':>6} {'ms/move':>8} {'p95 ms':>7} {'CPU ms/move':>12} "
          f"{'moves/core/s':>13} {'tables on ' + str(args.cores) + ' cores':>18}")
    for level in args.levels.split(","):
        for game in GAME_NAMES:
            spent = decision_times(game, level, args.deals, rng)
            walls = sorted(w for w, _c in spent)
            mean = statistics.fmean(walls)
            p95 = walls[int(0.95 * (len(walls) - 1))]
            cpu = statistics.fmean(c for _w, c in spent)
            per_core = 1 / mean
            seats = len(state_seats(game))
            tables = args.cores * per_core / ((seats - 1) / seats / args.pace)
            print(f"{level:8} {game:9} {len(spent):6} {1000 * mean:8.0f} {1000 * p95:7.0f} {1000 * cpu:12.0f} "
                  f"{per_core:13.1f} {tables:18.0f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
