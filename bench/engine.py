"""Random-playout speed of the engine: deals per second per game and variant, on one process.

    python bench/engine.py [--seconds 1.0] [--runs 5]

Each run deals (cryptographic shuffle, as in production) and plays random legal moves through the
hot path (``random_move`` / ``apply_move``) until the deal ends, for about ``--seconds``; the figure
printed is the median of the runs. Targets (issue 2): Sixty-six >= 5,000, Hearts/Spades >= 2,000.
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from games.engine.core import deal, get_rules, GAME_NAMES  # noqa: E402

TARGETS = {"sixtysix": 5000, "hearts": 2000, "spades": 2000}


def playouts_per_second(game: str, variant: str, seconds: float, rng: random.Random) -> float:
    done = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        state = deal(game, variant, dealer=done % get_rules(game).seats, deal_number=done)
        while not state.is_over():
            state.apply_move(state.random_move(rng))
        done += 1
        if done % 16 == 0 and time.perf_counter() >= deadline:
            break
    return done / (time.perf_counter() - start)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="length of one run")
    parser.add_argument("--runs", type=int, default=5, help="runs per variant (median reported)")
    args = parser.parse_args()
    rng = random.Random(2026)
    print(f"{'game':10} {'variant':18} {'deals/s (median)':>17} {'min':>8} {'max':>8} {'target':>7}")
    below = 0
    for game in GAME_NAMES:
        rules = get_rules(game)
        for variant in rules.variants:
            rates = [playouts_per_second(game, variant, args.seconds, rng) for _ in range(args.runs)]
            median = statistics.median(rates)
            target = TARGETS[game]
            below += median < target
            print(f"{game:10} {variant:18} {median:17,.0f} {min(rates):8,.0f} {max(rates):8,.0f} "
                  f"{target:7,}{'' if median >= target else '  BELOW'}")
    return 1 if below else 0


if __name__ == "__main__":
    sys.exit(main())
