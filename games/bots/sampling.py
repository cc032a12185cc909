"""Hidden cards consistent with a view: the determinizations the strong bot searches.

Everything here reads the view only (STYLE.md habit 6). A sample is the ``hidden`` argument of the
game's ``state_from_view``: the cards of every hand the seat cannot see (and, in sixty-six, the
stock's order and the opponent's captured pile). What the view reveals constrains the sample:

* hearts and spades: cards played are out; a seat that did not follow suit is void in it; a
  spades leader who led a spade before spades were broken held nothing else; in hearts, the
  cards this seat passed are in the receiver's hand until he plays them;
* sixty-six: the own hand and captured cards, the card led, the face-up trump card and the last
  trick are out of the pool; a follower who did not follow (or trump) after the stock closed is
  void; the partner of an opponent's announced marriage is likely still in his hand. The view holds
  no trick history and not the opponent's captured cards (RULES.md), so the rest is uniform.
"""
from __future__ import annotations

from games.engine import cards as C
from games.engine import sixtysix as SS

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


def sample_hearts(view: dict, rng) -> dict:
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
    hands = deal_constrained(pool, capacity, allowed, rng, fixed)
    return {"hands": {s: C.codes_of(hands[s]) for s in others}}


def sample_spades(view: dict, rng) -> dict:
    seat = view["seat"]
    hidden_self = not view["hand"] and view["hand_sizes"][seat] > 0
    seats = [s for s in range(4) if s != seat or hidden_self]
    mine = 0 if hidden_self else _mask(view["hand"])
    played = _played(view)
    pool = [c for c in range(52) if not (mine | played) >> c & 1]
    capacity = {s: view["hand_sizes"][s] for s in seats}
    allowed = _trick_voids(view, spades_game=True)
    hands = deal_constrained(pool, capacity, {s: allowed[s] for s in seats}, rng)
    return {"hands": {s: C.codes_of(hands[s]) for s in seats}}


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


SAMPLERS = {"hearts": sample_hearts, "spades": sample_spades, "sixtysix": sample_sixtysix}


def sample(view: dict, rng) -> dict:
    """Hidden cards consistent with ``view``, drawn with ``rng``."""
    return SAMPLERS[view["game"]](view, rng)
