from django import forms
from django.utils.translation import gettext_lazy as _

from accounts.models import BOT_LEVELS
from games.engine import core

from .models import Tournament


class TournamentForm(forms.ModelForm):
    """The admin's form: the checks a tournament needs before it can run by itself."""

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
        fmt = data.get("format")
        if rules.seats != 2 and fmt in (Tournament.Format.ROUND_ROBIN, Tournament.Format.ELIMINATION):
            self.add_error("format", _("Four-player games are played as Swiss tournaments."))
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
        if fmt == Tournament.Format.SWISS and not data.get("rounds"):
            self.add_error("rounds", _("A Swiss tournament needs at least one round."))
        if fmt == Tournament.Format.DUPLICATE and not data.get("rounds"):
            self.add_error("rounds", _("A duplicate tournament needs at least one round."))
        boards = data.get("boards")
        if fmt == Tournament.Format.DUPLICATE and boards is not None and not 1 <= boards <= 24:
            self.add_error("boards", _("Between 1 and 24 boards."))
        minutes = data.get("arena_minutes")
        if fmt == Tournament.Format.ARENA and minutes is not None and not 5 <= minutes <= 720:
            self.add_error("arena_minutes", _("Between 5 and 720 minutes."))
        if data.get("bot_level") not in BOT_LEVELS:
            self.add_error("bot_level", _("Choose one of: %(variants)s.") % {"variants": ", ".join(BOT_LEVELS)})
        opens, starts = data.get("registration_opens_at"), data.get("starts_at")
        if opens and starts and opens >= starts:
            self.add_error("registration_opens_at", _("Registration must open before the start."))
        return data
