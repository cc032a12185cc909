"""Hearts rules (docs/RULES.md): one test per rule sentence, on explicit hands."""
import json
import random

import pytest

from games.engine import cards as C
from games.engine import core
from games.engine.core import DealSetup, IllegalAction, Match

RULES = core.get_rules("hearts")


def suit(s, ranks=C.RANKS):
    return " ".join(r + s for r in ranks)


def make(hands, deal_number=3, variant="standard", dealer=0, scores=None):
    """A deal from explicit hands; deal_number 3 (the fourth deal) has no pass."""
    return core.new_state(DealSetup(
        game="hearts", variant=variant, players=["ann", "bob", "cid", "dan"], dealer=dealer,
        deal_number=deal_number, scores_before=scores or [0, 0, 0, 0],
        hands=[h.split() for h in hands]))


def dealt(deal_number=0, seed=1, variant="standard"):
    return core.deal("hearts", variant, deal_number=deal_number, rng=random.Random(seed))


def play(state, *codes):
    for code in codes:
        state.apply({"seat": state.to_act(), "type": "play", "card": code})


def pass_(state, seat, codes):
    state.apply({"seat": seat, "type": "pass", "cards": codes.split() if isinstance(codes, str) else codes})


def refusal(state, action):
    with pytest.raises(IllegalAction) as err:
        state.apply(action)
    return err.value.reason


def finish(state, moon_choice="self"):
    """Play the deal out: first three cards passed, then always the first legal card."""
    while not state.is_over():
        seat = state.to_act()
        if state.view(seat)["phase"] == "pass":
            pass_(state, seat, state.view(seat)["hand"][:3])
        elif state.view(seat)["phase"] == "moon":
            state.apply({"seat": seat, "type": "moon", "choice": moon_choice})
        else:
            state.apply(state.legal_actions()[0])
    return state


# One suit per seat: seat 0 wins every trick with clubs and shoots the moon.
BY_SUIT = [suit("C"), suit("D"), suit("H"), suit("S")]
# Seat 2 holds only hearts and QS; seat 3 holds 2H and the other spades.
HEARTS_AND_QUEEN = [suit("C"), suit("D"), suit("H", "3456789TJQKA") + " QS",
                    "2H " + suit("S", "23456789TJKA")]
# Trick 1 goes to seat 3 (AC); seat 3 then holds hearts and spades with QS; seat 2 is nearly all hearts.
BREAKING = ["2C 5C 6C 7C 8C " + suit("D", "23456789"),
            "3C 9C TC JC QC KC " + suit("D", "TJQKA") + " 2S 3S",
            "4C " + suit("H", "23456789TJQ") + " 4S",
            "AC KH AH " + suit("S", "56789TJQKA")]
# Seat 3 wins trick 1 with AC and then holds only QS and hearts.
ONLY_HEARTS_AND_QUEEN = ["2C " + suit("D", "23456789TJQK"),
                         suit("C", "345678") + " AD " + suit("S", "234567"),
                         suit("C", "9TJQK") + " " + suit("S", "89TJKA") + " 2H 3H",
                         "AC QS " + suit("H", "456789TJQKA")]
# Seat 3 wins trick 1 with AC and then holds only hearts.
ONLY_HEARTS = ["2C " + suit("D", "23456789TJQK"),
               suit("C", "345678") + " AD " + suit("S", "234567"),
               suit("C", "9TJQK") + " " + suit("S", "89TJQKA") + " 2H",
               "AC " + suit("H", "3456789TJQKA")]
# Seat 0 shoots the moon while seat 2 takes JD on the first trick.
MOON_WITHOUT_JACK = [suit("S", "3456789TJQKA") + " AH",
                     suit("C", "23456789TJQK") + " 2H",
                     "AC 2S " + suit("H", "3456789TJQK"),
                     suit("D")]


# --- registry, dealing, dealer -------------------------------------------------------------------------
def test_it_registers_hearts_with_two_variants_standard_first_and_four_seats():
    assert RULES.name == "hearts"
    assert RULES.variants == ("standard", "jack_of_diamonds")
    assert RULES.seats == 4
    assert RULES.check_variant(None) == "standard"
    with pytest.raises(ValueError):
        RULES.check_variant("omnibus")


def test_it_uses_all_52_cards_and_deals_13_to_each_seat():
    assert sorted(RULES.deck("standard")) == list(range(52))
    hands = RULES.deal_cards("standard", 0, C.shuffled(range(52), random.Random(5)))["hands"]
    assert [len(h) for h in hands] == [13] * 4
    assert sorted(C.card(c) for h in hands for c in h) == list(range(52))


def test_it_deals_one_card_at_a_time_starting_left_of_the_dealer():
    hands = RULES.deal_cards("standard", 2, list(range(52)))["hands"]
    assert hands[3][:2] == [C.CODES[0], C.CODES[4]]     # seat 3 sits left of dealer 2
    assert hands[0][0] == C.CODES[1]
    assert hands[2][-1] == C.CODES[51]                  # the dealer gets the last card


def test_it_rotates_the_dealer_clockwise():
    assert [RULES.next_dealer("standard", d, {}) for d in range(4)] == [1, 2, 3, 0]


def test_it_refuses_hands_that_are_not_four_times_thirteen_distinct_cards():
    with pytest.raises(ValueError):
        make([suit("C"), suit("D"), suit("H"), suit("S", "23456789TJQK") + " AC"])


# --- passing ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("deal_number, direction, offset", [
    (0, "left", 1), (1, "right", 3), (2, "across", 2), (4, "left", 1), (5, "right", 3), (6, "across", 2)])
def test_it_passes_left_right_across_by_deal_number_and_repeats(deal_number, direction, offset):
    state = dealt(deal_number)
    assert state.view(0)["pass_direction"] == direction
    passed = {}
    for seat in range(4):
        passed[seat] = state.view(seat)["hand"][:3]
        pass_(state, seat, passed[seat])
    for seat in range(4):
        receiver = (seat + offset) % 4
        assert state.view(receiver)["received"] == passed[seat]
        assert set(passed[seat]) <= set(state.view(receiver)["hand"])
        assert not set(passed[seat]) & set(state.view(seat)["hand"])
    assert state.view(None)["hand_sizes"] == [13] * 4


@pytest.mark.parametrize("deal_number", [3, 7])
def test_it_does_not_pass_on_every_fourth_deal(deal_number):
    state = dealt(deal_number)
    view = state.view(0)
    assert view["pass_direction"] == "none" and view["phase"] == "play"
    holder = state.to_act()
    assert "2C" in state.view(holder)["hand"]
    reason = refusal(state, {"seat": holder, "type": "pass", "cards": state.view(holder)["hand"][:3]})
    assert "no passing" in reason


def test_it_lets_all_four_seats_pass_at_once_in_any_order():
    state = dealt(0)
    assert state.seats_to_act() == (0, 1, 2, 3) and state.to_act() == 0
    pass_(state, 2, state.view(2)["hand"][:3])
    assert state.seats_to_act() == (0, 1, 3) and state.to_act() == 0
    pass_(state, 0, state.view(0)["hand"][:3])
    assert state.seats_to_act() == (1, 3) and state.to_act() == 1
    assert state.view(None)["waiting_for_pass"] == [1, 3]
    assert state.view(3)["legal"] and state.view(2)["legal"] == []


def test_it_moves_passed_cards_only_once_all_four_have_passed():
    state = dealt(0)
    mine = state.view(0)["hand"][:3]
    pass_(state, 0, mine)
    for seat in (1, 2):
        pass_(state, seat, state.view(seat)["hand"][:3])
    receiver = state.view(1)
    assert not set(mine) & set(json.dumps(receiver).replace('"', " ").split())
    assert receiver["received"] == [] and receiver["hand_sizes"] == [10, 10, 10, 13]
    assert state.view(0)["passed"] == mine and len(state.view(0)["hand"]) == 10
    assert state.view(0)["phase"] == "pass"
    pass_(state, 3, state.view(3)["hand"][:3])
    assert state.view(1)["received"] == mine and set(mine) <= set(state.view(1)["hand"])
    assert state.view(0)["phase"] == "play"


def test_it_lists_the_pass_as_one_action_naming_every_card_in_hand():
    state = dealt(0)
    hand = state.view(1)["hand"]
    assert state.legal_actions(1) == [{"seat": 1, "type": "pass", "cards": hand}]
    assert state.legal_actions() == [{"seat": 0, "type": "pass", "cards": state.view(0)["hand"]}]
    assert len(state.legal_moves(1)) == 286


def test_it_accepts_any_three_distinct_cards_of_the_hand():
    state = dealt(0)
    hand = state.view(0)["hand"]
    pass_(state, 0, [hand[12], hand[0], hand[7]])
    assert state.view(0)["passed"] == [hand[0], hand[7], hand[12]]
    assert state.record()["actions"] == [{"seat": 0, "type": "pass", "cards": [hand[0], hand[7], hand[12]]}]


def test_it_refuses_a_bad_pass_with_a_reason_and_changes_nothing():
    state = dealt(0)
    hand, other = state.view(0)["hand"], state.view(1)["hand"]
    before = state.record()
    assert "three" in refusal(state, {"seat": 0, "type": "pass", "cards": hand[:2]})
    assert "three" in refusal(state, {"seat": 0, "type": "pass", "cards": hand[:4]})
    assert "different" in refusal(state, {"seat": 0, "type": "pass", "cards": [hand[0], hand[0], hand[1]]})
    assert f"do not hold {other[0]}" in refusal(state, {"seat": 0, "type": "pass",
                                                        "cards": [hand[0], hand[1], other[0]]})
    assert "not a card" in refusal(state, {"seat": 0, "type": "pass", "cards": [hand[0], hand[1], "1X"]})
    assert "three" in refusal(state, {"seat": 0, "type": "pass", "cards": "2C 3C 4C"})
    assert "before the play" in refusal(state, {"seat": 0, "type": "play", "card": hand[0]})
    assert state.record() == before
    pass_(state, 0, hand[:3])
    assert "already passed" in refusal(state, {"seat": 0, "type": "pass", "cards": hand[3:6]})


def test_it_refuses_a_pass_once_the_cards_have_been_passed():
    state = dealt(0)
    for seat in range(4):
        pass_(state, seat, state.view(seat)["hand"][:3])
    seat = state.to_act()
    assert "already been passed" in refusal(state, {"seat": seat, "type": "pass",
                                                    "cards": state.view(seat)["hand"][:3]})


def test_it_gives_the_first_lead_to_whoever_holds_2c_after_the_pass():
    state = make(BY_SUIT, deal_number=0)
    pass_(state, 0, "2C 3C 4C")      # seat 0 passes 2C to the left
    for seat in (1, 2, 3):
        pass_(state, seat, state.view(seat)["hand"][:3])
    assert state.to_act() == 1 and "2C" in state.view(1)["hand"]


# --- play -------------------------------------------------------------------------------------------------
def test_it_makes_the_holder_of_2c_lead_it_to_the_first_trick():
    state = make(BREAKING)
    assert state.to_act() == 0
    assert state.legal_actions() == [{"seat": 0, "type": "play", "card": "2C"}]
    assert "2C" in refusal(state, {"seat": 0, "type": "play", "card": "5C"})
    assert "not your turn" in refusal(state, {"seat": 1, "type": "play", "card": "3C"})
    play(state, "2C")
    assert state.view(None)["trick"] == [{"seat": 0, "card": "2C"}]


def test_it_makes_players_follow_suit():
    state = make(BREAKING)
    play(state, "2C")
    assert "follow suit (you hold a club)" in refusal(state, {"seat": 1, "type": "play", "card": "TD"})
    assert [a["card"] for a in state.legal_actions()] == ["3C", "9C", "TC", "JC", "QC", "KC"]


def test_it_forbids_hearts_and_qs_on_the_first_trick_while_the_hand_holds_something_else():
    hands = [suit("C"), suit("D", "3456789TJQKA") + " 2H",
             "2D " + suit("H", "3456789TJQKA"), "QS " + suit("S", "23456789TJKA")]
    state = make(hands)
    play(state, "2C")
    assert "may not play a heart on the first trick" in refusal(state, {"seat": 1, "type": "play", "card": "2H"})
    play(state, "AD")
    assert [a["card"] for a in state.legal_actions()] == ["2D"]
    assert "heart" in refusal(state, {"seat": 2, "type": "play", "card": "AH"})
    play(state, "2D")
    assert "QS" in refusal(state, {"seat": 3, "type": "play", "card": "QS"})
    assert "QS" not in [a["card"] for a in state.legal_actions()]
    play(state, "AS")
    assert state.view(None)["last_trick"]["winner"] == 0


def test_it_allows_hearts_on_the_first_trick_when_the_hand_holds_nothing_else():
    state = make(BY_SUIT)
    play(state, "2C", "AD")
    assert len(state.legal_actions()) == 13          # seat 2 holds only hearts
    play(state, "AH")
    assert state.view(None)["hearts_broken"]


def test_it_allows_qs_or_a_heart_on_the_first_trick_when_the_hand_holds_only_hearts_and_qs():
    state = make(HEARTS_AND_QUEEN)
    play(state, "2C", "2D")
    assert sorted(a["card"] for a in state.legal_actions()) == sorted(HEARTS_AND_QUEEN[2].split())
    play(state, "QS")
    assert "heart" in refusal(state, {"seat": 3, "type": "play", "card": "2H"})   # seat 3 has spades
    play(state, "2S")


def test_it_gives_the_trick_to_the_highest_card_of_the_led_suit_and_the_winner_leads():
    state = make(BY_SUIT)
    play(state, "2C", "AD", "AH", "AS")
    last = state.view(None)["last_trick"]
    assert last == {"cards": [{"seat": 0, "card": "2C"}, {"seat": 1, "card": "AD"},
                              {"seat": 2, "card": "AH"}, {"seat": 3, "card": "AS"}], "winner": 0}
    assert state.to_act() == 0 and state.view(None)["leader"] == 0
    state = make(BREAKING)
    play(state, "2C", "KC", "4C", "AC")
    assert state.view(None)["last_trick"]["winner"] == 3 and state.to_act() == 3
    assert state.view(None)["tricks_won"] == [0, 0, 0, 1]
    assert state.view(None)["tricks"] == [{"leader": 0, "winner": 3, "cards": [
        {"seat": 0, "card": "2C"}, {"seat": 1, "card": "KC"}, {"seat": 2, "card": "4C"},
        {"seat": 3, "card": "AC"}]}]


def test_it_forbids_leading_hearts_before_they_are_broken():
    state = make(BREAKING)
    play(state, "2C", "3C", "4C", "AC")
    assert "Hearts are not broken yet." == refusal(state, {"seat": 3, "type": "play", "card": "KH"})
    assert all(a["card"][1] == "S" for a in state.legal_actions())


def test_it_allows_leading_qs_before_hearts_are_broken_and_qs_breaks_them():
    state = make(BREAKING)
    play(state, "2C", "3C", "4C", "AC")
    assert {"seat": 3, "type": "play", "card": "QS"} in state.legal_actions()
    play(state, "QS")
    assert state.view(None)["hearts_broken"]
    play(state, "2D", "2S", "4S")
    assert state.view(None)["points_taken"] == [0, 0, 0, 13]
    play(state, "KH")


def test_it_breaks_hearts_when_qs_is_discarded():
    state = make(HEARTS_AND_QUEEN)
    play(state, "2C", "2D", "QS")
    assert state.view(None)["hearts_broken"]


def test_it_breaks_hearts_when_a_heart_is_discarded():
    state = make(BREAKING)
    play(state, "2C", "3C", "4C", "AC", "5S", "2D", "2S", "4S", "6S", "3D", "3S")
    assert not state.view(None)["hearts_broken"]
    play(state, "2H")
    assert state.view(None)["hearts_broken"]
    play(state, "KH")
    assert state.view(None)["trick"] == [{"seat": 3, "card": "KH"}]


def test_it_lets_a_leader_holding_only_hearts_lead_one_before_they_are_broken():
    state = make(ONLY_HEARTS)
    play(state, "2C", "3C", "9C", "AC")
    assert not state.view(None)["hearts_broken"]
    assert len(state.legal_actions()) == 12
    play(state, "3H")
    assert state.view(None)["hearts_broken"]


def test_it_lets_a_leader_holding_only_hearts_and_qs_lead_a_heart_before_they_are_broken():
    state = make(ONLY_HEARTS_AND_QUEEN)
    play(state, "2C", "3C", "9C", "AC")
    assert not state.view(None)["hearts_broken"]
    assert sorted(a["card"] for a in state.legal_actions()) == sorted(
        ("QS " + suit("H", "456789TJQKA")).split())
    play(state, "4H")


def test_it_refuses_cards_not_in_hand_and_malformed_actions_with_reasons():
    state = make(BREAKING)
    play(state, "2C")
    assert "do not hold AC" in refusal(state, {"seat": 1, "type": "play", "card": "AC"})
    assert "not a card" in refusal(state, {"seat": 1, "type": "play", "card": "1C"})
    assert "not a card" in refusal(state, {"seat": 1, "type": "play", "card": None})
    assert "not a card" in refusal(state, {"seat": 1, "type": "play", "card": ["3C"]})
    assert "no type" in refusal(state, {"seat": 1, "card": "3C"})
    assert "Unknown action type bid" in refusal(state, {"seat": 1, "type": "bid", "tricks": 3})
    assert "no valid seat" in refusal(state, {"seat": 4, "type": "play", "card": "3C"})
    assert "no valid seat" in refusal(state, {"seat": True, "type": "play", "card": "3C"})
    assert "object" in refusal(state, ["seat", 1])
    assert "moon" in refusal(state, {"seat": 1, "type": "moon", "choice": "self"})


# --- points and the moon -----------------------------------------------------------------------------------
def test_it_counts_each_heart_one_point_and_qs_thirteen():
    state = make(BREAKING)
    play(state, "2C", "3C", "4C", "AC", "QS", "2D", "2S", "4S", "KH", "3D", "3S", "2H")
    assert state.view(None)["points_taken"] == [0, 0, 0, 15]


def test_it_scores_a_played_out_deal_from_the_cards_taken():
    for seed in range(40):
        state = finish(dealt(seed % 4, seed))
        if state.result()["moon"] is None:
            break
    taken = [0, 0, 0, 0]
    for trick in state.view(None)["tricks"]:
        for played in trick["cards"]:
            taken[trick["winner"]] += 13 if played["card"] == "QS" else played["card"][1] == "H"
    assert state.result() == {"points": taken, "moon": None}
    assert sum(taken) == 26


def test_it_lets_the_moon_shooter_take_26_off_his_own_score():
    state = make(BY_SUIT)
    while state.view(None)["phase"] == "play":
        state.apply(state.legal_actions()[0])
    view = state.view(0)
    assert view["phase"] == "moon" and view["moon_shooter"] == 0 and view["to_act"] == [0]
    assert view["legal"] == [{"seat": 0, "type": "moon", "choice": "self"},
                             {"seat": 0, "type": "moon", "choice": "others"}]
    assert not state.is_over() and state.view(1)["legal"] == []
    assert "not your turn" in refusal(state, {"seat": 1, "type": "moon", "choice": "self"})
    assert "choose how to score" in refusal(state, {"seat": 0, "type": "play", "card": "AC"})
    assert '"self"' in refusal(state, {"seat": 0, "type": "moon", "choice": "both"})
    state.apply({"seat": 0, "type": "moon", "choice": "self"})
    assert state.is_over() and state.result() == {"points": [-26, 0, 0, 0], "moon": 0}


def test_it_lets_the_moon_shooter_put_26_onto_each_opponent():
    state = finish(make(BY_SUIT), moon_choice="others")
    assert state.result() == {"points": [0, 26, 26, 26], "moon": 0}
    assert state.record()["actions"][-1] == {"seat": 0, "type": "moon", "choice": "others"}


def test_it_has_no_moon_choice_when_nobody_took_everything():
    state = finish(dealt(2, seed=3))
    takers = {t["winner"] for t in state.view(None)["tricks"]
              if any(p["card"] == "QS" or p["card"][1] == "H" for p in t["cards"])}
    assert len(takers) > 1
    assert state.result()["moon"] is None and state.view(None)["moon_shooter"] is None
    assert all(a["type"] != "moon" for a in state.record()["actions"])


# --- jack of diamonds --------------------------------------------------------------------------------------
def test_it_scores_jd_minus_ten_to_its_taker_in_the_jack_variant_only():
    checked = 0
    for seed in range(30):
        plain = finish(dealt(seed % 4, seed)).result()
        if plain["moon"] is not None:
            continue
        state = finish(dealt(seed % 4, seed, variant="jack_of_diamonds"))   # the same play
        taker = next(t["winner"] for t in state.view(None)["tricks"]
                     if any(p["card"] == "JD" for p in t["cards"]))
        expected = [p - 10 * (s == taker) for s, p in enumerate(plain["points"])]
        assert state.result() == {"points": expected, "moon": None}
        assert state.view(None)["points_taken"] == expected
        checked += 1
    assert checked >= 10


def test_it_counts_jd_for_the_shooter_in_a_moon_deal():
    assert finish(make(BY_SUIT, variant="jack_of_diamonds"), "self").result()["points"] == [-36, 0, 0, 0]
    assert finish(make(BY_SUIT, variant="jack_of_diamonds"), "others").result()["points"] == [-10, 26, 26, 26]


def test_it_counts_jd_for_another_seat_in_a_moon_deal_without_affecting_the_moon():
    state = make(MOON_WITHOUT_JACK, variant="jack_of_diamonds")
    play(state, "2C", "AC", "JD", "3S")
    assert state.view(None)["last_trick"]["winner"] == 2
    finish(state, "self")
    assert state.result() == {"points": [-26, 0, -10, 0], "moon": 0}
    state = make(MOON_WITHOUT_JACK, variant="jack_of_diamonds")
    play(state, "2C", "AC", "JD", "3S")
    assert finish(state, "others").result() == {"points": [0, 26, 16, 26], "moon": 0}


# --- views -------------------------------------------------------------------------------------------------
COMMON_KEYS = {"game", "variant", "phase", "seat", "to_act", "players", "dealer", "deal_number",
               "scores_before", "hand", "hand_sizes", "trick", "leader", "last_trick", "tricks_won",
               "legal", "over", "result"}
HEARTS_KEYS = {"pass_direction", "passed", "received", "waiting_for_pass", "hearts_broken",
               "points_taken", "tricks", "moon_shooter"}


def test_it_gives_every_view_the_common_and_hearts_keys_as_json():
    state = dealt(0)
    for seat in (0, 1, 2, 3, None):
        view = state.view(seat)
        assert set(view) == COMMON_KEYS | HEARTS_KEYS
        assert json.loads(json.dumps(view)) == view
    view = state.view(2)
    assert view["game"] == "hearts" and view["seat"] == 2 and view["phase"] == "pass"
    assert view["to_act"] == [0, 1, 2, 3] and view["waiting_for_pass"] == [0, 1, 2, 3]
    assert view["hand"] == sorted(view["hand"], key=C.card) and len(view["hand"]) == 13
    assert state.view(None)["hand"] == [] and state.view(None)["legal"] == []
    assert view["leader"] is None and view["last_trick"] is None and view["result"] is None


def test_it_shows_the_result_in_the_view_once_over():
    state = finish(dealt(1, seed=9))
    view = state.view(None)
    assert view["over"] and view["phase"] == "over" and view["result"] == state.result()
    assert len(view["tricks"]) == 13 and view["tricks"][0]["cards"][0]["card"] == "2C"
    assert sum(view["tricks_won"]) == 13 and view["to_act"] == []


# --- records ------------------------------------------------------------------------------------------------
def test_it_records_a_finished_deal_in_the_deal_record_shape():
    state = finish(dealt(0, seed=4))
    record = state.record()
    assert list(record) == ["format", "game", "variant", "players", "dealer", "deal_number",
                            "scores_before", "hands", "actions", "result"]
    assert record["format"] == "deal-record/1" and record["game"] == "hearts"
    assert all(len(h) == 13 for h in record["hands"])
    assert [a["type"] for a in record["actions"][:4]] == ["pass"] * 4
    assert all(set(a) == {"seat", "type", "card"} for a in record["actions"][4:56])
    assert set(record["result"]) == {"points", "moon"}
    assert json.loads(json.dumps(record)) == record


def test_it_replays_a_record_to_the_same_result():
    for seed in range(6):
        record = finish(dealt(seed, seed=seed, variant=RULES.variants[seed % 2]), "others").record()
        head = {k: record[k] for k in ("game", "variant", "players", "dealer", "deal_number",
                                       "scores_before", "hands")}
        again = core.new_state(DealSetup(**head))
        for action in record["actions"]:
            again.apply(action)
        assert again.record() == record


# --- the match ------------------------------------------------------------------------------------------------
def test_it_starts_a_match_at_zero_and_carries_scores_dealer_and_deal_number():
    match = Match.start("hearts", players=["a", "b", "c", "d"], first_dealer=3)
    assert match.scores == [0, 0, 0, 0] and match.variant == "standard" and match.bags is None
    rng = random.Random(2)
    expected = [0, 0, 0, 0]
    for number in range(5):
        state = match.new_deal(rng)
        assert state.setup.deal_number == number and state.setup.scores_before == expected
        assert state.setup.dealer == (3 + number) % 4
        assert state.view(None)["pass_direction"] == ["left", "right", "across", "none"][number % 4]
        finish(state)
        match.finish_deal(state)
        expected = [e + p for e, p in zip(expected, state.result()["points"])]
        assert match.scores == expected
    again = Match.from_dict(json.loads(json.dumps(match.to_dict())))
    assert again == match


def test_it_builds_a_match_deal_from_explicit_hands():
    match = Match(game="hearts", variant="jack_of_diamonds", players=list("abcd"), dealer=0,
                  scores=[5, 0, 0, 0], deal_number=3)
    state = core.new_state(match.setup_for(hands=[h.split() for h in BY_SUIT]))
    finish(state, "others")
    match.finish_deal(state)
    assert match.scores == [-5, 26, 26, 26] and match.dealer == 1 and match.deal_number == 4
    with pytest.raises(ValueError):
        match.finish_deal(state)


def test_it_ends_the_match_after_the_deal_in_which_someone_reaches_100():
    assert not RULES.match_over("standard", [99, 50, 0, -26])
    assert RULES.match_over("standard", [100, 50, 0, -26])
    assert RULES.match_over("standard", [3, 126, 0, 0])
    match = Match.start("hearts", first_dealer=0)
    rng = random.Random(11)
    while not match.is_over():
        assert max(match.scores) < 100
        state = finish(match.new_deal(rng))
        match.finish_deal(state)
    assert max(match.scores) >= 100
    with pytest.raises(IllegalAction):
        match.new_deal(rng)


def test_it_ranks_the_lowest_score_first_and_ties_share():
    assert RULES.ranks("standard", [100, 40, 70, 55]) == [4, 1, 3, 2]
    assert RULES.ranks("standard", [30, 30, 104, 60]) == [1, 1, 4, 3]
    match = Match(game="hearts", variant="standard", players=list("abcd"), dealer=0,
                  scores=[30, 104, 30, 60], deal_number=7)
    assert match.is_over() and match.winners() == [0, 2] and not match.is_draw()
    match.scores = [100, 100, 100, 100]
    assert match.winners() == [0, 1, 2, 3] and match.is_draw()
