from django import forms
from django.utils.translation import gettext_lazy as _

from accounts.models import BOT_LEVELS

from .labels import variant_label

SEAT_CHOICES = [("me", _("me")), ("", _("open seat"))] + [
    (level, _("bot: %(level)s") % {"level": level}) for level in BOT_LEVELS]
TIME_CONTROLS = [(60, "1+2"), (180, "3+3"), (300, "5+5"), (600, "10+5"), (1200, "20+10")]
INCREMENTS = {60: 2, 180: 3, 300: 5, 600: 5, 1200: 10}


class CreateTableForm(forms.Form):
    variant = forms.ChoiceField(label=_("Variant"))
    rated = forms.BooleanField(label=_("Rated"), required=False)
    private = forms.BooleanField(label=_("Private (invite link)"), required=False)
    bots_allowed = forms.BooleanField(label=_("Bots may join"), required=False)
    bank_seconds = forms.IntegerField(label=_("Time bank (seconds)"), min_value=10, max_value=3600, initial=300)
    increment_seconds = forms.IntegerField(label=_("Increment (seconds)"), min_value=0, max_value=120, initial=5)

    def __init__(self, *args, rules=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["variant"].choices = [(v, variant_label(v)) for v in rules.variants]
        self.fields["variant"].initial = rules.variants[0]
        for i in range(rules.seats):
            self.fields[f"seat_{i}"] = forms.ChoiceField(
                label=_("Seat %(n)s") % {"n": i + 1}, choices=SEAT_CHOICES, required=False,
                initial="me" if i == 0 else "")
        self.seat_count = rules.seats

    def seats(self) -> list[str]:
        return [self.cleaned_data.get(f"seat_{i}") or "" for i in range(self.seat_count)]
