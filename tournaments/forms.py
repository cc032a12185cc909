from django import forms
from django.utils.translation import gettext_lazy as _

from . import checks, formats
from .models import Tournament


class TournamentForm(forms.ModelForm):
    """The admin's form, for repairs (staff create tournaments at /tournaments/new/): the checks a
    tournament needs before it can run by itself are tournaments/checks.py's."""

    format = forms.ChoiceField(label=_("format"), choices=formats.choices, initial=formats.NAMES[0])

    class Meta:
        model = Tournament
        fields = ["name", "game", "variant", "format", "rounds", "starts_at", "registration_opens_at",
                  "bank_seconds", "increment_seconds", "min_entries", "max_entries", "rated",
                  "break_seconds", "bot_level", "arena_minutes", "boards", "bots_allowed"]

    def clean(self):
        data = super().clean()
        for field, reason in checks.problems(data):
            self.add_error(field, reason)
        return data
