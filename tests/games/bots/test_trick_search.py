"""The strong bot's Hearts and Spades: nil attack, bags, the bid search, the exact late tricks."""
from __future__ import annotations

import random

import pytest

from games.bots import basic, hearts_search, spades_search, strong, trick_solver
from games.engine import hearts as H
from games.engine import spades as SP
from games.engine.core import DealSetup, deal, new_state

from .helpers import is_legal


def scripted(game, dealer, deal_number, hands, bids=(), plays=(), scores=(0, 0), bags=(0, 0)):
    """A state after ``bids`` (spades, in bidding order) and ``plays`` (seat, card) applied."""
    extra = {"bags_before": list(bags)} if game == "spades" else {}
    state = new_state(DealSetup(game, "standard", ["a", "b", "c", "d"], dealer, deal_number,
                                list(scores) if game == "spades" else [0] * 4, hands, **extra))
    for seat, tricks in bids:
        state.apply({"seat": seat, "type": "bid", "tricks": tricks})
    for seat, card in plays:
        state.apply({"seat": seat, "type": "play", "card": card})
    return state


# --- Spades ---------------------------------------------------------------------------------------

NIL_HANDS = [["AH", "4H", "AS", "KS", "QS", "AC", "KC", "AD", "KD", "5C", "6C", "5D", "6D"],
             ["2H", "5H", "6H", "7H", "JS", "TS", "9S", "QC", "JC", "TC", "QD", "JD", "TD"],
             ["3H", "8H", "9H", "TH", "JH", "QH", "8S", "7S", "9C", "8C", "9D", "8D", "7D"],
             ["KH", "2C", "3C", "4C", "7C", "2D", "3D", "4D", "2S", "3S", "4S", "5S", "6S"]]


def test_it_ducks_under_an_opponents_nil():
    # Seat 3 bid nil and had to play KH on the low heart led; seat 0 (last) holds AH and 4H.
    state = scripted("spades", 1, 0, NIL_HANDS, bids=[(1, 4), (2, 4), (3, 0), (0, 4)],
                     plays=[(1, "2H"), (2, "3H"), (3, "KH")])
    view = state.view(0)
    assert strong.choose_action(view, random.Random(0), iterations=40)["card"] == "4H"


def test_its_rollouts_attack_a_nil_where_they_used_to_let_it_through():
    state = scripted("spades", 1, 0, NIL_HANDS, bids=[(1, 4), (2, 4), (3, 0), (0, 4)],
                     plays=[(1, "2H"), (2, "3H"), (3, "KH")])
    assert spades_search.policy_move(state, 0) == SP.C.INDEX["4H"]


def test_it_leads_low_against_a_nil():
    state = scripted("spades", 0, 0, NIL_HANDS, bids=[(0, 4), (1, 4), (2, 4), (3, 0)])
    # Its lowest card outside spades (the nil bidder holds KH alone: he must win it).
    assert SP.C.CODES[spades_search.policy_move(state, 0)] == "4H"


BAG_HANDS = [["AC", "5C", "AD", "5D", "6D", "KH", "5H", "4H", "2S", "3S", "8S", "7S", "6S"],
             ["2C", "KC", "QC", "JC", "2D", "KD", "QD", "2H", "AH", "QH", "AS", "KS", "QS"],
             ["3C", "6C", "8C", "3D", "7D", "8D", "3H", "6H", "7H", "4S", "5S", "TS", "9S"],
             ["4C", "7C", "TC", "9C", "4D", "TD", "9D", "JD", "9H", "JH", "TH", "8H", "JS"]]


def test_it_takes_no_overtrick_when_the_tenth_bag_would_cost_100():
    # Team 0 bid 1 + 1 and has its two tricks; it holds 9 bags. Seat 0, last on a heart won by
    # 9H, may overtake with KH (a tenth bag: -100) or duck.
    state = scripted("spades", 0, 0, BAG_HANDS, bids=[(0, 1), (1, 2), (2, 1), (3, 2)], bags=(9, 0),
                     plays=[(0, "AC"), (1, "2C"), (2, "3C"), (3, "4C"), (0, "AD"), (1, "2D"),
                            (2, "3D"), (3, "4D"), (0, "5C"), (1, "KC"), (2, "6C"), (3, "7C"),
                            (1, "2H"), (2, "3H"), (3, "9H")])
    view = state.view(0)
    assert view["contracts"] == [2, 4] and view["tricks_won"] == [2, 1, 0, 0]
    assert strong.choose_action(view, random.Random(0), iterations=40)["card"] in ("4H", "5H")


def test_a_bag_costs_more_when_it_is_the_tenth():
    cheap = trick_solver.spades_value([3, 2, 3, 2], [False] * 4, [4, 2, 3, 2], [2, 0], 0)
    tenth = trick_solver.spades_value([3, 2, 3, 2], [False] * 4, [4, 2, 3, 2], [9, 0], 0)
    made = trick_solver.spades_value([3, 2, 3, 2], [False] * 4, [3, 2, 3, 2], [9, 0], 0)
    assert made == 60 and cheap == 61 - trick_solver.BAG_LIABILITY
    assert made - tenth == 100 - 9 * trick_solver.BAG_LIABILITY - 1 > made - cheap


def test_it_bids_among_the_candidates_and_offers_nil_only_to_a_weak_hand():
    state = scripted("spades", 1, 0, NIL_HANDS)
    weak = state.view(1)      # JS TS 9S, QC JC TC...: few winners
    strong_hand = scripted("spades", 0, 0, NIL_HANDS).view(0)
    assert all(a["tricks"] != 0 for a in spades_search.bid_candidates(strong_hand, strong_hand["legal"]))
    action = strong.choose_action(weak, random.Random(0), iterations=8)
    assert action in spades_search.bid_candidates(weak, weak["legal"])


# --- Hearts ---------------------------------------------------------------------------------------

def test_it_passes_an_unguarded_queen_of_spades():
    hands = [["QS", "3S", "2C", "5C", "9C", "KC", "4D", "8D", "TD", "3H", "6H", "9H", "JH"],
             ["2S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "KS", "AS", "2H", "4H"],
             ["AC", "QC", "JC", "TC", "8C", "7C", "6C", "4C", "3C", "5H", "7H", "8H", "TH"],
             ["2D", "3D", "5D", "6D", "7D", "9D", "JD", "QD", "KD", "AD", "QH", "KH", "AH"]]
    view = scripted("hearts", 0, 0, hands).view(0)
    action = strong.choose_action(view, random.Random(0), iterations=30)     # basic's pass
    assert is_legal(view, action) and action == basic.choose_action(view, random.Random(0))
    assert "QS" in action["cards"]


MOON_TRICKS = [  # seat 1 takes every heart; at trick 12 seat 0 (void in diamonds) holds QS and 3C
    (0, "2C"), (1, "AC"), (2, "4C"), (3, "5C"), (1, "KC"), (2, "6C"), (3, "7C"), (0, "8C"),
    (1, "QC"), (2, "9C"), (3, "TC"), (0, "JC"), (1, "KD"), (2, "5D"), (3, "6D"), (0, "2H"),
    (1, "AH"), (2, "3H"), (3, "4H"), (0, "5H"), (1, "KH"), (2, "6H"), (3, "7H"), (0, "8H"),
    (1, "QH"), (2, "9H"), (3, "TH"), (0, "JH"), (1, "QD"), (2, "7D"), (3, "8D"), (0, "3S"),
    (1, "JD"), (2, "9D"), (3, "TD"), (0, "4S"), (1, "AS"), (2, "5S"), (3, "6S"), (0, "7S"),
    (1, "JS"), (2, "8S"), (3, "9S"), (0, "TS")]
MOON_END = {0: ["QS", "3C"], 1: ["AD", "2S"], 2: ["2D", "KS"], 3: ["3D", "4D"]}


def moon_ending():
    hands = [[c for s, c in MOON_TRICKS if s == seat] + MOON_END[seat] for seat in range(4)]
    return scripted("hearts", 0, 3, hands, plays=MOON_TRICKS + [(1, "AD"), (2, "2D"), (3, "3D")])


def test_the_late_solver_keeps_the_queen_off_a_moon_shooter():
    # Dumping QS on seat 1's trick gives him the moon (+26 to each other seat); keeping it, seat
    # 0 loses it to KS when seat 1 holds 2S, and gives nothing away otherwise.
    view = moon_ending().view(0)
    assert strong.choose_action(view, random.Random(0), iterations=12)["card"] == "3C"


def test_the_late_solver_values_the_moon_for_the_others():
    state = moon_ending()
    dump = state.clone()
    dump.apply_move(H.QUEEN_OF_SPADES, 0)
    keep = state.clone()
    keep.apply_move(SP.C.INDEX["3C"], 0)
    assert trick_solver.solve_hearts(dump, 0) == pytest.approx(-26 / 3)
    assert trick_solver.solve_hearts(keep, 0) == pytest.approx(26 / 3)


def _minimax(state, me, game):
    """Plain minimax through the engine (clone / legal_moves / apply_move): the reference."""
    if game == "spades":
        if state.is_over():
            return trick_solver.spades_eval(state, me)
        maxing = (state.turn & 1) == (me & 1)
    else:
        if state.phase != H.PLAY:
            won = [w & H.MOON_CARDS for w in state.won]
            return trick_solver.hearts_value(trick_solver.hearts_points(won, False), me)
        maxing = state.turn == me
    values = []
    for move in state.legal_moves():
        child = state.clone()
        child.apply_move(move)
        values.append(_minimax(child, me, game))
    return max(values) if maxing else min(values)


@pytest.mark.parametrize("game", ["hearts", "spades"])
def test_the_late_solver_agrees_with_plain_minimax_on_three_trick_endings(game):
    rng = random.Random(4)
    checked = 0
    for k in range(12):
        state = deal(game, "standard", rng=rng, dealer=k % 4, deal_number=3)
        while not state.is_over():
            if state.to_act() is not None and trick_solver.cards_left(state) <= 3 and (
                    (game == "spades" and state.phase == SP.PLAY) or (game == "hearts" and state.phase == H.PLAY)):
                break
            if game == "spades" and state.phase == SP.BID:
                state.apply_move(SP.BID_BASE + rng.choice([0, 2, 3, 4]))
            else:
                state.apply_move(state.random_move(rng))
        me = k % 4
        solve = trick_solver.solve_spades if game == "spades" else trick_solver.solve_hearts
        assert solve(state, me) == pytest.approx(_minimax(state, me, game))
        checked += 1
    assert checked == 12
