"""The common interface: registry, dealing, and whole matches through core.Match."""
import json
import random

import pytest

from games.engine import cards as C
from games.engine.core import GAME_NAMES, IllegalAction, Match, deal, get_rules

from .playouts import GAME_VARIANTS, play_out


def test_it_registers_every_game_with_its_variants_default_first():
    assert {g: get_rules(g).variants[0] for g in GAME_NAMES} == {
        "sixtysix": "kurnik", "hearts": "standard", "spades": "standard"}
    assert set(get_rules("sixtysix").variants) == {"kurnik", "schnapsen", "santase"}
    assert set(get_rules("hearts").variants) == {"standard", "jack_of_diamonds"}


def test_it_refuses_unknown_games_and_variants():
    with pytest.raises(ValueError):
        get_rules("bridge")
    with pytest.raises(ValueError):
        deal("hearts", "omnibus")


@pytest.mark.parametrize("game,variant", GAME_VARIANTS)
def test_it_deals_the_whole_deck_once_from_a_cryptographic_shuffle(game, variant):
    state = deal(game, variant)
    setup = state.setup
    dealt = [c for h in setup.hands for c in h] + (setup.stock or []) + ([setup.trump_card] if setup.trump_card else [])
    assert len(dealt) == len(set(dealt))
    assert C.mask_of_codes(dealt) == C.mask_of(get_rules(game).deck(variant))
    assert len({len(h) for h in setup.hands}) == 1
    # Two cryptographic shuffles agreeing on every hand would be a broken shuffle.
    assert deal(game, variant).setup.hands != setup.hands


@pytest.mark.parametrize("game,variant", GAME_VARIANTS)
def test_it_plays_a_whole_match_to_its_end_with_consistent_winners(game, variant):
    rng = random.Random(7)
    match = Match.start(game, variant, first_dealer=0)
    for _ in range(200):
        if match.is_over():
            break
        dealer_before, number_before = match.dealer, match.deal_number
        state = match.new_deal(rng)
        assert state.setup.dealer == dealer_before and state.setup.scores_before == match.scores
        match.finish_deal(play_out(state, rng))
        assert match.deal_number == number_before + 1
    assert match.is_over()
    ranks = match.ranks()
    assert len(ranks) == get_rules(game).seats and min(ranks) == 1
    assert match.winners() == [s for s, r in enumerate(ranks) if r == 1]
    assert len(match.results) == match.deal_number
    with pytest.raises(IllegalAction):
        match.new_deal(rng)


@pytest.mark.parametrize("game,variant", GAME_VARIANTS)
def test_it_round_trips_a_match_through_json(game, variant):
    rng = random.Random(8)
    match = Match.start(game, variant)
    match.finish_deal(play_out(match.new_deal(rng), rng))
    again = Match.from_dict(json.loads(json.dumps(match.to_dict())))
    assert again == match and again.new_deal(random.Random(1)).setup == match.new_deal(random.Random(1)).setup


def test_it_refuses_to_fold_an_unfinished_or_foreign_deal():
    rng = random.Random(9)
    match = Match.start("hearts")
    state = match.new_deal(rng)
    with pytest.raises(ValueError):
        match.finish_deal(state)
    play_out(state, rng)
    match.finish_deal(state)
    with pytest.raises(ValueError):
        match.finish_deal(state)  # the same deal twice: its number is no longer current


def test_it_picks_the_first_dealer_at_random_when_not_given():
    dealers = {Match.start("spades").dealer for _ in range(60)}
    assert dealers == {0, 1, 2, 3}
