"""Claiming the rest of a deal's tricks (docs/RULES.md, "Claiming the remaining tricks").

A claim is made by one seat for itself alone: every remaining trick, the one on the table
included, must be won by the claimer, whatever every other seat plays (his partner's too: in
Spades each seat's tricks count for nil bids and bags, so a trick "for the side" would leave the
score open). The proof is an AND-OR search over the rest of the play with every hand known: the
claimer chooses his card, the others may play anything legal. Of one seat's legal cards in a
suit only the lowest and the highest are tried: a higher card wins whatever a lower one of its
suit would, and keeping the higher cards leaves a hand at least as strong for the later tricks,
so the other cards of the suit cannot succeed where these two fail. The search is bounded
(``NODE_BUDGET``): a position it cannot settle within it is refused with that reason, never
guessed.

A proved claim is settled by playing it out (``claim_line``): the claimer's proved cards, and
for each other seat its lowest legal card. Every line ends the same way (every trick to the
claimer), and the deal record stays an ordinary, replayable record.
"""
from __future__ import annotations

from .cards import RANK_OF, SUIT_OF
from .refusals import IllegalAction

NODE_BUDGET = 20000


class _OutOfBudget(Exception):
    pass


class _Prover:
    def __init__(self, claimer: int):
        self.claimer = claimer
        self.memo: dict = {}
        self.nodes = 0

    def candidates(self, state) -> list[int]:
        seat = state.to_act()
        legal = state.legal_moves(seat)
        if seat == self.claimer:        # the strongest cards first: most claims play their winners
            return sorted(legal, key=lambda c: -RANK_OF[c])
        ends: dict[int, list[int]] = {}
        for c in legal:                 # legal_moves lists a suit low to high
            ends.setdefault(SUIT_OF[c], []).append(c)
        winners, keepers = [], []       # a card that takes the trick first: the quickest refutation
        for cards in ends.values():
            if len(cards) > 1 and _takes_trick(state, seat, cards[-1]):
                winners.append(cards[-1])
            keepers.append(cards[0])
        return winners + keepers

    def wins_all(self, state) -> bool:
        """Whether the claimer wins every remaining trick from ``state``."""
        if not state.claimable():
            return True
        key = state.claim_key()
        known = self.memo.get(key)
        if known is not None:
            return known
        self.nodes += 1
        if self.nodes > NODE_BUDGET:
            raise _OutOfBudget
        mine = state.to_act() == self.claimer
        outcome = not mine
        for move in self.candidates(state):
            child = state.clone()
            child.apply_move(move)
            ok = (not child.trick_done() or child.leader == self.claimer) and self.wins_all(child)
            if ok == mine:              # the claimer found a winning card, or another seat a refutation
                outcome = mine
                break
        self.memo[key] = outcome
        return outcome

    def choice(self, state) -> int:
        for move in self.candidates(state):
            child = state.clone()
            child.apply_move(move)
            if (not child.trick_done() or child.leader == self.claimer) and self.wins_all(child):
                return move
        raise AssertionError("a proved claim has a winning card at each of the claimer's turns")


def _takes_trick(state, seat: int, move: int) -> bool:
    """Whether ``seat`` playing ``move`` would be winning the trick so far (or leads it)."""
    if not state.trick:
        return True
    child = state.clone()
    child.apply_move(move, seat)
    return child.leader == seat if child.trick_done() else child.winning_seat() == seat


def claim_line(state, seat: int) -> list[tuple[int, int]]:
    """The moves, as ``(seat, move)``, that settle a claim by ``seat`` of every remaining trick.
    Raises IllegalAction when the game has no claims (``no_claims``), no trick is being played
    (``claim_not_now``), some play of the others takes a trick (``claim_unproved``) or the proof
    is too large to finish (``claim_too_hard``). ``state`` is left untouched."""
    if not state.CLAIMS:
        raise IllegalAction("no_claims")
    if not state.claimable():
        raise IllegalAction("claim_not_now")
    prover = _Prover(seat)
    try:
        proved = prover.wins_all(state)
    except _OutOfBudget:
        raise IllegalAction("claim_too_hard") from None
    if not proved:
        raise IllegalAction("claim_unproved")
    line = []
    s = state.clone()
    while s.claimable():
        who = s.to_act()
        move = prover.choice(s) if who == seat else s.legal_moves(who)[0]
        line.append((who, move))
        s.apply_move(move, who)
    return line
