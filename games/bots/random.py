"""The random bot: a uniformly chosen legal action of the view."""
from __future__ import annotations

import random as _random

from .base import check_view

_RNG = _random.SystemRandom()


def choose_action(view: dict, rng=None, budget_ms: int | None = None) -> dict:
    legal = check_view(view)
    rng = rng or _RNG
    action = dict(rng.choice(legal))
    if action.get("type") == "pass" and len(action.get("cards", ())) > 3:
        # Hearts lists the pass as one summary {"type": "pass", "cards": [whole hand]}.
        action["cards"] = rng.sample(list(action["cards"]), 3)
    return action
