"""``{% load puzzles %}{% daily_puzzle %}``: the puzzle of the day on the home page (games/ knows
nothing of puzzles)."""
from django import template

from games.labels import game_label
from puzzles import services

register = template.Library()


@register.inclusion_tag("puzzles/_daily.html")
def daily_puzzle():
    p = services.daily()
    return {"daily": p, "label": game_label(p.game) if p else ""}
