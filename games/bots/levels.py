"""The ladder of bot levels people choose from, weakest first, and each level's measured strength.

A level is a bot module (``base.py``'s interface) with the thinking budget it plays with. The
strength shown on the site is measured, not asserted: ``python -m games.bots.ladder`` plays each
level against its neighbours on the ladder in duplicate pairs (``arena.py``) and fits ratings on
the scale people's ratings use (ratings/rating.py: 400 points are about 10:1 odds of winning a
match), anchored at ``ANCHOR``. The figures are kept in ``ladder.json`` beside this module, with
the pairs they came from; a level that was never measured has no rating (``None``).
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
    budget_ms: int | None = None    # an ordinary decision's thinking time (None: the module's own)
    cap_ms: int | None = None       # the most a hard decision may think (None: the module's own)

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
    Level("strong", "games.bots.strong", 200),
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
