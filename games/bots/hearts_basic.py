"""The basic bot's hearts: pass the queen, high spades and high hearts and void a short suit; lead
low, duck under the winning card, dump QS (then high hearts) when void; take the moon the way that
helps the standing. Reads the view only.
"""
from __future__ import annotations

from games.engine import cards as C

from . import basic
from .basic import IDX

QS = IDX["QS"]
KS = IDX["KS"]
AS = IDX["AS"]
JD = IDX["JD"]


def _points(c, jack):
    if C.SUIT_OF[c] == C.HEARTS:
        return 1
    if c == QS:
        return 13
    if jack and c == JD:
        return -10
    return 0


def hearts_pass(view, hand: list[int]) -> list[str]:
    spades = [c for c in hand if C.SUIT_OF[c] == C.SPADES]
    low_spades = sum(1 for c in spades if C.RANK_OF[c] < 10)
    counts = [sum(1 for c in hand if C.SUIT_OF[c] == s) for s in range(4)]

    def danger(c):
        suit, rank = C.SUIT_OF[c], C.RANK_OF[c]
        d = float(rank)
        if c == QS:
            d += 30 if low_spades < 4 else -10
        elif c in (KS, AS):
            d += 20 if low_spades < 4 else -5
        elif suit == C.SPADES:
            d -= 8          # low spades protect against QS
        if suit == C.HEARTS:
            d += 2 + rank * 0.3
        if suit in (C.CLUBS, C.DIAMONDS) and counts[suit] <= 3:
            d += 4 - counts[suit]   # help to void a short minor suit
        if view["variant"] == "jack_of_diamonds" and c == JD:
            d -= 30
        return d

    return [C.CODES[c] for c in sorted(hand, key=danger, reverse=True)[:3]]


def hearts_policy(view, legal, rng):
    kind = legal[0]["type"]
    seat = view["seat"]
    if kind == "pass":
        hand = [IDX[c] for c in legal[0]["cards"]]
        return {"seat": seat, "type": "pass", "cards": hearts_pass(view, hand)}
    if kind == "moon":
        return basic.find_action(legal, choice=hearts_moon_choice(view))
    cards = [IDX[a["card"]] for a in legal]
    return basic.play_card(legal, hearts_play(view, cards))


def hearts_moon_choice(view) -> str:
    seat = view["seat"]
    scores = view["scores_before"]
    best, best_value = "others", None
    for choice in ("others", "self"):
        after = [s + (0 if i == seat and choice == "others" else
                      -26 if i == seat else 26 if choice == "others" else 0)
                 for i, s in enumerate(scores)]
        if max(after) >= 100:
            value = 1000 if after[seat] == min(after) else -1000
        else:
            value = sum(after) / 4 - after[seat]
        if best_value is None or value > best_value:
            best, best_value = choice, value
    return best


def hearts_play(view, cards: list[int]) -> int:
    jack = view["variant"] == "jack_of_diamonds"
    played = 0
    for t in view["tricks"]:
        played |= C.mask_of_codes(p["card"] for p in t["cards"])
    trick = [IDX[p["card"]] for p in view["trick"]]
    played |= C.mask_of(trick)
    hand = C.mask_of_codes(view["hand"])
    qs_out = not played >> QS & 1 and not hand >> QS & 1
    if not trick:
        return _hearts_lead(cards, hand, qs_out)
    led = C.SUIT_OF[trick[0]]
    high = max(c for c in trick if C.SUIT_OF[c] == led)
    points = sum(_points(c, jack) for c in trick)
    last = len(trick) == 3
    if C.SUIT_OF[cards[0]] == led:
        under = [c for c in cards if c < high]
        if jack and JD in cards and last and points <= 0 and JD > high:
            return JD
        if under:
            return max(under)
        if last and points <= 0:
            safe = [c for c in cards if c != QS]
            return max(safe or cards)
        if led == C.SPADES and QS in cards and len(cards) > 1:
            return max(c for c in cards if c != QS) if any(c > QS for c in cards) else min(cards)
        return min(cards)
    # Void in the led suit: dump the worst card.
    if QS in cards:
        return QS
    if qs_out:
        for c in (AS, KS):
            if c in cards:
                return c
    hearts = [c for c in cards if C.SUIT_OF[c] == C.HEARTS]
    if hearts:
        return max(hearts)
    keep_jd = [c for c in cards if not (jack and c == JD)] or cards
    return max(keep_jd, key=lambda c: (C.RANK_OF[c], -bin(hand & C.SUIT_MASK[C.SUIT_OF[c]]).count("1")))


def _hearts_lead(cards, hand, qs_out):
    # Smoke out the queen with low spades when she is out and we hold no high spade.
    spades = [c for c in cards if C.SUIT_OF[c] == C.SPADES]
    if qs_out and spades and max(spades) < QS:
        return max(spades)
    safe = [c for c in cards if C.SUIT_OF[c] != C.HEARTS and c not in (QS, KS, AS)]
    if safe:
        # Lowest card of the shortest suit: toward a void, and rarely winning.
        return min(safe, key=lambda c: (C.RANK_OF[c] > 6, bin(hand & C.SUIT_MASK[C.SUIT_OF[c]]).count("1"),
                                        C.RANK_OF[c]))
    return min(cards, key=lambda c: (c == QS, C.RANK_OF[c]))
