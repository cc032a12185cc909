"""The one bot interface every level implements, and the checks they share.

``choose_action(view, rng=None, budget_ms=None) -> dict``: ``view`` is ``State.view(seat)`` of a
seat that is to act (exactly what a human in that seat sees), ``rng`` a ``random.Random`` (the
bot is deterministic given the view and the rng's seed), ``budget_ms`` the thinking time a level
may use (ignored by levels that do not search). The answer is one of ``view["legal"]`` (a hearts
pass names three of the listed cards). A bot never receives the State: handing it one is a
TypeError, so hidden cards cannot leak into a decision by accident.
"""
from __future__ import annotations

import random as _random
import time

DEFAULT_BUDGET_MS = 200

# The clock budgets are read on (seconds). The site's is the wall clock: a move lands in time. A
# measurement on a busy machine (games/bots/lab/ladder.py --cpu-clock) sets the thread's CPU clock, so a
# level thinks as long as it would on a core of its own and plays as strong as it does there.
clock = time.perf_counter


def check_view(view) -> list[dict]:
    """The legal actions of a view; TypeError for anything that is not a view dict."""
    if not isinstance(view, dict):
        raise TypeError(f"a bot takes a seat's view (a dict), not {type(view).__name__}: "
                        "bots must never see the hidden state")
    legal = view.get("legal") or []
    if not legal:
        raise ValueError("the view lists no legal action: this seat is not to act")
    return legal


def rng_of(rng) -> _random.Random:
    return rng if rng is not None else _random.Random()
