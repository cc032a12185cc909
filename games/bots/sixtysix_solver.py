"""Exact play of a sixty-six deal once the stock is closed or exhausted, with every card known.

The strong bot's determinizations are perfect-information deals; in phase 2 (no more drawing)
such a deal is small enough to solve by alpha-beta. The value is the deal's game points for
``me`` minus the opponent's. Simplifications: a player on lead claims 66 as soon as he has it (he
may not wait for a bigger win), and in ``santase`` a queen or king led with its partner in hand is
always announced.
"""
from __future__ import annotations

from games.engine import cards as C
from games.engine import sixtysix as sixtysix_rules

STRENGTH = sixtysix_rules.STRENGTH
POINTS = sixtysix_rules.POINTS
HIGHER = sixtysix_rules.HIGHER
PARTNER = sixtysix_rules.PARTNER
SUIT_OF = C.SUIT_OF
SUIT_MASK = C.SUIT_MASK


_cards = C.cards_of


def solvable(s) -> bool:
    return not s.over and not s.stock_open and s.claimer < 0


def solve(s, me: int) -> float:
    """Exact value of a phase-2 state ``s`` (``solvable(s)``) for seat ``me``.

    Alpha-beta over scalar arguments (hands as masks, points, pending marriage points, whether
    each seat has a trick), strongest cards first, with a table of the lead positions already
    searched (exact values and bounds): the same hands and scores are met through many orders."""
    trump = s.trump
    trump_mask = s.trump_mask
    closed_by = s.closed_by
    santase = s.opts.santase
    failed_gp = 3 if santase or not s.closer_opp_had_trick else 2
    target, under, bonus10 = sixtysix_rules.TARGET, sixtysix_rules.UNDER, sixtysix_rules.LAST_TRICK_BONUS
    order = sorted(_cards(s.opts.deck_mask),
                   key=lambda c: -STRENGTH[c] - (8 if SUIT_OF[c] == trump else 0))
    table: dict = {}

    def win(winner, p0, p1, t0, t1):
        if winner == 0:
            gp = 3 if not t1 else 2 if p1 < under else 1
        else:
            gp = 3 if not t0 else 2 if p0 < under else 1
        return gp if winner == me else -gp

    def end_of_cards(last, p0, p1, t0, t1):
        if closed_by >= 0:
            if (p0 if closed_by == 0 else p1) >= target:
                return win(closed_by, p0, p1, t0, t1)
            return failed_gp if closed_by != me else -failed_gp
        if last == 0:
            p0 += bonus10
        else:
            p1 += bonus10
        if p0 == p1:
            return 0
        return win(0 if p0 > p1 else 1, p0, p1, t0, t1)

    def lead(leader, h0, h1, p0, p1, e0, e1, t0, t1, alpha, beta):
        if (p0 if leader == 0 else p1) >= target and closed_by != 1 - leader:
            return win(leader, p0, p1, t0, t1)
        key = (leader, h0, h1, p0, p1, e0, e1, t0, t1)
        hit = table.get(key)
        if hit is not None:
            lo, hi = hit
            if lo == hi or lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            if lo > alpha:
                alpha = lo
            if hi < beta:
                beta = hi
        a0, b0 = alpha, beta
        hand = h0 if leader == 0 else h1
        maximize = leader == me
        best = -99 if maximize else 99
        for c in order:
            if not hand >> c & 1:
                continue
            q0, q1, f0, f1 = p0, p1, e0, e1
            if santase and PARTNER[c] >= 0 and hand >> PARTNER[c] & 1:
                bonus = 40 if SUIT_OF[c] == trump else 20
                if leader == 0:
                    if t0:
                        q0 += bonus
                    else:
                        f0 += bonus
                elif t1:
                    q1 += bonus
                else:
                    f1 += bonus
            bit = 1 << c
            if leader == 0:
                v = follow(0, c, h0 ^ bit, h1, q0, q1, f0, f1, t0, t1, alpha, beta)
            else:
                v = follow(1, c, h0, h1 ^ bit, q0, q1, f0, f1, t0, t1, alpha, beta)
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
        lo, hi = (hit if hit is not None else (-99, 99))
        if best <= a0:
            hi = min(hi, best)
        elif best >= b0:
            lo = max(lo, best)
        else:
            lo = hi = best
        table[key] = (lo, hi)
        return best

    def follow(leader, lc, h0, h1, p0, p1, e0, e1, t0, t1, alpha, beta):
        seat = 1 - leader
        hand = h1 if seat == 1 else h0
        lead_suit = SUIT_OF[lc]
        mask = (hand & HIGHER[lc] or hand & SUIT_MASK[lead_suit] or hand & trump_mask or hand)
        maximize = seat == me
        best = -99 if maximize else 99
        lead_points = POINTS[lc]
        for c in _cards(mask):
            if SUIT_OF[c] == lead_suit:
                winner = seat if STRENGTH[c] > STRENGTH[lc] else leader
            else:
                winner = seat if SUIT_OF[c] == trump else leader
            gain = POINTS[c] + lead_points
            bit = 1 << c
            g0, g1 = (h0 ^ bit, h1) if seat == 0 else (h0, h1 ^ bit)
            if winner == 0:
                q0, q1, f0, f1, u0, u1 = p0 + gain + e0, p1, 0, e1, 1, t1
            else:
                q0, q1, f0, f1, u0, u1 = p0, p1 + gain + e1, e0, 0, t0, 1
            if not g0 and not g1:
                v = end_of_cards(winner, q0, q1, u0, u1)
            else:
                v = lead(winner, g0, g1, q0, q1, f0, f1, u0, u1, alpha, beta)
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

    h0, h1 = s.hands
    p0 = s.card_points[0] + s.credited[0]
    p1 = s.card_points[1] + s.credited[1]
    e0, e1 = s.pending
    t0, t1 = int(s.tricks[0] > 0), int(s.tricks[1] > 0)
    if s.lead_card >= 0:
        return follow(s.leader, s.lead_card, h0, h1, p0, p1, e0, e1, t0, t1, -99, 99)
    return lead(s.leader, h0, h1, p0, p1, e0, e1, t0, t1, -99, 99)
