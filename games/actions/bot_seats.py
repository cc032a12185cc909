"""Which house bot plays a seat, and whether it searches: what the writers ask of a bot seat."""
from __future__ import annotations

from django.conf import settings

from games import bots
from games.loading import Live
from games.models import Seat, Table


def bot_level(level: str) -> str:
    """A seat's bot level, or the random bot for a level no longer offered."""
    return level if level in bots.BOTS else "random"


def replacement_bot() -> str:
    """The level of the bot that takes a seat a player left."""
    return bot_level(settings.GAMES_REPLACEMENT_BOT)


def searches(seat: Seat) -> bool:
    """A bot seat whose level searches (thinks with no lock held, games/actions/bot_turns.py)."""
    return seat.is_bot and bots.levels.get(bot_level(seat.bot_level)).searches


def bot_to_search(live: Live) -> tuple[int, str] | None:
    """The seat and level of the bot to act next when it is one that searches, else None."""
    if live.table.status != Table.Status.PLAYING or live.state is None:
        return None
    for i in live.state.seats_to_act():
        seat = live.seats[i]
        if seat.is_bot:
            return (i, bot_level(seat.bot_level)) if searches(seat) else None
    return None
