"""Sixty-six's parts of the strong bot, registered in ``parts`` (as ``hearts_search`` and
``spades_search`` register theirs): a sure claim of 66 answered at once; while the stock is open,
at strong's and expert's budgets, the information-set tree search (``sixtysix_tree``) for
``TREE_SHARE`` of the budget; an exchange or a close searched together with what follows it; in
phase 2 with few hands the opponent may hold, each solved exactly (no sampling); the rollout a
search plays a deal out with (a cheap rule on the state's own fields, the end solved exactly by
``sixtysix_solver``) and the value of a finished deal for a seat (game points, card points
breaking ties). Only sixty-six thinks past the budget, to the cap its level declares.
"""
from __future__ import annotations

from games.engine import cards as C
from games.engine import sixtysix as sixtysix_rules

from . import parts, sampling, sixtysix_basic, sixtysix_solver, sixtysix_tree
from .sampling import sixtysix_hands, sixtysix_knowledge

EPSILON = 0.08           # share of random moves in rollouts (keeps them from being too sure)
# Sixty-six while the stock is open: the information-set tree search (sixtysix_tree) for this share of
# the budget, at levels thinking at least TREE_FROM_MS (fewer iterations make too small a tree:
# medium keeps the determinized search). Measured (docs/BOTS.md): at half the budget it thinks
# as long on average as the determinized search it replaces, which stops early when it can.
TREE_SHARE = 0.5
TREE_FROM_MS = 40
EXACT_HANDS = 12          # sixty-six phase 2: solve every hand the opponent may hold, if this few


def first_answer(view: dict, legal: list[dict], rng, budget_ms: float, iterations: int | None) -> dict | None:
    """A surely true claim at once; while the stock is open, at levels thinking at least
    ``TREE_FROM_MS`` with no fixed number of draws, the tree search; else None (the search)."""
    claim = _find_claim(view, legal)
    if claim is not None:
        return claim
    if view["phase"] == "play1" and iterations is None and budget_ms >= TREE_FROM_MS:
        return _tree_choice(view, rng, budget_ms)
    return None


def exact_value(s, seat):
    """The exact value once phase 2 is small enough to solve (``sixtysix_solver``), else None."""
    if sixtysix_solver.solvable(s):
        return sixtysix_solver.solve(s, seat) + 0.002 * (s.points(seat) - s.points(1 - seat))
    return None


def _tree_choice(view, rng, budget_ms):
    """Sixty-six while the stock is open: the information-set tree search (``sixtysix_tree``) for
    ``TREE_SHARE`` of the budget."""
    return dict(sixtysix_tree.choose(view, budget_ms * TREE_SHARE / 1000.0, rng, rollout))


def _find_claim(view, legal):
    """A claim of 66 that is surely true (the points are the claimer's own, known exactly): the
    best a player can do, since waiting can only give the opponent points and tricks."""
    mine = view["my_points"] or 0
    best = None
    for a in legal:
        if a["type"] == "declare" and mine >= sixtysix_rules.TARGET:
            return dict(a)
        if a.get("declare") and mine + _marriage_points(view, a["card"]) >= sixtysix_rules.TARGET:
            if best is None or _marriage_points(view, a["card"]) > _marriage_points(view, best["card"]):
                best = a
    return dict(best) if best is not None else None


def _marriage_points(view, code):
    return 40 if code[1] == view["trump_suit"] else 20


def _false_claim(view, action) -> bool:
    """A sixty-six claim that is surely false: never better than playing on (dropped)."""
    if action["type"] == "declare":
        return (view["my_points"] or 0) < sixtysix_rules.TARGET
    if action.get("declare"):
        return (view["my_points"] or 0) + _marriage_points(view, action["card"]) < sixtysix_rules.TARGET
    return False


def options(view: dict, legal: list[dict], moves: list[int], state, prune: bool) -> list[tuple[int, tuple]]:
    """The options searched (``(index of the action in legal, moves by this seat in order)``): an
    exchange or a close is an option only together with what follows it (exchange, then close or a
    lead; close, then a lead), so that no option is scored with a fixed follow-up; a surely false
    claim is dropped (``prune``)."""
    seat = view["seat"]
    out = []
    for j, (a, m) in enumerate(zip(legal, moves)):
        if prune and _false_claim(view, a) and len(legal) > 1:
            continue
        if m in (sixtysix_rules.EXCHANGE, sixtysix_rules.CLOSE):
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
        if m in (sixtysix_rules.EXCHANGE, sixtysix_rules.CLOSE):
            tails += _continuations(view, state, seat, prefix + (m,), prune)
        elif m != sixtysix_rules.DECLARE or not prune:
            tails.append(prefix + (m,))
    return tails or [prefix]


def exact_hands(view: dict) -> list[dict] | None:
    """Sixty-six phase 2 with few hands the opponent may hold: each as a ``hidden`` (the face-down
    stock is never drawn again, so its order is irrelevant)."""
    if view["phase"] != "play2":
        return None
    hands = sixtysix_hands(view, EXACT_HANDS)
    if hands is None:
        return None
    rest = sixtysix_knowledge(view)["pool"]
    return [{"hand": C.codes_of(h), "stock": C.codes_of(rest & ~h)} for h in hands]

ROLLOUT_CLOSE = True     # sixty-six rollouts close when the points and the sure tricks make 66
SOLVE_CARDS = 8          # solve phase 2 exactly from this many cards in hand
# Measured (the duel, kurnik, 100 matches against the strong bot of 493aadf, same decks): 12 (all of phase 2) wins a
# little more (+0.29 +- 0.14 game points a deal against +0.23 +- 0.14 with 8) but its slower draws
# separate fewer decisions early: decision time p50 201 ms, p95 478 ms against 85 and 263 ms.
# A stronger level with time to spare may raise it.


def rollout(s, rng, me):
    """Heuristic play until phase 2 is small enough to solve exactly (``sixtysix_solver``)."""
    while not s.over:
        if (not s.stock_open and s.claimer < 0
                and bin(s.hands[0]).count("1") + bin(s.hands[1]).count("1") <= SOLVE_CARDS):
            return sixtysix_solver.solve(s, me) + 0.002 * (s.points(me) - s.points(1 - me))
        seat = s.to_act()
        if rng.random() < EPSILON and s.lead_card >= 0:
            s.apply_move(s.random_move(rng), seat)
        elif s.lead_card < 0:
            s.apply_move(lead(s, seat), seat)
        else:
            s.apply_move(follow(s, seat), seat)
    return value(s, me)


def lead(s, seat):
    moves = s.legal_moves(seat)
    if sixtysix_rules.DECLARE in moves and s.points(seat) >= sixtysix_rules.TARGET:
        return sixtysix_rules.DECLARE
    if sixtysix_rules.EXCHANGE in moves:
        return sixtysix_rules.EXCHANGE
    best_marriage = -1
    for m in moves:
        if sixtysix_rules.MARRIAGE <= m < sixtysix_rules.MARRIAGE_DECLARE:
            c = m - sixtysix_rules.MARRIAGE
            if best_marriage < 0 or C.SUIT_OF[c] == s.trump:
                best_marriage = m
    if best_marriage >= 0:
        return best_marriage
    if (ROLLOUT_CLOSE and sixtysix_rules.CLOSE in moves and s.stock_size() >= 2 and s.points(seat) >= 30
            and s.points(seat) + sure_points(s, seat) >= sixtysix_rules.TARGET):
        return sixtysix_rules.CLOSE
    hand = s.hands[seat]
    cards = [m for m in moves if m < 52]
    if s.stock_open:
        side = [c for c in cards if C.SUIT_OF[c] != s.trump] or cards
        return min(side, key=lambda c: (sixtysix_rules.POINTS[c], sixtysix_rules.PARTNER[c] >= 0 and hand >> sixtysix_rules.PARTNER[c] & 1))
    return max(cards, key=lambda c: (C.SUIT_OF[c] == s.trump, sixtysix_rules.STRENGTH[c]))


def sure_points(s, seat):
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
        for i, c in enumerate(sorted(C.cards_of(mine), key=lambda c: -sixtysix_rules.STRENGTH[c])):
            if sixtysix_rules.HIGHER[c] & opp or (suit != s.trump and opp_trumps and i >= follows):
                break
            points += sixtysix_rules.POINTS[c] + 3
    return points


def follow(s, seat):
    mask = s.follow_mask(seat)
    lead = s.lead_card
    lead_suit = C.SUIT_OF[lead]
    cards = C.cards_of(mask)
    beats = [c for c in cards if (C.SUIT_OF[c] == lead_suit and sixtysix_rules.STRENGTH[c] > sixtysix_rules.STRENGTH[lead])
             or (C.SUIT_OF[c] == s.trump != lead_suit)]
    if beats and (not s.stock_open or sixtysix_rules.POINTS[lead] >= 10
                  or any(C.SUIT_OF[c] == lead_suit for c in beats)):
        return min(beats, key=lambda c: (C.SUIT_OF[c] == s.trump, sixtysix_rules.STRENGTH[c]))
    return min(cards, key=lambda c: (C.SUIT_OF[c] == s.trump, sixtysix_rules.POINTS[c]))


def value(s, seat):
    gp = s.game_points
    return gp[seat] - gp[1 - seat] + 0.002 * (s.points(seat) - s.points(1 - seat))


def puzzle_value(state, me):
    """A puzzle position's exact value for ``me`` (game points won minus lost), or None."""
    if state.over:
        gp = state.game_points
        return float(gp[me] - gp[1 - me])
    return sixtysix_solver.solve(state, me) if sixtysix_solver.solvable(state) else None


def puzzle_shown(state):
    """Each seat's card points so far: they decide the deal, and the public view does not sum them."""
    return {"card_points": [state.points(s) for s in range(2)]}


parts.register("sixtysix", parts.BotParts(
    basic_policy=sixtysix_basic.sixtysix_policy, rollout=rollout, unit=1.0, sample=sampling.sample_sixtysix,
    first_answer=first_answer, options=options, exact_hands=exact_hands, exact_value=exact_value,
    thinks_past_budget=True,
    loss_unit="game points", loss_labels=(0.3, 0.6, 1.0),
    puzzle=parts.PuzzleParts(cards=6, margin=1.0, value=puzzle_value, solvable=sixtysix_solver.solvable,
                             wins_only=True, shown=puzzle_shown)))
