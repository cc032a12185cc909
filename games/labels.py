"""What the pages call a game and a variant, in the reader's language. The engine names variants by
identifier (``GameRules.variants``) and imports no Django, so the translated labels live here."""
from django.utils.translation import gettext_lazy as _

from .models import GAME_CHOICES

GAME_LABELS = dict(GAME_CHOICES)

VARIANT_LABELS = {
    "kurnik": _("Kurnik"),
    "schnapsen": _("Schnapsen"),
    "santase": _("Santase"),
    "standard": _("Standard"),
    "jack_of_diamonds": _("Jack of diamonds"),
}


def game_label(game: str | None) -> str:
    """The translated name of ``game``; an unknown one is shown as it is."""
    return str(GAME_LABELS.get(game, game)) if game else ""


def variant_label(variant: str | None) -> str:
    """The translated label of ``variant``; an unknown one is shown as it is."""
    return str(VARIANT_LABELS.get(variant, variant)) if variant else ""
