"""Bots: ``choose_action(level, view)`` picks an action from a seat's view (never the state).

A level is a module with ``choose_action(view, rng=None, budget_ms=None) -> dict`` (the interface
of ``base.py``); register one with a line in ``BOTS``. Levels: ``random``; ``basic`` (rules per
game, instant); ``strong`` (determinized search through the engine within ``budget_ms``, default
``base.DEFAULT_BUDGET_MS``). ``python -m games.bots.arena`` measures them against each other.
"""
from __future__ import annotations

import importlib

BOTS: dict[str, str] = {
    "random": "games.bots.random",
    "basic": "games.bots.basic",
    "strong": "games.bots.strong",
}


def get_bot(level: str):
    """The module of a level."""
    try:
        module = BOTS[level]
    except KeyError:
        raise ValueError(f"unknown bot level {level!r}; choose from {sorted(BOTS)}") from None
    return importlib.import_module(module)


def choose_action(level: str, view: dict, rng=None, budget_ms: int | None = None) -> dict:
    """The action the bot of ``level`` takes in ``view`` (a ``State.view(seat)`` of a seat to act)
    within ``budget_ms`` milliseconds of thinking (None: the level's default)."""
    return get_bot(level).choose_action(view, rng, budget_ms)
