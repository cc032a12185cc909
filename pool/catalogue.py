"""Which pools there are: one per game, variant and time control, named by a key such as
``hearts/standard/300+5``. A pool pairs for a rated table of its game, variant and clock, as the
lobby's form would make it."""
from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from games.engine import core
from games.labels import variant_label

# (bank seconds, increment seconds): a quick and a longer clock, both among the lobby's.
CLOCKS = ((180, 3), (300, 5))


@dataclass(frozen=True)
class Pool:
    game: str
    variant: str
    bank_seconds: int
    increment_seconds: int

    @property
    def key(self) -> str:
        return f"{self.game}/{self.variant}/{self.bank_seconds}+{self.increment_seconds}"

    @property
    def seats(self) -> int:
        return core.get_rules(self.game).seats

    @property
    def clock_label(self) -> str:
        return _("%(min)s min + %(inc)s s") % {"min": self.bank_seconds // 60, "inc": self.increment_seconds}

    @property
    def label(self) -> str:
        return f"{variant_label(self.variant)} · {self.clock_label}"


def pools_of(game: str) -> list[Pool]:
    rules = core.get_rules(game)
    return [Pool(game, v, bank, inc) for v in rules.variants for bank, inc in CLOCKS]


def all_pools() -> list[Pool]:
    return [p for game in core.GAME_NAMES for p in pools_of(game)]


def find(key) -> Pool | None:
    """The pool named ``key``; None when there is no such pool."""
    if not isinstance(key, str):
        return None
    return next((p for p in all_pools() if p.key == key), None)
