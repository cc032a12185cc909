"""The ladder of bot levels people choose from, weakest first, and each level's measured strength.

A level is a bot module (``base.py``'s interface) with the thinking budget it plays with. The
strength shown on the site is measured, not asserted: ``python -m games.bots.lab.ladder`` plays each
level against the one below it on duplicate deals (``arena.py``) and fits ratings on the scale
people's ratings use (ratings/rating.py: 400 points are about 10:1 odds), anchored at ``ANCHOR``.
The figures are kept in ``ladder.json`` beside this module, with the steps they came from: per
game each level's rating, its record against the level below, and the levels merged into the one
below because the measurement could not tell them apart (the pickers do not offer those in that
game). A level that was never measured has no rating (``None``) and no record.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

LADDER_FILE = Path(__file__).with_name("ladder.json")
ANCHOR = ("basic", 1500)       # a newcomer's rating is set at the basic bot's


@dataclass(frozen=True)
class Level:
    name: str                   # the bot user is "bot:<name>" (docs/RECORDS.md's players)
    module: str
    budget_ms: int | None = None    # the most a decision thinks (None: the module's own)
    cap_ms: int | None = None       # the most a hard sixty-six play may think (None: the budget)

    @property
    def searches(self) -> bool:
        """It thinks for a budget: its move is chosen outside the table's lock (games/thinking.py)."""
        return self.budget_ms is not None

    @property
    def floor_ms(self) -> int:
        """The least it thinks when its moves run late (games/thinking.py): a quarter of its budget."""
        return (self.budget_ms or 0) // 4


LEVELS: tuple[Level, ...] = (
    Level("random", "games.bots.random"),
    Level("basic", "games.bots.basic"),
    Level("medium", "games.bots.strong", 10, cap_ms=10),
    Level("strong", "games.bots.strong", 200, cap_ms=800),
    Level("expert", "games.bots.strong", 600, cap_ms=2000),
)
NAMES: tuple[str, ...] = tuple(level.name for level in LEVELS)
_BY_NAME = {level.name: level for level in LEVELS}


def get(name: str) -> Level:
    try:
        return _BY_NAME[name]
    except KeyError:
        raise ValueError(f"unknown bot level {name!r}; choose from {list(NAMES)}") from None


@lru_cache(maxsize=1)
def measured() -> dict:
    """The stored ladder measurement (``{}`` when none was made)."""
    try:
        return json.loads(LADDER_FILE.read_text())
    except FileNotFoundError:
        return {}


def rating(game: str, name: str) -> int | None:
    """The measured rating of level ``name`` in ``game``; None if not measured."""
    found = measured().get("games", {}).get(game, {}).get("ratings", {}).get(name)
    return None if found is None else int(found)


def _game(game: str) -> dict:
    return measured().get("games", {}).get(game, {})


def merged_into(game: str, name: str) -> str | None:
    """The level ``name`` is merged into in ``game`` (measured no stronger than it); None if shown."""
    return _game(game).get("merged", {}).get(name)


def shown(game: str) -> tuple[str, ...]:
    """The levels the pickers offer in ``game``, weakest first: every level not merged there."""
    return tuple(name for name in NAMES if merged_into(game, name) is None)


def offered(game: str, name: str) -> str:
    """The level a picker selects for ``name`` in ``game``: itself, or the level it is merged into."""
    return merged_into(game, name) or name


def record(game: str, name: str) -> dict | None:
    """``{"against", "of_100"}``: level ``name`` wins about ``of_100`` of 100 deals against
    ``against`` (the level below it) in ``game``; None if not measured."""
    return _game(game).get("records", {}).get(name)
