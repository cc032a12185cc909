"""Spades for the strong bot: the rollout policy, the exact end of each rollout and the bid search.

The strong bot (strong.py) judges each option by playing every draw out; what a draw says depends
on how the seats play in it, so the policy here plays the parts of spades a bid depends on:

* a nil is attacked: with an opponent's live nil, the defenders lead their lowest cards, duck
  under him when he is winning the trick and play low when he is still to play; the nil bidder
  ducks with his highest losing card; his partner covers him (high while he is still to play,
  overtaking him when he is winning);
* a team whose contract is made avoids further tricks (bags): it ducks and leads low;
* otherwise the lowest winning card when the contract needs tricks (or when the others need
  nearly every trick left for theirs: setting them beats a bag), cheap discards when not.

Once every hand holds ``trick_solver.SOLVE_CARDS`` cards or fewer at the decision, or
``ROLLOUT_SOLVE_CARDS`` later in a rollout, the rest is solved exactly
(``trick_solver.solve_spades``). Draws are valued by ``trick_solver.spades_eval``: the team's
deal score minus the other's, bags charged as a liability (``trick_solver.BAG_LIABILITY``).

Bids are searched: the candidates are basic's count of winners and the bids around it, nil when
the hand is one a nil might survive with, each judged by the rollouts; blind nil likewise (both
answers) when it is offered. Basic's bid stays unless another is better by two paired standard
errors (``paired.choose``).
"""
from __future__ import annotations

from games.engine import cards as C
from games.engine import spades as spades_rules

from . import paired, parts, sampling, spades_basic, trick_solver

EPSILON = 0.08
BID_SPREAD = 2              # candidates: basic's bid +- this many tricks
NIL_MAX_WINNERS = 3.0       # nil is a candidate when basic counts fewer winners than this

_LOW13 = (1 << 13) - 1


def _low(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def rollout(s, rng, me):
    """Play the deal out (bids of seats yet to bid by rule); its value for ``me``."""
    if s.phase == spades_rules.PLAY and trick_solver.cards_left(s) <= trick_solver.SOLVE_CARDS:
        return trick_solver.solve_spades(s, me)
    solve_at = 13 - trick_solver.ROLLOUT_SOLVE_CARDS         # tricks done when the rest is solved
    while s.phase != spades_rules.OVER:
        seat = s.turn
        if s.phase == spades_rules.BLIND_NIL:
            s.apply_move(spades_rules.BLIND_DECLINE, seat)
        elif s.phase == spades_rules.BID:
            s.apply_move(spades_rules.BID_BASE + rule_bid(s, seat), seat)
        elif len(s.done) >= solve_at and not s.trick:
            return trick_solver.solve_spades(s, me)
        elif rng.random() < EPSILON and not _nil_side(s, seat):
            s.apply_move(s.random_move(rng), seat)
        else:
            s.apply_move(policy_move(s, seat), seat)
    return trick_solver.spades_eval(s, me)


def _nil_side(s, seat) -> bool:
    """Whether ``seat`` or its partner bid a nil still alive (no random move for them)."""
    bids, tricks = s.bids, s.tricks
    return any(bids[x] == 0 and tricks[x] == 0 for x in (seat, seat ^ 2))


def rule_bid(s, seat) -> int:
    hand = list(C.iter_cards(s.hands[seat]))
    tricks = spades_basic.spades_count_winners(hand)
    if tricks < 1.5 and spades_basic.spades_nil_ok(hand) and s.bids[seat ^ 2] != 0:
        return 0
    return max(1, min(13, int(tricks + 0.5)))


def _beats(c: int, best: int) -> bool:
    if c // 13 == best // 13:
        return c > best
    return c >= 39


def _rank_key(c):
    return (c >= 39, c % 13)


def policy_move(s, seat) -> int:
    playable = s._playable(seat)
    if not playable & (playable - 1):
        return _low(playable)
    bids = s.bids
    tricks = s.tricks
    team = seat & 1
    partner = seat ^ 2
    i_nil = bids[seat] == 0
    partner_nil = bids[partner] == 0 and tricks[partner] == 0
    opp_nils = [o for o in ((seat + 1) & 3, (seat + 3) & 3) if bids[o] == 0 and tricks[o] == 0]
    contract = bids[team] + bids[team + 2]
    taken = (tricks[team] if bids[team] else 0) + (tricks[team + 2] if bids[team + 2] else 0)
    need = taken < contract
    if not need:
        # Made: take more tricks only to set the others, when they need nearly every one left.
        other = team ^ 1
        theirs = ((tricks[other] if bids[other] else 0) + (tricks[other + 2] if bids[other + 2] else 0))
        short = bids[other] + bids[other + 2] - theirs
        need = short > 0 and short >= 13 - len(s.done) - 1
    trick = s.trick
    cards = spades_rules.cards_of_mask(playable)
    if not trick:
        if i_nil:
            return min(cards, key=_rank_key)
        if partner_nil:
            # Lead from the top, trumps first: the nil partner throws his cards under it.
            return max(cards, key=lambda c: c % 13 + (13 if c >= 39 else 0))
        non = [c for c in cards if c < 39] or list(cards)
        if opp_nils:
            return min(non, key=lambda c: c % 13)
        aces = [c for c in cards if c % 13 == 12]
        if need and aces:
            return aces[0]
        return min(non, key=lambda c: c % 13)
    wi = spades_rules.trick_winner_index(trick)
    best = trick[wi]
    best_seat = (s.leader + wi) & 3
    position = len(trick)                   # 1..3: how many played before this seat
    winners = [c for c in cards if _beats(c, best)]
    losers = [c for c in cards if not _beats(c, best)]
    if i_nil:
        if losers:
            return max(losers, key=lambda c: (c < 39, c % 13))
        return min(cards, key=_rank_key)
    # Seats still to play in this trick after this one.
    after = [(seat + k) & 3 for k in range(1, 4 - position)]
    if partner_nil:
        if best_seat == partner and winners:
            return min(winners)
        if partner in after and winners:    # cover him: win it as high as the suit allows
            follow = [c for c in winners if c // 13 == trick[0] // 13]
            return max(follow) if follow else min(winners)
    if opp_nils:
        nil = opp_nils[0]
        if best_seat == nil:
            if losers:            # duck under him: he keeps the trick
                return max(losers, key=lambda c: (c < 39, c % 13))
            return min(cards, key=_rank_key)
        if nil in after:          # play low: leave him room to win it
            follow = [c for c in cards if c // 13 == trick[0] // 13]
            if follow:
                return min(follow)
            return max(losers, key=lambda c: (c < 39, c % 13)) if losers else min(cards, key=_rank_key)
    if best_seat == partner and not (bids[partner] == 0):
        if losers:
            return min(losers, key=_rank_key) if need else max(losers, key=lambda c: (c < 39, c % 13))
        return min(cards, key=_rank_key)
    if winners and need:
        return min(winners)
    if not need and losers:
        return max(losers, key=lambda c: (c < 39, c % 13))
    return min(cards, key=_rank_key)


# === bidding ========================================================================================

def bid_candidates(view: dict, legal: list[dict]) -> list[dict]:
    """The bids worth searching: basic's bid and its neighbours, nil for a hand with few winners
    (not when the partner bid nil), blind nil's both answers."""
    if legal[0]["type"] == "blind_nil":
        return [dict(a) for a in legal]
    hand = [C.INDEX[c] for c in view["hand"]]
    winners = spades_basic.spades_count_winners(hand)
    base = max(1, min(13, int(winners + 0.5)))
    wanted = set(range(max(1, base - BID_SPREAD), min(13, base + BID_SPREAD) + 1))
    partner = (view["seat"] + 2) % 4
    if winners < NIL_MAX_WINNERS and view["bids"][partner] != 0:
        wanted.add(0)
    return [dict(a) for a in legal if a["tricks"] in wanted]


def choose_bid(view: dict, legal: list[dict], rng, budget_ms: float, iterations: int | None) -> dict:
    """The candidate with the best draws, if clearly better than basic's bid (``paired``)."""
    options = bid_candidates(view, legal)
    if options[0]["type"] == "blind_nil":
        rule = {"type": "blind_nil", "accept": spades_basic.spades_blind(view)}
    else:
        rule = {"type": "bid", "tricks": spades_basic.spades_bid(view)}
    default = next((j for j, a in enumerate(options)
                    if all(a.get(k) == v for k, v in rule.items())), 0)
    if len(options) == 1:
        return options[0]
    # Within the play's budget, like every decision (it once thought 4 x the budget: issue 33).
    rows = paired.draws(view, options, rng, budget_ms, iterations, rollout)
    return options[paired.choose(rows, default=default)]


def first_answer(view: dict, legal: list[dict], rng, budget_ms: float, iterations: int | None) -> dict | None:
    """A bid (blind nil too) by ``choose_bid``, within the budget; the play is searched (None)."""
    if legal[0]["type"] in ("bid", "blind_nil"):
        return choose_bid(view, legal, rng, budget_ms, iterations)
    return None


def puzzle_value(state, me):
    """A puzzle position's exact value for ``me``'s team, or None (before the play)."""
    if state.phase not in (spades_rules.PLAY, spades_rules.OVER):
        return None
    return trick_solver.solve_spades(state, me)


def puzzle_solvable(state) -> bool:
    return state.phase == spades_rules.PLAY


parts.register("spades", parts.BotParts(
    basic_policy=spades_basic.spades_policy, rollout=rollout, unit=50.0, sample=sampling.sample_trick_game,
    draw_constraints=sampling.spades_constraints, first_answer=first_answer,
    loss_unit="team points vs. the opponents", loss_labels=(20.0, 50.0, 100.0),
    puzzle=parts.PuzzleParts(cards=4, margin=20.0, value=puzzle_value, solvable=puzzle_solvable)))
