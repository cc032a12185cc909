"""Each game's bot parts by registry (games/bots/parts.py): every game of the engine has them,
filled by its own bot module, and the generic bots reach a game's rules only through them."""
from __future__ import annotations

import random

import pytest

from games.bots import basic, parts
from games.engine.core import GAME_NAMES, deal

NEEDED = ("basic_policy", "rollout", "sample")


@pytest.mark.parametrize("game", GAME_NAMES)
def test_every_game_registers_its_bot_parts_from_its_own_module(game):
    found = parts.of(game)
    assert all(callable(getattr(found, name)) for name in NEEDED)
    assert found.unit > 0 and found.loss_unit and found.loss_labels[0] < found.loss_labels[1] < found.loss_labels[2]
    assert found.puzzle is not None and found.puzzle.cards > 0 and found.puzzle.margin > 0
    assert found.rollout.__module__ == f"games.bots.{game}_search"
    assert found.basic_policy.__module__ == f"games.bots.{game}_basic"


def test_a_game_without_a_bot_module_is_refused():
    with pytest.raises(ModuleNotFoundError):
        parts.of("chess")


def test_the_basic_level_plays_each_games_registered_rule(monkeypatch):
    state = deal("hearts", rng=random.Random(3), dealer=0)
    view = state.view(state.to_act())
    asked = []
    found = parts.of("hearts")
    monkeypatch.setitem(parts._PARTS, "hearts", parts.BotParts(
        basic_policy=lambda v, legal, rng: asked.append(v) or dict(legal[0]),
        rollout=found.rollout, unit=found.unit, sample=found.sample))
    assert basic.choose_action(view, random.Random(1)) == dict(view["legal"][0])
    assert asked == [view]
