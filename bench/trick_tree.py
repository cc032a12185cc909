"""Hearts and Spades play by a multi-player information-set tree search, against the level it
would replace: measured, not kept (docs/BOTS.md).

    python bench/trick_tree.py --game hearts --matches 246 --jobs 2     # the tree's expert vs strong

Cowling, Powley and Whitehouse, "Information Set Monte Carlo Tree Search" (2012): single
observer, one tree for every draw. An iteration draws the other hands (``sampling``'s
constraints: voids shown, in hearts the cards this seat passed, in spades a leader's unbroken
spade lead), walks the tree from the decision choosing among the moves legal in that draw by UCB
with availability counts, each seat by its own value (hearts: ``trick_solver.hearts_value``, the
others' mean points minus its own; spades: ``trick_solver.spades_eval``, its team's deal minus the
other's), adds one node, plays the deal out with the game's rollout policy (``hearts_search``,
``spades_search``) and backs every seat's value up to the nodes it moved into. The answer is the
root's most visited move.

What it would add to the determinized search (``strong.search``): the seat's own later cards and
the others' answers searched, not left to the rollout's rules, and one rollout a draw instead of
one per option. The A/B: side A is ``--level`` (default expert) whose play decisions before the
last tricks (more than ``trick_solver.SOLVE_CARDS`` cards in hand) are the tree's, for ``--share``
of its budget; every other decision, and side B (``--against``, default strong), as the level
plays today; the arena's duplicate deals, one a match, budgets on the bots' CPU clocks.
"""
from __future__ import annotations

import argparse
import random as _random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.bots import base, hearts_search, levels, parts, sampling, spades_search, strong  # noqa: E402
from games.bots.lab import duel  # noqa: E402
from games.bots import trick_solver as T  # noqa: E402
from games.bots.sixtysix_tree import Node, select  # noqa: E402  (the tree's nodes and UCB step)
from games.engine import cards as C  # noqa: E402
from games.engine import hearts as H  # noqa: E402
from games.engine import spades as SP  # noqa: E402
from games.engine.core import get_rules  # noqa: E402

# UCB's exploration, in hearts card points (a deal's hearts_value spreads over about -15..15; a
# spades value is scaled to it by SCALE): wide at the root, narrower below it, so that an answer
# is valued by what its seat would choose.
ROOT_EXPLORATION = 12.0
EXPLORATION = 4.0
SCALE = {"hearts": 1.0, "spades": 10.0}     # a game's values per hearts card point


def choose_tree(view: dict, seconds: float, rng, iterations: int | None = None) -> dict:
    """The action of ``view["legal"]`` to play after ``seconds`` of iterations on the bot clock (at
    least one), or exactly ``iterations`` (deterministic given ``rng``)."""
    deadline = base.clock() + seconds
    game = view["game"]
    play, playout, scale = _PLAY[game], _PLAYOUT[game], SCALE[game]
    start = get_rules(game).state_from_view(view, sampling.sample(view, rng))
    draw = hand_draws(view, rng)
    root = Node()
    done = 0
    while True:
        state = start.clone()
        for seat, mask in draw().items():
            state.hands[seat] = mask
        path = _descend(root, state, rng, play, scale)
        values = playout(state, _random.Random(rng.getrandbits(32)))
        for node, mover in path:
            node.visits += 1
            node.total += values[mover]
        done += 1
        if done == iterations or iterations is None and base.clock() >= deadline:
            break
    best = max(root.children.items(), key=lambda item: item[1].visits)[0]
    return next(a for a in view["legal"] if start.move_of(a) == best)


def hand_draws(view: dict, rng):
    """A function drawing the other seats' hands (``{seat: mask}``) as ``sampling.sample_trick_game``
    does, the view read once."""
    pool, capacity, allowed, fixed = parts.of(view["game"]).draw_constraints(view)
    return lambda: sampling.deal_constrained(pool, capacity, allowed, rng, fixed)


def _descend(node: Node, state, rng, play: int, scale: float) -> list[tuple[Node, int]]:
    """Walk down from ``node`` by UCB among the moves legal in ``state`` (applying them), add the
    first move not yet in the tree; the nodes passed and who moved into each."""
    path = []
    while state.phase == play:
        mover = state.turn
        exploration = (EXPLORATION if path else ROOT_EXPLORATION) * scale
        m, node, added = select(node, state.legal_moves(mover), rng, exploration)
        state.apply_move(m, mover)
        path.append((node, mover))
        if added:
            break
    return path


def _hearts_playout(s, rng) -> list[float]:
    """The deal played out by ``hearts_search``'s policy: every seat's value."""
    while s.phase == H.PLAY:
        if rng.random() < hearts_search.EPSILON:
            s.apply_move(s.random_move(rng))
        else:
            s.apply_move(hearts_search.policy_move(s, s.turn))
    if s.phase == H.MOON:
        s.apply_move(H.MOON_OTHERS)
    points = s.result()["points"]
    return [T.hearts_value(points, seat) for seat in range(4)]


def _spades_playout(s, rng) -> list[float]:
    """The deal played out by ``spades_search``'s policy (no random card from a nil's side, as
    there): every seat's value."""
    while s.phase == SP.PLAY:
        seat = s.turn
        if rng.random() < spades_search.EPSILON and not spades_search._nil_side(s, seat):
            s.apply_move(s.random_move(rng), seat)
        else:
            s.apply_move(spades_search.policy_move(s, seat), seat)
    even = T.spades_eval(s, 0)
    return [even, -even, even, -even]


_PLAY = {"hearts": H.PLAY, "spades": SP.PLAY}
_PLAYOUT = {"hearts": _hearts_playout, "spades": _spades_playout}


# === the A/B =======================================================================================

TREE = "tree"


def _tree_level(level: str, share: float):
    """An arena ``choose_action`` in which side ``TREE`` is ``level`` with its play by the tree."""
    plain = duel.choose_action
    budget = levels.get(level).budget_ms

    def choose(name, view, rng, budget_ms):
        if name != TREE:
            return plain(name, view, rng, budget_ms)
        legal = view["legal"]
        if len(legal) > 1 and legal[0]["type"] == "play" and len(view["hand"]) > T.SOLVE_CARDS:
            return dict(choose_tree(view, budget * share / 1000.0, rng))
        return strong.choose_action(view, rng, budget, cap_ms=levels.get(level).cap_ms)
    return choose


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--game", choices=["hearts", "spades"], default="hearts")
    p.add_argument("--level", default="expert", help="the level whose play the tree takes over")
    p.add_argument("--against", default="strong")
    p.add_argument("--share", type=float, default=0.5, help="of the level's budget, per decision")
    p.add_argument("--matches", type=int, default=100, help="deals, in duplicate pairs")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=2)
    args = p.parse_args(argv)
    duel.choose_action = _tree_level(args.level, args.share)   # the pool's workers fork with it
    cfg = duel.Config(args.game, get_rules(args.game).variants[0], TREE, args.against, None,
                       args.seed, 1, True)
    print(f"A = {args.level} with its play by the tree ({args.share:g} of its budget)")
    print(duel.report(cfg, duel.run(cfg, args.matches, args.jobs, progress=False)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
