"""Hearts: how often a bot level shoots the moon when its cards allow it, and how often it lets
another seat shoot.

    python bench/moon.py [--deals 60] [--levels basic strong] [--opponents strong] [--jobs 2]

The deals are chosen, not random: seat 0 is dealt a hand a moon may be made with (``moon_chance``:
six hearts or more, the ace and king among them), and the deal is played without a pass (the
fourth deal of four), so every run starts from the same chance. Two measures per level:

* **shooting**: the level at seat 0 against ``--opponents`` at seats 1-3: the share of deals it
  shot the moon, and its mean card points (a failed try costs: lower is better);
* **defence**: ``--opponents`` at seat 0 against the level at seats 1-3: the share of deals seat
  0 shot against them, and their mean card points per seat.

The same decks serve every level (deck i of a run is the same for each), so the levels differ by
their play only; each deal is one observation, with a 95% Wilson interval on the shares. Budgets
run on each bot's CPU clock (``duel.budgets_on_cpu_clock``), so a busy machine measures
as a quiet one plays.
"""
from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from games.bots import choose_action  # noqa: E402
from games.bots.lab import duel  # noqa: E402
from games.engine import cards as C  # noqa: E402
from games.engine import hearts as H  # noqa: E402
from games.engine.core import Match, get_rules  # noqa: E402

NO_PASS_DEAL = 3            # deal_number % 4 == 3: the deal without a pass (hearts.PASS_OFFSETS)


def moon_chance(codes: list[str]) -> bool:
    """Six hearts or more, headed by the ace and the king."""
    hearts = {c for c in codes if c[1] == "H"}
    return len(hearts) >= 6 and {"AH", "KH"} <= hearts


def moon_deck(i: int, seed: int) -> list:
    """The ``i``-th shuffled deck (by ``seed``) whose first hand has a moon chance."""
    rules = get_rules("hearts")
    for attempt in range(1_000_000):
        deck = C.shuffled(rules.deck("standard"), random.Random(f"moon-{seed}-{i}-{attempt}"))
        if moon_chance(rules.deal_cards("standard", 3, deck)["hands"][0]):
            return deck
    raise RuntimeError("no deck found")


def play_deal(task) -> dict:
    """One deal: ``levels[s]`` plays seat s; the seats' card points and who shot."""
    levels, i, seed = task
    rules = get_rules("hearts")
    match = Match.start("hearts", "standard", first_dealer=3)
    match.deal_number = NO_PASS_DEAL
    state = rules.new_state(match.setup_for(**rules.deal_cards("standard", 3, moon_deck(i, seed))))
    rngs = [random.Random(f"{seed}-{i}-{s}") for s in range(4)]
    with duel.budgets_on_cpu_clock():
        while not state.is_over():
            seat = state.seats_to_act()[0]
            state.apply(choose_action(levels[seat], state.view(seat), rngs[seat], None))
    result = state.result()
    return {"points": result["points"], "moon": result["moon"]}


def measure(levels: list[str], deals: int, seed: int, jobs: int) -> list[dict]:
    tasks = [(levels, i, seed) for i in range(deals)]
    if jobs > 1:
        with multiprocessing.Pool(jobs) as pool:
            return pool.map(play_deal, tasks, chunksize=1)
    return [play_deal(t) for t in tasks]


def share(hits: int, n: int) -> str:
    low, high = duel.wilson(hits, n)
    return f"{hits}/{n} = {100 * hits / n:.0f}% ({100 * low:.0f}-{100 * high:.0f}%)"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=60)
    ap.add_argument("--levels", nargs="+", default=["basic", "strong"])
    ap.add_argument("--opponents", default="strong", help="the level at the other seats")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args(argv)
    other = args.opponents
    print(f"hearts moon chances (seat 0: six hearts or more with A K; no pass), {args.deals} deals, "
          f"opponents {other}")
    for level in args.levels:
        shoot = measure([level, other, other, other], args.deals, args.seed, args.jobs)
        shot = sum(1 for r in shoot if r["moon"] == 0)
        mean0 = sum(r["points"][0] for r in shoot) / len(shoot)
        print(f"shooting  {level:>8}: shot {share(shot, len(shoot))}; its mean card points {mean0:.2f}",
              flush=True)
        defend = measure([other, level, level, level], args.deals, args.seed, args.jobs)
        against = sum(1 for r in defend if r["moon"] == 0)
        mean_def = sum(sum(r["points"][1:]) / 3 for r in defend) / len(defend)
        print(f"defence   {level:>8}: seat 0 shot {share(against, len(defend))}; "
              f"defenders' mean card points {mean_def:.2f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
