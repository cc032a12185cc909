"""Which actions commute with what other seats did since (the platform then accepts them from an
earlier version of the table): only a hearts pass of a seat that still owes one."""
import random

from games.engine import core


def test_a_hearts_pass_commutes_only_while_its_seat_owes_one():
    state = core.deal("hearts", rng=random.Random(3))
    hand = state.view(0)["hand"]
    pass0 = {"seat": 0, "type": "pass", "cards": hand[:3]}
    assert state.commutes(pass0)
    state.apply(pass0)
    assert not state.commutes(pass0)
    assert state.commutes({"seat": 1, "type": "pass", "cards": state.view(1)["hand"][:3]})


def test_turn_based_actions_never_commute():
    for game in ("sixtysix", "spades", "hearts"):
        state = core.deal(game, rng=random.Random(4))
        while not state.is_over():
            seat = state.seats_to_act()[0]
            action = state.legal_actions(seat)[0]
            if action["type"] == "pass":        # the legal list names every passable card
                action = dict(action, cards=action["cards"][:3])
            else:
                assert not state.commutes(action), (game, action)
            state.apply(action)
