"""What seeing the other hands would be worth to a level: the ceiling of any inference from play.

    python bench/oracle.py --game sixtysix [--level strong] [--deals 400] [--jobs 2] [--full | --trumps]

Side A is the level whose draws keep the other seats' real hands (in sixty-six the stock's order
stays hidden and is shuffled per draw, unless ``--full``: then nothing is hidden; with
``--trumps`` side A learns only which trumps the opponent holds); side B is the
same level as it plays. Everything else is the arena's (``games.bots.lab.duel``): duplicate deals,
one deal a match, budgets on each bot's CPU clock. Reading the opponents' cards from their play,
however well, can at most make the level into side A: the score measured here bounds what an
inference could add, and says whether the hidden cards are where its losses are.

The truth reaches the search where the hidden cards do: each game's sampler (``parts.of(game).sample``), the
sixty-six tree search's draws (``sampling.sixtysix_draws``) and, in a sixty-six phase 2, the list
of hands the opponent may hold (``sixtysix_search.sixtysix_hands``); the bench wraps all three, for side
A's decisions, to return the real cards of the state being played. Nothing of this exists outside
the bench.
"""
from __future__ import annotations

import argparse
import dataclasses
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from games.bots import parts, sampling, sixtysix_search  # noqa: E402
from games.bots.lab import duel  # noqa: E402
from games.engine import cards as C  # noqa: E402
from games.engine import hearts as H  # noqa: E402
from games.engine.core import GAME_NAMES, get_rules  # noqa: E402

ORACLE = "oracle:"          # side A's level name: "oracle:strong"
_playing = {"state": None, "oracle": False, "full": False, "trumps": False}
TRUMP_TRIES = 2000          # --trumps: draws tried for one holding the opponent's real trumps


def _record_views(state_class) -> None:
    """Remember the state whose view a bot is about to get (the arena asks for it just before)."""
    view = state_class.view

    def recorded(self, seat):
        _playing["state"] = self
        return view(self, seat)
    state_class.view = recorded


def _true_sample(sampler):
    def sample(view: dict, rng) -> dict:
        drawn = sampler(view, rng)
        state = _playing["state"]
        if not _playing["oracle"] or state is None:
            return drawn
        if view["game"] != "sixtysix":    # a spades hand not yet looked at stays drawn
            return {"hands": {s: hand if int(s) == view["seat"] else C.codes_of(_held(state, int(s)))
                              for s, hand in drawn["hands"].items()}}
        if _playing["trumps"]:
            return _with_his_trumps(lambda: sampler(view, rng), lambda d: C.mask_of_codes(d["hand"]),
                                    state, view["seat"], first=drawn)
        unseen = [C.INDEX[c] for c in drawn["hand"] + drawn["stock"]]
        hand, stock = _sixtysix_truth(state, view["seat"], unseen, len(drawn["stock"]), rng)
        return {"hand": C.codes_of(hand), "stock": [C.CODES[c] for c in stock]}
    return sample


def _true_draws(draws):
    """``sampling.sixtysix_draws`` (the tree search's many draws) as ``_true_sample`` draws."""
    def true_draws(view: dict, rng):
        draw = draws(view, rng)
        state = _playing["state"]
        if not _playing["oracle"] or state is None:
            return draw

        def truth():
            if _playing["trumps"]:
                return _with_his_trumps(draw, lambda d: d[0], state, view["seat"])
            drawn_hand, drawn_stock = draw()
            unseen = list(C.iter_cards(drawn_hand | C.mask_of(drawn_stock)))
            return _sixtysix_truth(state, view["seat"], unseen, len(drawn_stock), rng)
        return truth
    return true_draws


def _sixtysix_truth(state, seat: int, unseen: list[int], stock_size: int, rng):
    """The opponent's real hand (a mask) and a stock (card indices) of the ``unseen`` cards a draw
    placed: in its real order with ``--full``, else his hand's complement, shuffled (the stock's
    order stays hidden)."""
    hand = state.hands[1 - seat]
    real_stock = tuple(state.stock[state.stock_pos:])
    if _playing["full"] and len(real_stock) == stock_size:
        return hand, real_stock
    stock = [c for c in unseen if not hand >> c & 1]
    rng.shuffle(stock)
    return hand, tuple(stock)


def _with_his_trumps(draw, hand_of, state, seat: int, first=None):
    """``--trumps``: the first of the draws whose opponent's hand holds exactly his real trumps
    (the rest of it and the stock as drawn), beginning with ``first`` if one was drawn already;
    after ``TRUMP_TRIES`` misses, the last draw."""
    trumps = state.hands[1 - seat] & state.trump_mask
    drawn = draw() if first is None else first
    for _ in range(TRUMP_TRIES - 1):
        if hand_of(drawn) & state.trump_mask == trumps:
            break
        drawn = draw()
    return drawn


def _held(state, seat: int) -> int:
    """A seat's cards as the draws name them: in the hearts pass, as dealt (before any pass)."""
    if isinstance(state, H.HeartsState) and state.phase == H.PASS:
        return state.hands[seat] | state.passed[seat]
    return state.hands[seat]


def _true_hands(enumerate_hands):
    def hands(view: dict, limit: int):
        state = _playing["state"]
        if not _playing["oracle"] or state is None:
            return enumerate_hands(view, limit)
        if _playing["trumps"]:
            hands = enumerate_hands(view, limit)
            trumps = state.hands[1 - view["seat"]] & state.trump_mask
            return hands and [h for h in hands if h & state.trump_mask == trumps]
        return [state.hands[1 - view["seat"]]]
    return hands


_arena_choose = duel.choose_action


def _choose(level: str, view: dict, rng, budget_ms):
    if not level.startswith(ORACLE):
        return _arena_choose(level, view, rng, budget_ms)
    _playing["oracle"] = True
    try:
        return _arena_choose(level[len(ORACLE):], view, rng, budget_ms)
    finally:
        _playing["oracle"] = False


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=["sixtysix", "hearts", "spades"], required=True)
    parser.add_argument("--variant", default=None)
    parser.add_argument("--level", default="strong")
    parser.add_argument("--deals", type=int, default=400)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    known = parser.add_mutually_exclusive_group()
    known.add_argument("--full", action="store_true",
                       help="sixty-six: the stock's order too (nothing hidden)")
    known.add_argument("--trumps", action="store_true",
                       help="sixty-six: only which trumps the opponent holds, the rest drawn as ever")
    args = parser.parse_args(argv)
    rules = get_rules(args.game)
    _playing["full"] = args.full
    _playing["trumps"] = args.trumps
    _record_views(rules.state_class)
    for game in GAME_NAMES:
        found = parts.of(game)
        parts.register(game, dataclasses.replace(found, sample=_true_sample(found.sample)))
    sixtysix_search.sixtysix_hands = _true_hands(sixtysix_search.sixtysix_hands)
    sampling.sixtysix_draws = _true_draws(sampling.sixtysix_draws)
    duel.choose_action = _choose
    cfg = duel.Config(args.game, rules.check_variant(args.variant), ORACLE + args.level,
                       args.level, None, args.seed, 1, cpu_clock=True)
    summary = duel.run(cfg, args.deals, max(1, args.jobs), progress=False)
    print(duel.report(cfg, summary))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
