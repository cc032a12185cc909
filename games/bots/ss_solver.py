"""Exact play of a sixty-six deal once the stock is closed or exhausted, with every card known.

The strong bot's determinizations are perfect-information deals; in phase 2 (no more drawing)
such a deal is small enough to solve by alpha-beta. The value is the deal's game points for
``me`` minus the opponent's. Simplifications: a player on lead claims 66 as soon as he has it (he
may not wait for a bigger win), and in ``santase`` a queen or king led with its partner in hand is
always announced.
"""
from __future__ import annotations

from games.engine import cards as C
from games.engine import sixtysix as SS

STRENGTH = SS.STRENGTH
POINTS = SS.POINTS
HIGHER = SS.HIGHER
PARTNER = SS.PARTNER
SUIT_OF = C.SUIT_OF
SUIT_MASK = C.SUIT_MASK


_cards = C.cards_of


def solvable(s) -> bool:
    return not s.over and not s.stock_open and s.claimer < 0


def solve(s, me: int) -> float:
    """Exact value of a phase-2 state ``s`` (``solvable(s)``) for seat ``me``."""
    trump = s.trump
    trump_mask = s.trump_mask
    closed_by = s.closed_by
    santase = s.opts.santase
    failed_gp = 3 if santase or not s.closer_opp_had_trick else 2

    def win(winner, pts, tricks):
        loser = 1 - winner
        gp = 3 if tricks[loser] == 0 else 2 if pts[loser] < SS.UNDER else 1
        return gp if winner == me else -gp

    def end_of_cards(last, pts, tricks):
        if closed_by >= 0:
            if pts[closed_by] >= SS.TARGET:
                return win(closed_by, pts, tricks)
            return failed_gp if closed_by != me else -failed_gp
        p = list(pts)
        p[last] += SS.LAST_TRICK_BONUS
        if p[0] == p[1]:
            return 0
        return win(0 if p[0] > p[1] else 1, p, tricks)

    def lead(leader, hands, pts, pending, tricks, alpha, beta):
        if pts[leader] >= SS.TARGET and closed_by != 1 - leader:
            return win(leader, pts, tricks)
        hand = hands[leader]
        maximize = leader == me
        best = -99 if maximize else 99
        for c in sorted(_cards(hand), key=lambda c: -STRENGTH[c] - (8 if SUIT_OF[c] == trump else 0)):
            p, pe = pts, pending
            if santase and PARTNER[c] >= 0 and hand >> PARTNER[c] & 1:
                bonus = 40 if SUIT_OF[c] == trump else 20
                p, pe = list(pts), list(pending)
                if tricks[leader]:
                    p[leader] += bonus
                else:
                    pe[leader] += bonus
            h = list(hands)
            h[leader] ^= 1 << c
            v = follow(leader, c, h, p, pe, tricks, alpha, beta)
            if maximize:
                if v > best:
                    best = v
                if best > alpha:
                    alpha = best
            else:
                if v < best:
                    best = v
                if best < beta:
                    beta = best
            if alpha >= beta:
                break
        return best

    def follow(leader, lc, hands, pts, pending, tricks, alpha, beta):
        seat = 1 - leader
        hand = hands[seat]
        mask = (hand & HIGHER[lc] or hand & SUIT_MASK[SUIT_OF[lc]] or hand & trump_mask or hand)
        maximize = seat == me
        best = -99 if maximize else 99
        lead_suit = SUIT_OF[lc]
        for c in _cards(mask):
            if SUIT_OF[c] == lead_suit:
                winner = seat if STRENGTH[c] > STRENGTH[lc] else leader
            else:
                winner = seat if SUIT_OF[c] == trump else leader
            p = list(pts)
            p[winner] += POINTS[c] + POINTS[lc] + pending[winner]
            pe = pending
            if pending[winner]:
                pe = list(pending)
                pe[winner] = 0
            t = list(tricks)
            t[winner] += 1
            h = list(hands)
            h[seat] ^= 1 << c
            if not h[0] and not h[1]:
                v = end_of_cards(winner, p, t)
            else:
                v = lead(winner, h, p, pe, t, alpha, beta)
            if maximize:
                if v > best:
                    best = v
                if best > alpha:
                    alpha = best
            else:
                if v < best:
                    best = v
                if best < beta:
                    beta = best
            if alpha >= beta:
                break
        return best

    pts = [s.card_points[0] + s.credited[0], s.card_points[1] + s.credited[1]]
    args = (list(s.hands), pts, list(s.pending), list(s.tricks), -99, 99)
    if s.lead_card >= 0:
        return follow(s.leader, s.lead_card, *args)
    return lead(s.leader, *args)
