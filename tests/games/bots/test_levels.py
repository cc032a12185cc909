"""The ladder of bot levels (games/bots/levels.py) and its measured ratings (games/bots/ladder.py)."""
from __future__ import annotations

import math
import random

import pytest

from games import bots
from games.bots import ladder, levels
from games.engine.core import deal


def test_it_offers_at_least_five_levels_weakest_first():
    assert levels.NAMES[:2] == ("random", "basic")
    assert len(levels.NAMES) >= 5
    searching = [lv.budget_ms for lv in levels.LEVELS if lv.budget_ms is not None]
    assert searching == sorted(searching) and len(set(searching)) == len(searching)


def test_it_gives_each_level_its_own_budget(monkeypatch):
    seen = []
    from games.bots import strong

    monkeypatch.setattr(strong, "choose_action", lambda view, rng, budget, **kw: seen.append(budget) or view["legal"][0])
    state = deal("spades", rng=random.Random(4), dealer=0)
    view = state.view(state.to_act())
    for name in ("medium", "strong", "expert"):
        bots.choose_action(name, view)
    assert seen == [levels.get(n).budget_ms for n in ("medium", "strong", "expert")]
    bots.choose_action("strong", view, budget_ms=7)
    assert seen[-1] == 7


def test_it_fits_a_chain_of_pairs_to_their_log_odds():
    pairs = [{"a": "basic", "b": "random", "score_a": 30, "matches": 40},
             {"a": "strong", "b": "basic", "score_a": 20, "matches": 40}]
    r = ladder.fit(pairs, ["random", "basic", "strong"], ("basic", 1500))
    assert r["basic"] == 1500
    assert r["strong"] == 1500                      # an even pair: the same rating
    expected = 400 * math.log10((30 + 0.5) / (10 + 0.5))
    assert abs((r["basic"] - r["random"]) - expected) <= 1


def test_it_keeps_a_one_sided_pair_finite():
    pairs = [{"a": "basic", "b": "random", "score_a": 40, "matches": 40}]
    r = ladder.fit(pairs, ["random", "basic"], ("basic", 1500))
    assert 500 < r["basic"] - r["random"] < 1000


def test_it_reads_the_stored_ratings(monkeypatch, tmp_path):
    path = tmp_path / "ladder.json"
    path.write_text('{"games": {"hearts": {"ratings": {"strong": 1712.4}}}}')
    monkeypatch.setattr(levels, "LADDER_FILE", path)
    levels.measured.cache_clear()
    try:
        assert levels.rating("hearts", "strong") == 1712
        assert levels.rating("hearts", "expert") is None
        assert levels.rating("spades", "strong") is None
    finally:
        levels.measured.cache_clear()


@pytest.mark.django_db
def test_it_shows_every_level_with_its_rating_on_the_home_page(client, monkeypatch):
    monkeypatch.setattr(levels, "rating", lambda game, name: 1234 if name == "expert" else None)
    page = client.get("/").content.decode()
    for name in levels.NAMES:
        assert f'value="{name}"' in page
    assert "(≈1234)" in page


def test_the_arena_plays_a_level_as_it_was_at_a_commit():
    from games.bots import arena

    state = deal("hearts", rng=random.Random(5), dealer=0)
    state.apply(bots.choose_action("basic", state.view(state.to_act()), random.Random(1)))
    view = state.view(state.seats_to_act()[0])
    then = arena.choose_action("git:HEAD:basic", view, random.Random(2), None)
    assert then == bots.choose_action("basic", view, random.Random(2))


def test_it_keeps_the_ladder_in_order_pooling_neighbours_it_could_not_tell_apart():
    assert ladder.monotone([0.0, 2.0, 1.0, 3.0]) == [0.0, 1.5, 1.5, 3.0]
    pairs = [{"a": "strong", "b": "medium", "score_a": 22, "matches": 40},
             {"a": "expert", "b": "strong", "score_a": 18, "matches": 40}]
    r = ladder.fit(pairs, ["medium", "strong", "expert"], ("medium", 1500))
    assert r["medium"] <= r["strong"] <= r["expert"] and r["strong"] == r["expert"]
