"""``{% load game_labels %}``: translated names for the identifiers tables and ratings store."""
import re
import zlib
from datetime import timezone as dt_timezone

from django import template
from django.utils.html import format_html
from django.utils.translation import gettext, pgettext

from games import card_letters, labels
from games.card_letters import SUIT_SYMBOLS, rank_label

register = template.Library()


@register.filter
def game_label(game):
    """``{{ record.game|game_label }}``: "sixtysix" → "Sixty-six"."""
    return labels.game_label(game)


@register.simple_tag
def site_games():
    """``{% site_games as nav_games %}``: every game (``name``, translated ``label``), in the
    engine's order: the site's menu lists what the engine plays."""
    return labels.site_games()


@register.simple_tag
def game_goals():
    """``{% game_goals as goals %}``: each game's name and translated goal (``{n}``: its target)."""
    from games.engine.core import GAME_NAMES

    return [{"name": game, "goal": labels.game_goal(game)} for game in GAME_NAMES]


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


INITIAL_TONES = 8


@register.filter
def initials(person, bot=False):
    """``{{ user|initials }}`` or ``{{ name|initials:is_bot }}``: a person's picture on the pages, his
    initials on a colour of his own (the same on every page). For the eye only: his name is always
    written beside it, so it is hidden from screen readers."""
    is_bot = bool(bot) or getattr(person, "is_bot", False)
    name = getattr(person, "username", None) or str(person or "")
    if getattr(person, "is_bot", False):
        name = labels.bot_label(person.bot_level)
    letters = _initials_of(name)
    tone = "bot" if is_bot else f"tone-{zlib.crc32(name.lower().encode()) % INITIAL_TONES}"
    return format_html('<span class="initials {}" aria-hidden="true">{}</span>', tone, letters.upper() or "?")


def _initials_of(name: str) -> str:
    """The table client's rule (static/js/table/render/seats.js ``initials``): "Ala Kot" AK, "Bot 2" B2,
    "guest-f1a2b3" GU (a code with digits is no initial; a number of one or two digits is)."""
    words = [w for w in re.split(r"[^\w]+|_", name) if w]
    if not words:
        return name.strip()[:1]
    second = words[1] if len(words) > 1 else ""
    usable = (second.isdigit() and len(second) <= 2) or (second and not any(c.isdigit() for c in second))
    return words[0][:1] + second[:1] if usable else words[0][:2]


@register.filter
def card(code):
    """``{{ "TH"|card }}``: a face-up card drawn as the table draws it (static/js/lib/cards.js face),
    its letter the reader's (games/card_letters.py)."""
    rank, suit = rank_label(code), code[1]
    colour = "red" if suit in "HD" else "black"
    return format_html('<span class="card {} suit-{}" role="img" aria-label="{}{}"><span class="corner" aria-hidden="true">'
                       '<span class="rank">{}</span><span class="suit">{}</span></span>'
                       '<span class="pip" aria-hidden="true">{}</span></span>',
                       colour, suit, rank, SUIT_SYMBOLS[suit], rank, SUIT_SYMBOLS[suit], SUIT_SYMBOLS[suit])


@register.filter
def local_time(when):
    """``{{ t.starts_at|local_time }}``: the time in UTC, which static/js/local_times.js shows in
    the reader's own time zone."""
    if not when:
        return ""
    when = when.astimezone(dt_timezone.utc)
    return format_html('<time datetime="{}" data-local="date">{} UTC</time>',
                       when.isoformat(), when.strftime("%Y-%m-%d %H:%M"))


@register.simple_tag
def rank_letters():
    """The reader's letters of jack, queen, king and ace ("B D K A"): base.html's meta for the
    cards' scripts (static/js/lib/cards.js, analysis.js)."""
    return " ".join(card_letters.rank_letters().values())
