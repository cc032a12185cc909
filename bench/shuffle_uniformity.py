"""Is the provably fair shuffle uniform enough? Chi-square tests over many random seeds.

    python bench/shuffle_uniformity.py [--deals 20000] [--seed 1]

Per game and variant, ``--deals`` decks are derived (games/engine/fair.py) from random server
seeds, one random client seed per seat, a match label and a deal number, as the site draws them.
Two tables of counts are tested against uniformity:

* positions: card x position in the shuffled deck (n x n cells, each expected deals / n);
* places: card x place after the rules deal the deck (each seat's hand; Sixty-six's stock and
  trump card), expected deals x place size / n.

Each deal fills a whole table at once (every card in one place, every place with its size), so
Pearson's statistic is not the sum of independent cells: under a uniform shuffle it is
n / (n - 1) times a chi-square with (n - 1)(columns - 1) degrees of freedom (its mean is
n (columns - 1)). The statistic printed is Pearson's times (n - 1) / n, tested against that.

It prints the statistic, the degrees of freedom and the p-value (the chance of a statistic at least
this large from a perfectly uniform shuffle). A script, not a test: p-values of a fair shuffle are
themselves uniform, so one in a hundred runs is below 0.01 by chance; rerun with another ``--seed``
before suspecting anything, and worry about p-values that stay tiny. ``--naive`` runs the same
tests on a known-biased shuffle (each position swapped with any position, the classic mistake)
to show that they see such a bias.
"""
from __future__ import annotations

import argparse
import math
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from games.engine import cards as C, fair  # noqa: E402
from games.engine.core import GAME_NAMES, get_rules  # noqa: E402


def chi2_sf(stat: float, df: int) -> float:
    """P(X >= stat) for X ~ chi-square(df): the regularised upper incomplete gamma Q(df/2, stat/2)
    (a series below a + 1, Lentz's continued fraction above; Numerical Recipes 6.2)."""
    a, x = df / 2.0, stat / 2.0
    if x <= 0:
        return 1.0
    log_front = a * math.log(x) - x - math.lgamma(a)
    if x < a + 1:
        term = total = 1.0 / a
        n = a
        while abs(term) > abs(total) * 1e-15:
            n += 1
            term *= x / n
            total += term
        return max(0.0, 1.0 - total * math.exp(log_front))
    tiny = 1e-300
    b = x + 1 - a
    c, d = 1 / tiny, 1 / b
    h = d
    for i in range(1, 100000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return math.exp(log_front) * h


def chi2(observed: list[list[int]], expected: list[list[float]]) -> float:
    return sum((o - e) ** 2 / e for row_o, row_e in zip(observed, expected) for o, e in zip(row_o, row_e))


def places_of(dealt: dict) -> list[list[str]]:
    places = [list(h) for h in dealt["hands"]]
    if "stock" in dealt:
        places += [list(dealt["stock"]), [dealt["trump_card"]]]
    return places


def naive_shuffle(cards, server_seed, client_seeds, label, deal_number):
    """The classic biased shuffle (swap i with any j, not j <= i), from the same DRBG."""
    drbg = fair.Drbg.for_deal(server_seed, fair.context_bytes(label, deal_number, client_seeds))
    deck = list(cards)
    for i in range(len(deck)):
        j = drbg.below(len(deck))
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def run(game: str, variant: str, deals: int, rng: random.Random, shuffle=fair.shuffle) -> dict:
    rules = get_rules(game)
    cards = rules.deck(variant)
    n = len(cards)
    index = {c: i for i, c in enumerate(cards)}
    positions = [[0] * n for _ in range(n)]
    places = None
    started = time.perf_counter()
    for k in range(deals):
        seeds = fair.DealSeeds(rng.randbytes(32), tuple(rng.randbytes(16).hex() for _ in range(rules.seats)),
                               f"match:{k // 8}")
        deck = shuffle(cards, seeds.server_seed, seeds.client_seeds, seeds.label, k % 8)
        for pos, card in enumerate(deck):
            positions[index[card]][pos] += 1
        dealt = places_of(rules.deal_cards(variant, k % rules.seats, deck))
        if places is None:
            places = [[0] * len(dealt) for _ in range(n)]
            sizes = [len(p) for p in dealt]
        for p, codes in enumerate(dealt):
            for code in codes:
                places[index[C.card(code)]][p] += 1
    seconds = time.perf_counter() - started
    scale = (n - 1) / n         # see the module docstring
    pos_stat = scale * chi2(positions, [[deals / n] * n for _ in range(n)])
    pos_df = (n - 1) ** 2
    place_stat = scale * chi2(places, [[deals * size / n for size in sizes] for _ in range(n)])
    place_df = (n - 1) * (len(sizes) - 1)
    return {"positions": (pos_stat, pos_df, chi2_sf(pos_stat, pos_df)),
            "places": (place_stat, place_df, chi2_sf(place_stat, place_df)),
            "per_second": deals / seconds}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1, help="seeds the random seeds (for a rerun)")
    parser.add_argument("--naive", action="store_true", help="test a known-biased shuffle instead")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    shuffle = naive_shuffle if args.naive else fair.shuffle
    print(f"{args.deals} derived decks per variant "
          f"({'a NAIVE, biased shuffle' if args.naive else fair.DERIVATION})")
    print(f"{'game/variant':24} {'test':9} {'chi2':>10} {'df':>6} {'p':>7}   decks/s")
    for game in GAME_NAMES:
        for variant in get_rules(game).variants:
            out = run(game, variant, args.deals, rng, shuffle)
            for test in ("positions", "places"):
                stat, df, p = out[test]
                rate = f"{out['per_second']:8.0f}" if test == "positions" else ""
                print(f"{game + '/' + variant:24} {test:9} {stat:10.1f} {df:6d} {p:7.3f}   {rate}")


if __name__ == "__main__":
    main()
