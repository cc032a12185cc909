"""The ladder of bot levels (games/bots/levels.py) and its measured ratings (games/bots/lab/ladder.py)."""
from __future__ import annotations

import json
import math
import random
import time

import pytest

from games import bots
from games.bots import levels
from games.bots.lab import ladder
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


def test_a_spades_bid_keeps_the_levels_budget_and_a_hearts_pass_is_basics(monkeypatch):
    from games.bots import basic, paired

    seen = []
    monkeypatch.setattr(paired, "draws", lambda view, options, rng, budget_ms, iterations, rollout:
                        seen.append((view["game"], budget_ms)) or [])
    hearts = deal("hearts", rng=random.Random(3), dealer=0, deal_number=0)
    spades = deal("spades", rng=random.Random(4), dealer=0)
    for name in ("medium", "strong", "expert"):
        view = hearts.view(hearts.seats_to_act()[0])
        assert bots.choose_action(name, view, random.Random(1)) == basic.choose_action(view, random.Random(1))
        bots.choose_action(name, spades.view(spades.seats_to_act()[0]), random.Random(1))
    assert seen == [("spades", 10), ("spades", 200), ("spades", 600)]


def _step(a, b, score, pairs=100, se=0.03):
    return {"a": a, "b": b, "score_a": score, "deals": 2 * pairs, "se": se,
            "separated": score - 1.96 * se > 0.5}


def test_it_fits_a_chain_of_steps_to_their_log_odds_with_intervals():
    steps = [_step("basic", "random", 0.75), _step("strong", "basic", 0.5)]
    r, ci = ladder.fit(steps, ["random", "basic", "strong"], ("basic", 1500))
    assert r["basic"] == 1500 and ci["basic"] == [1500, 1500]
    assert r["strong"] == 1500                      # an even step: the same rating
    expected = 400 * math.log10((150 + 0.5) / (50 + 0.5))
    assert abs((r["basic"] - r["random"]) - expected) <= 1
    assert ci["strong"][0] < 1500 < ci["strong"][1]
    assert ci["random"][0] < r["random"] < ci["random"][1] < 1500


def test_it_keeps_a_one_sided_step_finite():
    r, ci = ladder.fit([_step("basic", "random", 1.0, se=0.0)], ["random", "basic"], ("basic", 1500))
    assert 500 < r["basic"] - r["random"] < 1500
    assert ci["random"][1] < 1500


def _deal(a, b, pair, a_first, score, margin):
    return {"game": "spades", "variant": "standard", "a": a, "b": b, "seed": 1, "pair": pair,
            "a_first": a_first, "score": score, "margins": [margin], "times_ms": {"a": [5.0], "b": [1.0]}}


def test_it_scores_a_step_over_whole_duplicate_pairs():
    results = [_deal("medium", "basic", 0, True, 1.0, 30), _deal("medium", "basic", 0, False, 1.0, 10),
               _deal("medium", "basic", 1, True, 1.0, 20), _deal("medium", "basic", 1, False, 0.0, -40),
               _deal("medium", "basic", 2, True, 1.0, 50)]         # a half pair is left out
    step = ladder.step_figures(results, "medium", "basic")
    assert step["pairs"] == 2 and step["deals"] == 4
    assert step["score_a"] == 0.75
    assert step["margin_per_deal"] == 5.0                 # (40 / 2 + -20 / 2) / 2
    assert not step["separated"]                          # two pairs tell nothing


def _pairs(a, b, scores):
    return [_deal(a, b, pair, first, score, 1 if score else -1)
            for pair, both in enumerate(scores) for first, score in zip((True, False), both)]


def test_it_merges_a_level_it_could_not_separate_and_measures_the_next_against_the_one_shown():
    results = (_pairs("basic", "random", [(1.0, 1.0)] * 30) + _pairs("medium", "basic", [(1.0, 0.0)] * 30)
               + _pairs("strong", "medium", [(1.0, 1.0)] * 30) + _pairs("strong", "basic", [(1.0, 0.5)] * 30)
               + _pairs("expert", "strong", [(1.0, 0.0), (0.0, 0.0), (1.0, 1.0)] * 10))
    steps, merged = ladder.climb(results, enough=30)
    assert merged == {"medium": "basic", "expert": "strong"}
    assert [(s["a"], s["b"]) for s in steps] == [("basic", "random"), ("medium", "basic"),
                                                 ("strong", "basic"), ("expert", "strong")]
    assert ladder.records(steps)["strong"] == {"against": "basic", "of_100": 75, "score": 0.75}
    assert "medium" not in ladder.records(steps)
    # With fewer pairs than it takes to merge, a step that did not separate is undecided: kept.
    steps, merged = ladder.climb(results, enough=100)
    assert merged == {} and [(s["a"], s["b"]) for s in steps][2] == ("strong", "medium")


def test_it_prints_a_step_it_cannot_tie_to_the_anchor_without_a_rating():
    """A run of one step (``--steps expert:strong --results other.jsonl``) fits no rating."""
    s = ladder.summary("spades", _pairs("expert", "strong", [(1.0, 0.0)] * 30))
    line = ladder.table("spades", s).splitlines()[1]
    assert line.startswith("spades: expert > strong") and " - " in line
    row = ladder.markdown({"games": {"spades": s}}).splitlines()[-1]
    assert row.startswith("| spades | expert | strong |") and "| - | wall:" in row
    assert "None" not in row


def test_it_reads_the_stored_ratings(monkeypatch, tmp_path):
    path = tmp_path / "ladder.json"
    path.write_text('{"games": {"hearts": {"ratings": {"strong": 1712.4}}}}')
    monkeypatch.setattr(levels, "LADDER_FILE", path)
    levels.measured.cache_clear()
    try:
        assert levels.rating("hearts", "strong") == 1712
        assert levels.rating("hearts", "expert") is None
        assert levels.rating("spades", "strong") is None
        assert levels.record("hearts", "strong") is None and levels.shown("hearts") == levels.NAMES
    finally:
        levels.measured.cache_clear()


@pytest.fixture
def ladder_file(monkeypatch, tmp_path):
    """A stored ladder: in hearts, expert merged into strong; medium's record against basic."""
    path = tmp_path / "ladder.json"
    path.write_text(json.dumps({"games": {"hearts": {
        "ratings": {"basic": 1500, "medium": 1650, "strong": 1790, "expert": 1800},
        "merged": {"expert": "strong"},
        "records": {"medium": {"against": "basic", "of_100": 68, "score": 0.68}}}}}))
    monkeypatch.setattr(levels, "LADDER_FILE", path)
    levels.measured.cache_clear()
    yield path
    levels.measured.cache_clear()


def test_it_offers_a_merged_level_as_the_one_it_joins(ladder_file):
    assert levels.shown("hearts") == ("random", "basic", "medium", "strong")
    assert levels.shown("spades") == levels.NAMES
    assert levels.offered("hearts", "expert") == "strong"
    assert levels.offered("spades", "expert") == "expert"


@pytest.mark.django_db
def test_it_shows_each_level_with_its_rating_and_record_on_the_pickers(client, ladder_file, make_user):
    page = client.get("/").content.decode()
    for name in levels.NAMES:
        assert f'value="{name}"' in page                # expert is still offered in the other games
    # The option names the level and its rating; what it means in play is the line the chosen
    # option's note fills (site.js), shown for the default level from the start.
    assert '<option value="medium" data-note="Wins about 68 of 100 deals against basic">Medium (≈1650)</option>' in page
    assert 'data-note-target="level-record-hearts"' in page and 'id="level-record-hearts"' in page
    client.force_login(make_user("picker"))
    lobby = client.get("/play/hearts/").content.decode()
    assert 'value="expert"' not in lobby and 'value="strong"' in lobby
    assert "wins about 68 of 100 deals against basic" in lobby


def test_the_arena_plays_a_level_as_it_was_at_a_commit():
    from games.bots.lab import duel, baseline

    state = deal("hearts", rng=random.Random(5), dealer=0)
    state.apply(bots.choose_action("basic", state.view(state.to_act()), random.Random(1)))
    view = state.view(state.seats_to_act()[0])
    then = duel.choose_action("git:HEAD:basic", view, random.Random(2), None)
    assert then == bots.choose_action("basic", view, random.Random(2))


def test_the_arena_searches_with_the_commits_own_modules():
    import sys

    from games.bots.lab import duel, baseline

    state = deal("spades", rng=random.Random(6), dealer=0)
    view = state.view(state.to_act())
    duel.choose_action("git:HEAD:medium", view, random.Random(2), None)
    # not today's games.bots.strong at the old budgets
    assert baseline._package("HEAD") + ".strong" in sys.modules



def test_it_rewrites_the_docs_table_between_its_markers(tmp_path):
    docs = tmp_path / "BOTS.md"
    docs.write_text(f"before\n{ladder.START}\nold\n{ladder.END}\nafter\n")
    step = dict(_step("medium", "basic", 0.7), pairs=100, ci95=[0.64, 0.76], margin_per_deal=2.5,
                margin_ci95=1.0, p50_ms={"medium": 10}, p95_ms={"medium": 12}, mean_ms={"medium": 11})
    stored = {"measured_on": "2026-11-27", "games": {"hearts": {
        "steps": [step], "intervals": {"medium": [1600, 1700]}, "ratings": {"medium": 1650},
        "merged": {}, "records": {"medium": {"against": "basic", "of_100": 70}}}}}
    ladder.rewrite_docs(stored, docs)
    text = docs.read_text()
    assert text.startswith("before\n") and text.endswith("after\n") and "old" not in text
    assert "| hearts | medium | basic | 100 | 0.700 (0.640-0.760) |" in text
    assert "wins about 70 of 100 deals against basic |" in text


def test_the_ladder_times_the_bots_on_their_cpu_clock_and_gives_the_clock_back():
    from games.bots import base
    from games.bots.lab import duel

    wall = base.clock
    seen = []
    cfg = duel.Config("sixtysix", "kurnik", "medium", "basic", None, 1, 1, cpu_clock=True)
    original = duel.choose_action
    try:
        duel.choose_action = lambda *a: seen.append(base.clock) or original(*a)
        duel.play_match(cfg, 0, True)
    finally:
        duel.choose_action = original
    assert seen and set(seen) == {time.thread_time}
    assert base.clock is wall
