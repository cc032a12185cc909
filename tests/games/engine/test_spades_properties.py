"""Spades properties over random deals and random legal play (hypothesis)."""
from __future__ import annotations

import random

from hypothesis import given, settings, strategies as st

from games.engine import cards as C
from games.engine import core
from games.engine.core import IllegalAction

MAX_MOVES = 2 + 4 + 52          # two blind-nil choices at most, four bids at most, 52 cards

# Scores that offer blind nil to nobody, to team 0, or to team 1.
SCORES = st.sampled_from([[0, 0], [0, 199], [0, 200], [350, 40], [-150, 120]])


def deal(seed: int, dealer: int, scores: list[int], bags: list[int]) -> core.State:
    return core.deal("spades", rng=random.Random(seed), dealer=dealer, scores_before=scores,
                     bags_before=bags)


def random_steps(state, rng):
    """Yield after every random legal move until the deal is over."""
    while not state.is_over():
        state.apply_move(state.random_move(rng))
        yield state


def card_codes_in(value) -> set[str]:
    """Every card code anywhere in a JSON-like value."""
    if isinstance(value, str):
        return {value} if C.CODE_RE.match(value) else set()
    if isinstance(value, dict):
        return set().union(*(card_codes_in(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(card_codes_in(v) for v in value)) if value else set()
    return set()


def visible_by_rules(state, seat) -> set[str]:
    """From the rules, not from known_cards: cards played so far, plus the seat's own hand unless
    he is offered blind nil and has not chosen yet."""
    record = state.record()
    played = {a["card"] for a in record["actions"] if a["type"] == "play"}
    if seat is None:
        return played
    scores = record["scores_before"]
    team, other = seat % 2, 1 - seat % 2
    offered = scores[other] - scores[team] >= 200
    chose = any(a["seat"] == seat and a["type"] == "blind_nil" for a in record["actions"])
    bidding_started = any(a["type"] != "blind_nil" for a in record["actions"])
    if offered and not chose and not bidding_started:
        return played
    held = set(record["hands"][seat]) - played
    return played | held


def rescore(bids, blind, tricks, bags_before):
    """An independent recomputation of docs/RULES.md's team scoring."""
    points, bags_after = [], []
    for team in (0, 1):
        a, b = team, team + 2
        contract = bids[a] + bids[b]
        counted = (tricks[a] if bids[a] else 0) + (tricks[b] if bids[b] else 0)
        made = counted >= contract
        p = 10 * contract + (counted - contract) if made else -10 * contract
        bags = bags_before[team] + (counted - contract if made else 0)
        for s in (a, b):
            if bids[s] == 0:
                bonus = 200 if blind[s] else 100
                p += (bonus if tricks[s] == 0 else -bonus) + tricks[s]
                bags += tricks[s]
        p -= 100 * (bags // 10)
        points.append(p)
        bags_after.append(bags % 10)
    return points, bags_after


deals = st.tuples(st.integers(0, 2**32), st.integers(0, 3), SCORES,
                  st.lists(st.integers(0, 9), min_size=2, max_size=2))


@settings(max_examples=60, deadline=None)
@given(deals)
def test_it_always_ends_within_the_move_bound_with_13_tricks(params):
    seed, dealer, scores, bags = params
    state = deal(seed, dealer, scores, bags)
    for _ in random_steps(state, random.Random(seed)):
        assert len(state.log) <= MAX_MOVES
    result = state.result()
    assert sum(result["tricks"]) == 13 and len(state.view(None)["tricks"]) == 13
    assert all(0 <= b <= 9 for b in result["bags_after"])


@settings(max_examples=60, deadline=None)
@given(deals)
def test_it_scores_every_deal_as_an_independent_recomputation_does(params):
    seed, dealer, scores, bags = params
    state = deal(seed, dealer, scores, bags)
    for _ in random_steps(state, random.Random(seed)):
        pass
    view = state.view(None)
    bids = view["bids"]
    blind = [b is True for b in view["blind_nil"]]
    result = state.result()
    assert all(b is not None for b in bids)
    assert [result["team_points"], result["bags_after"]] == list(
        rescore(bids, blind, result["tricks"], bags))
    assert view["team_tricks"] == [result["tricks"][0] + result["tricks"][2],
                                   result["tricks"][1] + result["tricks"][3]]


@settings(max_examples=40, deadline=None)
@given(deals)
def test_it_keeps_every_card_in_exactly_one_place(params):
    seed, dealer, scores, bags = params
    state = deal(seed, dealer, scores, bags)

    def check():
        masks = list(state.card_places().values())
        union = 0
        for m in masks:
            assert union & m == 0
            union |= m
        assert union == C.FULL_DECK

    check()
    for _ in random_steps(state, random.Random(seed)):
        check()


@settings(max_examples=30, deadline=None)
@given(deals)
def test_it_never_shows_a_seat_a_card_it_may_not_see(params):
    seed, dealer, scores, bags = params
    state = deal(seed, dealer, scores, bags)

    def check():
        for seat in (0, 1, 2, 3, None):
            shown = card_codes_in(state.view(seat))
            known = state.known_cards(seat)
            assert all(known >> C.INDEX[c] & 1 for c in shown)
            assert shown <= visible_by_rules(state, seat)

    check()
    for _ in random_steps(state, random.Random(seed)):
        check()


junk_values = st.one_of(st.none(), st.booleans(), st.integers(-3, 60), st.text(max_size=3),
                        st.sampled_from(C.CODES), st.lists(st.sampled_from(C.CODES), max_size=2))
actions = st.one_of(
    st.fixed_dictionaries({"seat": st.integers(-1, 4), "type": st.just("play"),
                           "card": st.sampled_from(C.CODES)}),
    st.fixed_dictionaries({"seat": st.integers(0, 3), "type": st.just("bid"),
                           "tricks": st.integers(-2, 15)}),
    st.fixed_dictionaries({"seat": st.integers(0, 3), "type": st.just("blind_nil"),
                           "accept": st.booleans()}),
    st.dictionaries(st.sampled_from(["seat", "type", "card", "tricks", "accept", "cards"]),
                    st.one_of(junk_values, st.sampled_from(["play", "bid", "blind_nil"]))),
    junk_values,
)


@settings(max_examples=40, deadline=None)
@given(deals, st.integers(0, 60), st.lists(actions, min_size=1, max_size=15))
def test_it_refuses_every_action_not_listed_as_legal_and_changes_nothing(params, steps, tries):
    seed, dealer, scores, bags = params
    state = deal(seed, dealer, scores, bags)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over():
            break
        state.apply_move(state.random_move(rng))
    for action in tries:
        legal = state.legal_actions()
        if action in legal:
            continue
        before = (state.record(), [state.view(s) for s in (0, 1, 2, 3, None)],
                  state.legal_moves())
        try:
            state.apply(action)
        except IllegalAction as refused:
            assert refused.reason
        else:
            raise AssertionError(f"accepted {action!r}, legal were {legal!r}")
        assert before == (state.record(), [state.view(s) for s in (0, 1, 2, 3, None)],
                          state.legal_moves())


@settings(max_examples=40, deadline=None)
@given(deals, st.integers(0, 58))
def test_it_accepts_every_listed_legal_action(params, steps):
    seed, dealer, scores, bags = params
    state = deal(seed, dealer, scores, bags)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over():
            return
        state.apply_move(state.random_move(rng))
    for action in state.legal_actions():
        copy = state.clone()
        copy.apply(action)
        assert copy.record()["actions"][-1] == action


@settings(max_examples=40, deadline=None)
@given(deals, st.integers(0, 58))
def test_it_keeps_a_clone_independent_of_its_original(params, steps):
    seed, dealer, scores, bags = params
    state = deal(seed, dealer, scores, bags)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over():
            return
        state.apply_move(state.random_move(rng))
    snapshot = (state.record(), [state.view(s) for s in (0, 1, 2, 3, None)], state.legal_moves())
    copy = state.clone()
    assert (copy.record(), [copy.view(s) for s in (0, 1, 2, 3, None)],
            copy.legal_moves()) == snapshot
    for _ in random_steps(copy, random.Random(seed + 1)):
        pass
    assert (state.record(), [state.view(s) for s in (0, 1, 2, 3, None)],
            state.legal_moves()) == snapshot
    for _ in random_steps(state, random.Random(seed + 2)):
        pass
    assert copy.is_over() and state.is_over()
