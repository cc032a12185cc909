"""Hearts for the strong bot: the rollout policy (moon included) and the exact end of each rollout.

The policy plays what basic plays (duck under the winning card, dump QS and high hearts when void,
lead low), plus the moon, which changes what every later card is worth:

* a seat shoots when it holds every point card taken so far and has taken enough of them
  (``MOON_THREAT``; shooting a dealt hand made for it from the first trick measured worse): it
  then wins what it can with its highest cards, leads from the top and discards no point card;
* the others defend once a shooter holds ``MOON_THREAT``: a seat that can win a trick holding a
  point card wins it, and none throws a point card on the shooter's trick.

Once every hand holds ``trick_solver.SOLVE_CARDS`` cards or fewer at the decision, or
``ROLLOUT_SOLVE_CARDS`` later in a rollout, the rest is solved exactly
(``trick_solver.solve_hearts``, paranoid). A draw is worth the others' mean points minus the
seat's own (``trick_solver.hearts_value``).

A rollout from a pass (the post-match analysis and the hints compare passes, analyse.py) has the
seats yet to pass pass by basic's rule. The bot itself passes by basic's rule: measured, the
triples the rollouts preferred to it did no better in play, and worse the more draws judged them
(docs/BOTS.md).
"""
from __future__ import annotations

from games.engine import cards as C
from games.engine import hearts as hearts_rules

from . import basic, hearts_basic, parts, sampling, trick_solver

EPSILON = 0.08
MOON_THREAT = 10            # a seat holding every point card taken, hearts + 2 x QS at least this
                            # many, goes for the moon and the others stop it (measured against
                            # basic, same decks: at 5, and shooting every dealt moon hand from
                            # the first trick, the bot lost ~1 card point a deal to the version
                            # with no moon play; at 10 without the dealt-hand plan about half of that)

_LOW13 = (1 << 13) - 1
_POINT_CARDS = hearts_rules.HEARTS_MASK | hearts_rules.QS_BIT


def _high(mask: int) -> int:
    return mask.bit_length() - 1


def _low(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def _count(mask: int) -> int:
    return mask.bit_count()


def rollout(s, rng, seat):
    """Play the deal out (passes yet to make by basic's rule); its value for ``seat``."""
    pass_rest(s)
    if s.phase == hearts_rules.PLAY and trick_solver.cards_left(s) <= trick_solver.SOLVE_CARDS:
        return trick_solver.solve_hearts(s, seat)
    solve_at = 13 - trick_solver.ROLLOUT_SOLVE_CARDS         # tricks done when the rest is solved
    while s.phase == hearts_rules.PLAY:
        if s.tricks_done >= solve_at and not s.trick:
            return trick_solver.solve_hearts(s, seat)
        if rng.random() < EPSILON:
            s.apply_move(s.random_move(rng))
            continue
        s.apply_move(policy_move(s, s.turn))
    if s.phase == hearts_rules.MOON:
        s.apply_move(hearts_rules.MOON_OTHERS)
    return trick_solver.hearts_value(s.result()["points"], seat)


def pass_rest(s):
    """Seats yet to pass (only when a pass itself is evaluated) pass by basic's rule."""
    while s.phase == hearts_rules.PASS:
        seat = s.passed.index(0)
        codes = hearts_basic.hearts_pass({"variant": "jack_of_diamonds" if s.jack_counts else "standard"},
                                  list(hearts_rules.cards_in(s.hands[seat])))
        s.apply_move(hearts_rules.PASS_FLAG | C.mask_of_codes(codes), seat)


def _shooter(s) -> tuple[int, int]:
    """(seat, hearts + 2 x QS) of the seat holding every point card taken so far; (-1, 0) when
    none is taken yet, (-2, 0) when two seats hold some (no moon is left)."""
    holder, taken = -1, 0
    for i in range(4):
        w = s.won[i] & _POINT_CARDS
        if w:
            if holder >= 0:
                return -2, 0
            holder, taken = i, _count(w & hearts_rules.HEARTS_MASK) + (2 if w & hearts_rules.QS_BIT else 0)
    return holder, taken


def policy_move(s, seat) -> int:
    holder, taken = _shooter(s)
    if holder == seat and taken >= MOON_THREAT:
        return _shoot_move(s, seat)
    if holder >= 0 and holder != seat and taken >= MOON_THREAT:
        move = _defend_move(s, seat, holder)
        if move is not None:
            return move
    return _plain_move(s, seat)


def _trick_mask(trick) -> int:
    m = 0
    for c in trick:
        m |= 1 << c
    return m


def _shoot_move(s, seat) -> int:
    playable = s._playable(seat)
    trick = s.trick
    if not trick:
        # Lead from the top of the longest suit (hearts once they may be led).
        best, best_key = _high(playable), None
        for suit in range(4):
            field = playable >> (13 * suit) & _LOW13
            if field:
                key = (_count(field) + (2 if suit == C.HEARTS else 0), field.bit_length())
                if best_key is None or key > best_key:
                    best, best_key = 13 * suit + _high(field), key
        return best
    led = trick[0] // 13
    follow = playable >> (13 * led) & _LOW13
    if follow:
        high = max(c for c in trick if c // 13 == led) - 13 * led
        if follow >> (high + 1):
            return 13 * led + _high(follow)                 # win it as high as possible
        return 13 * led + _low(follow)
    safe = playable & ~_POINT_CARDS or playable
    return min(hearts_rules.cards_in(safe), key=lambda c: c % 13)     # keep the winners, give no point


def _defend_move(s, seat, shooter):
    trick = s.trick
    if not trick:
        return None
    playable = s._playable(seat)
    led = trick[0] // 13
    follow = playable >> (13 * led) & _LOW13
    points = _trick_mask(trick) & _POINT_CARDS
    if follow:
        high = max(c for c in trick if c // 13 == led) - 13 * led
        if follow >> (high + 1) and (points or led == C.HEARTS):
            return 13 * led + _high(follow)                 # take a point card from him
        return None
    wi = max(range(len(trick)), key=lambda i: trick[i] if trick[i] // 13 == led else -1)
    if (s.leader + wi) % 4 == shooter:
        safe = playable & ~_POINT_CARDS
        if safe:
            return _high_rank(safe)                         # throw him nothing he wants
    return None


def _high_rank(mask: int) -> int:
    return max(hearts_rules.cards_in(mask), key=lambda c: c % 13)


def _plain_move(s, seat) -> int:
    """Basic's way: duck under the winning card, take a pointless last trick high, dump QS and
    high hearts when void, lead low outside hearts."""
    hand = s.hands[seat]
    trick = s.trick
    if trick and s.tricks_done:
        led = trick[0] // 13
        follow = hand >> (13 * led) & _LOW13
        if follow:
            high = max(c for c in trick if c // 13 == led) - 13 * led
            under = follow & ((1 << high) - 1)
            if under:
                return 13 * led + _high(under)
            if len(trick) == 3 and not _trick_mask(trick) & _POINT_CARDS:
                top = 13 * led + _high(follow)
                if top == hearts_rules.QUEEN_OF_SPADES and follow & ~(1 << 10):
                    return 13 * led + _high(follow & ~(1 << 10))
                return top
            return 13 * led + _low(follow)
        if hand & hearts_rules.QS_BIT:
            return hearts_rules.QUEEN_OF_SPADES
        hearts = hand & hearts_rules.HEARTS_MASK
        if hearts:
            return _high(hearts)
        return _high_rank(hand)
    playable = s._playable(seat)
    if trick:   # the first trick: its own restrictions
        return _high_rank(playable)
    safe = playable & ~_POINT_CARDS or playable
    return min(hearts_rules.cards_in(safe), key=lambda c: c % 13)


def first_answer(view: dict, legal: list[dict], rng, budget_ms: float, iterations: int | None) -> dict | None:
    """The pass and the moon are basic's: the triples the rollouts preferred to it did no better in
    play, and worse the more draws judged them (docs/BOTS.md, "Changes measured against today's
    strong"). Every other decision is searched (None)."""
    if legal[0]["type"] in ("moon", "pass"):
        return basic.choose_action(view, rng)
    return None


def puzzle_value(state, me):
    """A puzzle position's exact value for ``me`` (the others playing together against him), or None."""
    if state.phase in (hearts_rules.PASS,):
        return None
    return trick_solver.solve_hearts(state, me)


def playing(state) -> bool:
    return state.phase == hearts_rules.PLAY


parts.register("hearts", parts.BotParts(
    basic_policy=hearts_basic.hearts_policy, rollout=rollout, unit=5.0, sample=sampling.sample_trick_game,
    draw_constraints=sampling.hearts_constraints, first_answer=first_answer,
    loss_unit="penalty points vs. the others' average", loss_labels=(2.0, 5.0, 10.0),
    puzzle=parts.PuzzleParts(cards=4, margin=2.5, value=puzzle_value, solvable=playing, playing=playing)))
