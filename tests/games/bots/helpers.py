"""Random positions of every game and variant for the bot tests."""
from __future__ import annotations

import importlib.util
import random
from pathlib import Path

from games.engine.core import GAME_NAMES, State, deal, get_rules

GAME_VARIANTS = [(g, v) for g in GAME_NAMES for v in get_rules(g).variants]


def new_deal(game: str, variant: str, k: int, rng: random.Random) -> State:
    """Deal ``k`` of a series: dealers and hearts pass directions rotate; every other spades deal
    offers blind nil to one team (it trails by 300)."""
    kwargs = {}
    if game == "spades" and k % 2:
        kwargs["scores_before"] = [0, 300] if k % 4 == 1 else [250, -50]
    seats = get_rules(game).seats
    return deal(game, variant, rng=rng, dealer=k % seats, deal_number=k, **kwargs)


def positions(game: str, variant: str, deals: int, seed: int = 0):
    """(state, seat) at random points of random deals, seat to act (random play between them)."""
    rng = random.Random(seed)
    for k in range(deals):
        state = new_deal(game, variant, k, rng)
        stop = rng.randrange(0, 14 if game == "sixtysix" else 45)
        steps = 0
        while not state.is_over():
            seat = state.seats_to_act()[0]
            if steps >= stop:
                yield state, seat
                break
            state.apply_move(state.random_move(rng), seat)
            steps += 1


def is_legal(view: dict, action: dict) -> bool:
    if action.get("type") == "pass" and view["legal"][0]["type"] == "pass":
        cards = action["cards"]
        return len(set(cards)) == 3 and set(cards) <= set(view["legal"][0]["cards"])
    return action in view["legal"]


def load_bench(name: str):
    """A script of bench/ (not a package) loaded as a module, to test its parts."""
    path = Path(__file__).resolve().parents[3] / "bench" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"bench_{name}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
