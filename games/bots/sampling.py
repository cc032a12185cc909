"""Hidden cards consistent with a view: the determinizations the strong bot searches.

Everything here reads the view only (as a player would). A sample is the ``hidden`` argument of the
game's ``state_from_view``: the cards of every hand the seat cannot see (and, in sixty-six, the
stock's order and the opponent's captured pile). What the view reveals constrains the sample:

* hearts and spades: cards played are out; a seat that did not follow suit is void in it; a
  spades leader who led a spade before spades were broken held nothing else; in hearts, the
  cards this seat passed are in the receiver's hand until he plays them;
* sixty-six: every card played (the view's ``tricks``), the own hand and the face-up trump card
  are out of the pool; the trump card the opponent took by exchange or drew last and the partner of
  each marriage he announced are in his hand until played; his answers in phase 2 (head, follow,
  trump) rule cards out of his hand; the rest is uniform (``sixtysix_knowledge``).
"""
from __future__ import annotations

import itertools
import math
from typing import Callable

from games.engine import cards as C
from games.engine import sixtysix as sixtysix_rules

from . import parts

ALL_SUITS = (1 << 4) - 1


def _mask(codes) -> int:
    m = 0
    for code in codes:
        m |= 1 << C.INDEX[code]
    return m


def deal_constrained(pool: list[int], capacity: dict[int, int], allowed_suits: dict[int, int],
                     rng, fixed: dict[int, int] | None = None, tries: int = 30) -> dict[int, int]:
    """Split ``pool`` (card indices) among seats: ``capacity[seat]`` cards each, a seat getting only
    cards of suits in its ``allowed_suits`` bit set. ``fixed[seat]`` (mask) is placed first.
    Most constrained cards are placed first, each to a seat chosen with weight = room left. After
    ``tries`` dead ends the suit constraints are dropped (a view can be inconsistent with them only
    through an approximation, never through the rules)."""
    fixed = fixed or {}
    seats = sorted(capacity)
    for attempt in range(tries + 1):
        strict = attempt < tries
        hands = {s: fixed.get(s, 0) for s in seats}
        room = {s: capacity[s] - bin(hands[s]).count("1") for s in seats}
        cards = [c for c in pool if not any(hands[s] >> c & 1 for s in seats)]
        rng.shuffle(cards)
        if strict:
            cards.sort(key=lambda c: sum(1 for s in seats if allowed_suits[s] >> C.SUIT_OF[c] & 1))
        ok = True
        for c in cards:
            suit_bit = 1 << C.SUIT_OF[c]
            options = [s for s in seats if room[s] > 0 and (not strict or allowed_suits[s] & suit_bit)]
            if not options:
                ok = False
                break
            total = sum(room[s] for s in options)
            pick = rng.random() * total
            for s in options:
                pick -= room[s]
                if pick < 0:
                    break
            hands[s] |= 1 << c
            room[s] -= 1
        if ok:
            return hands
    raise ValueError("no deal fits the view")   # only if the counts themselves disagree


# --- trick games ------------------------------------------------------------------------------------

def _trick_voids(view: dict, spades_game: bool) -> dict[int, int]:
    """Allowed-suit bit sets per seat read from the tricks shown in the view."""
    allowed = {s: ALL_SUITS for s in range(4)}
    broken = False
    tricks = [t["cards"] for t in view["tricks"]]
    if view["trick"]:
        tricks.append(view["trick"])
    for cards in tricks:
        lead = C.INDEX[cards[0]["card"]]
        led = C.SUIT_OF[lead]
        if spades_game and led == C.SPADES and not broken:
            allowed[cards[0]["seat"]] &= 1 << C.SPADES    # led a spade unbroken: held only spades
        for p in cards[1:]:
            c = C.INDEX[p["card"]]
            if C.SUIT_OF[c] != led:
                allowed[p["seat"]] &= ~(1 << led)
        if spades_game and any(C.SUIT_OF[C.INDEX[p["card"]]] == C.SPADES for p in cards):
            broken = True
    return allowed


def _played(view: dict) -> int:
    m = 0
    for t in view["tricks"]:
        m |= _mask(p["card"] for p in t["cards"])
    return m | _mask(p["card"] for p in view["trick"])


def hearts_constraints(view: dict) -> tuple[list[int], dict[int, int], dict[int, int], dict[int, int]]:
    """``deal_constrained``'s pool, capacities, allowed suits and fixed cards for the other hearts
    hands: in the play, the cards this seat passed are fixed in the hand they went to."""
    seat = view["seat"]
    others = [s for s in range(4) if s != seat]
    mine = _mask(view["hand"])
    passed = _mask(view.get("passed") or [])
    played = _played(view)
    pool = [c for c in range(52) if not (mine | passed | played) >> c & 1]
    fixed: dict[int, int] = {}
    if view["phase"] == "pass":
        capacity = {s: 13 for s in others}
        allowed = {s: ALL_SUITS for s in others}
    else:
        capacity = {s: view["hand_sizes"][s] for s in others}
        allowed = _trick_voids(view, spades_game=False)
        offset = {"left": 1, "right": 3, "across": 2}.get(view["pass_direction"], 0)
        if offset and passed:
            fixed[(seat + offset) % 4] = passed & ~played
            pool += [c for c in range(52) if (passed & ~played) >> c & 1]
    return pool, capacity, allowed, fixed


def spades_constraints(view: dict) -> tuple[list[int], dict[int, int], dict[int, int], dict[int, int]]:
    """The same for spades: the other hands, and this seat's own while it bids blind."""
    seat = view["seat"]
    hidden_self = not view["hand"] and view["hand_sizes"][seat] > 0
    seats = [s for s in range(4) if s != seat or hidden_self]
    mine = 0 if hidden_self else _mask(view["hand"])
    played = _played(view)
    pool = [c for c in range(52) if not (mine | played) >> c & 1]
    capacity = {s: view["hand_sizes"][s] for s in seats}
    allowed = _trick_voids(view, spades_game=True)
    return pool, capacity, {s: allowed[s] for s in seats}, {}




def sample_trick_game(view: dict, rng) -> dict:
    """The hidden hands of a hearts or spades view, drawn within what the play has shown."""
    pool, capacity, allowed, fixed = parts.of(view["game"]).draw_constraints(view)
    hands = deal_constrained(pool, capacity, allowed, rng, fixed)
    return {"hands": {s: C.codes_of(hands[s]) for s in capacity}}


def sixtysix_knowledge(view: dict) -> dict:
    """What a careful player knows of the unseen sixty-six cards, from the view and its history.

    ``opp_fixed``: cards surely in the opponent's hand now (the trump card he took by exchange or
    drew last, the partner of each marriage he announced, until played); ``pool``: the other unseen
    cards (his hand's rest and the face-down stock); ``opp_forbidden``: cards of the pool he cannot
    hold, shown by his answers in phase 2 (docs/RULES.md: head the led card if he can, else follow,
    else trump); ``need``: how many pool cards his hand still holds; ``stock_size``.
    """
    seat = view["seat"]
    opp = 1 - seat
    opts = sixtysix_rules.VARIANTS[view["variant"]]
    deck = opts.deck_mask
    tricks = view["tricks"]
    played = 0
    for t in tricks:
        played |= _mask(p["card"] for p in t["cards"])
    played |= _mask(p["card"] for p in view["trick"])
    seen = played | _mask(view["hand"])
    if view["trump_card"]:
        seen |= 1 << C.INDEX[view["trump_card"]]
    fixed = 0
    exchange = view["exchange"]
    if exchange and exchange["seat"] == opp:
        fixed |= 1 << C.INDEX[exchange["card"]]
    drawn = view["trump_drawn"]
    if drawn and drawn["seat"] == opp:
        fixed |= 1 << C.INDEX[drawn["card"]]
    for m in view["marriages"]:
        if m["seat"] == opp:
            fixed |= 1 << sixtysix_rules.PARTNER[C.INDEX[m["card"]]]
    fixed &= ~seen
    trump = C.SUITS.index(view["trump_suit"])
    trump_mask = C.SUIT_MASK[trump]
    face_down = bin(deck).count("1") - 2 * opts.hand_size - 1
    phase2_from = (face_down + 1) // 2
    if view["closed_at"] is not None:
        phase2_from = min(phase2_from, view["closed_at"])
    forbidden = 0
    for t in tricks[phase2_from:]:
        lead, follow = (C.INDEX[p["card"]] for p in t["cards"])
        if t["cards"][1]["seat"] != opp:
            continue
        if C.SUIT_OF[follow] == C.SUIT_OF[lead]:
            if sixtysix_rules.STRENGTH[follow] < sixtysix_rules.STRENGTH[lead]:
                forbidden |= sixtysix_rules.HIGHER[lead]
        else:
            forbidden |= C.SUIT_MASK[C.SUIT_OF[lead]]
            if C.SUIT_OF[follow] != trump:
                forbidden |= trump_mask
    pool = deck & ~seen & ~fixed
    return {"opp_fixed": fixed, "pool": pool, "opp_forbidden": forbidden & pool,
            "need": view["hand_sizes"][opp] - bin(fixed).count("1"), "stock_size": view["stock_size"]}


def sample_sixtysix(view: dict, rng) -> dict:
    """The opponent's hand: his known cards, then a uniform choice among the pool's cards he may
    hold; the stock: the rest, shuffled. Every card seen played is out (the history is public)."""
    hand, stock = sixtysix_draws(view, rng)()
    return {"hand": C.codes_of(hand), "stock": [C.CODES[c] for c in stock]}


def sixtysix_draws(view: dict, rng) -> Callable[[], tuple[int, tuple[int, ...]]]:
    """``sample_sixtysix``'s draws for a search that makes thousands: the view is read once, and
    each call of the function returned draws the opponent's hand (a mask) and the stock in draw
    order (card indices), with the same use of ``rng``."""
    k = sixtysix_knowledge(view)
    allowed = list(C.iter_cards(k["pool"] & ~k["opp_forbidden"]))
    others = list(C.iter_cards(k["opp_forbidden"]))
    need, fixed = k["need"], k["opp_fixed"]

    def draw() -> tuple[int, tuple[int, ...]]:
        rng.shuffle(allowed)
        mine, rest = allowed, others
        if len(allowed) < need:   # only if an inference was wrong: never through the rules
            rng.shuffle(others)
            mine, rest = allowed + others[:need - len(allowed)], others[need - len(allowed):]
        hand = fixed | C.mask_of(mine[:need])
        stock = mine[need:] + rest
        rng.shuffle(stock)
        return hand, tuple(stock)
    return draw


def sixtysix_hands(view: dict, limit: int) -> list[int] | None:
    """Every hand the opponent may hold (masks), if there are at most ``limit``; else None. With the
    stock gone or closed the face-down cards are never drawn, so these hands are the whole of the
    hidden position: solving each exactly and averaging replaces sampling."""
    k = sixtysix_knowledge(view)
    allowed = list(C.iter_cards(k["pool"] & ~k["opp_forbidden"]))
    need = k["need"]
    if need < 0 or need > len(allowed) or math.comb(len(allowed), need) > limit:
        return None
    return [k["opp_fixed"] | C.mask_of(combo) for combo in itertools.combinations(allowed, need)]


def sample(view: dict, rng) -> dict:
    """Hidden cards consistent with ``view``, drawn with ``rng``."""
    return parts.of(view["game"]).sample(view, rng)
