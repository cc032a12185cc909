"""``{% load botapi %}{% bot_profile person %}``: a bot account's part of a profile page (what it
is, the challenge form), or, on one's own profile, the link to the bot account page."""
from django import template

from games.engine.core import GAME_NAMES, get_rules
from games.forms import INCREMENTS, TIME_CONTROLS
from games.labels import game_label, variant_label

register = template.Library()


@register.inclusion_tag("botapi/_profile.html", takes_context=True)
def bot_profile(context, person):
    variants = []
    for game in GAME_NAMES:
        variants += [(v, f"{game_label(game)} · {variant_label(v)}") for v in get_rules(game).variants]
    return {
        "person": person, "user": context.get("user"),
        "csrf_token": context.get("csrf_token"),
        "challenge_games": [(g, game_label(g)) for g in GAME_NAMES],
        "challenge_variants": variants,
        "challenge_clocks": [(s, f"{label} ({s // 60} min + {INCREMENTS[s]} s)") for s, label in TIME_CONTROLS],
    }
