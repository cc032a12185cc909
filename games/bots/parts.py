"""Each game's bot parts, by registry: the generic bots (basic, strong, the sampler, the analysis)
ask ``of(game)`` and never name a game. A game's own bot module (``<game>_search.py``, beside
the game's solver) registers its parts when imported, as the engine's modules register their
rules (``core.register``); ``of`` imports it on first use.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Callable

_PARTS: dict[str, "BotParts"] = {}


@dataclass(frozen=True)
class PuzzleParts:
    """What puzzle_solver needs of a game: where a position is solved exactly, and by what."""
    cards: int                  # most cards in any hand at a puzzle's position (solves stay in ms)
    margin: float               # how much better than the second the one best play must be
    value: Callable             # (state, seat) -> its exact value for the seat, or None
    solvable: Callable          # (state) -> whether the position is one the solver takes
    playing: Callable = lambda state: True      # (state) -> the deal's play is on (not a pass)
    wins_only: bool = False     # the answer must win the deal and every other play not
    shown: Callable | None = None   # (state) -> what the board shows beside the view


@dataclass(frozen=True)
class BotParts:
    # The basic level's rule: (view, legal, rng) -> action.
    basic_policy: Callable
    # The strong search's playout from a state to the deal's end: (state, rng, seat) -> value.
    rollout: Callable
    # How many of the game's points weigh one sixty-six game point in the search's stakes.
    unit: float
    # Hidden cards consistent with a view: (view, rng) -> what ``GameRules.state_from_view`` takes.
    sample: Callable
    # The draw's constraints (pool, capacities, allowed suits, fixed cards) of a view, if the
    # game's sampler is the constrained deal of ``sampling``: (view) -> tuple.
    draw_constraints: Callable | None = None
    # A decision the game answers before the generic search (a bid, a pass, a sure claim, a tree
    # search): (view, legal, rng, budget_ms, iterations) -> action or None (search it).
    first_answer: Callable | None = None
    # The options searched, when an action is only the first of several moves of one decision:
    # (view, legal, moves, state, prune) -> [(index in legal, moves)]; None: one move an option.
    options: Callable | None = None
    # Every hidden deal a view allows, when few enough to search each: (view) -> list or None.
    exact_hands: Callable | None = None
    # The exact value of a state for a seat if it is solved cheaply: (state, seat) -> float or None.
    exact_value: Callable | None = None
    # A play still open at the budget may think on to the cap its level declares.
    thinks_past_budget: bool = False
    # The analysis' words for the unit its losses are measured in, and its thresholds of an
    # inaccuracy, a mistake and a blunder in that unit.
    loss_unit: str = ""
    loss_labels: tuple[float, float, float] = (0.0, 0.0, 0.0)
    # Puzzles from finished deals (puzzle_solver).
    puzzle: PuzzleParts | None = None


def register(game: str, parts: BotParts) -> BotParts:
    _PARTS[game] = parts
    return parts


def of(game: str) -> BotParts:
    """The bot parts of ``game``, importing its bot module on first use."""
    found = _PARTS.get(game)
    if found is None:
        importlib.import_module(f"{__package__}.{game}_search")
        found = _PARTS[game]
    return found
