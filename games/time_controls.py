"""The clocks "Play now" offers against bots, untimed included (no clock runs: a bank and an
increment of 0, games/clocks.py), as ``bank+increment`` keys in seconds. Against bots nobody waits
for the player, so he may take his time; tables with people keep their clocks."""
from __future__ import annotations

from django.utils.translation import gettext_lazy as _

UNTIMED = "0+0"
DEFAULT = "300+5"
PLAY_NOW = {
    UNTIMED: _("No clock"),
    "180+2": _("3 min + 2 s"),
    DEFAULT: _("5 min + 5 s"),
    "600+5": _("10 min + 5 s"),
    "900+10": _("15 min + 10 s"),
}


def parse(key: str | None) -> tuple[int, int] | None:
    """(bank seconds, increment seconds) of an offered key; None for anything else."""
    if key not in PLAY_NOW:
        return None
    bank, increment = key.split("+")
    return int(bank), int(increment)


def choices(chosen: str | None) -> list[dict]:
    """The offered clocks in order, the remembered one (else the default) selected."""
    chosen = chosen if chosen in PLAY_NOW else DEFAULT
    return [{"value": k, "label": label, "selected": k == chosen} for k, label in PLAY_NOW.items()]
