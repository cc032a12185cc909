"""Something to watch and something to join, always: per game, one public table of bots playing
(to watch) and one public table waiting for a player (one open seat, bots in the others, so the
one who sits down starts the match: games/services.sit).

Both belong to the house user (``bot-house``: a name registration refuses), which is how they are
told from players' tables. ``ensure()`` makes what is missing: a new match to watch once the last
one finished, a new open table once the last one got its player. It runs from ``demo_data`` and
from beat (``games.tasks.showcase``, every 30 s) when the ``SHOWCASE`` setting is on. Two runs at
once cannot make duplicates: each holds the house user's row under ``select_for_update`` (on
SQLite the embedded mode's IMMEDIATE transactions serialise them) while it looks and creates.
"""
from __future__ import annotations

from django.conf import settings
from django.db import transaction

from accounts.models import User

from . import services
from .engine import core
from .engine.core import GAME_NAMES
from .models import Table

HOUSE = "bot-house"
WATCH_BOT = "basic"     # cheap to run all day, and plays like someone who knows the game
JOIN_BOT = "basic"      # the level a newcomer meets at the open table
Status = Table.Status
LIVE = (Status.PLAYING, Status.BETWEEN_DEALS)


def house_user() -> User:
    user, created = User.objects.get_or_create(username=HOUSE, defaults={"first_name": "Card Room"})
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return user


def watch_tables(house: User, game: str | None = None):
    """The house's public tables where only bots play, being played."""
    qs = Table.objects.filter(owner=house, private=False, status__in=LIVE).exclude(seats__user__is_bot=False)
    return qs.filter(game=game) if game else qs


def join_tables(house: User, game: str | None = None):
    """The house's public tables waiting for a player."""
    qs = Table.objects.filter(owner=house, private=False, status=Status.WAITING)
    return qs.filter(game=game) if game else qs


def ensure(force: bool = False) -> list[int]:
    """Create, per game, the table to watch and the table to join that are missing; the ids of
    the new tables. Does nothing when the SHOWCASE setting is off (unless ``force``)."""
    if not (force or settings.SHOWCASE):
        return []
    house = house_user()
    made = []
    with transaction.atomic():
        User.objects.select_for_update().filter(pk=house.pk).first()    # one run at a time
        for game in GAME_NAMES:
            rules = core.get_rules(game)
            if not watch_tables(house, game).exists():
                made.append(services.create_table(house, game, _next_variant(house, game, True), start=True,
                                                  seats=[WATCH_BOT] * rules.seats).pk)
            if not join_tables(house, game).exists():
                made.append(services.create_table(house, game, _next_variant(house, game, False),
                                                  seats=[""] + [JOIN_BOT] * (rules.seats - 1)).pk)
    return made


def _next_variant(house: User, game: str, watch: bool) -> str:
    """The game's variants in turn, one new table to watch (or to join) after another."""
    variants = core.get_rules(game).variants
    made = Table.objects.filter(owner=house, game=game)
    bots_only = made.exclude(seats__user__is_bot=False).exclude(seats__user=None)
    n = bots_only.count() if watch else made.count() - bots_only.count()
    return variants[n % len(variants)]
