"""A bot's decision depends on its view only: changing the cards it cannot see changes nothing."""
from __future__ import annotations

import random

import pytest

from games.bots import basic, strong
from games.engine import cards as C

from .helpers import GAME_VARIANTS, positions


def reshuffle_hidden(state, seat, rng):
    """A copy of ``state`` whose cards unseen by ``seat`` are moved around (same counts)."""
    other = state.clone()
    known = state.known_cards(seat)
    if state.game == "sixtysix":
        opp = 1 - seat
        hand = [c for c in C.iter_cards(other.hands[opp]) if not known >> c & 1]
        stock = list(other.stock[other.stock_pos:])
        pool = hand + stock
        rng.shuffle(pool)
        other.hands[opp] = (other.hands[opp] & known) | C.mask_of(pool[:len(hand)])
        other.stock = tuple(other.stock[:other.stock_pos]) + tuple(pool[len(hand):])
        return other
    seats = [s for s in range(4) if s != seat]
    if state.game == "spades" and state.hand_hidden(seat):
        seats.append(seat)
    free = {s: [c for c in C.iter_cards(other.hands[s]) if not known >> c & 1] for s in seats}
    pool = [c for s in seats for c in free[s]]
    rng.shuffle(pool)
    for s in seats:
        other.hands[s] = other.hands[s] & ~C.mask_of(free[s]) | C.mask_of(pool[:len(free[s])])
        pool = pool[len(free[s]):]
    return other


@pytest.mark.parametrize("game,variant", GAME_VARIANTS)
def test_it_decides_the_same_when_hidden_cards_change(game, variant):
    rng = random.Random(7)
    changed = 0
    for state, seat in positions(game, variant, deals=10, seed=3):
        other = reshuffle_hidden(state, seat, rng)
        view = state.view(seat)
        assert other.view(seat) == view
        if other.hands != state.hands or getattr(other, "stock", 0) != getattr(state, "stock", 0):
            changed += 1
        for bot, kw in ((basic, {}), (strong, {"iterations": 3})):
            a = bot.choose_action(view, random.Random(5), **kw)
            b = bot.choose_action(other.view(seat), random.Random(5), **kw)
            assert a == b
    assert changed >= 5
