"""Hearts properties over random legal play (hypothesis): invariants that hold at every step."""
import random

import pytest
from hypothesis import given, settings, strategies as st

from games.engine import cards as C
from games.engine import core
from games.engine.core import IllegalAction

MAX_MOVES = 4 + 52 + 1      # four passes, 52 cards, one moon choice
deals = st.tuples(st.integers(0, 2**32), st.integers(0, 7), st.sampled_from(["standard", "jack_of_diamonds"]))


def new_deal(seed, deal_number, variant):
    return core.deal("hearts", variant, deal_number=deal_number, dealer=seed % 4,
                     rng=random.Random(seed))


def playout(seed, deal_number, variant, check=lambda state: None):
    """Random legal play to the end, calling ``check`` before every move and at the end."""
    state = new_deal(seed, deal_number, variant)
    rng = random.Random(seed + 1)
    moves = 0
    while not state.is_over():
        check(state)
        state.apply_move(state.random_move(rng))
        moves += 1
        assert moves <= MAX_MOVES
    check(state)
    return state


def codes_in(value):
    """Every card code anywhere in a JSON-like value."""
    if isinstance(value, str):
        return {value} if value in C.INDEX else set()
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, (list, tuple)):
        return set().union(*(codes_in(v) for v in value))
    return set()


def test_it_finds_card_codes_anywhere_in_a_view():
    assert codes_in({"a": [{"card": "QS"}], "b": ["2C", "seat0"], "c": None}) == {"QS", "2C"}


def hands_of(state):
    """Current hands as code sets, read from the owners' own views."""
    return [set(state.view(s)["hand"]) for s in range(4)]


@settings(max_examples=60, deadline=None)
@given(deals)
def test_it_ends_within_a_bound_with_cards_conserved_and_places_disjoint(deal):
    def check(state):
        places = state.card_places()
        union = 0
        for mask in places.values():
            assert not union & mask
            union |= mask
        assert union == C.FULL_DECK
    state = playout(*deal, check=check)
    assert len(state.record()["actions"]) <= MAX_MOVES


@settings(max_examples=300, deadline=None)
@given(deals)
def test_it_takes_26_points_per_deal_and_scores_the_moon_and_jack_right(deal):
    state = playout(*deal)
    view = state.view(None)
    tricks = view["tricks"]
    assert len(tricks) == 13 and tricks[0]["cards"][0]["card"] == "2C"
    taken = [0, 0, 0, 0]
    jack = [0, 0, 0, 0]
    for trick in tricks:
        for played in trick["cards"]:
            taken[trick["winner"]] += 13 if played["card"] == "QS" else played["card"][1] == "H"
            jack[trick["winner"]] -= 10 * (played["card"] == "JD" and deal[2] == "jack_of_diamonds")
    assert sum(taken) == 26
    result = state.result()
    moon = result["moon"]
    if 26 in taken:
        shooter = taken.index(26)
        assert moon == shooter
        choice = state.record()["actions"][-1]["choice"]
        base = ([-26 * (s == shooter) for s in range(4)] if choice == "self"
                else [26 * (s != shooter) for s in range(4)])
        assert sum(base) in (-26, 78)
    else:
        assert moon is None
        base = taken
    assert result["points"] == [b + j for b, j in zip(base, jack)]
    assert sum(result["points"]) in {t + sum(jack) for t in (26, -26, 78)}


@settings(max_examples=60, deadline=None)
@given(deals)
def test_it_shows_each_seat_only_cards_it_may_see(deal):
    def check(state):
        hands = hands_of(state)
        phase = state.view(None)["phase"]
        passed = [set(state.view(s)["passed"]) for s in range(4)]
        for seat in (0, 1, 2, 3, None):
            view = state.view(seat)
            shown = codes_in(view)
            assert C.mask_of_codes(shown) & ~state.known_cards(seat) == 0
            # The oracle from the rules: no card of another hand is ever public; a passer
            # alone knows where his passed cards went, and only once they have arrived.
            for other in range(4):
                if other == seat:
                    continue
                allowed = passed[seat] if seat is not None and phase != "pass" else set()
                assert not (shown & hands[other]) - allowed
                if phase == "pass":
                    assert not shown & passed[other]
            if seat is None:
                assert view["hand"] == [] and view["passed"] == [] and view["received"] == []
    playout(*deal, check=check)


junk_values = st.one_of(st.none(), st.booleans(), st.integers(-3, 60), st.text(max_size=3),
                        st.sampled_from(C.CODES), st.lists(st.sampled_from(C.CODES), max_size=4),
                        st.lists(st.integers(), max_size=3), st.dictionaries(st.text(max_size=2), st.integers(), max_size=2))
actions = st.one_of(
    st.fixed_dictionaries({"seat": st.integers(-1, 4), "type": st.just("play"), "card": st.sampled_from(C.CODES)}),
    st.fixed_dictionaries({"seat": st.integers(0, 3), "type": st.just("pass"),
                           "cards": st.lists(st.sampled_from(C.CODES), min_size=0, max_size=4)}),
    st.fixed_dictionaries({"seat": st.integers(0, 3), "type": st.just("moon"),
                           "choice": st.sampled_from(["self", "others", "none", None])}),
    st.fixed_dictionaries({"seat": junk_values, "type": st.sampled_from(["play", "pass", "moon", "bid", 3]),
                           "card": junk_values, "cards": junk_values, "choice": junk_values}),
    st.dictionaries(st.sampled_from(["seat", "type", "card", "cards", "choice", "x"]), junk_values, max_size=5),
    junk_values,
)


def is_legal(state, action):
    """The rules' answer, independent of the engine's own checks."""
    if not isinstance(action, dict) or type(action.get("seat")) is not int:
        return False
    seat = action["seat"]
    if seat not in state.seats_to_act():
        return False
    if state.view(None)["phase"] == "pass":
        cards = action.get("cards")
        return (action.get("type") == "pass" and isinstance(cards, list) and len(cards) == 3
                and all(isinstance(c, str) for c in cards) and len(set(cards)) == 3
                and set(cards) <= set(state.view(seat)["hand"]))
    known = {k: v for k, v in action.items() if k in ("seat", "type", "card", "choice", "cards")}
    return known in state.legal_actions(seat)


def snapshot(state):
    return (state.record(), [state.view(s) for s in (0, 1, 2, 3, None)],
            [list(state.legal_moves(s)) for s in range(4)])


@settings(max_examples=200, deadline=None)
@given(deals, st.one_of(st.integers(0, 4), st.integers(0, MAX_MOVES)),   # often in the pass phase
       st.lists(actions, min_size=1, max_size=25))
def test_it_refuses_every_illegal_action_and_changes_nothing(deal, steps, tries):
    state = new_deal(*deal)
    rng = random.Random(deal[0])
    for _ in range(steps):
        if state.is_over():
            break
        state.apply_move(state.random_move(rng))
    for action in tries:
        if is_legal(state, action):
            trial = state.clone()
            trial.apply(action)
            assert trial.log[-1][0] == action["seat"]
            continue
        before = snapshot(state)
        with pytest.raises(IllegalAction) as err:
            state.apply(action)
        assert isinstance(err.value.reason, str) and err.value.reason
        assert snapshot(state) == before


@settings(max_examples=40, deadline=None)
@given(deals, st.integers(0, MAX_MOVES - 1))
def test_it_clones_independently(deal, steps):
    state = new_deal(*deal)
    rng = random.Random(deal[0])
    for _ in range(steps):
        if state.is_over():
            break
        state.apply_move(state.random_move(rng))
    if state.is_over():
        return
    copy = state.clone()
    before = snapshot(state)
    copy.apply_move(copy.random_move(rng))
    assert snapshot(state) == before
    copy_before = snapshot(copy)
    state.apply_move(state.random_move(rng))
    assert snapshot(copy) == copy_before


@settings(max_examples=40, deadline=None)
@given(deals)
def test_it_replays_its_own_record_through_apply(deal):
    record = playout(*deal).record()
    again = core.new_state(core.DealSetup(**{k: record[k] for k in (
        "game", "variant", "players", "dealer", "deal_number", "scores_before", "hands")}))
    for action in record["actions"]:
        again.apply(action)
    assert again.record() == record


@settings(max_examples=30, deadline=None)
@given(deals, st.integers(0, 2**32))
def test_its_tricks_kept_for_the_views_of_a_move_match_the_log_of_every_state_and_clone(deal, branch_seed):
    """Every view of a move shares one list of finished tricks (computed once per move): it must
    always be the one the state's own log rebuilds, for clones that go their own way too."""
    rng = random.Random(branch_seed)
    clones = []

    def check(state):
        assert state.view(None)["tricks"] == state._rebuild_tricks()
        if rng.random() < 0.2 and not state.is_over():
            clone = state.clone()
            clone.apply_move(clone.random_move(rng))        # maybe another move than the original's
            clones.append(clone)

    playout(*deal, check=check)
    for clone in clones:
        assert clone.view(0)["tricks"] == clone._rebuild_tricks()
        if not clone.is_over():
            clone.apply_move(clone.random_move(rng))
            assert clone.view(1)["tricks"] == clone._rebuild_tricks()
