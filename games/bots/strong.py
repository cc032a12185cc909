"""The strong bot: determinized search (perfect-information Monte Carlo) through the engine, with
each game's own parts (``parts.of(game)``, registered by ``<game>_search.py``).

Each iteration draws hidden cards consistent with the view (``sampling``: the view carries the
deal's public history, so every card seen played is out and what the play revealed is kept),
builds the engine state at the view's position (``GameRules.state_from_view``) and, for every
option, plays the deal out from it with the game's cheap rule-based rollout on the engine's fast
path (``legal_moves`` / ``apply_move`` / ``clone``), or solves it exactly where the game's parts
can. An option is a legal action, or several moves of one decision where the game's parts expand
it (a sixty-six exchange or close with what follows it), so that none is scored with a fixed
follow-up. Options share each iteration's cards and rollout seed (common random numbers), so their
averages differ by the option and not by the luck of the draw. The best average of the deal's
outcome for this seat wins, in the game's units (``parts.BotParts.unit`` scales the stakes).

Budget by need (``_run``): a single legal action answers at once, and a game's parts may answer
first (a sure claim, a bid, a pass, a tree search); a position whose hidden deals are few is
searched on each (``exact_hands``, no sampling); otherwise options race: one is dropped once the
leader beats it with confidence (paired differences) or it can be better by no stake, the search
stops when one is left, at the draw limit or the budget, and a decision still open then may go on
to ``cap_ms`` where the game's parts think past the budget.
``iterations`` fixes the number of draws instead, every option on every draw (deterministic given
the view and the rng seed, which the tests use). ``evaluate`` exposes the same search per action,
without shortcuts or racing, for the post-match analysis (games/bots/analyse.py).
"""
from __future__ import annotations

import math
import random as _random

from games.engine.core import get_rules

from . import base, parts
from .base import DEFAULT_BUDGET_MS, check_view, rng_of
from .sampling import sample

MAX_ITERATIONS = 400      # draws of an ordinary decision at most
HARD_ITERATIONS = 1600    # draws of a hard decision (still open at the budget) at most
MIN_DRAWS = 16            # draws before any option is dropped
CHECK_EVERY = 8           # draws between two looks at the confidence bounds
Z = 2.5                   # one-sided normal quantile of the paired bounds (many options, many looks)
INDIFFERENT = 0.04        # an option at most this much better than the best (with confidence) is dropped
HARD_STAKE = 0.15         # at the budget, an option that may still be this much better keeps the search going
# The stakes above are in sixty-six game points; each game's values are scaled by its parts' unit
# (parts.BotParts.unit). Only a game whose parts say so thinks past the budget, to the cap its
# level declares (measured in sixty-six: it pays); the others keep their budget.

def choose_action(view: dict, rng=None, budget_ms: int | None = None,
                  iterations: int | None = None, cap_ms: int | None = None) -> dict:
    """``budget_ms``: the thinking time of an ordinary decision (default ``DEFAULT_BUDGET_MS``);
    the search stops sooner once the best option is separated from the others with confidence;
    a sixty-six play goes on up to ``cap_ms`` (None: the budget) while an option that may be
    clearly better is not ruled out. ``iterations``: exactly that many draws instead, every option
    searched on each (deterministic given the view and the rng; tests and the analysis)."""
    legal = check_view(view)
    rng = rng_of(rng)
    if len(legal) == 1 and legal[0]["type"] != "pass":
        return dict(legal[0])
    game_parts = parts.of(view["game"])
    budget = DEFAULT_BUDGET_MS if budget_ms is None else budget_ms
    if game_parts.first_answer is not None:
        answer = game_parts.first_answer(view, legal, rng, budget, iterations)
        if answer is not None:
            return answer
    # Only a game whose parts say so thinks past the budget, and only to a cap the level declares
    # (levels.py); every other decision keeps the budget.
    cap = max(cap_ms, budget) if cap_ms is not None and game_parts.thinks_past_budget else budget
    return search(view, legal, rng, budget, iterations, cap)


def search(view: dict, legal: list[dict], rng, budget_ms: float, iterations: int | None,
           cap_ms: float | None = None) -> dict:
    result = _run(view, legal, rng, budget_ms, iterations, cap_ms, race=iterations is None)
    return dict(legal[result["choice"]])


def evaluate(view: dict, rng=None, iterations: int | None = None, budget_ms: float | None = None,
             actions: list[dict] | None = None) -> list[dict]:
    """The search's verdict on each action of ``view`` (post-match analysis, games/bots/analyse.py):
    ``[{"action", "mean", "samples"}]`` in the order of ``actions`` (default: ``view["legal"]``;
    a hearts pass needs its candidate triples given). ``mean`` is the average outcome of the deal
    for the view's seat in the search's units (see ``*_eval``) over ``samples`` shared draws; an
    action that is the first step of several (a sixty-six exchange or close, then the lead) gets
    the mean of its best continuation. Unlike ``choose_action`` nothing is shortcut or dropped: a
    certain claim, a false one or a pass is searched too, every option on every draw."""
    legal = check_view(view)
    actions = legal if actions is None else actions
    budget = DEFAULT_BUDGET_MS if budget_ms is None else budget_ms
    result = _run(view, actions, rng_of(rng), budget, iterations, budget, race=False, prune=False)
    return [{"action": dict(a), "mean": m, "samples": result["draws"]}
            for a, m in zip(actions, result["action_means"])]


# === the generic loop: options, common random numbers, racing ======================================

def _options(view: dict, legal: list[dict], state, prune: bool) -> list[tuple[int, tuple]]:
    """The options searched: ``(index of the action in legal, moves by this seat in order)``; one
    move an option unless the game's parts expand a decision (``parts.BotParts.options``)."""
    moves = [state.move_of(a) for a in legal]
    expand = parts.of(view["game"]).options
    if expand is None:
        return [(j, (m,)) for j, m in enumerate(moves)]
    return expand(view, legal, moves, state, prune)


def _run(view: dict, legal: list[dict], rng, budget_ms: float, iterations: int | None,
         cap_ms: float | None, race: bool, prune: bool = True) -> dict:
    """Evaluate the options of ``legal`` on shared draws (the same hidden cards and rollout seed for
    every option: common random numbers). ``race``: drop an option once the leader beats it with
    confidence (paired differences, lower bound > 0) or it can be at most ``INDIFFERENT`` better,
    stop when one is left, at ``MAX_ITERATIONS`` draws or the budget; a decision still open then
    (an option may yet be ``HARD_STAKE`` better) goes on to ``HARD_ITERATIONS`` or ``cap_ms``.
    Returns ``choice`` (index in legal), ``action_means`` (per action, its best option's mean) and
    ``draws``."""
    game = view["game"]
    game_parts = parts.of(game)
    seat = view["seat"]
    from_view = get_rules(game).state_from_view
    rollout = game_parts.rollout
    unit = game_parts.unit
    start = base.clock()
    deadline = start + budget_ms / 1000.0
    cap = start + (cap_ms if cap_ms is not None else budget_ms) / 1000.0
    exact = game_parts.exact_hands(view) if game_parts.exact_hands is not None else None
    solve = game_parts.exact_value if exact is not None else None
    options = None
    values: list[list[float]] = []
    alive: list[int] = []
    done = 0
    # A level with more time than the default budget (levels.py: expert) may also draw more.
    scale = max(1.0, budget_ms / DEFAULT_BUDGET_MS)
    limit = iterations if iterations is not None else int(MAX_ITERATIONS * scale)
    hard = False
    while True:
        if exact is not None:
            if done >= len(exact):
                break
            state = from_view(view, exact[done])
        else:
            if done >= limit:
                if not race or hard or not _still_open(values, alive, done, unit):
                    break
                hard = True
                limit = int(HARD_ITERATIONS * scale)
                continue
            state = from_view(view, sample(view, rng))
        if options is None:
            options = _options(view, legal, state, prune)
            values = [[] for _ in options]
            alive = list(range(len(options)))
            if race and len(alive) == 1:
                break
        seed = rng.getrandbits(32) if exact is None else 0
        row = []
        for k in alive:
            if done and exact is None and iterations is None and base.clock() >= cap:
                break       # out of time mid-draw: drop it, every option keeps the same draws
            s = state.clone()
            for m in options[k][1]:
                if s.is_over():
                    break
                s.apply_move(m, seat)
            row.append(_value(s, seat, rollout, seed, solve))
        if len(row) < len(alive):
            break
        for k, v in zip(alive, row):
            values[k].append(v)
        done += 1
        if exact is not None:
            continue
        if race and done >= MIN_DRAWS and done % CHECK_EVERY == 0:
            alive = _survivors(values, alive, done, unit)
            if len(alive) == 1:
                break
        if iterations is None:
            now = base.clock()
            if now >= cap:
                break
            if now >= deadline:
                if not race or hard or not _still_open(values, alive, done, unit):
                    break
                hard = True
                limit = max(limit, int(HARD_ITERATIONS * scale))
    n = done
    means = [sum(v[:n]) / n if n else 0.0 for v in values]
    best = max(alive, key=lambda k: (means[k], -k)) if alive else 0
    action_means = [max((means[k] for k, (j, _) in enumerate(options or []) if j == a), default=0.0)
                    for a in range(len(legal))]
    return {"choice": options[best][0] if options else 0, "action_means": action_means, "draws": n}


def _value(s, seat, rollout, seed, solve):
    if solve is not None:
        value = solve(s, seat)
        if value is not None:
            return value
    return rollout(s, _random.Random(seed), seat)


def _paired(values, a, b, n):
    """Mean and standard error of the paired differences a - b over the first n draws."""
    va, vb = values[a], values[b]
    diffs = [va[i] - vb[i] for i in range(n)]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
    return mean, math.sqrt(var / n)


def _survivors(values, alive, n, unit=1.0):
    means = {k: sum(values[k][:n]) / n for k in alive}
    best = max(alive, key=lambda k: (means[k], -k))
    keep = []
    for k in alive:
        if k == best:
            keep.append(k)
            continue
        mean, se = _paired(values, best, k, n)
        if mean - Z * se > -INDIFFERENT * unit:
            continue            # beaten with confidence, or better than the best by no stake
        keep.append(k)
    return keep


def _still_open(values, alive, n, unit=1.0) -> bool:
    """Whether some option may still be better than the leader by ``HARD_STAKE`` (a decision worth
    more thought)."""
    if len(alive) < 2 or n < 2:
        return False
    means = {k: sum(values[k][:n]) / n for k in alive}
    best = max(alive, key=lambda k: (means[k], -k))
    for k in alive:
        if k != best:
            mean, se = _paired(values, best, k, n)
            if mean - Z * se < -HARD_STAKE * unit:
                return True
    return False
