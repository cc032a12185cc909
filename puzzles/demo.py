"""Demo puzzles for a fresh site (``manage.py demo_data``): matches of the basic bots played through
the engine alone (seeded: the same every time), stored as finished unrated tables, and their
puzzles taken as after any match. Each such table is a real finished match: its deals replay."""
from __future__ import annotations

import random

from accounts.models import bot_user
from games import bots, services as table_writers
from games.engine.core import GAME_NAMES, Match as EngineMatch, get_rules
from games.models import Match

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
    """A finished table of bots with these deals, stored by the writers as a match that ended."""
    return table_writers.store_finished_match(game, match, records, [bot_user(LEVEL)] * get_rules(game).seats)


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
