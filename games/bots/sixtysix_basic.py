"""The basic bot's sixty-six: declare as soon as the points reach 66, exchange the lowest trump,
announce marriages (trumps first), close when the points in hand and the sure tricks make 66, lead
low and keep the marriage cards, take a led ten or ace cheaply. Reads the view only.
"""
from __future__ import annotations

from games.engine import cards as C
from games.engine import sixtysix as sixtysix_rules

from . import basic
from .basic import IDX

def _strength(c):
    return sixtysix_rules.STRENGTH[c]


def _unseen(view) -> int:
    """Cards this seat has not seen anywhere (in the view): candidates for the opponent and stock."""
    deck = sixtysix_rules.VARIANTS[view["variant"]].deck_mask
    seen = C.mask_of_codes(view["hand"]) | C.mask_of_codes(view["my_captured"])
    seen |= C.mask_of_codes(p["card"] for p in view["trick"])
    if view["trump_card"]:
        seen |= C.BIT[IDX[view["trump_card"]]]
    if view["last_trick"]:
        seen |= C.mask_of_codes(p["card"] for p in view["last_trick"]["cards"])
    return deck & ~seen


def _top(c: int, unseen: int) -> bool:
    """No unseen card of its suit beats c."""
    return not sixtysix_rules.HIGHER[c] & unseen


def sure_points(view, hand: list[int], trump: int) -> int:
    """Points of the tricks the hand surely wins led from the top: boss trumps, then side bosses
    once the opponent can have no trump left (or the side boss is led before)."""
    unseen = _unseen(view)
    points = 0
    for suit in range(4):
        cards = sorted((c for c in hand if C.SUIT_OF[c] == suit), key=_strength, reverse=True)
        for c in cards:
            if sixtysix_rules.HIGHER[c] & unseen:
                break
            if suit != trump and unseen & C.SUIT_MASK[trump] and c != cards[0]:
                break
            points += sixtysix_rules.POINTS[c] + 3        # the card and a small card of the opponent
    return points


def sixtysix_policy(view, legal, rng):
    my = view["my_points"] or 0
    trump = C.SUITS.index(view["trump_suit"])
    hand = [IDX[c] for c in view["hand"]]
    if basic.find_action(legal, type="declare") and my >= sixtysix_rules.TARGET:
        return basic.find_action(legal, type="declare")
    marriages = [a for a in legal if a.get("marriage")]
    for a in marriages:
        pts = 40 if C.SUIT_OF[IDX[a["card"]]] == trump else 20
        if a.get("declare") and my + pts >= sixtysix_rules.TARGET:
            return dict(a)
    if basic.find_action(legal, type="exchange"):
        return basic.find_action(legal, type="exchange")
    plain = [a for a in marriages if not a.get("declare")]
    # kurnik/schnapsen allow no marriage after a close: announce it first, close on a later lead.
    marry_first = plain and not sixtysix_rules.VARIANTS[view["variant"]].santase
    if not marry_first and basic.find_action(legal, type="close") and view["stock_size"] >= 2:
        if my + sure_points(view, hand, trump) >= sixtysix_rules.TARGET and my >= 30:
            return basic.find_action(legal, type="close")
    plays = [a for a in legal if a["type"] == "play" and not a.get("marriage")]
    if plain:
        # Trump marriage first; lead the queen (the king stays to win a trick).
        plain.sort(key=lambda a: (C.SUIT_OF[IDX[a["card"]]] != trump,
                                  C.RANK_OF[IDX[a["card"]]] != sixtysix_rules.QUEEN))
        return dict(plain[0])
    cards = [IDX[a["card"]] for a in plays]
    if not view["trick"]:
        return basic.play_card(plays, _lead(view, cards, hand, trump))
    return basic.play_card(plays, _follow(view, cards, hand, trump))




def _keep_value(c, hand, trump):
    """How much a card is worth keeping (higher: lead or discard it later)."""
    v = sixtysix_rules.POINTS[c] + (20 if C.SUIT_OF[c] == trump else 0)
    p = sixtysix_rules.PARTNER[c]
    if p >= 0 and p in hand:
        v += 25
    return v


def _lead(view, cards, hand, trump):
    unseen = _unseen(view)
    if view["phase"] == "play2":
        # Cash sure winners (trumps first to draw the opponent's), else give the cheapest card.
        tops = [c for c in cards if _top(c, unseen)]
        if tops:
            tops.sort(key=lambda c: (C.SUIT_OF[c] != trump, -sixtysix_rules.POINTS[c]))
            return tops[0]
        return min(cards, key=lambda c: (sixtysix_rules.POINTS[c] + (10 if C.SUIT_OF[c] == trump else 0)))
    return min(cards, key=lambda c: (_keep_value(c, hand, trump), sixtysix_rules.STRENGTH[c]))


def _follow(view, cards, hand, trump):
    lead = IDX[view["trick"][0]["card"]]
    beats = [c for c in cards if (C.SUIT_OF[c] == C.SUIT_OF[lead] and sixtysix_rules.STRENGTH[c] > sixtysix_rules.STRENGTH[lead])
             or (C.SUIT_OF[c] == trump and C.SUIT_OF[lead] != trump)]
    if view["phase"] == "play2":
        if beats:
            return min(beats, key=lambda c: (C.SUIT_OF[c] == trump, sixtysix_rules.STRENGTH[c]))
        return min(cards, key=lambda c: (sixtysix_rules.POINTS[c], sixtysix_rules.STRENGTH[c]))
    same = [c for c in beats if C.SUIT_OF[c] == C.SUIT_OF[lead]]
    if same:    # take it in suit, with the cheapest card doing it unless a ten or ace scores
        best = max(same, key=lambda c: sixtysix_rules.POINTS[c])
        if sixtysix_rules.POINTS[best] >= 10 and not (sixtysix_rules.PARTNER[best] in hand):
            return best
        return min(same, key=lambda c: sixtysix_rules.STRENGTH[c])
    if sixtysix_rules.POINTS[lead] >= 10:
        trumps = [c for c in beats if C.SUIT_OF[c] == trump]
        if trumps:
            return min(trumps, key=lambda c: (sixtysix_rules.PARTNER[c] in hand, sixtysix_rules.STRENGTH[c]))
    return min(cards, key=lambda c: (_keep_value(c, hand, trump), sixtysix_rules.STRENGTH[c]))
