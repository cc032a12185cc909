"""The basic bot: a few rules per game, the way a decent casual player plays. Reads the view only.
Each game's rules are its own module (``sixtysix_basic``, ``hearts_basic``, ``spades_basic``),
registered as the game's ``basic_policy`` (``parts``); this module is the level and the helpers
they share.
"""
from __future__ import annotations

from games.engine import cards as C

from . import parts
from .base import check_view, rng_of

IDX = C.INDEX


def choose_action(view: dict, rng=None, budget_ms: int | None = None) -> dict:
    legal = check_view(view)
    rng = rng_of(rng)
    if len(legal) == 1 and legal[0]["type"] != "pass":
        return dict(legal[0])
    return parts.of(view["game"]).basic_policy(view, legal, rng)


def find_action(legal, **fields):
    """The first legal action with these fields (a copy), or None."""
    for a in legal:
        if all(a.get(k, False) == v for k, v in fields.items()):
            return dict(a)
    return None


def play_card(plays, card):
    """The play of ``card`` among ``plays`` (the first play if it is not one)."""
    code = C.CODES[card]
    for a in plays:
        if a["card"] == code:
            return dict(a)
    return dict(plays[0])
