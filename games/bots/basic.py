"""The basic bot: a few rules per game, the way a decent casual player plays. Reads the view only.

Sixty-six: declare as soon as the points reach 66, exchange the lowest trump, announce marriages
(trumps first), close when the points in hand and the sure tricks make 66, lead low and keep the
marriage cards, take a led ten or ace cheaply. Hearts: pass the queen, high spades and high hearts
and void a short suit; lead low, duck under the winning card, dump QS (then high hearts) when void;
take the moon the way that helps the standing. Spades: bid the counted winners (nil with a hand of
no winners), decline blind nil unless far behind; win tricks the contract needs with the lowest
card that wins, let a winning partner have it, cover a nil partner, duck when bidding nil.
"""
from __future__ import annotations

from games.engine import cards as C
from games.engine import sixtysix as SS

from . import parts
from .base import check_view, rng_of

IDX = C.INDEX


def choose_action(view: dict, rng=None, budget_ms: int | None = None) -> dict:
    legal = check_view(view)
    rng = rng_of(rng)
    if len(legal) == 1 and legal[0]["type"] != "pass":
        return dict(legal[0])
    return parts.of(view["game"]).basic_policy(view, legal, rng)


def _find(legal, **fields):
    for a in legal:
        if all(a.get(k, False) == v for k, v in fields.items()):
            return dict(a)
    return None


# === Sixty-six ======================================================================================

def _ss_strength(c):
    return SS.STRENGTH[c]


def _ss_unseen(view) -> int:
    """Cards this seat has not seen anywhere (in the view): candidates for the opponent and stock."""
    deck = SS.VARIANTS[view["variant"]].deck_mask
    seen = C.mask_of_codes(view["hand"]) | C.mask_of_codes(view["my_captured"])
    seen |= C.mask_of_codes(p["card"] for p in view["trick"])
    if view["trump_card"]:
        seen |= C.BIT[IDX[view["trump_card"]]]
    if view["last_trick"]:
        seen |= C.mask_of_codes(p["card"] for p in view["last_trick"]["cards"])
    return deck & ~seen


def _ss_top(c: int, unseen: int) -> bool:
    """No unseen card of its suit beats c."""
    return not SS.HIGHER[c] & unseen


def ss_sure_points(view, hand: list[int], trump: int) -> int:
    """Points of the tricks the hand surely wins led from the top: boss trumps, then side bosses
    once the opponent can have no trump left (or the side boss is led before)."""
    unseen = _ss_unseen(view)
    points = 0
    for suit in range(4):
        cards = sorted((c for c in hand if C.SUIT_OF[c] == suit), key=_ss_strength, reverse=True)
        for c in cards:
            if SS.HIGHER[c] & unseen:
                break
            if suit != trump and unseen & C.SUIT_MASK[trump] and c != cards[0]:
                break
            points += SS.POINTS[c] + 3        # the card and a small card of the opponent
    return points


def sixtysix_policy(view, legal, rng):
    my = view["my_points"] or 0
    trump = C.SUITS.index(view["trump_suit"])
    hand = [IDX[c] for c in view["hand"]]
    if _find(legal, type="declare") and my >= SS.TARGET:
        return _find(legal, type="declare")
    marriages = [a for a in legal if a.get("marriage")]
    for a in marriages:
        pts = 40 if C.SUIT_OF[IDX[a["card"]]] == trump else 20
        if a.get("declare") and my + pts >= SS.TARGET:
            return dict(a)
    if _find(legal, type="exchange"):
        return _find(legal, type="exchange")
    plain = [a for a in marriages if not a.get("declare")]
    # kurnik/schnapsen allow no marriage after a close: announce it first, close on a later lead.
    marry_first = plain and not SS.VARIANTS[view["variant"]].santase
    if not marry_first and _find(legal, type="close") and view["stock_size"] >= 2:
        if my + ss_sure_points(view, hand, trump) >= SS.TARGET and my >= 30:
            return _find(legal, type="close")
    plays = [a for a in legal if a["type"] == "play" and not a.get("marriage")]
    if plain:
        # Trump marriage first; lead the queen (the king stays to win a trick).
        plain.sort(key=lambda a: (C.SUIT_OF[IDX[a["card"]]] != trump,
                                  C.RANK_OF[IDX[a["card"]]] != SS.QUEEN))
        return dict(plain[0])
    cards = [IDX[a["card"]] for a in plays]
    if not view["trick"]:
        return _play(plays, _ss_lead(view, cards, hand, trump))
    return _play(plays, _ss_follow(view, cards, hand, trump))


def _play(plays, card):
    code = C.CODES[card]
    for a in plays:
        if a["card"] == code:
            return dict(a)
    return dict(plays[0])


def _ss_keep_value(c, hand, trump):
    """How much a card is worth keeping (higher: lead or discard it later)."""
    v = SS.POINTS[c] + (20 if C.SUIT_OF[c] == trump else 0)
    p = SS.PARTNER[c]
    if p >= 0 and p in hand:
        v += 25
    return v


def _ss_lead(view, cards, hand, trump):
    unseen = _ss_unseen(view)
    if view["phase"] == "play2":
        # Cash sure winners (trumps first to draw the opponent's), else give the cheapest card.
        tops = [c for c in cards if _ss_top(c, unseen)]
        if tops:
            tops.sort(key=lambda c: (C.SUIT_OF[c] != trump, -SS.POINTS[c]))
            return tops[0]
        return min(cards, key=lambda c: (SS.POINTS[c] + (10 if C.SUIT_OF[c] == trump else 0)))
    return min(cards, key=lambda c: (_ss_keep_value(c, hand, trump), SS.STRENGTH[c]))


def _ss_follow(view, cards, hand, trump):
    lead = IDX[view["trick"][0]["card"]]
    beats = [c for c in cards if (C.SUIT_OF[c] == C.SUIT_OF[lead] and SS.STRENGTH[c] > SS.STRENGTH[lead])
             or (C.SUIT_OF[c] == trump and C.SUIT_OF[lead] != trump)]
    if view["phase"] == "play2":
        if beats:
            return min(beats, key=lambda c: (C.SUIT_OF[c] == trump, SS.STRENGTH[c]))
        return min(cards, key=lambda c: (SS.POINTS[c], SS.STRENGTH[c]))
    same = [c for c in beats if C.SUIT_OF[c] == C.SUIT_OF[lead]]
    if same:    # take it in suit, with the cheapest card doing it unless a ten or ace scores
        best = max(same, key=lambda c: SS.POINTS[c])
        if SS.POINTS[best] >= 10 and not (SS.PARTNER[best] in hand):
            return best
        return min(same, key=lambda c: SS.STRENGTH[c])
    if SS.POINTS[lead] >= 10:
        trumps = [c for c in beats if C.SUIT_OF[c] == trump]
        if trumps:
            return min(trumps, key=lambda c: (SS.PARTNER[c] in hand, SS.STRENGTH[c]))
    return min(cards, key=lambda c: (_ss_keep_value(c, hand, trump), SS.STRENGTH[c]))


# === Hearts =========================================================================================

QS = IDX["QS"]
KS = IDX["KS"]
AS = IDX["AS"]
JD = IDX["JD"]


def _h_points(c, jack):
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
        return _find(legal, choice=hearts_moon_choice(view))
    cards = [IDX[a["card"]] for a in legal]
    return _play(legal, hearts_play(view, cards))


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
    points = sum(_h_points(c, jack) for c in trick)
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


# === Spades =========================================================================================

def spades_count_winners(hand: list[int]) -> float:
    """Tricks a hand expects to take: aces and guarded kings/queens, top and long spades, ruffs."""
    by_suit = [[C.RANK_OF[c] for c in hand if C.SUIT_OF[c] == s] for s in range(4)]
    tricks = 0.0
    for s in range(3):
        ranks, n = by_suit[s], len(by_suit[s])
        if 12 in ranks:
            tricks += 1 if n <= 5 else 0.7
        if 11 in ranks and n >= 2:
            tricks += 0.8 if n <= 4 else 0.4
        if 10 in ranks and n >= 3 and (12 in ranks or 11 in ranks) and n <= 4:
            tricks += 0.4
    sp = sorted(by_suit[3], reverse=True)
    n = len(sp)
    for r in sp:
        if r == 12:
            tricks += 1
        elif r == 11:
            tricks += 1 if n >= 2 else 0.5
        elif r == 10:
            tricks += 0.8 if n >= 3 else 0.3
        elif r == 9:
            tricks += 0.5 if n >= 4 else 0
    if n > 3:
        tricks += (n - 3) * 0.8
    short = sum(1 for s in range(3) if len(by_suit[s]) <= 1)
    if n >= 2:
        tricks += 0.5 * min(short, n - 1)
    return tricks


def spades_nil_ok(hand: list[int]) -> bool:
    spades = sorted(C.RANK_OF[c] for c in hand if C.SUIT_OF[c] == C.SPADES)
    if len(spades) > 3 or (spades and spades[-1] >= 9):
        return False
    for s in range(3):
        ranks = sorted(C.RANK_OF[c] for c in hand if C.SUIT_OF[c] == s)
        if ranks and ranks[-1] >= 11 and len(ranks) < 4:
            return False
        if ranks and ranks[0] >= 7:
            return False
    return True


def spades_bid(view) -> int:
    hand = [IDX[c] for c in view["hand"]]
    bids = view["bids"]
    partner = (view["seat"] + 2) % 4
    tricks = spades_count_winners(hand)
    if tricks < 1.5 and spades_nil_ok(hand) and bids[partner] != 0:
        return 0
    return max(1, min(13, int(tricks + 0.5)))


def spades_blind(view) -> bool:
    me = view["seat"] & 1
    behind = view["scores_before"][me ^ 1] - view["scores_before"][me]
    partner = (view["seat"] + 2) % 4
    return behind >= 300 and view["blind_nil"][partner] is not True


def spades_policy(view, legal, rng):
    kind = legal[0]["type"]
    if kind == "blind_nil":
        return _find(legal, accept=spades_blind(view))
    if kind == "bid":
        return _find(legal, tricks=spades_bid(view))
    cards = [IDX[a["card"]] for a in legal]
    return _play(legal, spades_play(view, cards))


def _sp_beats(c, best):
    if C.SUIT_OF[c] == C.SUIT_OF[best]:
        return c > best
    return C.SUIT_OF[c] == C.SPADES


def spades_play(view, cards: list[int]) -> int:
    seat = view["seat"]
    partner = (seat + 2) % 4
    bids = view["bids"]
    tricks = view["tricks_won"]
    team = seat & 1
    i_nil = bids[seat] == 0
    partner_nil = bids[partner] == 0
    contract = view["contracts"][team] if view["contracts"] else 0
    taken = sum(tricks[s] for s in (team, team + 2) if bids[s] != 0)
    need = contract - taken > 0
    played = 0
    for t in view["tricks"]:
        played |= C.mask_of_codes(p["card"] for p in t["cards"])
    trick = view["trick"]
    tcards = [IDX[p["card"]] for p in trick]
    played |= C.mask_of(tcards)
    hand = C.mask_of_codes(view["hand"])
    unseen = C.FULL_DECK & ~played & ~hand

    def boss(c):
        above = C.SUIT_MASK[C.SUIT_OF[c]] & ~((1 << (c + 1)) - 1)
        return not above & unseen

    if not trick:
        if i_nil:
            return min(cards, key=lambda c: (C.RANK_OF[c], C.SUIT_OF[c] == C.SPADES))
        if need or partner_nil:
            bosses = [c for c in cards if boss(c)]
            if bosses:
                return max(bosses, key=lambda c: (C.SUIT_OF[c] != C.SPADES, C.RANK_OF[c]))
        non = [c for c in cards if C.SUIT_OF[c] != C.SPADES] or cards
        return min(non, key=lambda c: (C.RANK_OF[c],))
    best_i = 0
    for i, c in enumerate(tcards):
        if _sp_beats(c, tcards[best_i]):
            best_i = i
    best = tcards[best_i]
    best_seat = trick[best_i]["seat"]
    last = len(trick) == 3
    winners = sorted(c for c in cards if _sp_beats(c, best))
    losers = sorted((c for c in cards if not _sp_beats(c, best)), key=lambda c: (C.SUIT_OF[c] == C.SPADES, C.RANK_OF[c]))
    if i_nil:
        if losers:
            return max(losers, key=lambda c: (C.SUIT_OF[c] == C.SUIT_OF[best] or C.SUIT_OF[c] != C.SPADES, C.RANK_OF[c]))
        return min(cards, key=lambda c: C.RANK_OF[c])
    partner_winning = best_seat == partner
    if partner_nil and partner_winning and winners:
        return max(winners) if not last else winners[0]
    if partner_winning and (last or boss(best) or not need) and losers:
        return losers[0]
    if (need or partner_nil) and winners:
        follow = [c for c in winners if C.SUIT_OF[c] == C.SUIT_OF[cards[0]] and C.SUIT_OF[c] != C.SPADES]
        if not last and follow and boss(max(follow)):
            return max(follow)
        return winners[0]
    if losers:
        return max(losers, key=lambda c: (C.SUIT_OF[c] != C.SPADES, C.RANK_OF[c])) if not need else losers[0]
    return winners[0]

