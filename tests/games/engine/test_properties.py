"""Invariants every game keeps at every step of random legal play (hypothesis)."""
import json
import random

from hypothesis import given, settings, strategies as st

from games.engine import cards as C
from games.engine.core import IllegalAction, deal, get_rules

from .playouts import GAME_VARIANTS

game_variant = st.sampled_from(GAME_VARIANTS)
seeds = st.integers(0, 2**32)


def cards_named_in(obj) -> set[str]:
    """Every card code anywhere in a JSON value (keys and strings)."""
    found = set()
    if isinstance(obj, dict):
        for k, v in obj.items():
            found |= cards_named_in(k) | cards_named_in(v)
    elif isinstance(obj, list):
        for v in obj:
            found |= cards_named_in(v)
    elif isinstance(obj, str) and C.CODE_RE.match(obj):
        found.add(obj)
    return found


def steps(game, variant, seed):
    """Each state of a random deal, before every move and at the end."""
    rng = random.Random(seed)
    state = deal(game, variant, rng=rng, dealer=seed % get_rules(game).seats, deal_number=seed % 4)
    while not state.is_over():
        yield state, rng
        state.apply_move(state.random_move(rng))
    yield state, rng


@settings(max_examples=40, deadline=None)
@given(gv=game_variant, seed=seeds)
def test_every_card_is_in_exactly_one_place_at_every_step(gv, seed):
    deck = C.mask_of(get_rules(gv[0]).deck(gv[1]))
    for state, _ in steps(*gv, seed):
        places = state.card_places()
        union = 0
        for mask in places.values():
            assert union & mask == 0, places
            union |= mask
        assert union == deck


@settings(max_examples=40, deadline=None)
@given(gv=game_variant, seed=seeds)
def test_no_view_names_a_card_its_seat_may_not_know(gv, seed):
    seats = list(range(get_rules(gv[0]).seats)) + [None]
    for state, _ in steps(*gv, seed):
        for seat in seats:
            view = state.view(seat)
            json.dumps(view)
            named = C.mask_of_codes(cards_named_in(view))
            assert named & ~state.known_cards(seat) == 0, (seat, C.codes_of(named & ~state.known_cards(seat)))


def random_action(state, rng):
    """An action object that is probably not legal: wrong seats, random cards, odd shapes."""
    seats = get_rules(state.game).seats
    kind = rng.randrange(6)
    seat = rng.randrange(seats)
    if kind == 0:
        return {"seat": seat, "type": "play", "card": C.CODES[rng.randrange(52)]}
    if kind == 1:
        return {"seat": seat, "type": rng.choice(["exchange", "close", "declare", "moon", "bid", "blind_nil", "pass", "fold"])}
    if kind == 2:
        return {"seat": seat, "type": "bid", "tricks": rng.choice([-1, 14, "3", None, 2.5])}
    if kind == 3:
        return {"seat": seat, "type": "pass", "cards": [C.CODES[rng.randrange(52)] for _ in range(rng.randrange(5))]}
    if kind == 4:
        return rng.choice([{}, {"seat": True, "type": "play", "card": "AS"}, {"type": "play"}, [], "play", None])
    return {"seat": seat, "type": "play", "card": rng.choice(["", "ZZ", 7, None]), "marriage": "yes"}


@settings(max_examples=30, deadline=None)
@given(gv=game_variant, seed=seeds)
def test_any_action_not_legal_is_refused_and_changes_nothing(gv, seed):
    for state, rng in steps(*gv, seed):
        legal = [a for s in state.seats_to_act() for a in state.legal_actions(s)]
        before = (state.record(), [state.view(s) for s in range(get_rules(gv[0]).seats)], state.legal_moves()
                  if not state.is_over() else None)
        for _ in range(3):
            action = random_action(state, rng)
            if action in legal or (isinstance(action, dict) and action.get("type") == "pass"
                                   and state.game == "hearts" and not state.is_over()):
                continue  # a pass may be legal without being listed (the list summarises them)
            try:
                state.apply(action)
            except IllegalAction as exc:
                assert isinstance(exc.reason, str) and exc.reason
            else:
                raise AssertionError(f"accepted {action}")
        after = (state.record(), [state.view(s) for s in range(get_rules(gv[0]).seats)], state.legal_moves()
                 if not state.is_over() else None)
        assert after == before


@settings(max_examples=20, deadline=None)
@given(gv=game_variant, seed=seeds)
def test_a_clone_goes_its_own_way(gv, seed):
    for state, rng in steps(*gv, seed):
        if state.is_over():
            break
        snapshot = state.record()
        twin = state.clone()
        while not twin.is_over():
            twin.apply_move(twin.random_move(rng))
        assert state.record() == snapshot
