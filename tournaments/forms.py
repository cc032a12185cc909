from django import forms
from django.utils.translation import gettext_lazy as _

from accounts.models import BOT_LEVELS
from games.engine import core

from . import formats
from .models import Tournament


class TournamentForm(forms.ModelForm):
    """The admin's form: the checks a tournament needs before it can run by itself (the format's
    own checks are its ``clean``: tournaments/formats/)."""

    format = forms.ChoiceField(label=_("format"), choices=formats.choices, initial=formats.NAMES[0])

    class Meta:
        model = Tournament
        fields = ["name", "game", "variant", "format", "rounds", "starts_at", "registration_opens_at",
                  "bank_seconds", "increment_seconds", "min_entries", "max_entries", "rated",
                  "break_seconds", "bot_level", "arena_minutes", "boards", "bots_allowed"]

    def clean(self):
        data = super().clean()
        game = data.get("game")
        if not game:
            return data
        rules = core.get_rules(game)
        variant = data.get("variant") or ""
        if variant and variant not in rules.variants:
            self.add_error("variant", _("Choose one of: %(variants)s.") % {"variants": ", ".join(rules.variants)})
        fmt = formats.FORMATS.get(data.get("format"))
        for field, reason in fmt.clean(data, rules.seats) if fmt else ():
            self.add_error(field, reason)
        bank, inc = data.get("bank_seconds"), data.get("increment_seconds")
        if bank is not None and not 10 <= bank <= 3600:
            self.add_error("bank_seconds", _("Between 10 and 3600 seconds."))
        if inc is not None and not 0 <= inc <= 120:
            self.add_error("increment_seconds", _("Between 0 and 120 seconds."))
        lo, hi = data.get("min_entries"), data.get("max_entries")
        if lo is not None and lo < 2:
            self.add_error("min_entries", _("At least two."))
        if lo is not None and hi is not None and hi < lo:
            self.add_error("max_entries", _("Not fewer than the minimum."))
        if data.get("bot_level") not in BOT_LEVELS:
            self.add_error("bot_level", _("Choose one of: %(variants)s.") % {"variants": ", ".join(BOT_LEVELS)})
        opens, starts = data.get("registration_opens_at"), data.get("starts_at")
        if opens and starts and opens >= starts:
            self.add_error("registration_opens_at", _("Registration must open before the start."))
        return data
