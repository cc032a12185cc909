"""Claiming the remaining tricks (games/engine/claims.py): proved claims settle the deal as claimed,
unprovable ones are refused with a reason, and the proof's shortcuts agree with brute force."""
import random

import pytest

from games.engine import cards as C
from games.engine import claims
from games.engine.core import DealSetup, IllegalAction, deal, new_state

SUITS = "CDHS"


def _suit(suit: str) -> list[str]:
    return [r + suit for r in C.RANKS]


def _spades(hands, dealer=0):
    state = new_state(DealSetup("spades", "standard", ["a", "b", "c", "d"], dealer, 0, [0, 0], hands))
    for _ in range(4):                                  # everyone bids 3
        state.apply({"seat": state.to_act(), "type": "bid", "tricks": 3})
    return state


def _no_pass_hearts(hands):
    # Deal number 3 is the deal without passing: the play starts at once.
    return new_state(DealSetup("hearts", "standard", ["a", "b", "c", "d"], 0, 3, [0] * 4, hands))


def test_a_hand_of_every_spade_claims_every_trick_and_the_record_plays_it_out():
    hands = [_suit("S"), _suit("H"), _suit("D"), _suit("C")]
    state = _spades(hands)
    line = claims.claim_line(state, 0)
    assert len(line) == 52
    for seat, move in line:
        state.apply_move(move, seat)
    assert state.is_over() and state.result()["tricks"] == [13, 0, 0, 0]


def test_a_claim_the_others_can_beat_is_refused_with_its_reason():
    hands = [_suit("S"), _suit("H"), _suit("D"), _suit("C")]
    state = _spades(hands)
    with pytest.raises(IllegalAction) as refused:
        claims.claim_line(state, 1)                     # hearts only: seat 0's spades win
    assert refused.value.code == "claim_unproved"
    assert state.log and len(state.log) == 4            # untouched: only the bids


def test_a_partners_trick_breaks_the_claim_the_claim_is_the_claimers_alone():
    # Seat 0 holds the top spades but seat 2 (his partner) holds the ace of clubs: when seat 0
    # leads, could his partner take a trick? Seat 0 leads spades and follows them all: partner
    # has no spades, so the partner's clubs never win. Give the partner a spade instead.
    hands = [_suit("S")[:12] + ["AC"], _suit("H"), _suit("D"), _suit("C")[:12] + ["AS"]]
    state = _spades(hands, dealer=0)
    with pytest.raises(IllegalAction) as refused:
        claims.claim_line(state, 0)
    assert refused.value.code == "claim_unproved"


def test_no_claim_before_the_play_or_in_a_game_without_claims():
    hands = [_suit("S"), _suit("H"), _suit("D"), _suit("C")]
    bidding = new_state(DealSetup("spades", "standard", ["a", "b", "c", "d"], 0, 0, [0, 0], hands))
    with pytest.raises(IllegalAction) as refused:
        claims.claim_line(bidding, 0)
    assert refused.value.code == "claim_not_now"
    sixtysix = deal("sixtysix", rng=random.Random(1))
    with pytest.raises(IllegalAction) as refused:
        claims.claim_line(sixtysix, 0)
    assert refused.value.code == "no_claims"


def _brute(state, claimer) -> bool:
    """Every legal card of every seat tried: the claim's definition, without its shortcuts."""
    if not state.claimable():
        return True
    seat = state.to_act()
    results = []
    for move in state.legal_moves(seat):
        child = state.clone()
        child.apply_move(move)
        results.append((not child.trick_done() or child.leader == claimer) and _brute(child, claimer))
        if seat == claimer and results[-1]:
            return True
        if seat != claimer and not results[-1]:
            return False
    return seat != claimer


@pytest.mark.parametrize("seed", range(40))
@pytest.mark.parametrize("game", ["hearts", "spades"])
def test_the_proof_agrees_with_brute_force_over_the_last_three_tricks(game, seed):
    rng = random.Random(seed)
    state = deal(game, rng=rng)
    while not state.claimable() or 52 - sum(h.bit_count() for h in state.hands) < 40:
        state.apply_move(state.random_move(rng))
    for claimer in range(4):
        expected = _brute(state, claimer)
        try:
            claims.claim_line(state, claimer)
            proved = True
        except IllegalAction as refused:
            assert refused.code == "claim_unproved"
            proved = False
        assert proved == expected
