"""What a tournament needs before it can run by itself: every check of its settings, as
(field, reason) pairs. The admin's form (tournaments/forms.py) and the staff's page
(tournaments/new_form.py) both ask here, so they refuse the same things with the same words; the
format's own checks are its ``clean`` (tournaments/formats/)."""
from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from accounts.models import BOT_LEVELS
from games.engine import core

from . import formats


def problems(data: dict) -> list[tuple[str, str]]:
    """(field, reason) for each value of ``data`` (the Tournament's fields) that cannot run."""
    game = data.get("game")
    if not game or game not in core.GAME_NAMES:
        return []
    found = []
    rules = core.get_rules(game)
    variant = data.get("variant") or ""
    if variant and variant not in rules.variants:
        found.append(("variant", _("Choose one of: %(variants)s.") % {"variants": ", ".join(rules.variants)}))
    fmt = formats.FORMATS.get(data.get("format"))
    found += fmt.clean(data, rules.seats) if fmt else []
    bank, inc = data.get("bank_seconds"), data.get("increment_seconds")
    if bank is not None and not 10 <= bank <= 3600:
        found.append(("bank_seconds", _("Between 10 and 3600 seconds.")))
    if inc is not None and not 0 <= inc <= 120:
        found.append(("increment_seconds", _("Between 0 and 120 seconds.")))
    lo, hi = data.get("min_entries"), data.get("max_entries")
    if lo is not None and lo < 2:
        found.append(("min_entries", _("At least two.")))
    if lo is not None and hi is not None and hi < lo:
        found.append(("max_entries", _("Not fewer than the minimum.")))
    if data.get("bot_level") not in BOT_LEVELS:
        found.append(("bot_level", _("Choose one of: %(variants)s.") % {"variants": ", ".join(BOT_LEVELS)}))
    opens, starts = data.get("registration_opens_at"), data.get("starts_at")
    if opens and starts and opens >= starts:
        found.append(("registration_opens_at", _("Registration must open before the start.")))
    return found
