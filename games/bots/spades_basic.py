"""The basic bot's spades: bid the counted winners (nil with a hand of no winners), decline blind
nil unless far behind; win tricks the contract needs with the lowest card that wins, let a winning
partner have it, cover a nil partner, duck when bidding nil. Reads the view only.
"""
from __future__ import annotations

from games.engine import cards as C

from . import basic
from .basic import IDX

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
        return basic.find_action(legal, accept=spades_blind(view))
    if kind == "bid":
        return basic.find_action(legal, tricks=spades_bid(view))
    cards = [IDX[a["card"]] for a in legal]
    return basic.play_card(legal, spades_play(view, cards))


def _beats(c, best):
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
        if _beats(c, tcards[best_i]):
            best_i = i
    best = tcards[best_i]
    best_seat = trick[best_i]["seat"]
    last = len(trick) == 3
    winners = sorted(c for c in cards if _beats(c, best))
    losers = sorted((c for c in cards if not _beats(c, best)), key=lambda c: (C.SUIT_OF[c] == C.SPADES, C.RANK_OF[c]))
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
