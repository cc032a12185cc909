from django import forms
from django.utils.translation import gettext_lazy as _

from games.forms import TIME_CONTROLS, INCREMENTS
from games.models import GAME_CHOICES


class ChallengeForm(forms.Form):
    """A person's challenge to a bot account (on its profile). The variant is checked by the rules
    (botapi/services.py): empty means the game's first."""

    game = forms.ChoiceField(label=_("Game"), choices=GAME_CHOICES)
    variant = forms.CharField(label=_("Variant"), required=False, max_length=32)
    bank_seconds = forms.TypedChoiceField(label=_("Time per player"), coerce=int, initial=300,
                                          choices=[(s, label) for s, label in TIME_CONTROLS])
    increment_seconds = forms.IntegerField(required=False, min_value=0, max_value=120)
    rated = forms.BooleanField(label=_("Rated"), required=False)

    def clean(self):
        data = super().clean()
        if data.get("increment_seconds") is None and data.get("bank_seconds") is not None:
            data["increment_seconds"] = INCREMENTS.get(data["bank_seconds"], 5)
        return data
