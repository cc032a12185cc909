"""Random legal play through the public interface, shared by the generic engine tests."""
from __future__ import annotations

import random

from games.engine.core import GAME_NAMES, State, deal, get_rules

GAME_VARIANTS = [(g, v) for g in GAME_NAMES for v in get_rules(g).variants]


def play_out(state: State, rng: random.Random, limit: int = 500) -> State:
    """Play random legal moves until the deal ends (fails past ``limit`` moves)."""
    for _ in range(limit):
        if state.is_over():
            return state
        state.apply_move(state.random_move(rng))
    raise AssertionError(f"{state.game} deal did not end within {limit} moves")


def finished_deal(game: str, variant: str, seed: int, **kwargs) -> State:
    rng = random.Random(seed)
    return play_out(deal(game, variant, rng=rng, **kwargs), rng)
