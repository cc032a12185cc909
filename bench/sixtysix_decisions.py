"""What a sixty-six bot does with its decisions, in self-play: exchanges, exact endgames, time.

    nice -n 15 python bench/sixtysix_decisions.py --level strong --deals 200 [--jobs 2] [--budget-ms 200]

Both seats play the level (any of the arena's: ``strong``, or ``git:REV:strong`` as it was at REV). Printed:

* exchanges taken / chances (decisions where ``exchange`` was legal and no claim was sure), and
  deals with a chance but no exchange;
* exact endgames: decisions after the stock ran out (every unseen card is in the opponent's hand,
  so a player who remembers the tricks knows it), with at least two options; a choice is losing
  when its exact value (``sixtysix_solver`` on the true deal) is below the best option's;
* decision time p50 / p95 / max over all decisions with two or more options.
"""
from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from games.bots import sixtysix_solver  # noqa: E402
from games.bots.lab.duel import choose_action, percentile  # noqa: E402
from games.engine import sixtysix as SS  # noqa: E402
from games.engine.core import deal  # noqa: E402


def exact_values(state, seat):
    """Exact value of each legal move of the true deal for ``seat`` (phase 2, no claim pending)."""
    out = {}
    for m in state.legal_moves(seat):
        s = state.clone()
        s.apply_move(m, seat)
        if s.over:
            out[m] = s.game_points[seat] - s.game_points[1 - seat]
        elif sixtysix_solver.solvable(s):
            out[m] = sixtysix_solver.solve(s, seat)
    return out


def run_deal(args):
    level, variant, k, budget = args
    rng = random.Random(f"decisions-{k}")
    state = deal("sixtysix", variant, rng=rng, dealer=k % 2, deal_number=k)
    bots = [random.Random(f"bot-{k}-{s}") for s in (0, 1)]
    stats = {"chances": 0, "taken": 0, "deal_chance": 0, "deal_taken": 0, "endgames": 0, "losing": 0,
             "times": []}
    while not state.is_over():
        seat = state.to_act()
        view = state.view(seat)
        legal = view["legal"]
        chance = any(a["type"] == "exchange" for a in legal) and (view["my_points"] or 0) < SS.TARGET
        endgame = (len(legal) > 1 and view["phase"] == "play2" and view["trump_card"] is None
                   and view["stock_size"] == 0 and state.claimer < 0)
        t0 = time.perf_counter()
        action = choose_action(level, view, bots[seat], budget)
        if len(legal) > 1:
            stats["times"].append(time.perf_counter() - t0)
        if chance:
            stats["chances"] += 1
            stats["deal_chance"] = 1
            if action["type"] == "exchange":
                stats["taken"] += 1
                stats["deal_taken"] = 1
        if endgame:
            values = exact_values(state, seat)
            move = state.move_of(action)
            if move in values and len(values) == len(legal):
                stats["endgames"] += 1
                stats["losing"] += values[move] < max(values.values())
        state.apply(action)
    return stats


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--level", default="strong")
    parser.add_argument("--variant", default="kurnik")
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--budget-ms", type=int, default=None)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    tasks = [(args.level, args.variant, k, args.budget_ms) for k in range(args.deals)]
    started = time.time()
    if args.jobs > 1:
        with multiprocessing.Pool(args.jobs) as pool:
            results = pool.map(run_deal, tasks)
    else:
        results = [run_deal(t) for t in tasks]
    total = {key: sum(r[key] for r in results) for key in results[0] if key != "times"}
    times = [t for r in results for t in r["times"]]
    never = sum(1 for r in results if r["deal_chance"] and not r["deal_taken"])
    print(f"sixtysix/{args.variant} {args.level} self-play, {args.deals} deals, budget "
          f"{args.budget_ms or 'default'}, {time.time() - started:.0f} s")
    print(f"exchanges: {total['taken']} of {total['chances']} chances; "
          f"{never} of {total['deal_chance']} deals with a chance never exchanged")
    rate = 100 * total["losing"] / total["endgames"] if total["endgames"] else 0.0
    print(f"exact endgame: {total['losing']} losing choices of {total['endgames']} ({rate:.1f}%)")
    print(f"decision time (2+ options): p50 {1000 * percentile(times, 0.5):.0f} ms  "
          f"p95 {1000 * percentile(times, 0.95):.0f} ms  max {1000 * max(times, default=0):.0f} ms  "
          f"({len(times)} decisions)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
