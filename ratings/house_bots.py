"""House bots and ratings: a table with a house bot is never rated.

The site's own bots (``User.is_bot``: ``random`` up to ``expert``) play anyone, any number of
times, and the weakest loses almost every deal; rating those matches let a player farm points
(five wins against ``random`` were worth +255) and dragged the shared bot's rating down for
everyone. As on Lichess, a house bot's table is unrated: a rated table is refused with a house bot
in a seat (games/services.py, ``rated_house_bot``), a match that still has one is not rated, and a
house bot's strength is its measured ladder rating (games/bots/ladder.json), shown at its seat and
in the pickers, never a rating that moves. Bot accounts (people's programs on the bot API) are
players and are rated like people. docs/PROTOCOL.md "Ratings" and the ratings help page say so.
"""
from __future__ import annotations

from games.bots import levels


def has_house_bot(users) -> bool:
    """Whether any of these users is a house bot: such a match moves no rating."""
    return any(u is not None and u.is_bot for u in users)


def ladder_rating(game: str, level: str) -> int | None:
    """What a house bot's seat shows: its level's measured rating in ``game`` (a level merged into
    the one below shows that one's; None if never measured)."""
    return levels.rating(game, levels.offered(game, level))
