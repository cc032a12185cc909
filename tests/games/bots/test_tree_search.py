"""The sixty-six tree search (games/bots/sixtysix_tree.py) and its draws (sampling.sixtysix_draws)."""
from __future__ import annotations

import random

import pytest

from games.bots import sampling, sixtysix_search, sixtysix_tree, strong
from games.engine import cards as C
from games.engine import sixtysix as SS

from .helpers import positions


def _phase_1(count, seed):
    return [(s, seat) for s, seat in positions("sixtysix", "kurnik", count, seed=seed)
            if s.stock_open and len(s.legal_moves(seat)) > 1]


def test_its_draws_are_the_samplers_and_keep_what_the_view_says():
    for state, seat in positions("sixtysix", "kurnik", 30, seed=4):
        view = state.view(seat)
        hand, stock = sampling.sixtysix_draws(view, random.Random(9))()
        assert sampling.sample(view, random.Random(9)) == {
            "hand": C.codes_of(hand), "stock": [C.CODES[c] for c in stock]}
        known = sampling.sixtysix_knowledge(view)
        draw = sampling.sixtysix_draws(view, random.Random(2))
        for _ in range(20):
            hand, stock = draw()
            assert hand & known["opp_fixed"] == known["opp_fixed"]
            assert not hand & known["opp_forbidden"]
            assert bin(hand).count("1") == view["hand_sizes"][1 - seat]
            assert len(stock) == view["stock_size"]
            assert hand | C.mask_of(stock) == known["pool"] | known["opp_fixed"]


def test_every_iteration_visits_the_root_once_and_a_move_counts_when_it_was_there():
    state, seat = _phase_1(40, seed=5)[3]
    root = sixtysix_tree.search(state.view(seat), 0, random.Random(1), sixtysix_search.rollout,
                            iterations=300)
    assert sum(child.visits for child in root.children.values()) == 300
    assert set(root.children) == set(sixtysix_tree.searched_moves(state, seat))

    def check(node):
        for child in node.children.values():
            assert 1 <= child.visits <= child.available
            assert sum(c.visits for c in child.children.values()) <= child.visits
            check(child)
    check(root)


def test_it_explores_wide_at_the_root_and_nearly_greedily_below_it(monkeypatch):
    state, seat = _phase_1(40, seed=5)[3]
    used = []
    ucb = sixtysix_tree._ucb
    monkeypatch.setattr(sixtysix_tree, "_ucb", lambda node, exploration: (
        used.append((node, exploration)) or ucb(node, exploration)))
    root = sixtysix_tree.search(state.view(seat), 0, random.Random(1), sixtysix_search.rollout,
                            iterations=300)
    at_root = {exploration for node, exploration in used if node in root.children.values()}
    below = {exploration for node, exploration in used if node not in root.children.values()}
    assert at_root == {sixtysix_tree.ROOT_EXPLORATION}
    assert below == {sixtysix_tree.EXPLORATION}
    assert sixtysix_tree.EXPLORATION < sixtysix_tree.ROOT_EXPLORATION


def test_it_answers_a_legal_action_and_the_same_one_for_the_same_draws():
    for state, seat in _phase_1(60, seed=6)[:6]:
        view = state.view(seat)
        action = sixtysix_tree.choose(view, 0, random.Random(3), sixtysix_search.rollout, iterations=60)
        assert action in view["legal"]
        assert action == sixtysix_tree.choose(view, 0, random.Random(3), sixtysix_search.rollout,
                                          iterations=60)


def test_it_searches_no_false_claim_and_only_a_true_one():
    for state, seat in _phase_1(60, seed=7):
        moves = sixtysix_tree.searched_moves(state, seat)
        if state.points(seat) < SS.TARGET:
            assert SS.DECLARE not in moves
            assert all(not SS.MARRIAGE_DECLARE <= m < SS.EXCHANGE
                       or state.points(seat) + state.marriage_points(m - SS.MARRIAGE_DECLARE)
                       >= SS.TARGET for m in moves)
    state, seat = next((s, seat) for s, seat in _phase_1(60, seed=7)
                       if SS.DECLARE in s.legal_moves(seat))
    state.card_points[seat] = SS.TARGET
    assert sixtysix_tree.searched_moves(state, seat) == [SS.DECLARE]


@pytest.mark.parametrize("level, tree", [("medium", False), ("strong", True), ("expert", True)])
def test_strong_and_expert_search_the_open_stock_by_the_tree_and_medium_by_draws(
        monkeypatch, level, tree):
    from games.bots import levels
    calls = []
    monkeypatch.setattr(sixtysix_tree, "choose", lambda view, seconds, rng, rollout: (
        calls.append(seconds) or view["legal"][0]))
    monkeypatch.setattr(strong, "search", lambda view, legal, *a: legal[0])
    state, seat = _phase_1(40, seed=9)[0]
    found = levels.get(level)
    strong.choose_action(state.view(seat), random.Random(1), found.budget_ms, cap_ms=found.cap_ms)
    assert calls == ([found.budget_ms * sixtysix_search.TREE_SHARE / 1000] if tree else [])
