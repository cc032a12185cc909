"""The bots' arena (games/bots/lab/duel.py): paired differences, per-game counts."""
from __future__ import annotations

import importlib
import random
import time

from games.bots.lab import duel, baseline
from games.engine.core import deal


def test_it_counts_nils_and_bags():
    cfg = duel.Config("spades", "standard", "basic", "random", None, 3, 2)
    summary = duel.run(cfg, matches=2, jobs=1, progress=False)
    assert summary["deals"] == 4
    stats = summary["stats_a"]
    assert stats["team_deals"] == 4 and stats["bags"] >= 0
    text = duel.report(cfg, summary)
    assert "without nil scores" in text and "bags per team-deal" in text
    assert summary["mean_ms_a"] >= 0 and " ms  mean " in text


def test_it_counts_the_moons_of_each_side():
    cfg = duel.Config("hearts", "standard", "basic", "random", None, 5, 1)
    summary = duel.run(cfg, matches=2, jobs=1, progress=False)
    assert set(summary["stats_a"]) == {"moons"} and "moons shot" in duel.report(cfg, summary)


def test_the_paired_difference_treats_a_duplicate_pair_as_one_observation():
    def match(pair, a, b, deals):
        return {"pair": pair, "deals": deals, "points": {"a": a, "b": b},
                "stats": {"a": {"nil_points": 0}, "b": {"nil_points": 100}}}
    results = [match(0, 30, 10, 1), match(0, 10, 10, 1), match(1, 0, 0, 2), match(1, 20, 0, 2)]
    mean, half = duel.paired_difference(results, "points")
    assert mean == (20 / 2 + 20 / 4) / 2 and half > 0
    assert duel.paired_difference(results, "points", "nil_points")[0] == mean + 100 * (2 / 2 + 2 / 4) / 2


def test_an_earlier_commits_level_thinks_on_the_clock_the_arena_sets(monkeypatch):
    """--cpu-clock puts both sides of an A/B on their CPU clocks: the baseline's own ``base`` too
    (it once kept the wall clock, and starved on a busy machine)."""
    package = baseline._package("HEAD")
    old_base = importlib.import_module(package + ".base")
    seen = []

    def record(view, rng=None, budget_ms=None, **extra):
        seen.append(old_base.clock)
        return view["legal"][0]
    monkeypatch.setattr(importlib.import_module(package + ".strong"), "choose_action", record)
    state = deal("sixtysix", "kurnik", rng=random.Random(2))
    view = state.view(state.seats_to_act()[0])
    with duel.budgets_on_cpu_clock(True):
        baseline.choose_action("git:HEAD:strong", view, random.Random(1))
    baseline.choose_action("git:HEAD:strong", view, random.Random(1))
    assert seen == [time.thread_time, time.perf_counter]


def test_an_earlier_commits_bots_are_written_once_per_commit_and_reused(monkeypatch, tmp_path):
    """Every process of an A/B reuses one copy per commit in the temporary directory (each once
    wrote a folder of its own and left it there); a folder that is no whole copy is never imported."""
    monkeypatch.setattr(baseline.tempfile, "tempdir", str(tmp_path))
    sha = baseline._git("rev-parse", "HEAD").strip()
    first = baseline._written(sha, "bots_copy")
    assert baseline._written(sha, "bots_copy") == first
    assert (first / "bots_copy" / "strong.py").exists()
    assert [p.name for p in tmp_path.iterdir()] == [first.name]

    (first / "bots_copy" / "__init__.py").unlink()          # a folder there that is no whole copy
    other = baseline._written(sha, "bots_copy")
    assert other != first and (other / "bots_copy" / "__init__.py").exists()
