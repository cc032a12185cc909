"""A duel: two bot configurations play matches against each other, duplicate style.

    python -m games.bots.lab.duel --game sixtysix --variant kurnik --a strong --b basic --matches 40

Matches come in pairs. Both matches of a pair use the same shuffled decks, deal by deal (deal i
of the match is dealt from deck i to the seats by the rules, the dealer as the match says), and
the two configurations swap seats between them: side A sits at seat 0 (and 2) in the first and at
seat 1 (and 3) in the second, so each side plays the other's cards and the luck of the deal
cancels. A match runs to the game's end (first to 7 or 11, 100 in hearts, 500 in spades) or
``--max-deals``. Bots see only their seat's view (``games.bots.choose_action``). A side may also be
``git:REV:LEVEL``, a level as it was at an earlier commit (``baseline.py``): the A/B of a change.

Printed: the win rate of A with a 95% Wilson interval (a drawn match counts half; in hearts a
side wins when its seats' total score is lower), mean points per deal per seat of each side (game
points in sixty-six, card points in hearts, team points in spades), the share of deals A won
(drawn half, and among the decided ones) with Wilson intervals and A's mean margin per deal with a
normal 95% interval (deals of one match are not independent: read them as indications), A - B per
deal over duplicate pairs, and decision time p50/p95/mean of each side (the mean is what "at equal
CPU" compares). Spades adds per side the points per deal without the nil scores (±100, ±200), nil
and blind nil bids made/failed and bags per team-deal; hearts adds the moons each side shot.
Matches run in ``--jobs`` processes; a progress bar goes to stderr.

"""
from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass

from games.engine import cards as C
from games.engine.core import Match, get_rules
from games.bots import base as bot_base, choose_action as choose_level
from games.bots.lab import baseline


@dataclass(frozen=True)
class Config:
    game: str
    variant: str
    a: str
    b: str
    budget_ms: int | None
    seed: int
    max_deals: int
    cpu_clock: bool = False     # budgets on each bot's CPU time (base.clock): a busy machine's measure


def choose_action(level: str, view: dict, rng, budget_ms: int | None) -> dict:
    """A level of today's ladder, or ``git:REV:LEVEL``: that level as it was at commit REV
    (baseline.py), to measure a change against what it replaces."""
    if baseline.is_baseline(level):
        return baseline.choose_action(level, view, rng, budget_ms)
    return choose_level(level, view, rng, budget_ms)


def side_seats(seats: int, a_first: bool) -> tuple[list[int], list[int]]:
    """Seats of side A and side B: A at the even seats first, then at the odd ones."""
    even = list(range(0, seats, 2))
    odd = list(range(1, seats, 2))
    return (even, odd) if a_first else (odd, even)


@contextmanager
def budgets_on_cpu_clock(on: bool = True):
    """Inside, if ``on``, the bots' budgets run on their thread's CPU clock (``base.clock``): a busy
    machine measures as a quiet one plays."""
    clock = bot_base.clock
    if on:
        bot_base.clock = time.thread_time
    try:
        yield
    finally:
        bot_base.clock = clock


def play_match(cfg: Config, pair: int, a_first: bool) -> dict:
    """One match of a duplicate pair; the same ``pair`` gives the same decks."""
    with budgets_on_cpu_clock(cfg.cpu_clock):
        return _play_match(cfg, pair, a_first)


def _play_match(cfg: Config, pair: int, a_first: bool) -> dict:
    rules = get_rules(cfg.game)
    a_seats, b_seats = side_seats(rules.seats, a_first)
    level = {s: cfg.a for s in a_seats} | {s: cfg.b for s in b_seats}
    match = Match.start(cfg.game, cfg.variant, first_dealer=pair % rules.seats)
    bot_rngs = {s: random.Random(f"{cfg.seed}-{pair}-{a_first}-{s}") for s in range(rules.seats)}
    points = {"a": 0.0, "b": 0.0}
    margins = []      # per deal: A's points minus B's (per seat)
    times = {"a": [], "b": []}
    stats = {"a": {}, "b": {}}
    deals = 0
    while not match.is_over() and deals < cfg.max_deals:
        deck = C.shuffled(rules.deck(match.variant), random.Random(f"{cfg.seed}-{pair}-deal{deals}"))
        state = rules.new_state(match.setup_for(**rules.deal_cards(match.variant, match.dealer, deck)))
        while not state.is_over():
            seat = state.seats_to_act()[0]
            side = "a" if seat in a_seats else "b"
            view = state.view(seat)
            t0 = time.thread_time() if cfg.cpu_clock else time.perf_counter()
            action = choose_action(level[seat], view, bot_rngs[seat], cfg.budget_ms)
            times[side].append((time.thread_time() if cfg.cpu_clock else time.perf_counter()) - t0)
            state.apply(action)
        result = state.result()
        per_seat = _deal_points(cfg.game, result)
        deal_a = sum(per_seat[s] for s in a_seats) / len(a_seats)
        deal_b = sum(per_seat[s] for s in b_seats) / len(b_seats)
        points["a"] += deal_a
        points["b"] += deal_b
        margins.append(deal_a - deal_b)
        for side, seats in (("a", a_seats), ("b", b_seats)):
            for key, value in _deal_stats(cfg.game, state, seats).items():
                stats[side][key] = stats[side].get(key, 0) + value
        match.finish_deal(state)
        deals += 1
    score = _match_score(cfg.game, match, a_seats, b_seats)
    return {"score": score, "deals": deals, "points": points, "times": times, "margins": margins,
            "stats": stats, "pair": pair}


def _deal_stats(game: str, state, seats: list[int]) -> dict:
    """Counters of one deal for the side sitting at ``seats`` (summed over the match)."""
    if game == "hearts":
        return {"moons": int(state.result()["moon"] in seats)}
    if game != "spades":
        return {}
    team = seats[0] & 1
    part = state.notes(seats[0])["breakdown"][team]
    out = {"nil_points": sum(n["points"] for n in part["nil"]),
           "bags": part["overtricks"] + part["nil_bags"], "team_deals": 1}
    for n in part["nil"]:
        kind = "blind_nil" if n["blind"] else "nil"
        out[f"{kind}_made" if n["tricks"] == 0 else f"{kind}_failed"] = 1 + out.get(
            f"{kind}_made" if n["tricks"] == 0 else f"{kind}_failed", 0)
    return out


def _deal_points(game: str, result: dict) -> list[float]:
    if game == "sixtysix":
        return result["game_points"]
    if game == "hearts":
        return result["points"]
    tp = result["team_points"]
    return [tp[s & 1] for s in range(4)]


def _match_score(game: str, match: Match, a_seats, b_seats) -> float:
    """1 if side A won the match, 0.5 drawn, 0 lost."""
    scores = match.scores
    if game == "spades":
        sa, sb = scores[a_seats[0] & 1], scores[b_seats[0] & 1]
        better = sa > sb
        worse = sa < sb
    else:
        sa = sum(scores[s] for s in a_seats)
        sb = sum(scores[s] for s in b_seats)
        better, worse = (sa < sb, sa > sb) if game == "hearts" else (sa > sb, sa < sb)
    return 1.0 if better else 0.0 if worse else 0.5


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion (draws counted half)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    values = sorted(values)
    k = min(len(values) - 1, max(0, int(round(q * (len(values) - 1)))))
    return values[k]


def _task(args):
    cfg, pair, a_first = args
    return play_match(cfg, pair, a_first)


def _progress(done: int, total: int, wins: float, started: float) -> None:
    width = 30
    filled = int(width * done / total) if total else width
    elapsed = time.time() - started
    eta = elapsed / done * (total - done) if done else 0.0
    rate = f"A {100 * wins / done:5.1f}%" if done else "A   -  "
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} matches  {rate}  "
                     f"{elapsed:5.0f}s elapsed  eta {eta:5.0f}s")
    sys.stderr.flush()


def run(cfg: Config, matches: int, jobs: int, progress: bool = True) -> dict:
    pairs = (matches + 1) // 2
    tasks = [(cfg, p, a_first) for p in range(pairs) for a_first in (True, False)]
    results = []
    started = time.time()
    wins = 0.0
    if progress:
        _progress(0, len(tasks), 0, started)
    if jobs > 1:
        with multiprocessing.Pool(jobs) as pool:
            for r in pool.imap_unordered(_task, tasks):
                results.append(r)
                wins += r["score"]
                if progress:
                    _progress(len(results), len(tasks), wins, started)
    else:
        for t in tasks:
            r = _task(t)
            results.append(r)
            wins += r["score"]
            if progress:
                _progress(len(results), len(tasks), wins, started)
    if progress:
        sys.stderr.write("\n")
    return summarize(cfg, results, time.time() - started)


def summarize(cfg: Config, results: list[dict], elapsed: float) -> dict:
    n = len(results)
    wins = sum(r["score"] for r in results)
    deals = sum(r["deals"] for r in results)
    low, high = wilson(wins, n)
    out = {"matches": n, "deals": deals, "win_rate_a": wins / n if n else 0.0, "ci95": (low, high),
           "elapsed_s": elapsed, "diff_per_deal": paired_difference(results, "points"),
           "diff_per_deal_without_nil": paired_difference(results, "points", "nil_points")}
    # Deals: won (more points for A's seats; hearts: fewer), drawn counted half; the mean margin.
    margins = [m for r in results for m in r.get("margins", [])]
    if cfg.game == "hearts":
        margins = [-m for m in margins]
    deal_wins = sum(1.0 if m > 0 else 0.5 if m == 0 else 0.0 for m in margins)
    decided = sum(1 for m in margins if m != 0)
    won = sum(1 for m in margins if m > 0)
    out["deal_win_rate_a"] = deal_wins / len(margins) if margins else 0.0
    out["deal_ci95"] = wilson(deal_wins, len(margins))
    out["decided_win_rate_a"] = won / decided if decided else 0.0
    out["decided_ci95"] = wilson(won, decided)
    out["decided"] = decided
    mean = sum(margins) / len(margins) if margins else 0.0
    sd = math.sqrt(sum((m - mean) ** 2 for m in margins) / (len(margins) - 1)) if len(margins) > 1 else 0.0
    out["margin"] = mean
    out["margin_half95"] = 1.96 * sd / math.sqrt(len(margins)) if margins else 0.0
    for side in ("a", "b"):
        ts = [t for r in results for t in r["times"][side]]
        out[f"points_per_deal_{side}"] = sum(r["points"][side] for r in results) / deals if deals else 0
        out[f"p50_ms_{side}"] = 1000 * percentile(ts, 0.5)
        out[f"p95_ms_{side}"] = 1000 * percentile(ts, 0.95)
        out[f"max_ms_{side}"] = 1000 * max(ts, default=0.0)
        out[f"mean_ms_{side}"] = 1000 * sum(ts) / len(ts) if ts else 0.0
        out[f"decisions_{side}"] = len(ts)
        keys = sorted({k for r in results for k in r.get("stats", {}).get(side, {})})
        out[f"stats_{side}"] = {k: sum(r["stats"][side].get(k, 0) for r in results) for k in keys}
    return out


def paired_difference(results: list[dict], key: str, minus: str | None = None) -> tuple[float, float]:
    """A's points per deal minus B's, with the half-width of its 95% interval: each duplicate pair
    (same decks, seats swapped) is one observation, so the luck of the cards cancels within it.
    ``minus`` names a per-side counter taken off the points first (spades: the nil scores)."""
    pairs: dict[int, list[float]] = {}
    for r in results:
        d = r[key]["a"] - r[key]["b"]
        if minus:
            d -= r["stats"]["a"].get(minus, 0) - r["stats"]["b"].get(minus, 0)
        acc = pairs.setdefault(r.get("pair", id(r)), [0.0, 0])
        acc[0] += d
        acc[1] += r["deals"]
    xs = [total / deals for total, deals in pairs.values() if deals]
    if not xs:
        return 0.0, 0.0
    mean = sum(xs) / len(xs)
    if len(xs) < 2:
        return mean, float("inf")
    var = sum((x - mean) ** 2 for x in xs) / (len(xs) - 1)
    return mean, 1.96 * math.sqrt(var / len(xs))


def report(cfg: Config, s: dict) -> str:
    unit = {"sixtysix": "game points", "hearts": "card points (lower is better)",
            "spades": "team points"}[cfg.game]
    budget = "default" if cfg.budget_ms is None else f"{cfg.budget_ms} ms"
    lines = [
        f"{cfg.game}/{cfg.variant}: A={cfg.a} vs B={cfg.b}, budget {budget}, seed {cfg.seed}",
        f"matches {s['matches']} (duplicate pairs, seats swapped), deals {s['deals']}, "
        f"{s['elapsed_s']:.0f} s",
        f"win rate of A: {100 * s['win_rate_a']:.1f}%  (95% CI {100 * s['ci95'][0]:.1f}% - "
        f"{100 * s['ci95'][1]:.1f}%)",
        f"mean {unit} per deal per seat: A {s['points_per_deal_a']:.2f}   B {s['points_per_deal_b']:.2f}",
        f"deals won by A: {100 * s['deal_win_rate_a']:.1f}% (drawn half; 95% CI "
        f"{100 * s['deal_ci95'][0]:.1f}% - {100 * s['deal_ci95'][1]:.1f}%); of the {s['decided']} "
        f"decided: {100 * s['decided_win_rate_a']:.1f}% ({100 * s['decided_ci95'][0]:.1f}% - "
        f"{100 * s['decided_ci95'][1]:.1f}%)",
        f"margin per deal (A - B, {unit.split(' (')[0]}): {s['margin']:+.3f} +- {s['margin_half95']:.3f} (95%)",
        f"A - B per deal, over duplicate pairs: {s['diff_per_deal'][0]:+.2f} "
        f"(95% CI +-{s['diff_per_deal'][1]:.2f})",
    ]
    if cfg.game == "spades":
        lines.append(f"A - B per deal without nil scores: {s['diff_per_deal_without_nil'][0]:+.2f} "
                     f"(95% CI +-{s['diff_per_deal_without_nil'][1]:.2f})")
    for side, level in (("a", cfg.a), ("b", cfg.b)):
        lines.append(f"decision time {side.upper()} ({level}): p50 {s[f'p50_ms_{side}']:.1f} ms  "
                     f"p95 {s[f'p95_ms_{side}']:.1f} ms  mean {s[f'mean_ms_{side}']:.1f} ms  "
                     f"max {s[f'max_ms_{side}']:.1f} ms  "
                     f"({s[f'decisions_{side}']} decisions)")
    for side, level in (("a", cfg.a), ("b", cfg.b)):
        st = s.get(f"stats_{side}") or {}
        deals = s["deals"]
        if cfg.game == "spades" and deals:
            without = s[f"points_per_deal_{side}"] - st.get("nil_points", 0) / deals
            lines.append(f"spades {side.upper()} ({level}): {without:.2f} points per deal without nil "
                         f"scores; nil made {st.get('nil_made', 0)} failed {st.get('nil_failed', 0)}, "
                         f"blind nil made {st.get('blind_nil_made', 0)} failed "
                         f"{st.get('blind_nil_failed', 0)}; bags per team-deal "
                         f"{st.get('bags', 0) / max(1, st.get('team_deals', 0)):.2f}")
        if cfg.game == "hearts":
            lines.append(f"hearts {side.upper()} ({level}): moons shot {st.get('moons', 0)} in {deals} deals")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.bots.lab.duel", description=__doc__.split("\n")[0])
    parser.add_argument("--game", required=True, choices=["sixtysix", "hearts", "spades"])
    parser.add_argument("--variant", default=None)
    parser.add_argument("--a", default="strong", help="bot level of side A (or git:REV:LEVEL)")
    parser.add_argument("--b", default="basic", help="bot level of side B (or git:REV:LEVEL)")
    parser.add_argument("--matches", type=int, default=20, help="matches (rounded up to pairs)")
    parser.add_argument("--budget-ms", type=int, default=None, help="thinking budget (default: the bots')")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=min(2, multiprocessing.cpu_count()))
    parser.add_argument("--max-deals", type=int, default=1000, help="stop a match after this many deals")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.add_argument("--cpu-clock", action="store_true",
                        help="budgets on each bot's CPU clock, so a busy machine measures as a quiet one plays")
    args = parser.parse_args(argv)
    rules = get_rules(args.game)
    cfg = Config(args.game, rules.check_variant(args.variant), args.a, args.b, args.budget_ms,
                 args.seed, args.max_deals, args.cpu_clock)
    summary = run(cfg, args.matches, max(1, args.jobs), progress=not args.quiet)
    print(report(cfg, summary))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
