"""The registry of tournament formats: ``Tournament.format`` names one of these modules, each of
which defines ``FORMAT``, an instance of tournaments/formats/base.py's ``Format``. The site asks
``of(t)`` and never tests a format's name. Adding a format: a new module here (its steps, its page
partial ``templates/tournaments/formats/<name>.html`` with its rules text) and its name below.
The order is the order people see them in (the admin's choice, the list page)."""
from __future__ import annotations

from importlib import import_module

from .base import Format

NAMES = ("swiss", "round_robin", "elimination", "arena", "duplicate")

FORMATS: dict[str, Format] = {name: import_module(f"{__name__}.{name}").FORMAT for name in NAMES}


def get(name: str) -> Format:
    """The format called ``name`` (a KeyError for a name nobody registered)."""
    return FORMATS[name]


def of(tournament) -> Format:
    return FORMATS[tournament.format]


def choices() -> list[tuple[str, str]]:
    """(name, label) of every format, for a form's choice."""
    return [(f.name, f.label) for f in FORMATS.values()]
