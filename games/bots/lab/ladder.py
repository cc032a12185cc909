"""Measure the ladder of bot levels (levels.py) and store what the site shows of it.

    python -m games.bots.lab.ladder [--games sixtysix hearts spades] [--deals 100] [--jobs 2]
    python -m games.bots.lab.ladder --fit-only          # refit ladder.json from the results file

Every level plays the one below it on duplicate deals (arena.py with one deal a match): the same
shuffled deck twice, the two levels' seats swapped, so the luck of the cards cancels within the
pair. That is the measurement's unit, a proxy for whole matches (a match is a run of such deals;
a whole match of hearts or spades costs 10-30 deals, too many for the machine this runs on):
``--deals N`` pairs of deals per neighbour pair. A pair scores 1 for the upper level when it won
both deals (more game points in sixty-six, fewer card points in hearts, more team points in
spades; a drawn deal counts half), 0.5 for one each, and so on; its mean over the pairs is the
upper level's deal score, with a 95% normal interval over the pairs.

Each deal's result is appended to ``--results`` (JSON lines) as it is played, so a run that
stops loses nothing and a second run only plays what is missing. From the results a Bradley-Terry
fit along the ladder gives each level a rating on the scale of people's ratings (ratings/rating.py:
400 points are about 10:1 odds), anchored at ``levels.ANCHOR``, with a 95% interval (each step's
interval mapped to log-odds, the steps' variances added from the anchor). A step **separates**
when its score's interval excludes an even score over at least ``MIN_CLAIM`` pairs: the level is
shown with its rating and its record against the one below ("wins about 68 of 100 deals against
basic"). One that has not separated after ``MIN_PAIRS`` pairs is **merged** into the level below
in that game: the pickers do not offer it there (it still plays where it was chosen before).
Short of that it is undecided: shown, with no rating and no claim. The bots' budgets run on their
CPU clock (``base.clock``; ``--wall-clock`` for the site's): a busy machine measures the levels as
a core of their own plays them.
The result goes to ``levels.LADDER_FILE`` (which the pickers read) and its table into docs/BOTS.md
(between the ``ladder:`` markers); ``--dry-run`` only prints.
"""
from __future__ import annotations

import argparse
import datetime
import json
import math
import multiprocessing
import sys
from pathlib import Path

from games.engine.core import get_rules

from .. import levels
from . import duel

SCALE = 400 / math.log(10)      # rating points per unit of log-odds
PRIOR = 0.5                     # pseudo-wins and pseudo-losses per measured step
MIN_PAIRS = 100                 # duplicate pairs before a step that did not separate is merged
MIN_CLAIM = 30                  # and before one separates (the normal interval needs that many)
RESULTS = Path(__file__).with_name("ladder-results.jsonl")   # kept in git: the next run resumes it
DOCS = Path(__file__).resolve().parents[3] / "docs" / "BOTS.md"
START, END = "<!-- ladder:start -->", "<!-- ladder:end -->"      # the part of DOCS this rewrites


def couples(names=levels.NAMES) -> list[tuple[str, str]]:
    """(upper, lower) of every neighbour step, bottom first."""
    return [(names[i + 1], names[i]) for i in range(len(names) - 1)]


def _play(task):
    cfg, pair, a_first = task
    r = duel.play_match(cfg, pair, a_first)
    times = {side: [round(1000 * t, 2) for t in r["times"][side]] for side in ("a", "b")}
    return {"game": cfg.game, "variant": cfg.variant, "a": cfg.a, "b": cfg.b, "seed": cfg.seed,
            "pair": pair, "a_first": a_first, "score": r["score"], "margins": r["margins"],
            "clock": "cpu" if cfg.cpu_clock else "wall", "times_ms": times}


def load(path: Path) -> list[dict]:
    if not path.exists():
        return []
    out = []
    for line in path.read_text().splitlines():
        try:
            out.append(json.loads(line))
        except ValueError:
            continue            # a line cut by a stopped run
    return out


def play(game: str, steps: list[tuple[str, str]], deals: int, jobs: int, seed: int, path: Path,
         cpu_clock: bool = True) -> None:
    """Play what ``path`` still lacks of ``deals`` duplicate pairs per step, appending each deal."""
    variant = get_rules(game).variants[0]
    done = {(r["game"], r["a"], r["b"], r["seed"], r["pair"], r["a_first"]) for r in load(path)}
    tasks = []
    for pair in range(deals):          # pair by pair across the steps: a cut run has all of them
        for a, b in steps:
            cfg = duel.Config(game, variant, a, b, None, seed, 1, cpu_clock)
            for a_first in (True, False):
                if (game, a, b, seed, pair, a_first) not in done:
                    tasks.append((cfg, pair, a_first))
    with path.open("a") as out:
        if jobs > 1:
            with multiprocessing.Pool(jobs) as pool:
                for r in pool.imap(_play, tasks, chunksize=1):
                    out.write(json.dumps(r) + "\n")
                    out.flush()
        else:
            for t in tasks:
                out.write(json.dumps(_play(t)) + "\n")
                out.flush()


def step_figures(results: list[dict], a: str, b: str) -> dict | None:
    """The upper level ``a`` against ``b`` over the complete duplicate pairs in ``results``."""
    halves: dict[tuple, list[dict]] = {}
    for r in results:
        if r["a"] == a and r["b"] == b:
            halves.setdefault((r["seed"], r["pair"]), []).append(r)
    pairs = [h for h in halves.values() if len(h) == 2]
    if not pairs:
        return None
    scores = [(h[0]["score"] + h[1]["score"]) / 2 for h in pairs]
    margins = [sum(m for r in h for m in r["margins"]) / 2 for h in pairs]
    if pairs[0][0]["game"] == "hearts":
        margins = [-m for m in margins]          # card points: fewer is better
    n = len(scores)
    mean = sum(scores) / n
    se = math.sqrt(sum((s - mean) ** 2 for s in scores) / (n - 1) / n) if n > 1 else 0.5
    low, high = max(0.0, mean - 1.96 * se), min(1.0, mean + 1.96 * se)
    if se == 0:                                 # every pair alike: the deals' Wilson bounds
        low, high = duel.wilson(mean * 2 * n, 2 * n)
    m_mean = sum(margins) / n
    m_se = math.sqrt(sum((m - m_mean) ** 2 for m in margins) / (n - 1) / n) if n > 1 else 0.0
    times = {side: sorted(t for h in pairs for r in h for t in r["times_ms"][key])
             for side, key in ((a, "a"), (b, "b"))}
    return {"a": a, "b": b, "pairs": n, "deals": 2 * n, "score_a": round(mean, 4), "se": round(se, 4),
            "ci95": [round(low, 3), round(high, 3)], "separated": low > 0.5 and n >= MIN_CLAIM,
            "margin_per_deal": round(m_mean, 3), "margin_ci95": round(1.96 * m_se, 3),
            "p50_ms": {k: round(duel.percentile(v, 0.5), 1) for k, v in times.items()},
            "p95_ms": {k: round(duel.percentile(v, 0.95), 1) for k, v in times.items()},
            "mean_ms": {k: round(sum(v) / len(v), 1) if v else 0.0 for k, v in times.items()}}


def fit(steps: list[dict], names: list[str], anchor: tuple[str, int]) -> tuple[dict, dict]:
    """Bradley-Terry ratings along the ladder from each step's deal score (with the prior), and
    their 95% intervals: ``(ratings, intervals)``. ``steps`` go up the ladder (each one's lower
    level rated before it). With such steps only, the fit is each step's log-odds added up from the
    bottom; a step's variance comes from the interval of its score over the pairs, mapped to
    log-odds, and the variances add up the same way."""
    logit = {names[0]: 0.0}
    var = {names[0]: 0.0}
    for s in steps:
        upper, lower = s["a"], s["b"]
        if lower not in logit:
            continue
        n = s["deals"]
        shrink = lambda x: (x * n + PRIOR) / (n + 2 * PRIOR)      # noqa: E731 (the prior)
        log_odds = lambda x: math.log(shrink(x) / (1 - shrink(x)))  # noqa: E731
        logit[upper] = logit[lower] + log_odds(s["score_a"])
        # The step's interval of the score, mapped to log-odds (near 0 or 1 the delta method fails).
        se = max(s["se"], 0.5 / math.sqrt(n))    # a one-sided step is at least this uncertain
        low, high = max(0.0, s["score_a"] - 1.96 * se), min(1.0, s["score_a"] + 1.96 * se)
        var[upper] = var[lower] + ((log_odds(high) - log_odds(low)) / (2 * 1.96)) ** 2
    base_logit, base_var = logit.get(anchor[0], 0.0), var.get(anchor[0], 0.0)
    ratings, intervals = {}, {}
    for name in logit:
        r = anchor[1] + SCALE * (logit[name] - base_logit)
        half = 1.96 * SCALE * math.sqrt(abs(var[name] - base_var))
        ratings[name] = round(r)
        intervals[name] = [round(r - half), round(r + half)]
    return ratings, intervals


def climb(results: list[dict], names=levels.NAMES, enough: int = MIN_PAIRS) -> tuple[list[dict], dict[str, str]]:
    """Up the ladder: each level against the highest level shown below it (its neighbour, or the
    level its neighbour was merged into, where that step was played; else its neighbour). A level
    whose step is not separated after ``enough`` pairs is merged into that level; with fewer the
    step is undecided (the level stays, with no record). ``(steps used, merged)``."""
    shown = [names[0]]
    used, merged_into = [], {}
    for below, level in zip(names, names[1:]):
        step = step_figures(results, level, shown[-1]) or step_figures(results, level, below)
        if step is None:
            continue
        used.append(step)
        if step["separated"] or step["pairs"] < enough:
            shown.append(level)
        else:
            merged_into[level] = merged_into.get(step["b"], step["b"])
    return used, merged_into


def records(steps: list[dict]) -> dict[str, dict]:
    """Each separated level's deal record against the level below it: wins about ``of_100`` of 100
    deals (an undecided or merged step makes no claim). Per 100, not per 10: a step that separates
    at 54% would read "5 of 10", as if the two levels were even."""
    return {s["a"]: {"against": s["b"], "of_100": round(100 * s["score_a"]), "score": s["score_a"]}
            for s in steps if s["separated"]}


def summary(game: str, results: list[dict]) -> dict | None:
    names = list(levels.NAMES)
    used, merged_into = climb(results, names)
    if not used:
        return None
    fitted, intervals = fit(used, names, levels.ANCHOR)
    # Shown: the bottom, the anchor and every separated level (no two shown levels share a number).
    sure = {names[0], levels.ANCHOR[0]} | {s["a"] for s in used if s["separated"]}
    ratings = {n: r for n, r in fitted.items() if n in sure}
    played = sorted({(r["a"], r["b"]) for r in results}, key=lambda ab: (names.index(ab[0]), names.index(ab[1])))
    clocks = sorted({r.get("clock", "wall") for r in results})
    return {"variant": get_rules(game).variants[0], "clock": "+".join(clocks),
            "proxy": "duplicate deals: each deal played twice, the levels' seats swapped",
            "ratings": ratings, "fitted": fitted, "intervals": intervals, "merged": merged_into,
            "records": records(used), "steps": used,
            "other_steps": [f for a, b in played if (f := step_figures(results, a, b)) is not None
                            and not any(u["a"] == a and u["b"] == b for u in used)]}


def table(game: str, s: dict) -> str:
    lines = [f"{game}: {'step':16} {'pairs':>5} {'score':>6} {'95% CI':>13} {'margin/deal':>14} "
             f"{'rating':>7} {'95% CI':>12} shown"]
    for st in s["steps"]:
        a = st["a"]
        # A level the results do not tie to the anchor (a run of one step) has no rating.
        lo, hi = (_or_dash(x) for x in s["intervals"].get(a) or [None, None])
        lines.append(f"{game}: {a + ' > ' + st['b']:16} {st['pairs']:5} {st['score_a']:6.3f} "
                     f"{st['ci95'][0]:6.3f}-{st['ci95'][1]:.3f} {st['margin_per_deal']:+7.2f}"
                     f"±{st['margin_ci95']:<5.2f} {_or_dash(s['fitted'].get(a)):>7} {lo}-{hi:<7} "
                     f"{'merged into ' + s['merged'][a] if a in s['merged'] else 'yes' if st['separated'] else 'undecided'}")
    return "\n".join(lines)


def _or_dash(value) -> str:
    return "-" if value is None else str(value)


def markdown(stored: dict) -> str:
    """The ladder as docs/BOTS.md shows it: per game and step, the pairs, the score with its
    interval, the margin, the rating with its interval, and what the pickers do with the level."""
    lines = [f"Measured {stored.get('measured_on', '?')} by `python -m games.bots.lab.ladder` "
             "(duplicate deals; basic = 1500).", "",
             "| game | level | against | deal pairs | score (95% CI) | margin per deal | rating (95% CI) "
             "| ms per decision (its clock: cpu or wall) p50 / p95 / mean | pickers |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for game, s in stored.get("games", {}).items():
        for st in s.get("steps", []):
            a = st["a"]
            rating = _or_dash(s.get("fitted", s["ratings"]).get(a))
            if s["intervals"].get(a):
                rating += " ({}-{})".format(*s["intervals"][a])
            shown = (f"merged into {s['merged'][a]}" if a in s.get("merged", {})
                     else f"wins about {s['records'][a]['of_100']} of 100 deals against {st['b']}"
                     if a in s.get("records", {}) else "shown, no claim (undecided: too few pairs)")
            cost = (f"{s.get('clock', 'wall')}: {st['p50_ms'][a]:.0f} / {st['p95_ms'][a]:.0f} / {st['mean_ms'][a]:.0f}"
                    if "mean_ms" in st else "")
            lines.append(f"| {game} | {a} | {st['b']} | {st['pairs']} | {st['score_a']:.3f} "
                         f"({st['ci95'][0]:.3f}-{st['ci95'][1]:.3f}) | {st['margin_per_deal']:+.2f} "
                         f"± {st['margin_ci95']:.2f} | {rating} | {cost} | {shown} |")
    return "\n".join(lines)


def rewrite_docs(stored: dict, path: Path = DOCS) -> None:
    text = path.read_text()
    if START not in text or END not in text:
        return
    head, rest = text.split(START, 1)
    _old, tail = rest.split(END, 1)
    path.write_text(f"{head}{START}\n{markdown(stored)}\n{END}{tail}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m games.bots.lab.ladder", description=__doc__.split("\n")[0])
    ap.add_argument("--games", nargs="+", default=["sixtysix", "hearts", "spades"])
    ap.add_argument("--deals", type=int, default=100, help="duplicate pairs of deals per neighbour step")
    ap.add_argument("--steps", nargs="+", default=None, metavar="UPPER:LOWER",
                    help="only these steps (default: every neighbour step)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--results", type=Path, default=RESULTS, help="the deals played (JSON lines)")
    ap.add_argument("--fit-only", action="store_true", help="play nothing: fit the results file")
    ap.add_argument("--wall-clock", action="store_true",
                    help="budgets on the wall clock, as on the site (default: each bot's CPU clock, so a "
                         "busy machine measures the levels as a quiet one plays them)")
    ap.add_argument("--dry-run", action="store_true", help="print, do not write the ladder file")
    args = ap.parse_args(argv)
    steps = couples()
    if args.steps:
        steps = [tuple(s.split(":")) for s in args.steps]
    stored = dict(levels.measured())
    stored["format"] = "bot-ladder/3"
    stored["games"] = dict(stored.get("games", {}))
    for game in args.games:
        if not args.fit_only:
            play(game, steps, args.deals, args.jobs, args.seed, args.results, not args.wall_clock)
        s = summary(game, [r for r in load(args.results) if r["game"] == game])
        if s is None:
            continue
        print(table(game, s), flush=True)
        stored["games"][game] = s
    stored["measured_on"] = datetime.date.today().isoformat()
    stored["anchor"] = {"level": levels.ANCHOR[0], "rating": levels.ANCHOR[1]}
    if not args.dry_run:
        levels.LADDER_FILE.write_text(json.dumps(stored, indent=1) + "\n")
        rewrite_docs(stored)
        print(f"written to {levels.LADDER_FILE} and {DOCS}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
