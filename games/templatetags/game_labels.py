"""``{% load game_labels %}``: translated names for the identifiers tables and ratings store."""
from django import template
from django.utils.html import format_html
from django.utils.translation import gettext, pgettext

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


@register.filter
def bot_badge(user):
    """``{{ user|bot_badge }}``: the "BOT" badge after a bot account's name (the bot API), else nothing."""
    if not getattr(user, "is_bot_account", False):
        return ""
    return format_html('<span class="badge bot-account" title="{}">{}</span>',
                       gettext("A bot account: its owner's program plays."),
                       pgettext("bot account badge", "BOT"))
