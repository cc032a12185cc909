"""Sixty-six while the stock is open: single-observer information-set MCTS (Cowling, Powley and
Whitehouse, "Information Set Monte Carlo Tree Search", 2012).

One tree of the moves from the decision on, shared by every draw of the hidden cards (the
opponent's hand and the stock's order, ``sampling.sixtysix_draws``). An iteration draws them, walks
the tree choosing among the moves legal in that draw by UCB with availability counts (a move is
judged against the times it could have been chosen, since a draw decides what each hand holds;
wide at the root, nearly greedy below it, so that a move is valued by the answers a side would
choose, not by the average of all of them),
adds one node, plays the rest out with the strong bot's rollout (solved exactly at its end) and
backs the value up, each node from the side of the seat that moved into it. The answer is the
root's most visited move.

What it adds to the determinized search (``strong.search``): the seat's own later moves and the
opponent's answers are searched as well, not left to the rollout's rules, and a draw costs one
rollout instead of one per option, so it makes several times as many. Claims are never explored:
a claim that is surely true is the only move searched where it stands, a surely false one none.
"""
from __future__ import annotations

import math
import random as _random

from games.engine import sixtysix as sixtysix_rules

from . import base, sampling

# UCB's exploration, in game points. At the root it is wide (a playout's value spreads over about
# -3..3), so a move of the decision whose first playouts went badly is still tried again (screened
# 1.5, 2.5 and 4; 6 measured no better). Below the root both sides choose nearly greedily: at 4
# there too, a move's value was the average over every answer the opponent has, not his best one
# (measured on 1,000 deals, with the opponent's nodes alone and with both sides: docs/BOTS.md).
ROOT_EXPLORATION = 4.0
EXPLORATION = 1.0


class Node:
    __slots__ = ("children", "visits", "total", "available")

    def __init__(self):
        self.children: dict[int, Node] = {}
        self.visits = 0
        self.total = 0.0        # the sum of the playouts' values for the seat that moved here
        self.available = 0      # iterations in which this move was legal at its parent


def choose(view: dict, seconds: float, rng, rollout, iterations: int | None = None) -> dict:
    """The action of ``view["legal"]`` to play after ``seconds`` of iterations on the bot clock (at
    least one), or exactly ``iterations`` (deterministic given ``rng``: the tests'):
    ``rollout(state, rng, seat)`` values a position for ``seat``."""
    root, start_state = _grow(view, seconds, rng, rollout, iterations)
    best = max(root.children.items(), key=lambda item: item[1].visits)[0]
    return next(a for a in view["legal"] if start_state.move_of(a) == best)


def search(view: dict, seconds: float, rng, rollout, iterations: int | None = None) -> Node:
    """The tree grown from ``view`` (see ``choose``); its root."""
    return _grow(view, seconds, rng, rollout, iterations)[0]


def _grow(view, seconds, rng, rollout, iterations):
    """The tree's root and the state at the view the draws were dealt into."""
    seat = view["seat"]
    opponent = 1 - seat
    start_state = sixtysix_rules.state_from_view(view, sampling.sample(view, rng))
    draw = sampling.sixtysix_draws(view, rng)
    root = Node()
    deadline = base.clock() + seconds
    done = 0
    while True:
        state = start_state.clone()
        state.hands[opponent], state.stock = draw()
        path = _descend(root, state, rng)
        value = rollout(state, _random.Random(rng.getrandbits(32)), seat)
        for node, mover in path:
            node.visits += 1
            node.total += value if mover == seat else -value
        done += 1
        if done == iterations or iterations is None and base.clock() >= deadline:
            return root, start_state


def _descend(node: Node, state, rng) -> list[tuple[Node, int]]:
    """Walk down from ``node`` by UCB among the moves legal in ``state`` (applying them), add the
    first move not yet in the tree; the nodes passed and who moved into each."""
    path = []
    while not state.over:
        mover = state.to_act()
        exploration = EXPLORATION if path else ROOT_EXPLORATION
        m, node, added = select(node, searched_moves(state, mover), rng, exploration)
        state.apply_move(m, mover)
        path.append((node, mover))
        if added:
            break
    return path


def select(node: Node, moves: list[int], rng, exploration: float) -> tuple[int, Node, bool]:
    """The move to take from ``node`` among ``moves`` (those legal in this iteration's draw, each
    counted available): one not yet in the tree, at random, added (then ``True``), else the best
    by UCB. Returns the move, its node and whether it was added."""
    untried = []
    for m in moves:
        child = node.children.get(m)
        if child is None:
            untried.append(m)
        else:
            child.available += 1
    if untried:
        m = untried[rng.randrange(len(untried))]
        child = node.children[m] = Node()
        child.available = 1
        return m, child, True
    m = max(moves, key=lambda m: _ucb(node.children[m], exploration))
    return m, node.children[m], False


def _ucb(node: Node, exploration: float) -> float:
    return node.total / node.visits + exploration * math.sqrt(math.log(node.available) / node.visits)


def searched_moves(state, seat: int) -> list[int]:
    """The legal moves worth searching: without claims, unless one is surely true (then only it)."""
    points = state.points(seat)
    moves = []
    for m in state.legal_moves(seat):
        if m == sixtysix_rules.DECLARE or sixtysix_rules.MARRIAGE_DECLARE <= m < sixtysix_rules.EXCHANGE:
            gain = 0 if m == sixtysix_rules.DECLARE else state.marriage_points(m - sixtysix_rules.MARRIAGE_DECLARE)
            if points + gain >= sixtysix_rules.TARGET:
                return [m]
            continue
        moves.append(m)
    return moves
