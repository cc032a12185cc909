"""What proving a claim of the remaining tricks costs (games/engine/claims.py): every seat claims at
random moments of random Hearts and Spades deals; the time of each proof or refusal.

    .venv/bin/python bench/claims.py [--deals 60]
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from games.engine import claims  # noqa: E402
from games.engine.core import IllegalAction, deal  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=60, help="deals per game")
    args = parser.parse_args()
    times, outcomes = [], {}
    for game in ("hearts", "spades"):
        for seed in range(args.deals):
            rng = random.Random(seed)
            state = deal(game, rng=rng)
            while not state.claimable():
                state.apply_move(state.random_move(rng))
            for _ in range(rng.randrange(0, 48)):
                if not state.claimable():
                    break
                state.apply_move(state.random_move(rng))
            if not state.claimable():
                continue
            for seat in range(4):
                start = time.perf_counter()
                try:
                    claims.claim_line(state, seat)
                    code = "proved"
                except IllegalAction as refused:
                    code = refused.code
                times.append(time.perf_counter() - start)
                outcomes[code] = outcomes.get(code, 0) + 1
    times.sort()
    print(f"{len(times)} claims: median {1000 * statistics.median(times):.2f} ms, "
          f"p99 {1000 * times[int(len(times) * 0.99)]:.1f} ms, worst {1000 * times[-1]:.1f} ms; {outcomes}")


if __name__ == "__main__":
    main()
