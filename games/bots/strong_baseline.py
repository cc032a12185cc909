"""Bench only (python -m games.bots.arena --b games.bots.strong_baseline): the strong bot as it was
before the Hearts/Spades search work (commit 493aadf), kept to measure the new one against. Not a
level of BOTS: no table can choose it.

The strong bot: determinized search (perfect-information Monte Carlo) through the engine.

Each iteration draws hidden cards consistent with the view (``sampling``), builds the engine state
at the view's position (``state_from_view`` of the game) and, for every legal move, plays the deal
out from that move with a cheap rule-based rollout on the engine's fast path (``legal_moves`` /
``apply_move`` / ``clone``); in sixty-six the end of the deal, once the stock is closed or gone
and few cards are left, is solved exactly (``ss_solver``). Moves share each iteration's cards and rollout seed (common random
numbers), so their averages differ by the move and not by the luck of the draw. The best average of
the deal's outcome for this seat wins: game points (sixty-six), the team's deal score with bags and
nils (spades), the points taken relative to the others (hearts).

The budget bounds the wall time; ``iterations`` fixes the number of draws instead (deterministic
given the view and the rng seed, which the tests use). A few decisions are not searched: the
hearts pass (basic's rule), the moon choice (arithmetic on the scores) and a sixty-six claim that
is already certain. ``evaluate`` exposes the same search per action, without those shortcuts, for
the post-match analysis (games/bots/analyse.py).
"""
from __future__ import annotations

import random as _random
import time

from games.engine import cards as C
from games.engine import hearts as H
from games.engine import sixtysix as SS
from games.engine import spades as SP

from . import basic, ss_solver
from .base import DEFAULT_BUDGET_MS, check_view, rng_of
from .sampling import sample

EPSILON = 0.08            # share of random moves in rollouts (keeps them from being too sure)
MAX_ITERATIONS = 400      # enough draws for any decision; stops early on easy positions

FROM_VIEW = {"hearts": H.state_from_view, "spades": SP.state_from_view,
             "sixtysix": SS.state_from_view}


def choose_action(view: dict, rng=None, budget_ms: int | None = None,
                  iterations: int | None = None) -> dict:
    legal = check_view(view)
    rng = rng_of(rng)
    if len(legal) == 1 and legal[0]["type"] != "pass":
        return dict(legal[0])
    game, kind = view["game"], legal[0]["type"]
    if game == "hearts" and kind in ("pass", "moon"):
        return basic.choose_action(view, rng)
    if game == "sixtysix":
        claim = _find_claim(view, legal)
        if claim is not None:
            return claim
    budget = DEFAULT_BUDGET_MS if budget_ms is None else budget_ms
    return search(view, legal, rng, budget, iterations)


def _find_claim(view, legal):
    if (view["my_points"] or 0) >= SS.TARGET:
        for a in legal:
            if a["type"] == "declare":
                return dict(a)
    return None


def search(view: dict, legal: list[dict], rng, budget_ms: float, iterations: int | None) -> dict:
    totals, _done = _search_totals(view, legal, rng, budget_ms, iterations)
    best = max(range(len(legal)), key=lambda j: (totals[j], -j))
    return dict(legal[best])


def evaluate(view: dict, rng=None, iterations: int | None = None, budget_ms: float | None = None,
             actions: list[dict] | None = None) -> list[dict]:
    """The search's verdict on each action of ``view`` (post-match analysis, games/bots/analyse.py):
    ``[{"action", "mean", "samples"}]`` in the order of ``actions`` (default: ``view["legal"]``;
    a hearts pass needs its candidate triples given). ``mean`` is the average outcome of the deal
    for the view's seat in the search's units (see ``*_eval``) over ``samples`` shared draws.
    Unlike ``choose_action`` nothing is shortcut: a certain claim or a pass is searched too."""
    legal = check_view(view)
    actions = legal if actions is None else actions
    budget = DEFAULT_BUDGET_MS if budget_ms is None else budget_ms
    totals, done = _search_totals(view, actions, rng_of(rng), budget, iterations)
    return [{"action": dict(a), "mean": t / done if done else 0.0, "samples": done}
            for a, t in zip(actions, totals)]


def _search_totals(view: dict, legal: list[dict], rng, budget_ms: float,
                   iterations: int | None) -> tuple[list[float], int]:
    """The summed rollout values of each action over the draws done, and how many draws."""
    game = view["game"]
    seat = view["seat"]
    from_view = FROM_VIEW[game]
    rollout = ROLLOUTS[game]
    deadline = time.perf_counter() + budget_ms / 1000.0
    moves = None
    totals = [0.0] * len(legal)
    done = 0
    limit = iterations if iterations is not None else MAX_ITERATIONS
    while done < limit:
        state = from_view(view, sample(view, rng))
        if moves is None:
            moves = [state.move_of(a) for a in legal]
        seed = rng.getrandbits(32)
        values = []
        for move in moves:
            if done and iterations is None and time.perf_counter() >= deadline:
                break       # out of time mid-draw: drop it, every move keeps the same draws
            s = state.clone()
            s.apply_move(move, seat)
            values.append(rollout(s, _random.Random(seed), seat))
        if len(values) < len(moves):
            break
        for j, v in enumerate(values):
            totals[j] += v
        done += 1
        if iterations is None and time.perf_counter() >= deadline:
            break
    return totals, done


# === rollouts: one cheap rule per game, on the state's own fields =================================

_LOW13 = (1 << 13) - 1


def _high(mask: int) -> int:
    return mask.bit_length() - 1


def _low(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


# --- hearts ---

_H_POINT_CARDS = H.HEARTS_MASK | H.QS_BIT


def hearts_rollout(s, rng, seat):
    """Play the deal out; the value for ``seat``."""
    _hearts_pass_rest(s)
    while s.phase == H.PLAY:
        if rng.random() < EPSILON:
            s.apply_move(s.random_move(rng))
            continue
        s.apply_move(_hearts_move(s, s.turn))
    if s.phase == H.MOON:
        s.apply_move(H.MOON_OTHERS)
    return hearts_eval(s, seat)


def _hearts_pass_rest(s):
    """Seats yet to pass (only when a pass itself is evaluated) pass by basic's rule."""
    while s.phase == H.PASS:
        seat = s.passed.index(0)
        codes = basic.hearts_pass({"variant": "jack_of_diamonds" if s.jack_counts else "standard"},
                                  list(H.cards_in(s.hands[seat])))
        s.apply_move(H.PASS_FLAG | C.mask_of_codes(codes), seat)


def _hearts_move(s, seat):
    hand = s.hands[seat]
    trick = s.trick
    if trick and s.tricks_done:
        led = trick[0] // 13
        follow = hand >> (13 * led) & _LOW13
        if follow:
            high = max(c for c in trick if c // 13 == led) - 13 * led
            under = follow & ((1 << high) - 1)
            if under:
                return 13 * led + _high(under)
            tmask = 0
            for c in trick:
                tmask |= 1 << c
            if len(trick) == 3 and not tmask & _H_POINT_CARDS:
                top = 13 * led + _high(follow)
                if top == H.QUEEN_OF_SPADES and follow & ~(1 << 10):
                    return 13 * led + _high(follow & ~(1 << 10))
                return top
            return 13 * led + _low(follow)
        if hand & H.QS_BIT:
            return H.QUEEN_OF_SPADES
        hearts = hand & H.HEARTS_MASK
        if hearts:
            return _high(hearts)
        return max(H.cards_in(hand), key=lambda c: c % 13)
    playable = s._playable(seat)
    if trick:   # the first trick: its own restrictions
        return max(H.cards_in(playable), key=lambda c: c % 13)
    safe = playable & ~_H_POINT_CARDS or playable
    return min(H.cards_in(safe), key=lambda c: c % 13)


def hearts_eval(s, seat):
    pts = s.result()["points"]
    return (sum(pts) - pts[seat]) / 3.0 - pts[seat]


# --- spades ---

def spades_rollout(s, rng, me):
    while s.phase != SP.OVER:
        seat = s.turn
        if s.phase == SP.BLIND_NIL:
            s.apply_move(SP.BLIND_DECLINE, seat)
        elif s.phase == SP.BID:
            s.apply_move(SP.BID_BASE + _spades_bid(s, seat), seat)
        elif rng.random() < EPSILON:
            s.apply_move(s.random_move(rng), seat)
        else:
            s.apply_move(_spades_move(s, seat), seat)
    return spades_eval(s, me)


def _spades_bid(s, seat):
    hand = list(C.iter_cards(s.hands[seat]))
    tricks = basic.spades_count_winners(hand)
    if tricks < 1.5 and basic.spades_nil_ok(hand) and s.bids[seat ^ 2] != 0:
        return 0
    return max(1, min(13, int(tricks + 0.5)))


def _sp_beats(c, best):
    if c // 13 == best // 13:
        return c > best
    return c >= 39


def _spades_move(s, seat):
    playable = s._playable(seat)
    if not playable & (playable - 1):
        return _low(playable)
    bids = s.bids
    tricks = s.tricks
    team = seat & 1
    partner = seat ^ 2
    nil = bids[seat] == 0
    partner_nil = bids[partner] == 0
    contract = bids[team] + bids[team + 2]
    taken = (tricks[team] if bids[team] else 0) + (tricks[team + 2] if bids[team + 2] else 0)
    need = taken < contract
    trick = s.trick
    cards = SP._cards_of_mask(playable)
    if not trick:
        if nil:
            return min(cards, key=lambda c: c % 13)
        aces = [c for c in cards if c % 13 == 12]
        if need and aces:
            return aces[0]
        non = [c for c in cards if c < 39] or cards
        return min(non, key=lambda c: c % 13)
    wi = SP.trick_winner_index(trick)
    best = trick[wi]
    best_seat = (s.leader + wi) & 3
    winners = [c for c in cards if _sp_beats(c, best)]
    if nil:
        losers = [c for c in cards if not _sp_beats(c, best)]
        return max(losers, key=lambda c: (c < 39, c % 13)) if losers else min(cards, key=lambda c: c % 13)
    if best_seat == partner and not partner_nil:
        return min(cards, key=lambda c: (c >= 39, c % 13))
    if winners and (need or partner_nil):
        return min(winners)
    if not need and len(trick) < 3:
        losers = [c for c in cards if not _sp_beats(c, best)]
        if losers:
            return max(losers, key=lambda c: (c < 39, c % 13))
    return min(cards, key=lambda c: (c >= 39, c % 13))


def spades_eval(s, seat):
    pts = s.result()["team_points"]
    return float(pts[seat & 1] - pts[(seat & 1) ^ 1])


# --- sixty-six ---

SOLVE_CARDS = 8          # sixty-six: solve phase 2 exactly from this many cards in hand


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
    hand = s.hands[seat]
    cards = [m for m in moves if m < 52]
    if s.stock_open:
        side = [c for c in cards if C.SUIT_OF[c] != s.trump] or cards
        return min(side, key=lambda c: (SS.POINTS[c], SS.PARTNER[c] >= 0 and hand >> SS.PARTNER[c] & 1))
    return max(cards, key=lambda c: (C.SUIT_OF[c] == s.trump, SS.STRENGTH[c]))


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


ROLLOUTS = {"hearts": hearts_rollout, "spades": spades_rollout, "sixtysix": sixtysix_rollout}
