"""bench/oracle.py's side A draws the real hidden cards, and only for its own decisions."""
from __future__ import annotations

import random

import pytest

from games.bots.sampling import sample, sixtysix_draws, sixtysix_hands
from games.engine import cards as C

from .helpers import load_bench, new_deal, positions


@pytest.fixture
def oracle():
    return load_bench("oracle")


@pytest.mark.parametrize("game, variant", [("sixtysix", "kurnik"), ("hearts", "standard"),
                                           ("spades", "standard")])
def test_side_a_draws_the_real_hands_and_side_b_draws_as_ever(oracle, game, variant):
    true_sample = oracle._true_sample(sample)
    for state, seat in positions(game, variant, 12, seed=3):
        view = state.view(seat)
        oracle._playing.update(state=state, oracle=True, full=False)
        drawn = true_sample(view, random.Random(1))
        if game == "sixtysix":
            assert C.mask_of_codes(drawn["hand"]) == state.hands[1 - seat]
            assert len(drawn["stock"]) == view["stock_size"]
            assert C.mask_of_codes(drawn["stock"]) == C.mask_of_codes(
                C.CODES[c] for c in state.stock[state.stock_pos:])
        else:
            for other, hand in drawn["hands"].items():
                if int(other) != seat:
                    assert C.mask_of_codes(hand) == state.hands[int(other)]
        oracle._playing["oracle"] = False
        assert true_sample(view, random.Random(1)) == sample(view, random.Random(1))


def test_in_the_hearts_pass_side_a_draws_the_hands_as_dealt(oracle):
    state = new_deal("hearts", "standard", 0, random.Random(5))
    dealt = list(state.hands)
    assert state.view(0)["phase"] == "pass"
    state.apply_move(state.random_move(random.Random(1)), state.seats_to_act()[0])   # one seat passed
    seat = state.seats_to_act()[0]
    oracle._playing.update(state=state, oracle=True, full=False)
    drawn = oracle._true_sample(sample)(state.view(seat), random.Random(1))
    assert {int(s): C.mask_of_codes(h) for s, h in drawn["hands"].items()} == {
        s: dealt[s] for s in range(4) if s != seat}


def test_in_a_sixty_six_phase_2_side_a_solves_the_real_hand_alone(oracle):
    for state, seat in positions("sixtysix", "kurnik", 40, seed=8):
        view = state.view(seat)
        if view["phase"] != "play2":
            continue
        oracle._playing.update(state=state, oracle=True, full=False)
        assert oracle._true_hands(sixtysix_hands)(view, 12) == [state.hands[1 - seat]]
        oracle._playing["oracle"] = False
        assert oracle._true_hands(sixtysix_hands)(view, 12) == sixtysix_hands(view, 12)


@pytest.mark.parametrize("full", [False, True])
def test_the_tree_searchs_draws_are_the_truth_for_side_a_alone(oracle, full):
    true_draws = oracle._true_draws(sixtysix_draws)
    for state, seat in positions("sixtysix", "kurnik", 12, seed=3):
        view = state.view(seat)
        real_stock = tuple(state.stock[state.stock_pos:])
        oracle._playing.update(state=state, oracle=True, full=full)
        draw = true_draws(view, random.Random(1))
        for _ in range(3):
            hand, stock = draw()
            assert hand == state.hands[1 - seat]
            assert (stock == real_stock) if full else (C.mask_of(stock) == C.mask_of(real_stock))
        oracle._playing["oracle"] = False
        assert true_draws(view, random.Random(1))() == sixtysix_draws(view, random.Random(1))()


def test_with_trumps_side_a_learns_his_trumps_and_nothing_else(oracle):
    """--trumps: every draw holds exactly the opponent's real trumps; his other cards are drawn as
    ever (they differ from the truth in some draws), and a phase 2 enumerates only such hands."""
    true_draws = oracle._true_draws(sixtysix_draws)
    true_sample = oracle._true_sample(sample)
    other_cards_drawn = 0
    for state, seat in positions("sixtysix", "kurnik", 12, seed=3):
        view = state.view(seat)
        real = state.hands[1 - seat]
        oracle._playing.update(state=state, oracle=True, full=False, trumps=True)
        draw = true_draws(view, random.Random(1))
        for _ in range(3):
            hand, _stock = draw()
            assert hand & state.trump_mask == real & state.trump_mask
            other_cards_drawn += hand != real
        sampled = C.mask_of_codes(true_sample(view, random.Random(2))["hand"])
        assert sampled & state.trump_mask == real & state.trump_mask
        hands = oracle._true_hands(sixtysix_hands)(view, 12)
        if hands is not None:
            assert real in hands
            assert all(h & state.trump_mask == real & state.trump_mask for h in hands)
    assert other_cards_drawn > 0
