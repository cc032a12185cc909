"""What a searching bot level costs: CPU per move and moves per core per second, per game.

    python bench/bot_capacity.py [--levels strong,expert] [--deals 2] [--pace 2.0]

Deals are played with the level in every seat through ``games.bots.choose_action`` (the search
the site runs, games/thinking.py), and each decision's wall and CPU time are read. A level thinks
for a wall-clock budget: on an idle core a move's CPU is its wall time, on a busy one it gets less
CPU in the same time. The capacity is reckoned from the wall time (what a dedicated core spends),
so a busy machine does not make it look better. The table count is the capacity of the
machine's cores for tables of one person and bots of the level (three; sixty-six: one), at one
move every ``--pace`` seconds per table (the bots' share of the moves: bench/live.py --rate 1/pace).
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from games.bots import choose_action  # noqa: E402
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


def state_seats(game: str) -> range:
    return range(2 if game == "sixtysix" else 4)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--levels", default="strong,expert")
    ap.add_argument("--deals", type=int, default=2, help="deals per game and level")
    ap.add_argument("--pace", type=float, default=2.0, help="seconds between two moves of a table")
    ap.add_argument("--cores", type=int, default=os.cpu_count() or 1)
    args = ap.parse_args()
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
