"""Choosing among a few options that have a rule's answer as default: the spades bid.

The strong bot's search (strong.py) keeps the best average. With several options and few draws (a
bid has ~6, and each draw plays a whole deal out), the best average
is often best by luck, and the rule's own answer is a good prior. So the draws are kept per draw
(every option sees the same hidden cards and rollout seed) and an option replaces the default
only when its paired advantage over it is ``Z`` standard errors clear of zero.
"""
from __future__ import annotations

import math
import random as _random

from games.engine.core import get_rules

from . import base
from .sampling import sample

Z = 2.0
MAX_DRAWS = 400


def draws(view: dict, options: list[dict], rng, budget_ms: float, iterations: int | None,
          rollout) -> list[list[float]]:
    """Per draw, the value of every option (``rollout(state, rng, seat)`` after it)."""
    seat = view["seat"]
    from_view = get_rules(view["game"]).state_from_view
    deadline = base.clock() + budget_ms / 1000.0
    limit = iterations if iterations is not None else MAX_DRAWS
    rows: list[list[float]] = []
    moves = None
    while len(rows) < limit:
        state = from_view(view, sample(view, rng))
        if moves is None:
            moves = [state.move_of(a) for a in options]
        seed = rng.getrandbits(32)
        row = []
        for move in moves:
            if rows and iterations is None and base.clock() >= deadline:
                return rows       # out of time mid-draw: drop it
            s = state.clone()
            s.apply_move(move, seat)
            row.append(rollout(s, _random.Random(seed), seat))
        rows.append(row)
        if iterations is None and base.clock() >= deadline:
            break
    return rows


def choose(rows: list[list[float]], default: int = 0, z: float = Z) -> int:
    """The option with the best mean if it beats ``default`` by ``z`` paired standard errors,
    else ``default``."""
    n = len(rows)
    if n < 2:
        return default
    means = [sum(r[j] for r in rows) / n for j in range(len(rows[0]))]
    best = max(range(len(means)), key=lambda j: (means[j], j == default))
    if best == default:
        return default
    diffs = [r[best] - r[default] for r in rows]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    if mean > z * math.sqrt(var / n):
        return best
    return default
