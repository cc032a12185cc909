"""``{% load game_labels %}``: translated names for the identifiers tables and ratings store."""
from django import template

from games import labels

register = template.Library()


@register.filter
def game_label(game):
    """``{{ record.game|game_label }}``: "sixtysix" → "Sixty-six"."""
    return labels.game_label(game)


@register.filter
def variant_label(variant):
    """``{{ table.variant|variant_label }}``: "jack_of_diamonds" → "Jack of diamonds"."""
    return labels.variant_label(variant)
