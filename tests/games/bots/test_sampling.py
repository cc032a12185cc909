"""Sampled hidden cards fit the view, and the engine rebuilds the view's position from them."""
from __future__ import annotations

import random

import pytest

from games.bots.sampling import sample
from games.engine import cards as C
from games.engine import hearts, sixtysix, spades

from .helpers import GAME_VARIANTS, positions

FROM_VIEW = {"hearts": hearts.state_from_view, "spades": spades.state_from_view,
             "sixtysix": sixtysix.state_from_view}
COMMON = ("hand", "legal", "phase", "trick", "tricks_won", "hand_sizes", "to_act", "leader")
KEYS = {
    "hearts": COMMON + ("tricks", "hearts_broken", "points_taken", "last_trick"),
    "spades": COMMON + ("tricks", "bids", "blind_nil", "contracts", "spades_broken", "team_tricks"),
    "sixtysix": COMMON + ("stock_size", "trump_card", "trump_suit", "closed", "closed_by", "my_points",
                          "my_captured", "marriages", "pending_marriage_points", "last_trick"),
}


def hidden_cards(hidden: dict) -> int:
    if "hands" in hidden:
        return C.mask_of_codes(c for h in hidden["hands"].values() for c in h)
    return C.mask_of_codes(hidden["hand"] + hidden["stock"] + hidden["won"])


@pytest.mark.parametrize("game,variant", GAME_VARIANTS)
def test_it_rebuilds_the_views_position_from_a_sample(game, variant):
    rng = random.Random(9)
    for state, seat in positions(game, variant, deals=30, seed=5):
        view = state.view(seat)
        hidden = sample(view, rng)
        rebuilt = FROM_VIEW[game](view, hidden).view(seat)
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
