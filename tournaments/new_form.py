"""The staff's form for a new tournament (/tournaments/new/): every choice comes from a registry
(the engine's games and variants, the formats, the bot levels, the lobby's time controls), times
are the staff member's local times in the time zone his browser reports, and every check is
tournaments/checks.py's, as in the admin. The page's script asks the same form for its errors
before submitting (``errors_by_field``), so a refusal reads the same before and after."""
from __future__ import annotations

import zoneinfo
from datetime import timedelta

from django import forms
from django.utils import timezone
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from accounts.models import BOT_LEVELS
from games.engine import core
from games.forms import INCREMENTS, TIME_CONTROLS
from games.labels import BOT_LEVEL_LABELS, game_label, variant_label

from . import checks, formats

LOCAL = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")
LOCAL_FORMATS = ["%Y-%m-%dT%H:%M", "%Y-%m-%dT%H:%M:%S"]
ZONES = frozenset(zoneinfo.available_timezones())


def clock_label(bank: int, inc: int) -> str:
    return _("%(min)s min + %(inc)s s") % {"min": bank // 60, "inc": inc}


def time_zone_of(data) -> str:
    """The IANA time zone the form's times are in (the browser's, sent by the page); UTC when
    none or an unknown one was sent."""
    zone = (data or {}).get("time_zone") or ""
    return zone if zone in ZONES else "UTC"


class NewTournamentForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120)
    game = forms.ChoiceField(label=_("Game"))
    variant = forms.ChoiceField(label=_("Variant"))
    format = forms.ChoiceField(label=_("Tournament format"))
    time_control = forms.ChoiceField(label=_("Clock"))
    starts_at = forms.DateTimeField(label=_("Start"), widget=LOCAL, input_formats=LOCAL_FORMATS)
    registration_opens_at = forms.DateTimeField(
        label=_("Registration opens"), widget=LOCAL, input_formats=LOCAL_FORMATS, required=False,
        help_text=_("Empty: open from now until the start."))
    rounds = forms.IntegerField(label=_("Rounds"), min_value=1, max_value=50, initial=5)
    boards = forms.IntegerField(label=_("Boards per round"), min_value=1, max_value=24, initial=4,
                                help_text=_("How many deals every table of a round plays, the same at every table."))
    arena_minutes = forms.IntegerField(label=_("Length (minutes)"), min_value=1, max_value=720, initial=45,
                                       help_text=_("How long pairing goes on; matches running at the end still count."))
    break_seconds = forms.IntegerField(label=_("Break between rounds (seconds)"), min_value=0, max_value=3600,
                                       initial=30)
    min_entries = forms.IntegerField(label=_("Minimum entries"), min_value=0, max_value=1000, initial=4,
                                     help_text=_("Fewer at the start: the tournament is cancelled."))
    max_entries = forms.IntegerField(label=_("Maximum entries"), min_value=1, max_value=1000, initial=64)
    bot_level = forms.ChoiceField(label=_("Bot level of bot seats"),
                                  help_text=_("Bots fill the empty seats of a table short of players."))
    rated = forms.BooleanField(label=_("Rated"), required=False)
    bots_allowed = forms.BooleanField(label=_("Bot accounts may enter"), required=False)
    time_zone = forms.CharField(widget=forms.HiddenInput, required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["game"].choices = [(g, game_label(g)) for g in core.GAME_NAMES]
        # Every variant of every game; the page shows those of the chosen game (data-game).
        self.fields["variant"].choices = [(v, variant_label(v)) for v in self.variant_games()]
        self.fields["format"].choices = formats.choices()
        self.fields["time_control"].choices = [
            (f"{bank}+{INCREMENTS[bank]}", clock_label(bank, INCREMENTS[bank])) for bank, _label in TIME_CONTROLS]
        self.fields["time_control"].initial = "300+5"
        self.fields["bot_level"].choices = [(lv, capfirst(BOT_LEVEL_LABELS[lv])) for lv in BOT_LEVELS]
        self.fields["bot_level"].initial = "basic" if "basic" in BOT_LEVELS else BOT_LEVELS[0]

    @staticmethod
    def variant_games() -> dict[str, str]:
        """Variant → its game, for every game of the engine (a variant's name is its game's own)."""
        return {v: g for g in core.GAME_NAMES for v in core.get_rules(g).variants}

    @staticmethod
    def format_settings() -> dict[str, list[str]]:
        """Format → the fields of this form only it reads (the page hides the others)."""
        return {f.name: list(f.own_settings) for f in formats.FORMATS.values()}

    def tournament_fields(self) -> dict:
        """The cleaned values as the Tournament's fields (what the service creates)."""
        data = self.cleaned_data
        bank, inc = (int(x) for x in data["time_control"].split("+"))
        fields = {k: data[k] for k in ("name", "game", "variant", "format", "starts_at", "registration_opens_at",
                                       "min_entries", "max_entries", "bot_level", "rated", "bots_allowed")}
        fields.update(bank_seconds=bank, increment_seconds=inc)
        for key in ("rounds", "boards", "arena_minutes", "break_seconds"):   # the format's own, else the default
            if data.get(key) is not None:
                fields[key] = data[key]
        return fields

    def clean(self):
        data = super().clean()
        game, variant = data.get("game"), data.get("variant")
        if game and variant and self.variant_games().get(variant) != game:
            self.add_error("variant", _("Choose one of: %(variants)s.") % {
                "variants": ", ".join(variant_label(v) for v in core.get_rules(game).variants)})
            data.pop("variant", None)
        fmt = formats.FORMATS.get(data.get("format"))
        if fmt is not None:     # a setting the chosen format does not read is neither checked nor kept
            for key in ("rounds", "boards", "arena_minutes", "break_seconds"):
                if key not in fmt.own_settings:
                    self.errors.pop(key, None)
                    data.pop(key, None)
        starts = data.get("starts_at")
        if starts is not None and starts <= timezone.now() + timedelta(minutes=1):
            self.add_error("starts_at", _("The start must be at least a minute from now."))
        if "time_control" in data:
            bank, inc = (int(x) for x in data["time_control"].split("+"))
            data = {**data, "bank_seconds": bank, "increment_seconds": inc}
        for field, reason in checks.problems(data):
            if field in self.fields and field not in self.errors:
                self.add_error(field, reason)
            elif field not in self.fields:
                self.add_error(None, reason)
        return self.cleaned_data

    def errors_by_field(self) -> dict[str, list[str]]:
        return {field: [str(e) for e in errs] for field, errs in self.errors.items()}
