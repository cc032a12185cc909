"""Sampled hidden cards fit the view, and the engine rebuilds the view's position from them
(``GameRules.state_from_view``)."""
from __future__ import annotations

import random

import pytest

from games.bots.sampling import sample, sixtysix_hands, sixtysix_knowledge
from games.engine import cards as C
from games.engine import sixtysix
from games.engine.core import deal, get_rules

from .helpers import GAME_VARIANTS, positions

COMMON = ("hand", "legal", "phase", "trick", "tricks_won", "hand_sizes", "to_act", "leader")
KEYS = {
    "hearts": COMMON + ("tricks", "hearts_broken", "points_taken", "last_trick"),
    "spades": COMMON + ("tricks", "bids", "blind_nil", "contracts", "spades_broken", "team_tricks"),
    "sixtysix": COMMON + ("stock_size", "trump_card", "trump_suit", "closed", "closed_by", "my_points",
                          "my_captured", "marriages", "pending_marriage_points", "last_trick", "tricks",
                          "exchange", "closed_at", "trump_turned", "trump_drawn"),
}


def hidden_cards(hidden: dict) -> int:
    if "hands" in hidden:
        return C.mask_of_codes(c for h in hidden["hands"].values() for c in h)
    return C.mask_of_codes(hidden["hand"] + hidden["stock"])


@pytest.mark.parametrize("game,variant", GAME_VARIANTS)
def test_it_rebuilds_the_views_position_from_a_sample(game, variant):
    rng = random.Random(9)
    for state, seat in positions(game, variant, deals=30, seed=5):
        view = state.view(seat)
        hidden = sample(view, rng)
        rebuilt = get_rules(game).state_from_view(view, hidden).view(seat)
        keys = ("hand", "legal", "phase") if view["phase"] in ("pass", "blind_nil") else KEYS[game]
        for key in keys:
            assert rebuilt[key] == view[key], key


@pytest.mark.parametrize("game,variant", GAME_VARIANTS)
def test_it_samples_only_cards_the_seat_cannot_see(game, variant):
    rng = random.Random(10)
    for state, seat in positions(game, variant, deals=30, seed=6):
        view = state.view(seat)
        hidden = sample(view, rng)
        seen = C.mask_of_codes(view["hand"])
        for t in view.get("tricks", []):
            seen |= C.mask_of_codes(p["card"] for p in t["cards"])
        seen |= C.mask_of_codes(p["card"] for p in view["trick"])
        seen |= C.mask_of_codes(view.get("my_captured", []))
        assert not hidden_cards(hidden) & seen
        # The true hidden cards are as many as the sampled ones.
        if "hands" in hidden:
            for s, cards in hidden["hands"].items():
                if view["phase"] != "pass":
                    assert len(cards) == view["hand_sizes"][s]


def test_it_respects_voids_and_passed_cards_in_hearts():
    rng = random.Random(11)
    checked = 0
    for state, seat in positions("hearts", "standard", deals=60, seed=7):
        view = state.view(seat)
        if view["phase"] != "play":
            continue
        voids = {s: set() for s in range(4)}
        tricks = [t["cards"] for t in view["tricks"]] + ([view["trick"]] if view["trick"] else [])
        for cards in tricks:
            led = cards[0]["card"][1]
            for p in cards[1:]:
                if p["card"][1] != led:
                    voids[p["seat"]].add(led)
        offset = {"left": 1, "right": 3, "across": 2}.get(view["pass_direction"], 0)
        played = {p["card"] for cards in tricks for p in cards}
        for _ in range(5):
            hidden = sample(view, rng)
            for s, cards in hidden["hands"].items():
                assert not {c[1] for c in cards} & voids[s]
            if offset:
                receiver = hidden["hands"][(seat + offset) % 4]
                assert set(view["passed"]) - played <= set(receiver)
            checked += 1
    assert checked > 50


def test_it_respects_a_spades_void():
    rng = random.Random(12)
    for state, seat in positions("spades", "standard", deals=40, seed=8):
        view = state.view(seat)
        if view["phase"] != "play" or not view["tricks"]:
            continue
        for t in view["tricks"]:
            led = t["cards"][0]["card"][1]
            for p in t["cards"][1:]:
                if p["card"][1] != led and p["seat"] != seat:
                    hidden = sample(view, rng)
                    assert all(c[1] != led for c in hidden["hands"][p["seat"]])


def sixtysix_steps(variant, deals, seed):
    """(state, seat to act) at every step of random sixty-six deals (exchanges and closes taken
    now and then, so that every kind of history is met)."""
    rng = random.Random(seed)
    for k in range(deals):
        state = deal("sixtysix", variant, rng=rng, dealer=k % 2, deal_number=k)
        while not state.is_over():
            seat = state.to_act()
            yield state, seat
            moves = state.legal_moves()
            sure = [m for m in moves if m in (sixtysix.EXCHANGE, sixtysix.CLOSE)]
            playable = [m for m in moves if m < sixtysix.EXCHANGE and m < sixtysix.MARRIAGE_DECLARE]
            if sure and rng.random() < 0.4:
                state.apply_move(rng.choice(sure), seat)
            else:
                state.apply_move(rng.choice(playable or moves), seat)


@pytest.mark.parametrize("variant", sixtysix.RULES.variants)
def test_it_knows_only_what_is_true_of_the_sixtysix_opponents_hand(variant):
    checked = 0
    for state, seat in sixtysix_steps(variant, deals=40, seed=21):
        view = state.view(seat)
        k = sixtysix_knowledge(view)
        opp_hand = state.hands[1 - seat]
        assert k["opp_fixed"] & ~opp_hand == 0            # what he surely holds, he holds
        assert opp_hand & k["opp_forbidden"] == 0         # what he cannot hold, he does not
        assert opp_hand & ~(k["opp_fixed"] | k["pool"]) == 0
        assert k["need"] + bin(k["opp_fixed"]).count("1") == bin(opp_hand).count("1")
        hands = sixtysix_hands(view, 50)
        if hands is not None:
            assert opp_hand in hands
        checked += k["opp_fixed"] != 0 or k["opp_forbidden"] != 0
    assert checked > 20


@pytest.mark.parametrize("variant", sixtysix.RULES.variants)
def test_it_never_samples_a_card_seen_played_and_rebuilds_the_whole_view(variant):
    rng = random.Random(22)
    for state, seat in sixtysix_steps(variant, deals=25, seed=23):
        view = state.view(seat)
        played = C.mask_of_codes(p["card"] for t in view["tricks"] for p in t["cards"])
        played |= C.mask_of_codes(p["card"] for p in view["trick"])
        hidden = sample(view, rng)
        assert not hidden_cards(hidden) & played
        assert len(hidden["hand"]) == view["hand_sizes"][1 - seat]
        assert len(hidden["stock"]) == view["stock_size"]
        rebuilt = sixtysix.state_from_view(view, hidden)
        assert rebuilt.view(seat) == view
        assert rebuilt.points(seat) == state.points(seat)
        assert rebuilt.points(1 - seat) == state.points(1 - seat)     # his pile and credits: exact
        assert rebuilt.pending == state.pending and rebuilt.claimer == state.claimer
        assert rebuilt.closer_opp_had_trick == state.closer_opp_had_trick
