"""Spades rules (docs/RULES.md): one or more tests per rule sentence, on explicit hands."""
from __future__ import annotations

import json
import random

import pytest

from games.engine import cards as C
from games.engine import core
from games.engine.core import DealSetup, IllegalAction, Match
from games.engine.spades import RULES, score_deal

RANKS = "23456789TJQKA"


# --- helpers ---------------------------------------------------------------------------------------
def suit(s: str, ranks: str = RANKS) -> list[str]:
    return [r + s for r in ranks]


def make(hands, dealer=0, scores=(0, 0), bags=(0, 0), deal_number=0):
    return core.new_state(DealSetup(
        game="spades", variant="standard", players=["ann", "bob", "cid", "dot"], dealer=dealer,
        deal_number=deal_number, scores_before=list(scores), hands=[list(h) for h in hands],
        bags_before=list(bags)))


def suit_hands(spade_seat: int) -> list[list[str]]:
    """Each seat holds one whole suit; ``spade_seat`` holds the spades and so takes every trick."""
    others = iter("CDH")
    return [suit("S") if s == spade_seat else suit(next(others)) for s in range(4)]


# Seat 0: low clubs and low spades; seat 1: high clubs and high spades; 2: diamonds; 3: hearts.
MIXED = [suit("C", "2345678") + suit("S", "234567"), suit("C", "9TJQKA") + suit("S", "89TJQKA"),
         suit("D"), suit("H")]


def act(state, seat, kind, **fields):
    state.apply({"seat": seat, "type": kind, **fields})


def play(state, seat, card):
    act(state, seat, "play", card=card)


def bid_all(state, bids: dict[int, int]) -> list[int]:
    """Bid for every seat asked, in the order asked; returns that order."""
    order = []
    while state.view(None)["phase"] == "bid":
        seat = state.to_act()
        order.append(seat)
        act(state, seat, "bid", tricks=bids[seat])
    return order


def play_out(state) -> None:
    """Play the rest of the deal, each seat playing its lowest legal card."""
    while not state.is_over():
        seat = state.to_act()
        act(state, seat, "play", card=C.CODES[state.legal_moves()[0]])


def finished(hands, bids, dealer=0, scores=(0, 0), bags=(0, 0), blind=None):
    state = make(hands, dealer=dealer, scores=scores, bags=bags)
    while state.view(None)["phase"] == "blind_nil":
        seat = state.to_act()
        act(state, seat, "blind_nil", accept=bool(blind and blind.get(seat)))
    bid_all(state, bids)
    play_out(state)
    return state


# --- dealing and the deck ------------------------------------------------------------------------
def test_it_uses_the_whole_52_card_deck():
    assert sorted(RULES.deck("standard")) == list(range(52))


def test_it_deals_13_cards_each_one_at_a_time_starting_left_of_the_dealer():
    deck = list(range(52))
    hands = RULES.deal_cards("standard", 2, deck)["hands"]
    assert [len(h) for h in hands] == [13] * 4
    assert C.CODES[deck[0]] in hands[3] and C.CODES[deck[1]] in hands[0]
    assert C.CODES[deck[3]] in hands[2]
    assert sorted(sum(hands, []), key=C.card) == list(C.CODES)


def test_it_refuses_a_setup_whose_hands_do_not_cover_the_deck():
    hands = suit_hands(3)
    hands[0] = hands[1][:]
    with pytest.raises(ValueError):
        make(hands)


def test_it_passes_the_deal_to_the_left():
    assert [RULES.next_dealer("standard", d, {}) for d in range(4)] == [1, 2, 3, 0]


def test_it_picks_a_random_first_dealer_in_a_match():
    dealers = {Match.start("spades").dealer for _ in range(200)}
    assert dealers == {0, 1, 2, 3}


# --- bidding -------------------------------------------------------------------------------------
def test_it_starts_the_bidding_with_the_dealer_and_goes_clockwise():
    state = make(suit_hands(3), dealer=2)
    assert state.view(None)["phase"] == "bid"
    assert bid_all(state, {0: 1, 1: 2, 2: 3, 3: 4}) == [2, 3, 0, 1]


def test_it_lets_a_player_bid_from_nil_to_thirteen():
    state = make(suit_hands(3))
    assert [a["tricks"] for a in state.legal_actions()] == list(range(14))
    with pytest.raises(IllegalAction, match="0 \\(nil\\) to 13"):
        act(state, 0, "bid", tricks=14)
    with pytest.raises(IllegalAction, match="0 \\(nil\\) to 13"):
        act(state, 0, "bid", tricks=-1)


def test_it_refuses_a_bid_out_of_turn():
    state = make(suit_hands(3), dealer=1)
    with pytest.raises(IllegalAction, match="not your turn"):
        act(state, 0, "bid", tricks=3)


def test_it_refuses_a_card_before_the_bidding_is_over():
    state = make(suit_hands(3))
    with pytest.raises(IllegalAction, match="bid"):
        play(state, 0, "2C")


def test_it_refuses_a_bid_once_the_bidding_is_over():
    state = make(suit_hands(3))
    bid_all(state, {0: 1, 1: 2, 2: 3, 3: 4})
    with pytest.raises(IllegalAction, match="bidding is over"):
        act(state, 0, "bid", tricks=3)


def test_it_shows_bids_publicly_and_contracts_once_the_bidding_is_over():
    state = make(suit_hands(3))
    act(state, 0, "bid", tricks=0)
    act(state, 1, "bid", tricks=4)
    view = state.view(None)
    assert view["bids"] == [0, 4, None, None] and view["contracts"] is None
    act(state, 2, "bid", tricks=3)
    act(state, 3, "bid", tricks=5)
    assert state.view(3)["contracts"] == [3, 9]


# --- blind nil -----------------------------------------------------------------------------------
def test_it_offers_no_blind_nil_to_a_team_trailing_by_199():
    state = make(suit_hands(3), scores=(0, 199))
    view = state.view(None)
    assert view["phase"] == "bid" and view["blind_nil_offered"] == []


def test_it_offers_blind_nil_to_both_players_of_a_team_trailing_by_exactly_200():
    state = make(suit_hands(3), dealer=1, scores=(100, 300))
    view = state.view(None)
    assert view["phase"] == "blind_nil"
    assert view["blind_nil_offered"] == [2, 0]          # bidding order from the dealer
    assert state.to_act() == 2


def test_it_never_offers_blind_nil_to_the_leading_team():
    state = make(suit_hands(3), dealer=0, scores=(-50, 400))
    assert state.view(None)["blind_nil_offered"] == [0, 2]
    state = make(suit_hands(3), dealer=0, scores=(400, -50))
    assert state.view(None)["blind_nil_offered"] == [1, 3]


def test_it_offers_blind_nil_before_any_bid():
    state = make(suit_hands(3), dealer=1, scores=(0, 200))
    assert state.to_act() == 2
    with pytest.raises(IllegalAction, match="blind nil"):
        act(state, 2, "bid", tricks=3)
    assert [a["accept"] for a in state.legal_actions()] == [True, False]


def test_it_hides_the_choosers_hand_until_he_declines():
    state = make(suit_hands(3), dealer=0, scores=(0, 200))
    for seat in (0, 2):
        view = state.view(seat)
        assert view["hand"] == [] and view["hand_sizes"] == [13] * 4
        assert state.known_cards(seat) & state.hands[seat] == 0
    assert state.view(1)["hand"] == suit("D")            # not offered: sees his cards
    act(state, 0, "blind_nil", accept=False)
    assert state.view(0)["hand"] == suit("C")
    assert state.view(2)["hand"] == []                   # partner has not chosen yet
    act(state, 2, "blind_nil", accept=False)
    assert state.view(2)["hand"] == suit("H")


def test_it_shows_the_hand_to_a_player_who_accepted_blind_nil_once_he_chose():
    state = make(suit_hands(3), dealer=0, scores=(0, 200))
    act(state, 0, "blind_nil", accept=True)
    assert state.view(0)["hand"] == suit("C")
    assert state.view(0)["blind_nil"] == [True, None, None, None]


def test_it_skips_a_blind_nil_bidder_in_the_bidding():
    state = make(suit_hands(3), dealer=0, scores=(0, 200))
    act(state, 0, "blind_nil", accept=True)
    act(state, 2, "blind_nil", accept=False)
    assert bid_all(state, {1: 3, 2: 4, 3: 5}) == [1, 2, 3]
    view = state.view(None)
    assert view["bids"] == [0, 3, 4, 5] and view["blind_nil"] == [True, None, False, None]
    assert view["contracts"] == [4, 8] and view["phase"] == "play"


def test_it_skips_both_partners_when_both_accept_blind_nil():
    state = make(suit_hands(3), dealer=3, scores=(0, 200))
    assert state.view(None)["blind_nil_offered"] == [0, 2]
    act(state, 0, "blind_nil", accept=True)
    act(state, 2, "blind_nil", accept=True)
    assert bid_all(state, {1: 3, 3: 5}) == [3, 1]
    assert state.to_act() == 3                            # the dealer still leads


def test_it_refuses_blind_nil_to_a_player_not_trailing_by_200():
    state = make(suit_hands(3), scores=(0, 150))
    with pytest.raises(IllegalAction, match="trails by 200"):
        act(state, 0, "blind_nil", accept=True)


def test_it_refuses_blind_nil_after_the_choice_has_passed():
    state = make(suit_hands(3), dealer=0, scores=(0, 200))
    act(state, 0, "blind_nil", accept=False)
    act(state, 2, "blind_nil", accept=False)
    with pytest.raises(IllegalAction, match="start of the deal"):
        act(state, 0, "blind_nil", accept=True)


# --- play ----------------------------------------------------------------------------------------
def test_it_lets_the_dealer_lead_the_first_trick():
    state = make(suit_hands(3), dealer=2)
    bid_all(state, {0: 1, 1: 2, 2: 3, 3: 4})
    assert state.to_act() == 2 and state.view(None)["leader"] == 2


def test_it_refuses_a_card_the_player_does_not_hold():
    state = make(MIXED, dealer=0)
    bid_all(state, {0: 1, 1: 2, 2: 3, 3: 4})
    with pytest.raises(IllegalAction, match="do not hold 2D"):
        play(state, 0, "2D")


def test_it_refuses_to_lead_spades_before_they_are_broken():
    state = make(MIXED, dealer=0)
    bid_all(state, {0: 1, 1: 2, 2: 3, 3: 4})
    assert all(a["card"][1] == "C" for a in state.legal_actions())
    with pytest.raises(IllegalAction, match="Spades are not broken"):
        play(state, 0, "2S")


def test_it_makes_players_follow_suit_and_gives_the_trick_to_the_highest_of_the_led_suit():
    state = make(MIXED, dealer=0)
    bid_all(state, {0: 1, 1: 2, 2: 3, 3: 4})
    play(state, 0, "2C")
    with pytest.raises(IllegalAction, match="follow suit \\(you hold a club\\)"):
        play(state, 1, "AS")
    play(state, 1, "9C")
    play(state, 2, "AD")                                  # void: any card
    play(state, 3, "AH")
    view = state.view(None)
    assert view["last_trick"]["winner"] == 1 and state.to_act() == 1
    assert view["spades_broken"] is False


def test_it_breaks_spades_when_a_spade_trumps_and_the_highest_spade_wins():
    state = make(MIXED, dealer=2)
    bid_all(state, {0: 1, 1: 2, 2: 3, 3: 4})
    play(state, 2, "AD")
    play(state, 3, "2H")
    play(state, 0, "2S")
    assert state.view(None)["spades_broken"] is True
    play(state, 1, "8S")
    assert state.view(None)["last_trick"] == {
        "cards": [{"seat": 2, "card": "AD"}, {"seat": 3, "card": "2H"},
                  {"seat": 0, "card": "2S"}, {"seat": 1, "card": "8S"}], "winner": 1}
    play(state, 1, "9S")                                  # broken: spades may be led


def test_it_lets_a_leader_holding_only_spades_lead_one_and_that_breaks_spades():
    state = make(suit_hands(0), dealer=0)
    bid_all(state, {0: 13, 1: 0, 2: 0, 3: 0})
    assert len(state.legal_moves()) == 13
    play(state, 0, "2S")
    assert state.view(None)["spades_broken"] is True


def test_it_gives_the_lead_to_the_winner_of_each_trick():
    state = make(suit_hands(3), dealer=0)
    bid_all(state, {0: 1, 1: 2, 2: 3, 3: 4})
    for card, seat in (("2C", 0), ("2D", 1), ("2H", 2), ("2S", 3)):
        play(state, seat, card)
    assert state.to_act() == 3


def test_it_ends_the_deal_after_13_tricks():
    state = finished(suit_hands(3), {0: 1, 1: 2, 2: 3, 3: 4})
    view = state.view(None)
    assert view["over"] and view["phase"] == "over" and len(view["tricks"]) == 13
    assert view["tricks_won"] == [0, 0, 0, 13] and view["team_tricks"] == [0, 13]
    with pytest.raises(IllegalAction, match="over"):
        play(state, 0, "2C")


# --- scoring (rules arithmetic) ------------------------------------------------------------------
NO_BLIND = [False] * 4


def test_it_scores_ten_per_contract_trick_when_a_contract_is_made_exactly():
    assert score_deal([3, 4, 3, 3], NO_BLIND, [3, 4, 3, 3], [0, 0]) == ([60, 70], [0, 0])


def test_it_scores_one_point_and_one_bag_per_overtrick():
    assert score_deal([2, 2, 2, 2], NO_BLIND, [4, 3, 3, 3], [0, 0]) == ([43, 42], [3, 2])


def test_it_takes_ten_per_contract_trick_off_a_failed_contract():
    assert score_deal([5, 4, 4, 4], NO_BLIND, [3, 4, 1, 5], [0, 0]) == ([-90, 81], [0, 1])


def test_it_costs_100_for_every_ten_bags_and_drops_the_count_by_ten():
    assert score_deal([2, 2, 2, 2], NO_BLIND, [4, 3, 3, 3], [8, 0]) == ([-57, 42], [1, 2])
    assert score_deal([2, 2, 2, 2], NO_BLIND, [4, 3, 3, 3], [7, 8]) == ([-57, -58], [0, 0])


def test_it_keeps_bags_of_a_previous_deal_without_penalty_below_ten():
    assert score_deal([2, 2, 2, 2], NO_BLIND, [4, 3, 3, 3], [6, 0]) == ([43, 42], [9, 2])


def test_it_gives_100_for_a_made_nil():
    assert score_deal([0, 3, 4, 3], NO_BLIND, [0, 4, 5, 4], [0, 0]) == ([141, 62], [1, 2])


def test_it_takes_100_for_a_failed_nil_and_counts_its_tricks_as_bags_when_partner_made_it():
    # Seat 2 makes 4 with 5; seat 0's 2 tricks are bags, not contract tricks.
    assert score_deal([0, 3, 4, 3], NO_BLIND, [2, 3, 5, 3], [0, 0]) == ([41 - 100 + 2, 60], [3, 0])


def test_it_counts_nil_tricks_as_bags_when_partner_fails_and_never_toward_the_contract():
    # Seat 2 needs 4, takes 3; seat 0's 3 tricks would cover it but do not count.
    assert score_deal([0, 3, 4, 3], NO_BLIND, [3, 4, 3, 3], [0, 0]) == ([-40 - 100 + 3, 61], [3, 1])


def test_it_gives_200_for_a_made_blind_nil_and_takes_200_for_a_failed_one():
    blind = [True, False, False, False]
    assert score_deal([0, 3, 4, 3], blind, [0, 4, 5, 4], [0, 0]) == ([241, 62], [1, 2])
    assert score_deal([0, 3, 4, 3], blind, [1, 4, 4, 4], [0, 0]) == ([40 - 200 + 1, 62], [1, 2])


def test_it_makes_a_contract_of_zero_when_both_partners_bid_nil():
    assert score_deal([0, 6, 0, 6], NO_BLIND, [0, 6, 0, 7], [0, 0]) == ([200, 121], [0, 1])
    assert score_deal([0, 6, 0, 6], NO_BLIND, [1, 6, 0, 6], [0, 0]) == ([1, 120], [1, 0])


def test_it_lets_nil_bags_trigger_the_ten_bag_penalty():
    assert score_deal([0, 1, 2, 1], NO_BLIND, [3, 4, 2, 4], [7, 0]) == ([20 - 100 + 3 - 100, 26],
                                                                           [0, 6])


# --- scoring through whole deals -------------------------------------------------------------------
def test_it_reports_the_result_of_a_played_deal_per_team():
    state = finished(suit_hands(3), {0: 0, 1: 3, 2: 4, 3: 5})
    assert state.result() == {"tricks": [0, 0, 0, 13], "team_points": [-40 + 100, 85],
                              "bags_after": [0, 5]}


def test_it_scores_a_failed_nil_and_its_bags_in_a_played_deal():
    state = finished(suit_hands(3), {0: 1, 1: 2, 2: 1, 3: 0}, bags=(0, 4))
    # Team 1: contract 2 (seat 1) fails -20; nil fails -100; 13 nil bags + 4 -> -100, 7 left.
    assert state.result() == {"tricks": [0, 0, 0, 13], "team_points": [-20, -20 - 100 + 13 - 100],
                              "bags_after": [0, 7]}


def test_it_scores_overtricks_rolling_bags_over_ten_in_a_played_deal():
    state = finished(suit_hands(2), {0: 4, 1: 1, 2: 6, 3: 1}, bags=(8, 0))
    # Team 0 bid 10, took 13: 100 + 3, and 8 + 3 bags cost 100, leaving 1.
    assert state.result() == {"tricks": [0, 0, 13, 0], "team_points": [3, -20],
                              "bags_after": [1, 0]}


def test_it_scores_a_made_blind_nil_in_a_played_deal():
    state = finished(suit_hands(3), {1: 3, 2: 2, 3: 5}, scores=(0, 200), blind={0: True})
    assert state.result()["team_points"] == [200 - 20, 85]


def test_it_scores_a_failed_blind_nil_in_a_played_deal():
    state = finished(suit_hands(0), {1: 3, 2: 2, 3: 5}, scores=(0, 200), blind={0: True})
    # Seat 0 took all 13: -200 + 13 bags; partner failed 2: -20; 13 bags cost 100, 3 left.
    assert state.result() == {"tricks": [13, 0, 0, 0],
                              "team_points": [-200 + 13 - 20 - 100, -80], "bags_after": [3, 0]}


def test_it_scores_double_nil_as_a_contract_of_zero_in_a_played_deal():
    state = finished(suit_hands(3), {0: 2, 1: 0, 2: 2, 3: 0})
    # Seat 1 nil made +100, seat 3 nil failed -100 + 13 bags; 13 bags cost 100, 3 left.
    assert state.result()["team_points"] == [-40, 100 - 100 + 13 - 100]
    assert state.result()["bags_after"] == [0, 3]


# --- match level ---------------------------------------------------------------------------------
def play_match_deal(match: Match, hands, bids, blind=None) -> core.State:
    state = core.new_state(match.setup_for(hands))
    while state.view(None)["phase"] == "blind_nil":
        act(state, state.to_act(), "blind_nil", accept=bool(blind and blind.get(state.to_act())))
    bid_all(state, bids)
    play_out(state)
    match.finish_deal(state)
    return state


def test_it_starts_a_match_with_team_scores_and_bags_at_zero():
    match = Match.start("spades", first_dealer=1)
    assert (match.scores, match.bags, match.dealer, match.deal_number) == ([0, 0], [0, 0], 1, 0)


def test_it_carries_team_scores_and_bags_across_deals_and_moves_the_dealer_left():
    match = Match.start("spades", first_dealer=3)
    first = play_match_deal(match, suit_hands(3), {0: 1, 1: 3, 2: 1, 3: 4})
    assert first.setup.dealer == 3
    assert (match.scores, match.bags, match.dealer) == ([-20, 76], [0, 6], 0)
    second = play_match_deal(match, suit_hands(1), {0: 1, 1: 3, 2: 1, 3: 4})
    assert second.setup.scores_before == [-20, 76] and second.setup.bags_before == [0, 6]
    # Team 1 takes 13 on a contract of 7 again: 76, minus 100 for 12 bags, 2 left.
    assert (match.scores, match.bags, match.dealer, match.deal_number) == ([-40, 52], [0, 2], 1, 2)


def test_it_offers_blind_nil_in_the_next_deal_of_a_match_once_a_team_trails_by_200():
    match = Match(game="spades", variant="standard", players=list("abcd"), dealer=0,
                  scores=[0, 200], bags=[0, 0])
    state = match.new_deal(random.Random(3))
    assert state.view(None)["blind_nil_offered"] == [0, 2]


def test_it_ends_the_match_when_a_team_reaches_500():
    match = Match(game="spades", variant="standard", players=list("abcd"), dealer=0,
                  scores=[400, 100], bags=[0, 0])
    play_match_deal(match, suit_hands(3), {0: 1, 1: 3, 2: 1, 3: 10})
    assert match.scores == [380, 230] and not match.is_over()
    play_match_deal(match, suit_hands(0), {0: 12, 1: 1, 2: 0, 3: 0})
    assert match.scores == [380 + 121 + 100, 230 - 10 + 100] and match.is_over()
    assert match.ranks() == [1, 2, 1, 2] and match.winners() == [0, 2] and not match.is_draw()


def test_it_ends_the_match_when_a_team_falls_to_minus_200():
    match = Match(game="spades", variant="standard", players=list("abcd"), dealer=0,
                  scores=[-150, 0], bags=[0, 0])
    play_match_deal(match, suit_hands(3), {0: 3, 1: 4, 2: 2, 3: 5})
    assert match.scores == [-200, 94] and match.is_over()
    assert match.winners() == [1, 3]


def test_it_draws_a_match_that_ends_with_equal_team_scores():
    match = Match(game="spades", variant="standard", players=list("abcd"), dealer=0,
                  scores=[460, 433], bags=[0, 0])
    play_match_deal(match, suit_hands(3), {0: 0, 1: 1, 2: 6, 3: 5})
    assert match.scores == [500, 500] and match.is_over()
    assert match.ranks() == [1, 1, 1, 1] and match.is_draw()


def test_it_does_not_end_the_match_at_499_or_minus_199():
    assert not RULES.match_over("standard", [499, -199])
    assert RULES.match_over("standard", [500, 0]) and RULES.match_over("standard", [0, -200])


def test_it_ranks_each_seat_by_its_teams_score():
    assert RULES.ranks("standard", [120, 510]) == [2, 1, 2, 1]
    assert RULES.ranks("standard", [-200, -250]) == [1, 2, 1, 2]


def test_it_adds_a_deal_result_to_team_scores_and_replaces_the_bags():
    result = {"tricks": [3, 3, 3, 4], "team_points": [60, -57], "bags_after": [0, 1]}
    assert RULES.add_result("standard", [10, 20], [0, 8], result) == ([70, -37], [0, 1])


def test_it_round_trips_a_match_through_a_dict():
    match = Match.start("spades", players=list("abcd"), first_dealer=2)
    play_match_deal(match, suit_hands(1), {0: 2, 1: 5, 2: 2, 3: 1})
    data = json.loads(json.dumps(match.to_dict()))
    again = Match.from_dict(data)
    assert again == match and again.bags == match.bags and again.dealer == 3


def test_it_deals_a_fresh_match_deal_with_the_current_dealer_scores_and_bags():
    match = Match(game="spades", variant="standard", players=list("abcd"), dealer=2,
                  scores=[40, -10], bags=[3, 4], deal_number=5)
    state = match.new_deal(random.Random(1))
    assert state.setup.dealer == 2 and state.setup.deal_number == 5
    assert state.setup.scores_before == [40, -10] and state.setup.bags_before == [3, 4]
    assert state.to_act() == 2


# --- views and records ---------------------------------------------------------------------------
def test_it_gives_every_view_the_common_and_spades_keys():
    state = make(MIXED, dealer=0)
    bid_all(state, {0: 1, 1: 2, 2: 3, 3: 4})
    play(state, 0, "2C")
    view = state.view(1)
    assert {"game", "variant", "phase", "seat", "to_act", "players", "dealer", "deal_number",
            "scores_before", "hand", "hand_sizes", "trick", "leader", "last_trick", "tricks_won",
            "legal", "over", "result", "bids", "blind_nil", "blind_nil_offered", "spades_broken",
            "team_tricks", "tricks", "bags_before", "contracts"} <= set(view)
    assert view["to_act"] == [1] and view["trick"] == [{"seat": 0, "card": "2C"}]
    assert view["hand_sizes"] == [12, 13, 13, 13] and view["leader"] == 0
    assert [a["card"] for a in view["legal"]] == suit("C", "9TJQKA")
    assert state.view(2)["legal"] == [] and state.view(None)["hand"] == []
    json.dumps(view)


def test_it_shows_hands_sorted_by_suit_then_rank():
    state = make([list(reversed(h)) for h in MIXED])
    assert state.view(0)["hand"] == MIXED[0]


def test_it_records_a_finished_deal_in_the_deal_record_format():
    state = finished(suit_hands(3), {1: 3, 2: 2, 3: 5}, dealer=1, scores=(0, 200),
                     blind={0: True}, bags=(2, 5))
    record = json.loads(json.dumps(state.record()))
    assert set(record) == {"format", "game", "variant", "players", "dealer", "deal_number",
                           "scores_before", "bags_before", "hands", "actions", "result"}
    assert record["format"] == "deal-record/1" and record["game"] == "spades"
    assert record["actions"][:5] == [
        {"seat": 2, "type": "blind_nil", "accept": False},
        {"seat": 0, "type": "blind_nil", "accept": True},
        {"seat": 1, "type": "bid", "tricks": 3}, {"seat": 2, "type": "bid", "tricks": 2},
        {"seat": 3, "type": "bid", "tricks": 5}]
    assert record["actions"][5] == {"seat": 1, "type": "play", "card": "2D"}
    assert len(record["actions"]) == 5 + 52
    assert record["result"] == state.result()


def test_it_replays_a_record_to_the_same_result():
    rng = random.Random(7)
    state = core.deal("spades", rng=rng, dealer=3, scores_before=[0, 300], bags_before=[4, 9])
    while not state.is_over():
        state.apply_move(state.random_move(rng))
    record = state.record()
    header = {k: record[k] for k in ("game", "variant", "players", "dealer", "deal_number",
                                     "scores_before", "hands", "bags_before")}
    again = core.new_state(DealSetup(**header))
    for action in record["actions"]:
        again.apply(action)
    assert again.result() == record["result"] and again.record() == record


# --- malformed actions ---------------------------------------------------------------------------
@pytest.mark.parametrize("action, reason", [
    ({"seat": 0}, "has no type"),
    ({"seat": 0, "type": "pass", "cards": []}, "Unknown action type"),
    ({"seat": 0, "type": 3}, "has no type"),
    ({"seat": 0, "type": "bid", "tricks": "3"}, "0 \\(nil\\) to 13"),
    ({"seat": 0, "type": "bid", "tricks": True}, "0 \\(nil\\) to 13"),
    ({"seat": 0, "type": "bid"}, "0 \\(nil\\) to 13"),
    ({"seat": 0, "type": "bid", "tricks": 3, "card": "2C"}, "no field card"),
    ({"seat": 0, "type": "play", "card": "1S"}, "card code"),
    ({"seat": 0, "type": "play", "card": 12}, "card code"),
    ({"seat": 0, "type": "play", "card": ["2C"]}, "card code"),
    ({"seat": 0, "type": "blind_nil", "accept": "yes"}, "true or false"),
    ({"seat": 0, "type": "blind_nil"}, "true or false"),
    ({"seat": 4, "type": "bid", "tricks": 3}, "no valid seat"),
    ({"seat": True, "type": "bid", "tricks": 3}, "no valid seat"),
    ({"type": "bid", "tricks": 3}, "no valid seat"),
    ("bid 3", "must be an object"),
])
def test_it_refuses_malformed_actions_with_a_reason(action, reason):
    state = make(suit_hands(3), dealer=0)
    with pytest.raises(IllegalAction, match=reason):
        state.apply(action)
    assert state.record()["actions"] == []


def test_it_leaves_the_state_unchanged_after_a_refused_action():
    state = make(MIXED, dealer=0)
    bid_all(state, {0: 1, 1: 2, 2: 3, 3: 4})
    before = (state.record(), [state.view(s) for s in (0, 1, 2, 3, None)], state.legal_moves())
    with pytest.raises(IllegalAction):
        play(state, 0, "3S")
    assert before == (state.record(), [state.view(s) for s in (0, 1, 2, 3, None)],
                      state.legal_moves())
