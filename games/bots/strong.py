"""The strong bot: determinized search (perfect-information Monte Carlo) through the engine; in
sixty-six while the stock is open, at strong's and expert's budgets, an information-set tree
search instead (``ss_ismcts``, ``TREE_SHARE`` of the budget).

Each iteration draws hidden cards consistent with the view (``sampling``: the view carries the
deal's public history, so every card seen played is out and what the play revealed is kept),
builds the engine state at the view's position (``state_from_view`` of the game) and, for every
option, plays the deal out from it with a cheap rule-based rollout on the engine's fast path
(``legal_moves`` / ``apply_move`` / ``clone``); in sixty-six the end of the deal, once the stock
is closed or gone and few cards are left, is solved exactly (``ss_solver``). An option is a legal
action, or in sixty-six an exchange or a close together with what follows it (then a close, then
a lead), so that none is scored with a fixed follow-up. Options share each iteration's cards and
rollout seed (common random numbers), so their averages differ by the option and not by the luck
of the draw. The best average of the deal's outcome for this seat wins: game points (sixty-six),
the team's deal score with bags and nils (spades), the points taken relative to the others
(hearts).

Budget by need (``_run``): a single legal action or a certain sixty-six claim answers at once;
a sixty-six phase 2 in which the opponent can hold only a few hands is solved exactly for each
(no sampling); otherwise options race: one is dropped once the leader beats it with confidence
(paired differences) or it can be better by no stake, the search stops when one is left, at the
draw limit or the budget, and a sixty-six decision still open then may go on to ``cap_ms``
(a spades bid keeps the budget too).
``iterations`` fixes the number of draws instead, every option on every draw (deterministic given
the view and the rng seed, which the tests use). Hearts and Spades keep their rollout policies,
the exact solving of their last tricks and the spades bid search in ``hearts_search``,
``spades_search`` and ``trick_solver``. Not searched: the hearts pass (basic's rule: the passes
the rollouts preferred played no better) and the moon choice (arithmetic on the scores).
``evaluate`` exposes the same search per action, without shortcuts or racing, for the post-match
analysis (games/bots/analyse.py).
"""
from __future__ import annotations

import math
import random as _random

from games.engine import cards as C
from games.engine import hearts as H
from games.engine import sixtysix as SS
from games.engine import spades as SP

from . import base, basic, hearts_search, spades_search, ss_ismcts, ss_solver
from .base import DEFAULT_BUDGET_MS, check_view, rng_of
from .sampling import sample, sixtysix_hands, sixtysix_knowledge

EPSILON = 0.08            # share of random moves in rollouts (keeps them from being too sure)
MAX_ITERATIONS = 400      # draws of an ordinary decision at most
HARD_ITERATIONS = 1600    # draws of a hard decision (still open at the budget) at most
MIN_DRAWS = 16            # draws before any option is dropped
CHECK_EVERY = 8           # draws between two looks at the confidence bounds
Z = 2.5                   # one-sided normal quantile of the paired bounds (many options, many looks)
INDIFFERENT = 0.04        # an option at most this much better than the best (with confidence) is dropped
HARD_STAKE = 0.15         # at the budget, an option that may still be this much better keeps the search going
# The stakes above are in sixty-six game points; the other games' values are scaled by their unit
# (hearts: card points, spades: team points). Only sixty-six thinks past the budget, to the cap its
# level declares (measured there: it pays); hearts and spades keep their budget.
UNIT = {"sixtysix": 1.0, "hearts": 5.0, "spades": 50.0}
# Sixty-six while the stock is open: the information-set tree search (ss_ismcts) for this share of
# the budget, at levels thinking at least TREE_FROM_MS (fewer iterations make too small a tree:
# medium keeps the determinized search). Measured (docs/BOTS.md): at half the budget it thinks
# as long on average as the determinized search it replaces, which stops early when it can.
TREE_SHARE = 0.5
TREE_FROM_MS = 40
EXACT_HANDS = 12          # sixty-six phase 2: solve every hand the opponent may hold, if this few

FROM_VIEW = {"hearts": H.state_from_view, "spades": SP.state_from_view,
             "sixtysix": SS.state_from_view}


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
    game, kind = view["game"], legal[0]["type"]
    budget = DEFAULT_BUDGET_MS if budget_ms is None else budget_ms
    if game == "hearts" and kind in ("moon", "pass"):
        # The pass is basic's: the triples the rollouts preferred to it did no better in play, and
        # worse the more draws judged them (docs/BOTS.md, "Changes measured against today's strong").
        return basic.choose_action(view, rng)
    if game == "spades" and kind in ("bid", "blind_nil"):
        return spades_search.choose_bid(view, legal, rng, budget, iterations)
    if game == "sixtysix":
        claim = _find_claim(view, legal)
        if claim is not None:
            return claim
    if game == "sixtysix" and view["phase"] == "play1" and iterations is None \
            and budget >= TREE_FROM_MS:
        return _tree_choice(view, rng, budget)
    # Only a sixty-six play may think past the budget, and only to a cap the level declares
    # (levels.py); every other decision (the spades bid too) keeps the budget.
    cap = max(cap_ms, budget) if cap_ms is not None and game == "sixtysix" else budget
    return search(view, legal, rng, budget, iterations, cap)


def _tree_choice(view, rng, budget_ms):
    """Sixty-six while the stock is open: the information-set tree search (``ss_ismcts``) for
    ``TREE_SHARE`` of the budget."""
    return dict(ss_ismcts.choose(view, budget_ms * TREE_SHARE / 1000.0, rng, sixtysix_rollout))


def _find_claim(view, legal):
    """A claim of 66 that is surely true (the points are the claimer's own, known exactly): the
    best a player can do, since waiting can only give the opponent points and tricks."""
    mine = view["my_points"] or 0
    best = None
    for a in legal:
        if a["type"] == "declare" and mine >= SS.TARGET:
            return dict(a)
        if a.get("declare") and mine + _marriage_points(view, a["card"]) >= SS.TARGET:
            if best is None or _marriage_points(view, a["card"]) > _marriage_points(view, best["card"]):
                best = a
    return dict(best) if best is not None else None


def _marriage_points(view, code):
    return 40 if code[1] == view["trump_suit"] else 20


def _false_claim(view, action) -> bool:
    """A sixty-six claim that is surely false: never better than playing on (dropped)."""
    if action["type"] == "declare":
        return (view["my_points"] or 0) < SS.TARGET
    if action.get("declare"):
        return (view["my_points"] or 0) + _marriage_points(view, action["card"]) < SS.TARGET
    return False


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
    """The options searched: ``(index of the action in legal, moves by this seat in order)``.
    Sixty-six: an exchange or a close is an option only together with what follows it (exchange,
    then close or a lead; close, then a lead), so that no option is scored with a fixed follow-up;
    a surely false claim is dropped (``prune``)."""
    seat = view["seat"]
    moves = [state.move_of(a) for a in legal]
    if view["game"] != "sixtysix":
        return [(j, (m,)) for j, m in enumerate(moves)]
    out = []
    for j, (a, m) in enumerate(zip(legal, moves)):
        if prune and _false_claim(view, a) and len(legal) > 1:
            continue
        if m in (SS.EXCHANGE, SS.CLOSE):
            for tail in _continuations(view, state, seat, (m,), prune):
                out.append((j, tail))
        else:
            out.append((j, (m,)))
    if not out:
        out = [(j, (m,)) for j, m in enumerate(moves)]
    return out


def _continuations(view, state, seat, prefix, prune):
    s = state.clone()
    for m in prefix:
        s.apply_move(m, seat)
    tails = []
    for m in s.legal_moves(seat):
        if prune and _false_claim(view, s.action_of(seat, m)):
            continue
        if m in (SS.EXCHANGE, SS.CLOSE):
            tails += _continuations(view, state, seat, prefix + (m,), prune)
        elif m != SS.DECLARE or not prune:
            tails.append(prefix + (m,))
    return tails or [prefix]


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
    seat = view["seat"]
    from_view = FROM_VIEW[game]
    rollout = ROLLOUTS[game]
    start = base.clock()
    deadline = start + budget_ms / 1000.0
    cap = start + (cap_ms if cap_ms is not None else budget_ms) / 1000.0
    exact = _exact_hands(view) if game == "sixtysix" else None
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
                if not race or hard or not _still_open(values, alive, done, UNIT[game]):
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
            row.append(_value(s, seat, rollout, seed, exact is not None))
        if len(row) < len(alive):
            break
        for k, v in zip(alive, row):
            values[k].append(v)
        done += 1
        if exact is not None:
            continue
        if race and done >= MIN_DRAWS and done % CHECK_EVERY == 0:
            alive = _survivors(values, alive, done, UNIT[game])
            if len(alive) == 1:
                break
        if iterations is None:
            now = base.clock()
            if now >= cap:
                break
            if now >= deadline:
                if not race or hard or not _still_open(values, alive, done, UNIT[game]):
                    break
                hard = True
                limit = max(limit, int(HARD_ITERATIONS * scale))
    n = done
    means = [sum(v[:n]) / n if n else 0.0 for v in values]
    best = max(alive, key=lambda k: (means[k], -k)) if alive else 0
    action_means = [max((means[k] for k, (j, _) in enumerate(options or []) if j == a), default=0.0)
                    for a in range(len(legal))]
    return {"choice": options[best][0] if options else 0, "action_means": action_means, "draws": n}


def _value(s, seat, rollout, seed, exact):
    if exact and ss_solver.solvable(s):
        return ss_solver.solve(s, seat) + 0.002 * (s.points(seat) - s.points(1 - seat))
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


def _exact_hands(view: dict) -> list[dict] | None:
    """Sixty-six phase 2 with few hands the opponent may hold: each as a ``hidden`` (the face-down
    stock is never drawn again, so its order is irrelevant)."""
    if view["phase"] != "play2":
        return None
    hands = sixtysix_hands(view, EXACT_HANDS)
    if hands is None:
        return None
    rest = sixtysix_knowledge(view)["pool"]
    return [{"hand": C.codes_of(h), "stock": C.codes_of(rest & ~h)} for h in hands]


# === rollouts: one cheap rule per game, on the state's own fields =================================

# --- sixty-six ---

ROLLOUT_CLOSE = True     # sixty-six rollouts close when the points and the sure tricks make 66
SOLVE_CARDS = 8          # sixty-six: solve phase 2 exactly from this many cards in hand
# Measured (arena, kurnik, 100 matches against the strong bot of 493aadf, same decks): 12 (all of phase 2) wins a
# little more (+0.29 +- 0.14 game points a deal against +0.23 +- 0.14 with 8) but its slower draws
# separate fewer decisions early: decision time p50 201 ms, p95 478 ms against 85 and 263 ms.
# A stronger level with time to spare may raise it.


def sixtysix_rollout(s, rng, me):
    """Heuristic play until phase 2 is small enough to solve exactly (``ss_solver``)."""
    while not s.over:
        if (not s.stock_open and s.claimer < 0
                and bin(s.hands[0]).count("1") + bin(s.hands[1]).count("1") <= SOLVE_CARDS):
            return ss_solver.solve(s, me) + 0.002 * (s.points(me) - s.points(1 - me))
        seat = s.to_act()
        if rng.random() < EPSILON and s.lead_card >= 0:
            s.apply_move(s.random_move(rng), seat)
        elif s.lead_card < 0:
            s.apply_move(_ss_lead(s, seat), seat)
        else:
            s.apply_move(_ss_follow(s, seat), seat)
    return sixtysix_eval(s, me)


def _ss_lead(s, seat):
    moves = s.legal_moves(seat)
    if SS.DECLARE in moves and s.points(seat) >= SS.TARGET:
        return SS.DECLARE
    if SS.EXCHANGE in moves:
        return SS.EXCHANGE
    best_marriage = -1
    for m in moves:
        if SS.MARRIAGE <= m < SS.MARRIAGE_DECLARE:
            c = m - SS.MARRIAGE
            if best_marriage < 0 or C.SUIT_OF[c] == s.trump:
                best_marriage = m
    if best_marriage >= 0:
        return best_marriage
    if (ROLLOUT_CLOSE and SS.CLOSE in moves and s.stock_size() >= 2 and s.points(seat) >= 30
            and s.points(seat) + _ss_sure_points(s, seat) >= SS.TARGET):
        return SS.CLOSE
    hand = s.hands[seat]
    cards = [m for m in moves if m < 52]
    if s.stock_open:
        side = [c for c in cards if C.SUIT_OF[c] != s.trump] or cards
        return min(side, key=lambda c: (SS.POINTS[c], SS.PARTNER[c] >= 0 and hand >> SS.PARTNER[c] & 1))
    return max(cards, key=lambda c: (C.SUIT_OF[c] == s.trump, SS.STRENGTH[c]))


def _ss_sure_points(s, seat):
    """Points of the tricks ``seat`` surely wins after a close, led from the top (the rollout sees
    the opponent's hand): trumps no opposing trump beats, side cards no opposing card of the suit
    beats while he must follow (or has no trump), each with a small card of his (roughly basic's
    rule, played open)."""
    hand = s.hands[seat]
    opp = s.hands[1 - seat]
    opp_trumps = opp & s.trump_mask
    points = 0
    for suit in range(4):
        mine = hand & C.SUIT_MASK[suit]
        follows = bin(opp & C.SUIT_MASK[suit]).count("1")
        for i, c in enumerate(sorted(SS._cards(mine), key=lambda c: -SS.STRENGTH[c])):
            if SS.HIGHER[c] & opp or (suit != s.trump and opp_trumps and i >= follows):
                break
            points += SS.POINTS[c] + 3
    return points


def _ss_follow(s, seat):
    mask = s._follow_mask(seat)
    lead = s.lead_card
    lead_suit = C.SUIT_OF[lead]
    cards = SS._cards(mask)
    beats = [c for c in cards if (C.SUIT_OF[c] == lead_suit and SS.STRENGTH[c] > SS.STRENGTH[lead])
             or (C.SUIT_OF[c] == s.trump != lead_suit)]
    if beats and (not s.stock_open or SS.POINTS[lead] >= 10
                  or any(C.SUIT_OF[c] == lead_suit for c in beats)):
        return min(beats, key=lambda c: (C.SUIT_OF[c] == s.trump, SS.STRENGTH[c]))
    return min(cards, key=lambda c: (C.SUIT_OF[c] == s.trump, SS.POINTS[c]))


def sixtysix_eval(s, seat):
    gp = s.game_points
    return gp[seat] - gp[1 - seat] + 0.002 * (s.points(seat) - s.points(1 - seat))


ROLLOUTS = {"hearts": hearts_search.rollout, "spades": spades_search.rollout,
            "sixtysix": sixtysix_rollout}
