"""What the engine tells the player who may close the Sixty-six stock before he does: closing
cannot be undone, he must then reach 66 with the tricks left, and failing gives the opponent game
points (3 while the opponent has taken no trick, or always in Santase; else 2), as the failed
close is then scored. The table asks for a confirmation with these words."""
from tests.games.engine.test_sixtysix import act, example, play


def test_it_prices_a_close_for_the_player_on_lead_only():
    s = example("kurnik")
    assert s.notes(0)["close"] == {"points": 0, "target": 66, "fail_gives": 3}
    assert s.notes(1)["close"] is None and s.notes(None)["close"] is None
    play(s, 0, "9H")
    assert s.notes(1)["close"] is None            # the follower may not close


def test_a_close_after_the_opponent_took_a_trick_costs_two_and_the_price_is_what_a_failed_close_gives():
    s = example("kurnik")
    play(s, 0, "9H"); play(s, 1, "TH")            # seat 1 wins 10; seat 0 has no trick yet
    assert s.notes(1)["close"] == {"points": 10, "target": 66, "fail_gives": 3}
    play(s, 1, "QH"); play(s, 0, "AH")            # seat 0 takes a trick: his opponent has one too
    price = s.notes(0)["close"]
    assert price["fail_gives"] == 2
    act(s, 0, "close")
    assert s.notes(0)["close"] is None and s.notes(1)["close"] is None    # closed: nothing left to price


def test_in_santase_a_failed_close_always_costs_three():
    s = example("santase")
    play(s, 0, "9H"); play(s, 1, "TH")
    play(s, 1, "QH"); play(s, 0, "AH")
    assert s.notes(0)["close"]["fail_gives"] == 3
