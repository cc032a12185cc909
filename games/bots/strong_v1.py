"""Bench-only baseline: the strong bot as it was before the sixty-six memory work (commit 493aadf).

Not a level of the site (it is not in ``games.bots.BOTS``): the arena selects it as ``strong-v1``
(``games.bots.arena.BENCH_LEVELS``) to measure the current strong bot against. Its sixty-six
sampler and ``state_from_view`` are the old ones, frozen here: they ignore the view's trick history
(uniform pool, an approximate captured pile, a 0.7 prior on a marriage partner).

The original docstring follows.

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
from . import sampling as _sampling
from .sampling import ALL_SUITS, _mask, deal_constrained
from games.engine.core import DealSetup, State

EPSILON = 0.08            # share of random moves in rollouts (keeps them from being too sure)
MAX_ITERATIONS = 400      # enough draws for any decision; stops early on easy positions

FROM_VIEW = {"hearts": H.state_from_view, "spades": SP.state_from_view,
             "sixtysix": None}   # set below: the frozen one


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


# === the frozen sixty-six sampler and state_from_view ================================================

def sample_sixtysix(view: dict, rng, partner_prior: float = 0.7) -> dict:
    seat = view["seat"]
    opp = 1 - seat
    deck = SS.VARIANTS[view["variant"]].deck_mask
    seen = _mask(view["hand"]) | _mask(view["my_captured"]) | _mask(p["card"] for p in view["trick"])
    if view["trump_card"]:
        seen |= 1 << C.INDEX[view["trump_card"]]
    opp_won = 0
    last = view["last_trick"]
    if last is not None and last["winner"] == opp:
        opp_won = _mask(p["card"] for p in last["cards"])
    pool = [c for c in C.iter_cards(deck & ~seen & ~opp_won)]
    hand_size = view["hand_sizes"][opp]
    stock_size = view["stock_size"]
    won_size = 2 * view["tricks_won"][opp] - bin(opp_won).count("1")
    # Seats of deal_constrained: 0 = opponent's hand, 1 = stock, 2 = opponent's captured pile.
    allowed = {0: ALL_SUITS, 1: ALL_SUITS, 2: ALL_SUITS}
    if last is not None and view["phase"] == "play2" and view["closed"]:
        # After a close the follower had to follow, else trump: a miss shows a void.
        lead, follow = (C.INDEX[p["card"]] for p in last["cards"])
        if last["cards"][1]["seat"] == opp and C.SUIT_OF[follow] != C.SUIT_OF[lead]:
            allowed[0] &= ~(1 << C.SUIT_OF[lead])
            if C.SUIT_OF[follow] != C.SUITS.index(view["trump_suit"]):
                allowed[0] &= ~(1 << C.SUITS.index(view["trump_suit"]))
    fixed = {0: 0}
    for m in view["marriages"]:
        if m["seat"] != opp:
            continue
        suit = C.SUITS.index(m["suit"])
        pair = [c for c in (suit * 13 + SS.QUEEN, suit * 13 + SS.KING) if c in pool]
        if len(pair) == 2 and rng.random() < partner_prior and hand_size > bin(fixed[0]).count("1"):
            fixed[0] |= 1 << pair[int(rng.random() * 2)]   # one was led, the other may be held
    parts = deal_constrained(pool, {0: hand_size, 1: stock_size, 2: won_size}, allowed, rng, fixed)
    stock = list(C.iter_cards(parts[1]))
    rng.shuffle(stock)
    return {"hand": C.codes_of(parts[0]), "stock": [C.CODES[c] for c in stock],
            "won": C.codes_of(parts[2] | opp_won)}


def state_from_view(view: dict, hidden: dict) -> SS.SixtySixState:
    """A state at ``view``'s position whose unseen cards are ``hidden`` (for bots' determinization).

    ``hidden`` holds ``"hand"`` (the opponent's cards now), ``"stock"`` (the face-down stock in draw
    order, ``view["stock_size"]`` cards) and ``"won"`` (the opponent's captured cards, two per trick
    he took). The view carries no trick history, so what it cannot say is approximated: the
    opponent's announced marriages count as credited once he has taken a trick (pending while the
    marriage card still lies led on the table), and a closer's opponent is taken to have had a
    trick at the close if he has one now.
    """
    seat = view["seat"]
    opp = 1 - seat
    opts = SS.VARIANTS[view["variant"]]
    state = object.__new__(SS.SixtySixState)
    trump_suit = C.SUITS.index(view["trump_suit"])
    setup = DealSetup(game="sixtysix", variant=view["variant"], players=list(view["players"]),
                      dealer=view["dealer"], deal_number=view["deal_number"],
                      scores_before=list(view["scores_before"]), hands=[[], []])
    State.__init__(state, setup)
    state.opts = opts
    hands = [0, 0]
    hands[seat] = C.mask_of_codes(view["hand"])
    hands[opp] = C.mask_of_codes(hidden["hand"])
    won = [0, 0]
    won[seat] = C.mask_of_codes(view["my_captured"])
    won[opp] = C.mask_of_codes(hidden["won"])
    state.hands = hands
    state.stock = tuple(C.card(c) for c in hidden["stock"])
    state.stock_pos = 0
    trump_card = view["trump_card"]
    state.trump_taken = trump_card is None
    state.trump = trump_suit
    state.trump_mask = C.SUIT_MASK[trump_suit] & opts.deck_mask
    state.lowest_trump = trump_suit * 13 + opts.lowest_trump_rank
    # A taken trump card is in someone's hand or pile: any card of the trump suit stands for it.
    state.trump_card = C.card(trump_card) if trump_card else state.lowest_trump
    state.closed_by = -1 if view["closed_by"] is None else view["closed_by"]
    state.stock_open = state.closed_by < 0 and not state.trump_taken
    tricks = list(view["tricks_won"])
    state.tricks = tricks
    state.closer_opp_had_trick = state.closed_by >= 0 and tricks[1 - state.closed_by] > 0
    trick = view["trick"]
    state.leader = trick[0]["seat"] if trick else view["leader"]
    state.lead_card = C.card(trick[0]["card"]) if trick else -1
    state.won = won
    state.card_points = [sum(SS.POINTS[c] for c in C.cards_of(w)) for w in won]
    marriages = [(m["seat"], C.SUITS.index(m["suit"]), m["points"]) for m in view["marriages"]]
    state.marriages = marriages
    pending = [0, 0]
    credited = [0, 0]
    pending[seat] = view["pending_marriage_points"]
    credited[seat] = sum(p for m, _, p in marriages if m == seat) - pending[seat]
    for m, suit, p in marriages:
        if m != opp:
            continue
        on_table = (trick and trick[0]["seat"] == opp and SS.PARTNER[state.lead_card] >= 0
                    and C.SUIT_OF[state.lead_card] == suit and (m, suit, p) == marriages[-1])
        if tricks[opp] and not (on_table and not opts.santase):
            credited[opp] += p
        else:
            pending[opp] += p
    state.pending = pending
    state.credited = credited
    state.shown = 0
    state.claimer = -1
    state.claim_opp_had_trick = False
    last = view["last_trick"]
    state.last_trick = None if last is None else (
        last["cards"][0]["seat"], C.card(last["cards"][0]["card"]),
        C.card(last["cards"][1]["card"]), last["winner"])
    state.over = False
    state.ended_by = ""
    state.game_points = [0, 0]
    state.bonus = [0, 0]
    return state


FROM_VIEW["sixtysix"] = state_from_view


def sample(view: dict, rng) -> dict:
    if view["game"] == "sixtysix":
        return sample_sixtysix(view, rng)
    return _sampling.sample(view, rng)
