"""The bots' arena (games/bots/arena.py): paired differences, per-game counts."""
from __future__ import annotations

from games.bots import arena


def test_it_counts_nils_and_bags():
    cfg = arena.Config("spades", "standard", "basic", "random", None, 3, 2)
    summary = arena.run(cfg, matches=2, jobs=1, progress=False)
    assert summary["deals"] == 4
    stats = summary["stats_a"]
    assert stats["team_deals"] == 4 and stats["bags"] >= 0
    text = arena.report(cfg, summary)
    assert "without nil scores" in text and "bags per team-deal" in text


def test_it_counts_the_moons_of_each_side():
    cfg = arena.Config("hearts", "standard", "basic", "random", None, 5, 1)
    summary = arena.run(cfg, matches=2, jobs=1, progress=False)
    assert set(summary["stats_a"]) == {"moons"} and "moons shot" in arena.report(cfg, summary)


def test_the_paired_difference_treats_a_duplicate_pair_as_one_observation():
    def match(pair, a, b, deals):
        return {"pair": pair, "deals": deals, "points": {"a": a, "b": b},
                "stats": {"a": {"nil_points": 0}, "b": {"nil_points": 100}}}
    results = [match(0, 30, 10, 1), match(0, 10, 10, 1), match(1, 0, 0, 2), match(1, 20, 0, 2)]
    mean, half = arena.paired_difference(results, "points")
    assert mean == (20 / 2 + 20 / 4) / 2 and half > 0
    assert arena.paired_difference(results, "points", "nil_points")[0] == mean + 100 * (2 / 2 + 2 / 4) / 2
