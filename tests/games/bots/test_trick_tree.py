"""The hearts and spades tree search of bench/trick_tree.py (measured, not a level's)."""
from __future__ import annotations

import random

import pytest

from games.bots import levels, sampling, strong
from games.engine import cards as C

from .helpers import load_bench, new_deal, positions

trick_tree = load_bench("trick_tree")

GAMES = [("hearts", "standard"), ("spades", "standard")]


def _play_views(game="hearts", variant="standard", deals=20, seed=3):
    for state, seat in positions(game, variant, deals=deals, seed=seed):
        view = state.view(seat)
        if view["phase"] == "play" and len(view["legal"]) > 1:
            yield view


@pytest.mark.parametrize("game,variant", GAMES)
def test_it_answers_a_legal_action_and_the_same_one_for_the_same_draws(game, variant):
    views = list(_play_views(game, variant, deals=30))[:6]
    assert views
    for view in views:
        a = trick_tree.choose_tree(view, 1.0, random.Random(1), iterations=60)
        assert a in view["legal"]
        assert trick_tree.choose_tree(view, 1.0, random.Random(1), iterations=60) == a


@pytest.mark.parametrize("game,variant", GAMES)
def test_its_draws_keep_what_the_view_says(game, variant):
    for view in _play_views(game, variant, deals=40, seed=7):
        draw = trick_tree.hand_draws(view, random.Random(2))
        mine = C.mask_of_codes(view["hand"])
        voids = sampling._trick_voids(view, spades_game=game == "spades")
        passed = C.mask_of_codes(view.get("passed") or []) & ~sampling._played(view)
        receiver = (view["seat"] + {"left": 1, "right": 3, "across": 2}.get(
            view.get("pass_direction"), 0)) % 4
        for _ in range(5):
            hands = draw()
            assert sorted(hands) == [s for s in range(4) if s != view["seat"]]
            assert all(hands[s].bit_count() == view["hand_sizes"][s] for s in hands)
            everything = mine
            for s, hand in hands.items():
                assert not hand & mine and not hand & sampling._played(view)
                assert all(voids[s] >> C.SUIT_OF[c] & 1 for c in C.iter_cards(hand))
                everything |= hand
            assert everything.bit_count() == sum(view["hand_sizes"])
            if game == "hearts" and passed:
                assert hands[receiver] & passed == passed


def test_it_ducks_a_trick_of_hearts_it_need_not_take():
    # A seat following three hearts with a heart below them: ducking gives nothing away.
    found = 0
    for view in _play_views(deals=60, seed=11):
        trick = [C.INDEX[p["card"]] for p in view["trick"]]
        if len(trick) != 3 or any(c // 13 != 2 for c in trick):
            continue
        low = [a for a in view["legal"] if C.INDEX[a["card"]] // 13 == 2
               and C.INDEX[a["card"]] < min(trick)]
        if not low or len(low) == len(view["legal"]):
            continue
        a = trick_tree.choose_tree(view, 1.0, random.Random(4), iterations=300)
        assert C.INDEX[a["card"]] < max(trick)
        found += 1
    assert found


def _late_view(game, variant):
    """A view to play with three cards in hand (random play before it)."""
    rng = random.Random(5)
    state = new_deal(game, variant, 0, rng)
    while True:
        seat = state.seats_to_act()[0]
        view = state.view(seat)
        if view["phase"] == "play" and len(view["hand"]) == 3:
            return view
        state.apply_move(state.random_move(rng), seat)


@pytest.mark.parametrize("game,variant", GAMES)
def test_the_ab_side_plays_by_the_tree_before_the_last_tricks_and_as_its_level_otherwise(
        monkeypatch, game, variant):
    calls = []
    monkeypatch.setattr(trick_tree, "choose_tree", lambda view, seconds, rng: calls.append(seconds) or
                        view["legal"][0])
    choose = trick_tree._tree_level("expert", 0.5)
    early = next(v for v in _play_views(game, variant) if len(v["hand"]) > 3)
    late = _late_view(game, variant)
    assert choose(trick_tree.TREE, early, random.Random(1), None) == early["legal"][0]
    assert calls == [levels.get("expert").budget_ms * 0.5 / 1000.0]
    assert choose(trick_tree.TREE, late, random.Random(1), None) in late["legal"]
    assert choose("strong", early, random.Random(1), None) in early["legal"]
    assert len(calls) == 1
