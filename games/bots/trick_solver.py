"""Exact solving of the last tricks of Hearts and Spades over one determinization.

The strong bot's search fixes every hidden card per draw (PIMC); once each hand holds few cards
(``SOLVE_CARDS``) a draw's rest of the deal is solved here exactly instead of being played out by
a rule, with alpha-beta over the cards left, on bitmasks (no engine clone per node):

* Spades: the two teams are the two sides of a zero-sum game; the value is ``spades_value`` of
  the searching seat's team minus the other team's (contract, bags, nils as the rules score them,
  plus the bag liability of ``spades_value``).
* Hearts: paranoid: the searching seat against a coalition of the other three that minimises its
  value (``hearts_value``: the others' mean points minus its own, a moon scored as the rules
  score it). The others' own interests are not modelled (max-n would keep them apart but prunes
  almost nothing); with few cards left what the coalition can do to a seat is mostly what each
  of them would do anyway: avoid points and throw them on him.

Cards that are equivalent (same suit, no card of another hand nor of the trick between them, same
points) are searched once. The solver reads the engine's state fields and changes nothing in it.
"""
from __future__ import annotations

from games.engine import cards as C
from games.engine import hearts as hearts_rules
from games.engine import spades as spades_rules

# A solve costs (median, one core) ~0.04 ms at 2 cards a hand, 0.2-0.3 ms at 3, 1-3 ms at 4, 5-11
# ms at 5; a whole rollout by rule ~0.1-0.2 ms. So a draw is solved from the decision on when
# every hand holds at most SOLVE_CARDS; a rollout from an earlier decision solves its last
# ROLLOUT_SOLVE_CARDS tricks (0: none: solving 3 inside every rollout cut the draws 3-4 times,
# solving 2 still cost a third of the rollout's time).
SOLVE_CARDS = 3
ROLLOUT_SOLVE_CARDS = 0
BAG_LIABILITY = 8           # spades: points a bag held costs later (10 bags cost 100); see spades_value

_LOW13 = (1 << 13) - 1
_INF = float("inf")


def _runs(play: int, outstanding: int, special: int) -> list[int]:
    """One card per run of equivalent cards of ``play``: ascending within a suit, a card starts a
    new run when an ``outstanding`` card (another hand's or the trick's) of its suit lies below
    it and above the previous one, or when it or the previous one is ``special`` (its points
    differ from its neighbours')."""
    out = []
    for suit in range(4):
        field = play >> (13 * suit) & _LOW13
        if not field:
            continue
        other = outstanding >> (13 * suit) & _LOW13
        spec = special >> (13 * suit) & _LOW13
        prev = -1
        while field:
            low = field & -field
            r = low.bit_length() - 1
            field ^= low
            if prev < 0 or (other >> (prev + 1)) & ((1 << (r - prev - 1)) - 1) \
                    or (spec >> r) & 1 or (spec >> prev) & 1:
                out.append(13 * suit + r)
            prev = r
    return out


# === Spades ==========================================================================================

def spades_value(bids, blind, tricks, bags_before, team: int) -> float:
    """The deal's points of ``team`` as the rules score them, except that bags are valued at
    ``BAG_LIABILITY`` each when taken (and the 100 of a tenth bag is charged less what the bags
    held already cost): a bag costs later, not only the deal that reaches ten."""
    seats = (team, team + 2)
    contract = bids[team] + bids[team + 2]
    taken = 0
    nil_points = 0
    nil_bags = 0
    for s in seats:
        if bids[s] == 0:
            won = tricks[s]
            bonus = spades_rules.BLIND_NIL_BONUS if blind[s] else spades_rules.NIL_BONUS
            nil_points += bonus if won == 0 else -bonus
            nil_bags += won
        else:
            taken += tricks[s]
    if taken >= contract:
        over = taken - contract
        points = 10 * contract + over
    else:
        over = 0
        points = -10 * contract
    before = bags_before[team]
    bags = before + over + nil_bags
    points += nil_points + nil_bags - spades_rules.BAG_PENALTY * (bags // spades_rules.BAG_LIMIT)
    # The liability of the bags held after the deal, minus that of those held before it.
    return points - BAG_LIABILITY * (bags % spades_rules.BAG_LIMIT - before % spades_rules.BAG_LIMIT)


def spades_eval(s, seat: int) -> float:
    """Value of a finished deal for ``seat``: its team's ``spades_value`` minus the other's."""
    blind = [b is True for b in s.blind]
    bags = s.setup.bags_before
    team = seat & 1
    return (spades_value(s.bids, blind, s.tricks, bags, team)
            - spades_value(s.bids, blind, s.tricks, bags, team ^ 1))


def solve_spades(s, me: int) -> float:
    """The exact value (``spades_eval`` for ``me``) of a spades state in the play phase with
    every hand known, both teams playing their best."""
    team = me & 1
    hands = list(s.hands)
    tricks = list(s.tricks)
    trick = list(s.trick)
    bids = s.bids
    blind = [b is True for b in s.blind]
    bags = s.setup.bags_before
    st = [s.leader, s.spades_broken]
    cache: dict = {}

    def leaf():
        key = tuple(tricks)
        v = cache.get(key)
        if v is None:
            v = (spades_value(bids, blind, tricks, bags, team)
                 - spades_value(bids, blind, tricks, bags, team ^ 1))
            cache[key] = v
        return v

    def rec(turn, alpha, beta):
        hand = hands[turn]
        if not trick:
            if not hand:
                return leaf()
            play = hand if st[1] or not hand & spades_rules.NON_SPADE_MASK else hand & spades_rules.NON_SPADE_MASK
        else:
            play = hand & spades_rules.SUIT_MASK[trick[0] // 13] or hand
        outstanding = 0
        for x in range(4):
            if x != turn:
                outstanding |= hands[x]
        for c in trick:
            outstanding |= 1 << c
        cards = _runs(play, outstanding, 0)
        maxing = (turn & 1) == team
        if len(cards) > 1:
            cards.sort(key=lambda c: -(c % 13) - (13 if c >= 39 else 0))
        best = -_INF if maxing else _INF
        for c in cards:
            hands[turn] ^= 1 << c
            trick.append(c)
            broken = st[1]
            if c >= 39:
                st[1] = True
            if len(trick) == 4:
                leader = st[0]
                w = (leader + spades_rules.trick_winner_index(trick)) & 3
                tricks[w] += 1
                done = trick[:]
                trick.clear()
                st[0] = w
                v = rec(w, alpha, beta)
                st[0] = leader
                trick.extend(done)
                tricks[w] -= 1
            else:
                v = rec((turn + 1) & 3, alpha, beta)
            trick.pop()
            st[1] = broken
            hands[turn] ^= 1 << c
            if maxing:
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
            else:
                if v < best:
                    best = v
                    if v < beta:
                        beta = v
            if alpha >= beta:
                break
        return best

    if s.phase == spades_rules.OVER:
        return spades_eval(s, me)
    return rec(s.turn, -_INF, _INF)


# === Hearts ==========================================================================================

def hearts_points(won_points: list[int], jack: bool) -> list[int]:
    """Card points of each seat from the point cards it took (hearts, QS, JD), the moon scored as
    26 onto each of the others (the relative value is the same for either choice)."""
    for s in range(4):
        if won_points[s] & hearts_rules.MOON_CARDS == hearts_rules.MOON_CARDS:
            pts = [0 if x == s else 26 for x in range(4)]
            break
    else:
        pts = [(w & hearts_rules.HEARTS_MASK).bit_count() + (13 if w & hearts_rules.QS_BIT else 0) for w in won_points]
    if jack:
        for x in range(4):
            if won_points[x] & hearts_rules.JD_BIT:
                pts[x] -= 10
    return pts


def hearts_value(pts: list[int], seat: int) -> float:
    return (pts[0] + pts[1] + pts[2] + pts[3] - pts[seat]) / 3.0 - pts[seat]


def solve_hearts(s, me: int) -> float:
    """The exact paranoid value (``hearts_value`` for ``me``) of a hearts state in the play phase
    with every hand known: ``me`` maximises it, the three others together minimise it."""
    jack = s.jack_counts
    scoring = hearts_rules.MOON_CARDS | (hearts_rules.JD_BIT if jack else 0)
    special = hearts_rules.QS_BIT | (hearts_rules.JD_BIT if jack else 0)
    hands = list(s.hands)
    won = [w & scoring for w in s.won]
    trick = list(s.trick)
    st = [s.leader, s.hearts_broken]

    def rec(turn, alpha, beta):
        hand = hands[turn]
        if not trick:
            if not hand:
                return hearts_value(hearts_points(won, jack), me)
            play = hand if st[1] or not hand & ~hearts_rules.MOON_CARDS else hand & ~hearts_rules.HEARTS_MASK
        else:
            play = hand & C.SUIT_MASK[trick[0] // 13] or hand
        outstanding = 0
        for x in range(4):
            if x != turn:
                outstanding |= hands[x]
        for c in trick:
            outstanding |= 1 << c
        cards = _runs(play, outstanding, special)
        maxing = turn == me
        best = -_INF if maxing else _INF
        for c in cards:
            hands[turn] ^= 1 << c
            trick.append(c)
            broken = st[1]
            if 26 <= c < 39 or c == hearts_rules.QUEEN_OF_SPADES:
                st[1] = True
            if len(trick) == 4:
                leader = st[0]
                w = hearts_rules.trick_winner(leader, trick)
                gained = ((1 << trick[0]) | (1 << trick[1]) | (1 << trick[2]) | (1 << trick[3])) & scoring
                old = won[w]
                won[w] = old | gained
                done = trick[:]
                trick.clear()
                st[0] = w
                v = rec(w, alpha, beta)
                st[0] = leader
                trick.extend(done)
                won[w] = old
            else:
                v = rec((turn + 1) & 3, alpha, beta)
            trick.pop()
            st[1] = broken
            hands[turn] ^= 1 << c
            if maxing:
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
            else:
                if v < best:
                    best = v
                    if v < beta:
                        beta = v
            if alpha >= beta:
                break
        return best

    if s.phase != hearts_rules.PLAY:
        return hearts_value(hearts_points(won, jack), me)
    return rec(s.turn, -_INF, _INF)


def cards_left(s) -> int:
    """The most cards any hand holds."""
    return max(h.bit_count() for h in s.hands)
