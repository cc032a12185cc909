"""Every level returns only legal actions, over many random deals of every variant."""
from __future__ import annotations

import random

import pytest

from games.bots import basic, strong
from games.bots import random as random_bot

from .helpers import GAME_VARIANTS, is_legal, new_deal


def play_deal_with(bot_choose, state, rng):
    decisions = 0
    while not state.is_over():
        seat = state.seats_to_act()[0]
        view = state.view(seat)
        action = bot_choose(view, rng)
        assert is_legal(view, action), (view["legal"], action)
        state.apply(action)   # the engine checks it too (IllegalAction otherwise)
        decisions += 1
    return decisions


@pytest.mark.parametrize("bot", [random_bot, basic], ids=["random", "basic"])
@pytest.mark.parametrize("game,variant", GAME_VARIANTS)
def test_it_plays_only_legal_actions_over_many_deals(bot, game, variant):
    rng = random.Random(11)
    for k in range(24):
        play_deal_with(bot.choose_action, new_deal(game, variant, k, rng), rng)


@pytest.mark.parametrize("game,variant", GAME_VARIANTS)
def test_it_plays_only_legal_actions_when_strong(game, variant):
    rng = random.Random(12)

    def choose(view, r):
        return strong.choose_action(view, r, iterations=2)

    for k in range(2):
        play_deal_with(choose, new_deal(game, variant, k + 1, rng), rng)
