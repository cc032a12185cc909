"""Do today's bots decide exactly as the bots of an earlier commit? The proof that a move of the
bots' code changed no level's play.

    nice -n 15 python bench/same_decisions.py --rev b77b210 [--deals 6] [--levels random basic medium strong expert]

Positions: every decision of ``--deals`` deals per game and variant, played by today's basic bot
from seeded decks (each seat's view). Each level answers each view twice, today's
(``games.bots.choose_action``) and the commit's (``games.bots.lab.baseline``, the commit's
``games/bots`` beside today's engine), with the same rng seed and on a step clock: every read of
the bot clock (``base.clock``) advances it by ``--step-ms``, so a search's length is a count of
its looks at the clock, not the machine's speed, and both runs search exactly as far. The strong
search's per-action evaluation (the post-match analysis, ``strong.evaluate`` with a fixed number
of draws) is compared on the same views, and the puzzles found in the deals (``puzzle_solver.find``). Printed: per game and level the decisions compared and
those that differ, and the CPU seconds each side spent on them (interleaved, view by view; on
the step clock both do the same work, so this is the cost of the code); the exit status is 1 if
any differs.
"""
from __future__ import annotations

import argparse
import importlib
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from games import bots  # noqa: E402
from games.bots import base  # noqa: E402
from games.bots.lab import baseline  # noqa: E402
from games.engine import cards  # noqa: E402
from games.engine.core import GAME_NAMES, Match, get_rules  # noqa: E402


class StepClock:
    """A clock that moves only when read: ``step`` seconds a read."""

    def __init__(self, step: float):
        self.step = step
        self.now = 0.0

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def positions(game: str, variant: str, deals: int, seed: int) -> tuple[list[dict], list[dict]]:
    """Every seat's view at every decision of ``deals`` deals played by today's basic bot, and
    the deals' records."""
    rules = get_rules(game)
    views, records = [], []
    match = Match.start(game, variant, first_dealer=seed % rules.seats)
    for number in range(deals):
        if match.is_over():
            match = Match.start(game, variant, first_dealer=number % rules.seats)
        deck = cards.shuffled(rules.deck(match.variant), random.Random(f"{seed}-{game}-{variant}-{number}"))
        state = rules.new_state(match.setup_for(**rules.deal_cards(match.variant, match.dealer, deck)))
        rng = random.Random(f"{seed}-{game}-{variant}-{number}-play")
        while not state.is_over():
            seat = state.seats_to_act()[0]
            view = state.view(seat)
            views.append(view)
            state.apply(bots.choose_action("basic", view, rng))
        records.append(state.record())
        match.finish_deal(state)
    return views, records


def decide(choose, view: dict, seed: str, step: float) -> tuple[dict, float]:
    """The action, and the CPU seconds it took (on the step clock both sides do the same work)."""
    base.clock = StepClock(step)
    cpu = time.thread_time()
    action = choose(view, random.Random(seed))
    return action, time.thread_time() - cpu


def evaluations(strong_module, view: dict, seed: str, iterations: int) -> list | str:
    """Each action's mean and draws; or the refusal's name (a hearts pass wants its triples)."""
    try:
        return [(e["action"], round(e["mean"], 9), e["samples"])
                for e in strong_module.evaluate(view, random.Random(seed), iterations=iterations)]
    except Exception as refused:        # both sides must refuse alike
        return type(refused).__name__


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rev", default="b77b210", help="the commit whose bots today's are compared with")
    ap.add_argument("--deals", type=int, default=6, help="deals per game and variant")
    ap.add_argument("--levels", nargs="+", default=["random", "basic", "medium", "strong", "expert"])
    ap.add_argument("--step-ms", type=float, default=2.0, help="how far the bot clock moves a read")
    ap.add_argument("--evaluate-every", type=int, default=5, help="compare strong.evaluate on every n-th view")
    ap.add_argument("--iterations", type=int, default=12, help="draws of each compared evaluation")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    old_strong = importlib.import_module(baseline._package(args.rev) + ".strong")
    today_strong = importlib.import_module("games.bots.strong")
    old_puzzles = importlib.import_module(baseline._package(args.rev) + ".puzzle_solver")
    today_puzzles = importlib.import_module("games.bots.puzzle_solver")
    real_clock = base.clock
    differing = 0
    cpu_total = {"now": 0.0, "then": 0.0}
    try:
        for game in GAME_NAMES:
            for variant in get_rules(game).variants:
                views, records = positions(game, variant, args.deals, args.seed)
                for level in args.levels:
                    diff = 0
                    cpu = {"now": 0.0, "then": 0.0}
                    sides = {"now": lambda v, r: bots.choose_action(level, v, r),
                             "then": lambda v, r: baseline.choose_action(f"git:{args.rev}:{level}", v, r)}
                    for i, view in enumerate(views):
                        seed = f"{args.seed}-{level}-{i}"
                        answers = {}
                        for side in (("now", "then") if i % 2 else ("then", "now")):     # interleaved
                            answers[side], spent = decide(sides[side], view, seed, args.step_ms / 1000)
                            cpu[side] += spent
                        diff += answers["now"] != answers["then"]
                    differing += diff
                    cpu_total["now"] += cpu["now"]
                    cpu_total["then"] += cpu["then"]
                    print(f"{game:9} {variant:10} {level:7} {len(views):5} decisions, {diff} differ; "
                          f"CPU {cpu['now']:.2f} s now, {cpu['then']:.2f} s then", flush=True)
                diff = checked = 0
                for i, view in enumerate(views[::args.evaluate_every]):
                    seed = f"{args.seed}-evaluate-{i}"
                    base.clock = StepClock(args.step_ms / 1000)
                    with baseline._clock_of_today(old_strong.__name__.rsplit(".", 1)[0]):
                        then = evaluations(old_strong, view, seed, args.iterations)
                    now = evaluations(today_strong, view, seed, args.iterations)
                    diff += now != then
                    checked += 1
                differing += diff
                print(f"{game:9} {variant:10} {'evaluate':7} {checked:5} views, {diff} differ", flush=True)
                now = [today_puzzles.find(r, limit=50) for r in records]
                then = [old_puzzles.find(r, limit=50) for r in records]
                diff = sum(a != b for a, b in zip(now, then))
                differing += diff
                print(f"{game:9} {variant:10} {'puzzles':7} {len(records):5} deals, "
                      f"{sum(map(len, now))} puzzles, {diff} deals differ", flush=True)
    finally:
        base.clock = real_clock
    print(f"CPU of every decision: {cpu_total['now']:.2f} s now, {cpu_total['then']:.2f} s then")
    print("same decisions" if not differing else f"{differing} differ")
    return 1 if differing else 0


if __name__ == "__main__":
    raise SystemExit(main())
