"""The "Play a person" panel of a game (home page, lobby) and the strings of static/js/pool.js."""
from django import template

from games.labels import bot_level_choices

from .. import catalogue, services

register = template.Library()


@register.inclusion_tag("pool/_panel.html", takes_context=True)
def pool_panel(context, game: str, heading: str = "h4"):
    """The pools of ``game`` with how many wait in each (from the page's render; pool.js keeps them live)."""
    counts = context.get("_pool_counts")
    if counts is None:
        counts = context["_pool_counts"] = services.counts()
    request = context["request"]
    user = request.user
    pools = [{"key": p.key, "label": p.label, "waiting": counts.get(p.key, 0)} for p in catalogue.pools_of(game)]
    return {
        "game": game, "heading": heading, "pools": pools, "total": sum(p["waiting"] for p in pools),
        "user": user, "levels": bot_level_choices(game), "next": request.get_full_path(),
        "may_join": user.is_authenticated and not user.is_guest and not user.is_bot,
    }


@register.inclusion_tag("pool/_i18n.html")
def pool_i18n():
    return {}
