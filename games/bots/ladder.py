"""Measure the ladder of bot levels (levels.py) and store the ratings the site shows.

    python -m games.bots.ladder [--games sixtysix hearts spades] [--matches 40] [--jobs 2]

Every level plays its neighbour on the ladder (and the one after it, with ``--skip``) in duplicate
pairs of matches (arena.py: the same decks, seats swapped). From the match results a Bradley-Terry
fit gives each level a rating on the scale of people's ratings (ratings/rating.py: a gap of 400
is about 10:1 odds of winning a match), anchored at ``levels.ANCHOR``, and kept in ladder order
(``monotone``: a level that searches longer is not shown below one that searches less; where the
matches could not tell two neighbours apart they share a rating). A half-win and a half-loss
of prior per pair keep a one-sided pair (random against basic) finite: such a gap is a lower bound.
``--max-deals`` cuts long matches short (hearts to 100, spades to 500): the side ahead then wins.
The result goes to ``levels.LADDER_FILE`` with every pair's figures; ``--dry-run`` only prints.
"""
from __future__ import annotations

import argparse
import datetime
import json
import math
import sys

from games.engine.core import get_rules

from . import arena, levels

SCALE = 400 / math.log(10)      # rating points per unit of log-odds
PRIOR = 0.5                     # pseudo-wins and pseudo-losses per measured pair


def fit(pairs: list[dict], names: list[str], anchor: tuple[str, int]) -> dict[str, int]:
    """Bradley-Terry ratings from ``pairs`` (``a``, ``b``, ``score_a`` out of ``matches``): the
    maximum of the likelihood (with the prior), by diagonal Newton steps."""
    strength = {n: 0.0 for n in names}
    for _ in range(500):
        grad = {n: 0.0 for n in names}
        info = {n: 1e-9 for n in names}
        for p in pairs:
            n = p["matches"] + 2 * PRIOR
            q = 1 / (1 + math.exp(strength[p["b"]] - strength[p["a"]]))
            g = p["score_a"] + PRIOR - n * q
            grad[p["a"]] += g
            grad[p["b"]] -= g
            info[p["a"]] += n * q * (1 - q)
            info[p["b"]] += n * q * (1 - q)
        for n in names:
            strength[n] += 0.5 * grad[n] / info[n]
        if max(abs(g) for g in grad.values()) < 1e-9:
            break
    ordered = monotone([strength[n] for n in names])
    strength = dict(zip(names, ordered))
    base = strength[anchor[0]]
    return {n: round(anchor[1] + SCALE * (strength[n] - base)) for n in names}


def monotone(values: list[float]) -> list[float]:
    """The closest non-decreasing sequence (pool adjacent violators, equal weights): a level is
    taken to be at least as strong as the one below it, which searches the same way with less
    time; neighbours the measurement could not tell apart share their mean."""
    blocks: list[list[float]] = []          # [sum, count] of pooled runs
    for v in values:
        blocks.append([v, 1])
        while len(blocks) > 1 and blocks[-2][0] / blocks[-2][1] > blocks[-1][0] / blocks[-1][1]:
            total, count = blocks.pop()
            blocks[-1][0] += total
            blocks[-1][1] += count
    return [total / count for total, count in blocks for _ in range(count)]


def measure(game: str, variant: str, a: str, b: str, matches: int, jobs: int, max_deals: int,
            seed: int) -> dict:
    cfg = arena.Config(game, variant, a, b, None, seed, max_deals)
    s = arena.run(cfg, matches, jobs, progress=sys.stderr.isatty())
    return {"a": a, "b": b, "matches": s["matches"], "score_a": s["matches"] * s["win_rate_a"],
            "ci95": [round(x, 3) for x in s["ci95"]], "deals": s["deals"],
            "p50_ms": {a: round(s["p50_ms_a"], 1), b: round(s["p50_ms_b"], 1)},
            "p95_ms": {a: round(s["p95_ms_a"], 1), b: round(s["p95_ms_b"], 1)}}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m games.bots.ladder", description=__doc__.split("\n")[0])
    ap.add_argument("--games", nargs="+", default=["sixtysix", "hearts", "spades"])
    ap.add_argument("--matches", type=int, default=40, help="matches per pair of levels")
    ap.add_argument("--max-deals", type=int, default=1000)
    ap.add_argument("--skip", action="store_true", help="also play each level against the one two up")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--dry-run", action="store_true")
    args = ap.parse_args(argv)
    names = list(levels.NAMES)
    stored = dict(levels.measured()) or {"format": "bot-ladder/1", "games": {}}
    stored["games"] = dict(stored.get("games", {}))
    for game in args.games:
        variant = get_rules(game).variants[0]
        couples = [(names[i + 1], names[i]) for i in range(len(names) - 1)]
        if args.skip:
            couples += [(names[i + 2], names[i]) for i in range(len(names) - 2)]
        pairs = []
        for a, b in couples:
            pair = measure(game, variant, a, b, args.matches, args.jobs, args.max_deals, args.seed)
            print(f"{game}: {a} vs {b}: {pair['score_a']:.1f}/{pair['matches']} "
                  f"(95% CI {pair['ci95'][0]:.2f}-{pair['ci95'][1]:.2f}), p50 ms {pair['p50_ms']}",
                  flush=True)
            pairs.append(pair)
        ratings = fit(pairs, names, levels.ANCHOR)
        print(f"{game}: {ratings}", flush=True)
        stored["games"][game] = {"variant": variant, "max_deals": args.max_deals,
                                 "ratings": ratings, "pairs": pairs}
    stored["measured_on"] = datetime.date.today().isoformat()
    stored["anchor"] = {"level": levels.ANCHOR[0], "rating": levels.ANCHOR[1]}
    if not args.dry_run:
        levels.LADDER_FILE.write_text(json.dumps(stored, indent=1) + "\n")
        print(f"written to {levels.LADDER_FILE}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
