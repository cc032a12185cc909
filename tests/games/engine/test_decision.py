"""What a seat is asked to decide (``State.decision``): the kinds of its legal actions and what a
game adds, so that a client picks its prompt without naming the game or counting its points."""
import random

from games.engine import core
from tests.games.engine import test_sixtysix as sixtysix


def test_it_names_the_kinds_of_the_legal_actions_in_their_order():
    state = core.deal("spades", "standard", deal_number=0, rng=random.Random(3))
    seat = state.to_act()
    legal = state.legal_actions(seat)
    assert state.decision(seat, legal)["kinds"] == list(dict.fromkeys(a["type"] for a in legal))


def test_it_has_nothing_to_decide_without_a_legal_action():
    state = core.deal("spades", "standard", deal_number=0, rng=random.Random(3))
    waiting = next(s for s in range(4) if s != state.to_act())
    assert state.decision(waiting, []) is None


def test_it_tells_a_hearts_pass_how_many_cards_it_takes():
    state = core.deal("hearts", "standard", deal_number=0, rng=random.Random(1))
    found = state.decision(0, state.legal_actions(0))
    assert found == {"kinds": ["pass"], "count": 3}


def test_it_counts_each_sixty_six_marriage_in_the_engine():
    # Trump hearts (the AH turned): the hearts marriage is 40, the spades one 20.
    state = sixtysix.make(hands=[["KH", "QH", "KS", "QS", "9D", "TC"], ["JH", "TH", "9S", "JD", "QC", "JC"]],
                          trump="AH", dealer=1)
    found = state.decision(0, state.legal_actions(0))
    assert "play" in found["kinds"] and found["marriages"] == {"H": 40, "S": 20}


def test_it_names_the_loser_of_a_sixty_six_deal():
    state = sixtysix.make(dealer=1)
    state.apply({"seat": 0, "type": "declare"})       # a false claim: the opponent wins
    outcome = state.outcome()
    assert outcome["winner"] == 1 and outcome["loser"] == 0
