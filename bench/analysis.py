"""Cost of the post-match analysis, and what it does to a bot's reply in the same process.

    python bench/analysis.py [--deals 3] [--iterations N] [--responsiveness [--rounds 12]]

CPU seconds per analysed deal per game (median of ``--deals`` deals played by basic bots, one
analysed seat - a person's share of a deal), at the analysis depth (games/bots/analyse.py
ITERATIONS unless ``--iterations``). ``--responsiveness``: the wall time of a strong-bot decision
(fixed draws, so the time shows the contention) alone, beside an analysis thread that never gives
way, and beside one that pauses for table work (analysis/throttle.py, as the embedded worker runs it).
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from games.bots import analyse as A, choose_action, strong  # noqa: E402
from games.engine.core import deal  # noqa: E402

VARIANTS = {"sixtysix": "kurnik", "hearts": "standard", "spades": "standard"}


def played_record(game: str, seed: int) -> dict:
    rng = random.Random(seed)
    state = deal(game, VARIANTS[game], rng=rng, dealer=seed % (2 if game == "sixtysix" else 4))
    while not state.is_over():
        seat = state.seats_to_act()[0]
        state.apply(choose_action("basic", state.view(seat), rng))
    return state.record()


def cost(deals: int, iterations: int | None) -> None:
    print("CPU seconds per analysed deal (one seat), median of", deals, "deals")
    for game in VARIANTS:
        secs, counts = [], []
        for n in range(deals):
            record = played_record(game, 1000 + n)
            result = A.analyse([record], seats=[0], iterations=iterations, seed=n)
            secs.append(result["cpu_seconds"])
            counts.append(result["summary"][0]["decisions"] if result["summary"] else 0)
        print(f"  {game:<9} {statistics.median(secs):6.2f} s  (deals: {', '.join(f'{s:.2f}' for s in secs)};"
              f" decisions {statistics.median(counts)}; {result['iterations']} draws each)")


def responsiveness(rounds: int = 12) -> None:
    from analysis import throttle   # Django-free module (celery signals only)

    view_state = deal("hearts", "standard", rng=random.Random(4))
    while (view_state.view(view_state.seats_to_act()[0])["phase"] == "pass"
           or len(view_state.view(view_state.seats_to_act()[0])["legal"]) < 4):
        s = view_state.seats_to_act()[0]
        view_state.apply(choose_action("basic", view_state.view(s), random.Random(s)))
    view = view_state.view(view_state.to_act())
    background = [played_record("spades", 77)]

    def bot_reply() -> float:
        throttle._started(task=type("T", (), {"name": "games.tasks.advance_table"}))
        t = time.perf_counter()
        strong.choose_action(view, random.Random(1), iterations=150)
        elapsed = time.perf_counter() - t
        throttle._finished(task=type("T", (), {"name": "games.tasks.advance_table"}))
        return elapsed * 1000

    def measure(label: str, pause) -> None:
        stop = threading.Event()

        def analyst():
            while not stop.is_set():
                A.analyse(background, seats=[0], iterations=10_000, seed=0,
                          pause=(lambda: (pause and pause(), stop.is_set() and sys.exit())))
        thread = None
        if pause is not False:
            thread = threading.Thread(target=analyst, daemon=True)
            thread.start()
            time.sleep(0.3)
        times = []
        for _ in range(rounds):
            times.append(bot_reply())
            time.sleep(0.05)
        stop.set()
        if thread:
            thread.join(5)
        times.sort()
        print(f"  {label:<42} median {statistics.median(times):6.1f} ms, worst {times[-1]:6.1f} ms")

    print("A strong-bot decision (150 draws), wall time:")
    measure("alone", False)
    measure("beside an analysis that never gives way", None)
    measure("beside an analysis that gives way", throttle.pause)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=3)
    ap.add_argument("--iterations", type=int)
    ap.add_argument("--responsiveness", action="store_true")
    ap.add_argument("--rounds", type=int, default=12, help="--responsiveness: decisions timed per case")
    args = ap.parse_args()
    if args.responsiveness:
        responsiveness(args.rounds)
    else:
        cost(args.deals, args.iterations)


if __name__ == "__main__":
    main()
