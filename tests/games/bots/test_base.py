"""The one interface: a view in, a legal action out; a state is refused."""
from __future__ import annotations

import random

import pytest

from games import bots
from games.bots import base, basic, strong
from games.bots import random as random_bot
from games.engine.core import deal

LEVELS = [random_bot, basic, strong]


@pytest.mark.parametrize("bot", LEVELS, ids=lambda m: m.__name__.rsplit(".", 1)[-1])
@pytest.mark.parametrize("game", ["sixtysix", "hearts", "spades"])
def test_it_refuses_a_state_object(bot, game):
    state = deal(game, rng=random.Random(1))
    with pytest.raises(TypeError, match="view"):
        bot.choose_action(state, random.Random(1))


@pytest.mark.parametrize("level", sorted(bots.BOTS))
def test_it_refuses_a_state_through_the_dispatcher(level):
    state = deal("hearts", rng=random.Random(2))
    with pytest.raises(TypeError):
        bots.choose_action(level, state)


def test_it_registers_every_level():
    assert {"random", "basic", "strong"} <= set(bots.BOTS)


def test_it_refuses_an_unknown_level():
    state = deal("spades", rng=random.Random(3))
    with pytest.raises(ValueError, match="unknown bot level"):
        bots.choose_action("genius", state.view(state.to_act()))


def test_it_refuses_a_view_of_a_seat_not_to_act():
    state = deal("spades", rng=random.Random(3), dealer=0)
    with pytest.raises(ValueError, match="no legal action"):
        base.check_view(state.view(1))


def test_it_keeps_the_old_dispatcher_signature_working():
    state = deal("sixtysix", rng=random.Random(4))
    seat = state.to_act()
    view = state.view(seat)
    assert bots.choose_action("random", view, random.Random(0)) in view["legal"]
    assert bots.choose_action("strong", view, random.Random(0), 20) in view["legal"]


def test_it_stops_searching_when_its_budget_is_spent(monkeypatch):
    # A fake clock that moves 10 ms each time the bot looks: with a 50 ms budget it must answer
    # after a handful of looks, whatever the machine's speed (no timing in the test itself).
    state = deal("hearts", rng=random.Random(5), deal_number=3)
    state.apply_move(state.legal_moves()[0])
    looks = []

    def fake_clock():
        looks.append(1)
        return len(looks) * 0.010
    monkeypatch.setattr(base, "clock", fake_clock)
    view = state.view(state.to_act())
    assert strong.choose_action(view, random.Random(0), budget_ms=50) in view["legal"]
    assert len(looks) < 50


def test_it_stops_once_the_best_option_is_separated_and_not_before(monkeypatch):
    # The clock never moves: only the confidence bounds (or the draw limit) can end the search.
    monkeypatch.setattr(base, "clock", lambda: 0.0)
    state = deal("sixtysix", rng=random.Random(5))
    view = state.view(state.to_act())
    legal = view["legal"]
    decided = strong._run(view, legal, random.Random(0), 200, None, 800, race=True)
    assert decided["draws"] >= strong.MIN_DRAWS
    everything = strong._run(view, legal, random.Random(0), 200, 64, 800, race=False)
    assert everything["draws"] == 64
    # Racing drops options it has ruled out; the choice is among the best of the full search.
    best = max(everything["action_means"])
    assert everything["action_means"][decided["choice"]] >= best - 0.3
