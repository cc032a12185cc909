"""Bots: ``choose_action(level, view)`` picks an action from a seat's view (never the state).

A level (``levels.py``: the ladder people choose from, weakest first) is a module with
``choose_action(view, rng=None, budget_ms=None) -> dict`` (the interface of ``base.py``) and the
budget it thinks with. Modules: ``random``; ``basic`` (rules per game, instant); ``strong``
(determinized search through the engine, within the level's budget; a tree search in sixty-six
while the stock is open). ``python -m
games.bots.lab.duel`` measures two levels against each other, ``python -m games.bots.lab.ladder`` the
whole ladder (the ratings shown on the site).
"""
from __future__ import annotations

import importlib

from . import levels

# Level name -> module (the levels' own names: "bot:<level>" users, the client's --level).
BOTS: dict[str, str] = {level.name: level.module for level in levels.LEVELS}


def choose_action(level: str, view: dict, rng=None, budget_ms: int | None = None,
                  cap_ms: int | None = None) -> dict:
    """The action the bot of ``level`` takes in ``view`` (a ``State.view(seat)`` of a seat to act)
    within ``budget_ms`` milliseconds of thinking (None: the level's own budget), a hard decision
    within ``cap_ms`` (None: the level's own cap, if its own budget is used)."""
    found = levels.get(level)
    budget = found.budget_ms if budget_ms is None else budget_ms
    if cap_ms is None and budget_ms is None:
        cap_ms = found.cap_ms
    extra = {"cap_ms": cap_ms} if cap_ms is not None else {}
    return importlib.import_module(found.module).choose_action(view, rng, budget, **extra)
