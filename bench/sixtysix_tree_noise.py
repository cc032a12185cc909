"""How settled the sixty-six tree's choice is at a number of iterations: noise or bias.

    python bench/sixtysix_tree_noise.py [--decisions 30] [--iterations 840 2500 8000] [--reference 20000]

Decisions with the stock open and two moves or more are taken from self-play of the strong bot's
determinized search (200 draws a decision, fixed decks: the same decisions every run).
For each, the tree (``sixtysix_tree``) is grown once at ``--reference`` iterations and again, on other
draws, at each of ``--iterations``. Printed per count: how often its move is the reference's, and
the regret, the reference's value of its own move minus that of the move chosen, in game points a
decision. A regret that more iterations shrink is noise (time would pay); what stays is the
tree's bias (its rollouts, its opponent), which no amount of time removes. Deterministic.
"""
from __future__ import annotations

import argparse
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from games.bots import sixtysix_search, sixtysix_tree, strong  # noqa: E402
from games.engine.core import deal  # noqa: E402


def decisions(count: int, variant: str, draws: int = 200) -> list[dict]:
    """Every other open-stock decision with two moves or more, of self-play by the determinized
    search at ``draws`` draws a decision (deterministic)."""
    views, k = [], 0
    while len(views) < count:
        state = deal("sixtysix", variant, rng=random.Random(f"noise-{k}"), dealer=k % 2, deal_number=k)
        rng = random.Random(k)
        turn = 0
        while not state.is_over() and len(views) < count:
            view = state.view(state.to_act())
            if view["stock_size"] and len(view["legal"]) > 1 and turn % 2 == 0:
                views.append(view)
            turn += 1
            state.apply(strong.choose_action(view, rng, 50, iterations=draws))
        k += 1
    return views


def tree(view: dict, iterations: int, seed: int) -> tuple[int, dict[int, float]]:
    """The move the tree chooses, and each root move's mean value."""
    root = sixtysix_tree.search(view, 0, random.Random(seed), sixtysix_search.rollout, iterations)
    chosen = max(root.children, key=lambda m: root.children[m].visits)
    return chosen, {m: n.total / n.visits for m, n in root.children.items()}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--decisions", type=int, default=30)
    parser.add_argument("--iterations", type=int, nargs="+", default=[840, 2500, 8000])
    parser.add_argument("--reference", type=int, default=20000)
    parser.add_argument("--variant", default="kurnik")
    args = parser.parse_args(argv)
    views = decisions(args.decisions, args.variant)
    agree = {n: 0 for n in args.iterations}
    regret = {n: 0.0 for n in args.iterations}
    for i, view in enumerate(views):
        best, values = tree(view, args.reference, 10_000 + i)
        for n in args.iterations:
            chosen, _ = tree(view, n, 20_000 + i)
            agree[n] += chosen == best
            regret[n] += values[best] - values[chosen]
    print(f"sixtysix/{args.variant}: {len(views)} open-stock decisions, reference {args.reference} iterations")
    for n in args.iterations:
        print(f"{n:>6} iterations: the reference's move {agree[n]} of {len(views)}, "
              f"regret {regret[n] / len(views):.3f} game points a decision")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
