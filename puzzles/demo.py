"""Demo puzzles for a fresh site (``manage.py demo_data``): matches of the basic bots played through
the engine alone (seeded: the same every time), stored as finished unrated tables, and their
puzzles taken as after any match. Each such table is a real finished match: its deals replay."""
from __future__ import annotations

import random

from django.db import transaction
from django.utils import timezone

from accounts.models import bot_user
from games import bots
from games.engine.core import GAME_NAMES, Match as EngineMatch, get_rules
from games.models import Deal, Match, Seat, Table

from . import services
from .models import Puzzle

LEVEL = "basic"
MAX_MATCHES = 12        # per game, whatever was found


def play_match(game: str, seed: int) -> tuple[EngineMatch, list[dict]]:
    """A whole match of basic bots: the engine match at its end and its deal records."""
    rng = random.Random(f"demo/{game}/{seed}")
    name = f"bot:{LEVEL}"
    rules = get_rules(game)
    match = EngineMatch.start(game, players=[name] * rules.seats, first_dealer=rng.randrange(rules.seats))
    records = []
    while not match.is_over() and len(records) < 40:
        state = match.new_deal(rng)
        while not state.is_over():
            seat = state.to_act()
            if seat is None:
                seat = state.seats_to_act()[0]
            state.apply(bots.choose_action(LEVEL, state.view(seat), rng))
        records.append(state.record())
        match.finish_deal(state)
    return match, records


def store_match(game: str, match: EngineMatch, records: list[dict]) -> Match:
    """A finished table of bots with these deals, as the site stores a match that ended."""
    bot = bot_user(LEVEL)
    now = timezone.now()
    with transaction.atomic():
        table = Table.objects.create(game=game, variant=match.variant, owner=bot, status=Table.Status.FINISHED)
        for i in range(get_rules(game).seats):
            Seat.objects.create(table=table, index=i, user=bot, bank_ms=table.bank_seconds * 1000)
        stored = Match.objects.create(table=table, state=match.to_dict(), finished=True,
                                      winners=match.winners(), ranks=match.ranks(), ended_by="score",
                                      finished_at=now)
        for number, record in enumerate(records):
            Deal.objects.create(match=stored, number=number, record=record, result=record.get("result"),
                                finished=True)
    return stored


def ensure(per_game: int = 2) -> int:
    """At least ``per_game`` puzzles of each game (idempotent: a game that has them gets none)."""
    made = 0
    for game in GAME_NAMES:
        seed = 0
        while Puzzle.objects.filter(game=game).count() < per_game and seed < MAX_MATCHES:
            match, records = play_match(game, seed)
            made += services.extract_match(store_match(game, match, records).pk)
            seed += 1
    return made
