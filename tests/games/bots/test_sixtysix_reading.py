"""Reading the sixty-six opponent's hand from his play (bench/sixtysix_reading.py)."""
from __future__ import annotations

import math
import random

import pytest

from games.engine import cards as C
from games.engine import sixtysix as SS

from .helpers import load_bench, new_deal

R = load_bench("sixtysix_reading")


def _played_out(variant: str, seed: int):
    """A deal played at random until the stock is gone or closed, each seat's hand at each of its
    plays and the card it drew after each trick kept: (state, hands_at[(trick, seat)],
    drawn[(trick, seat)])."""
    rng = random.Random(seed)
    state = new_deal("sixtysix", variant, seed, rng)
    hands_at, drawn = {}, {}
    while not state.is_over() and state.stock_open:
        seat = state.seats_to_act()[0]
        move = state.random_move(rng)
        before = list(state.hands)
        trick_index = len(state.history()["tricks"])
        if move < SS.EXCHANGE:
            hands_at[(trick_index, seat)] = state.hands[seat]
        state.apply_move(move, seat)
        if len(state.history()["tricks"]) > trick_index:      # the trick ended: both drew
            for s in range(2):
                gained = state.hands[s] & ~before[s]
                if gained:
                    drawn[(trick_index, s)] = gained.bit_length() - 1
    return state, hands_at, drawn


@pytest.mark.parametrize("variant", ["kurnik", "schnapsen", "santase"])
def test_the_walk_back_with_his_real_draws_gives_his_real_hands(variant):
    checked = 0
    for seed in range(150):
        state, hands_at, drawn = _played_out(variant, seed)
        if state.is_over():
            continue
        seat = state.seats_to_act()[0]
        opp = 1 - seat
        view = state.view(seat)
        past = R.history(view)
        walked = list(R.walk(state.hands[opp], past, lambda step, choices: drawn[(step["trick"], opp)]))
        assert [step["trick"] for step, _ in walked] == sorted(
            (k for (k, s) in hands_at if s == opp), reverse=True)
        for step, then in walked:
            assert then == hands_at[(step["trick"], opp)]
            checked += 1
    assert checked > 150


def test_his_real_draw_is_always_among_the_cards_the_walk_may_pick():
    for seed in range(60):
        state, hands_at, drawn = _played_out("kurnik", seed)
        if state.is_over():
            continue
        seat = state.seats_to_act()[0]
        opp = 1 - seat
        past = R.history(state.view(seat))

        def pick(step, choices):
            assert drawn[(step["trick"], opp)] in choices
            return drawn[(step["trick"], opp)]
        assert all(then >= 0 for _, then in R.walk(state.hands[opp], past, pick))


def test_the_fast_scores_are_the_weighted_features():
    rng = random.Random(5)
    deck = [13 * suit + rank for suit in range(4) for rank in range(7, 13)]
    for _ in range(500):
        cards = rng.sample(deck, 12)
        hand, played = C.mask_of(cards[:6]), C.mask_of(cards[6:11])
        lead = rng.choice([-1, cards[11]])
        trump = rng.randrange(4)
        if lead >= 0:
            played |= 1 << lead
        fast = R._scores(hand, lead, trump, played)
        for card in C.iter_cards(hand):
            assert fast[card] == pytest.approx(R.score(hand, card, lead, trump, played))


def test_a_hand_under_which_his_plays_were_likely_weighs_more():
    # He led the lowest diamond with a heart marriage in hand: likelier than with no marriage to
    # lead, by the model's own terms; and a plain king led while holding its queen is near ruled out.
    past = {"steps": [{"trick": 0, "card": C.INDEX["9D"], "lead": -1, "played": 0,
                       "plain_marriage_lead": False, "draw": False, "forced_draw": -1,
                       "exchange": False}],
            "trump": C.SUITS.index("C"), "known_from": [], "turned": 0, "lowest_trump": 0}
    rng = random.Random(1)
    kept_marriage = R.log_weight(C.mask_of_codes(["QH", "KH", "AS", "TS", "JD"]), past, rng)
    no_marriage = R.log_weight(C.mask_of_codes(["9H", "JH", "AS", "TS", "JD"]), past, rng)
    assert kept_marriage < no_marriage
    plain_king = dict(past, steps=[dict(past["steps"][0], card=C.INDEX["KH"],
                                        plain_marriage_lead=True)])
    with_queen = R.log_weight(C.mask_of_codes(["QH", "AS", "TS", "JD", "9D"]), plain_king, rng)
    without = R.log_weight(C.mask_of_codes(["JH", "AS", "TS", "JD", "9D"]), plain_king, rng)
    assert with_queen < without + math.log(0.1)


def test_the_measurement_runs_end_to_end_on_a_few_deals():
    records = [row for pair in range(4) for row in R._log_deal(("basic", pair))]
    assert records and all(r["view"]["phase"] == "play1" for r in records)
    rows = [R.decision_of(r["view"], r["card"]) for r in records]
    w = R.fit(rows, epochs=5)
    assert len(w) == len(R.FEATURES)
    found = R.predictions(w, rows)
    assert found["decisions"] == len(rows) and found["log_likelihood"] >= found["uniform"] - 1
    seen = R.overlap(records, draws=8)
    assert seen["decisions"] > 0 and 0 < seen["effective_share"] <= 1
