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


@register.filter
def user_label(user):
    """A user as pages name him: a bot as "Bot (strong)", anyone else by username."""
    if getattr(user, "is_bot", False):
        return labels.bot_label(user.bot_level)
    return getattr(user, "username", "")
