"""What the engine tells players about a deal's end (issue 14): Sixty-six's outcome (who ended the
deal, how, and what decided the game points), the check before a claim, and Spades' score
breakdown, whose parts add up to the deal's points."""
from hypothesis import given, settings, strategies as st

from games.engine import spades
from tests.games.engine.test_sixtysix import act, example, first_three_example_tricks, make, play


# --- Sixty-six ----------------------------------------------------------------------------------

def test_it_explains_the_worked_example_as_a_true_claim_that_leaves_the_loser_under_33():
    s = example("santase")
    first_three_example_tricks(s)
    act(s, 1, "exchange"); act(s, 1, "close")
    play(s, 1, "QC", marriage=True, declare=True)
    play(s, 0, "AC")
    out = s.notes(0)["outcome"]
    assert out == {"ended_by": "declare", "by": 1, "claim": True, "closed_by": 1, "winner": 1, "loser": 0,
                   "game_points": 2, "why": "under_33", "points": [28, 74], "tricks": [2, 2]}
    assert s.notes(None)["outcome"] == out      # everyone may know how the deal ended
    assert "outcome" not in s.view(0)            # the view's keys are the rules' contract


def test_it_explains_a_false_claim_and_what_it_gave_the_opponent():
    s = example("kurnik")
    play(s, 0, "9H"); play(s, 1, "TH")        # seat 1 takes a trick: 10 points
    act(s, 1, "declare")
    out = s.notes(None)["outcome"]
    assert out["by"] == 1 and out["claim"] is False and out["why"] == "false_claim"
    assert out["winner"] == 0 and out["game_points"] == 3    # seat 0 had taken no trick


def test_it_offers_the_claim_check_only_to_the_player_on_lead_who_may_claim():
    s = example("kurnik")
    check = s.notes(0)["claim"]
    assert check == {"points": 0, "enough": False, "with_marriage": {}, "target": 66, "false_gives": 3}
    assert s.notes(1)["claim"] is None and s.notes(None)["claim"] is None
    play(s, 0, "9H")
    assert s.notes(1)["claim"] is None            # the follower may not claim


def test_it_prices_a_false_claim_by_whether_the_opponent_has_taken_a_trick():
    s = example("kurnik")
    play(s, 0, "9H"); play(s, 1, "TH")           # seat 1 wins 10; seat 0 has no trick yet
    assert s.notes(1)["claim"]["points"] == 10
    assert s.notes(1)["claim"]["false_gives"] == 3
    play(s, 1, "QH", marriage=True); play(s, 0, "AH")    # seat 0 wins a trick
    assert s.notes(0)["claim"]["false_gives"] == 2          # seat 1 has one: a false claim gives 2


def test_it_counts_a_marriage_announced_with_the_claim_at_once():
    s = example("kurnik")
    first_three_example_tricks(s)
    act(s, 1, "exchange")
    check = s.notes(1)["claim"]
    assert check["points"] == 34 and check["with_marriage"] == {"C": 74}
    assert check["enough"] is False


def test_it_explains_a_played_out_deal_with_equal_points_as_a_tie():
    s = make("kurnik")
    s.over, s.ended_by, s.game_points = True, "played_out", [0, 0]
    assert s.outcome()["why"] == "tie" and s.outcome()["winner"] is None and s.outcome()["by"] is None


# --- Spades -------------------------------------------------------------------------------------

def test_it_breaks_a_made_contract_with_bags_and_a_penalty_into_parts():
    bids, blind, tricks = [4, 3, 3, 3], [False] * 4, [5, 3, 4, 1]
    teams = spades.score_breakdown(bids, blind, tricks, [8, 0])
    us = teams[0]
    assert us["contract"] == 7 and us["taken"] == 9 and us["made"] is True
    assert us["contract_points"] == 70 and us["overtricks"] == 2
    assert us["bags_before"] == 8 and us["bag_penalty"] == -100 and us["bags_after"] == 0
    assert us["points"] == 70 + 2 - 100
    them = teams[1]
    assert them["made"] is False and them["contract_points"] == -60 and them["points"] == -60


def test_it_breaks_out_nil_and_blind_nil_bonuses_and_penalties():
    bids, blind, tricks = [0, 4, 5, 0], [True, False, False, False], [0, 6, 5, 2]
    teams = spades.score_breakdown(bids, blind, tricks, [0, 0])
    assert teams[0]["nil"] == [{"seat": 0, "blind": True, "tricks": 0, "points": 200}]
    assert teams[0]["points"] == 50 + 200
    assert teams[1]["nil"] == [{"seat": 3, "blind": False, "tricks": 2, "points": -100}]
    assert teams[1]["nil_bags"] == 2 and teams[1]["overtricks"] == 2
    assert teams[1]["points"] == 40 + 2 - 100 + 2 and teams[1]["bags_after"] == 4


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 13), min_size=4, max_size=4),
       st.lists(st.booleans(), min_size=4, max_size=4),
       st.lists(st.integers(0, 13), min_size=4, max_size=4),
       st.lists(st.integers(0, 9), min_size=2, max_size=2))
def test_its_breakdown_parts_add_up_to_the_deal_score(bids, blind, tricks, bags_before):
    blind = [b and bid == 0 for b, bid in zip(blind, bids)]
    points, bags_after = spades.score_deal(bids, blind, tricks, bags_before)
    for team, part in enumerate(spades.score_breakdown(bids, blind, tricks, bags_before)):
        total = (part["contract_points"] + part["overtricks"] + sum(n["points"] for n in part["nil"])
                 + part["nil_bags"] + part["bag_penalty"])
        assert total == part["points"] == points[team]
        assert part["bags_after"] == bags_after[team] < 10


# --- Hearts -------------------------------------------------------------------------------------

def test_it_tells_a_hearts_player_who_passed_him_the_cards_he_received():
    from games.engine.core import DealSetup, new_state
    deck = [r + s for s in "CDHS" for r in "23456789TJQKA"]
    hands = [deck[i::4] for i in range(4)]
    state = new_state(DealSetup("hearts", "standard", ["a", "b", "c", "d"], 0, 0, [0] * 4, hands))
    assert state.view(0)["pass_direction"] == "left"
    passed = {}
    for seat in range(4):
        assert state.notes(seat)["received_from"] is None        # not before every pass is in
        passed[seat] = state.view(seat)["hand"][:3]
        state.apply({"seat": seat, "type": "pass", "cards": passed[seat]})
    for seat in range(4):
        giver = state.notes(seat)["received_from"]
        assert (giver + 1) % 4 == seat                            # passed to the left: from the right
        assert set(state.view(seat)["received"]) == set(passed[giver])
    assert state.notes(None)["received_from"] is None


def test_a_hearts_deal_explains_each_seats_points_part_by_part():
    from games.engine.core import get_rules, new_state
    from games.engine.core import DealSetup
    import random
    for variant in get_rules("hearts").variants:
        for seed in range(20):
            deck = [r + s for s in "CDHS" for r in "23456789TJQKA"]
            random.Random(seed).shuffle(deck)
            state = new_state(DealSetup("hearts", variant, ["a", "b", "c", "d"], 0, seed % 4, [0] * 4,
                                        [deck[i::4] for i in range(4)]))
            rng = random.Random(seed)
            while not state.is_over():
                assert state.notes(None)["breakdown"] is None
                state.apply_move(state.random_move(rng))
            parts = state.notes(None)["breakdown"]
            assert parts == state.notes(2)["breakdown"]          # public once the deal is over
            assert [p["points"] for p in parts] == state.result()["points"]
            assert sum(p["hearts"] for p in parts) == 13 and sum(p["queen"] for p in parts) == 1
            if variant == "standard":
                assert all(p["jack"] is None for p in parts)
            else:
                assert sum(p["jack"] for p in parts) == 1
            for p in parts:
                if p["moon"] is None and state.result()["moon"] is None:
                    expected = p["hearts"] + 13 * p["queen"] - 10 * bool(p["jack"])
                    assert p["points"] == expected
