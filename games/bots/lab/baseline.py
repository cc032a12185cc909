"""A bot level as it was at an earlier commit, for A/B measurements in the arena (bench only).

    python -m games.bots.lab.duel --game hearts --a strong --b git:493aadf:strong

``git:REV:LEVEL`` loads ``games/bots/`` of commit ``REV`` (``git show``) into a package of its own
(``bots_at_<commit>``, written once per commit into the temporary directory) beside the current
one, so both play in one process with today's engine: the baseline is the old search, not an old
engine. Nothing is copied into the tree, so no frozen copy of a bot has to be kept up to date or
mistaken for a level.
"""
from __future__ import annotations

import importlib
import os
import shutil
import subprocess
import sys
import tempfile
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path

from .. import base as bot_base

ROOT = Path(__file__).resolve().parents[3]
PREFIX = "git:"


def is_baseline(level: str) -> bool:
    return level.startswith(PREFIX)


@lru_cache(maxsize=None)
def _package(rev: str) -> str:
    """Import ``games/bots`` of ``rev`` as a package; its name."""
    sha = _git("rev-parse", "--verify", f"{rev}^{{commit}}").strip()
    name = f"bots_at_{sha[:12]}"
    if name not in sys.modules:
        _engine_names_of_old()
        sys.path.insert(0, str(_written(sha, name)))
        importlib.import_module(name)
    return name


def _written(sha: str, name: str) -> Path:
    """The folder holding commit ``sha``'s ``games/bots`` as package ``name``: one per commit in
    the temporary directory, written once and reused by every process and run that needs it
    (written aside and renamed into place, so a process never imports a half-written copy)."""
    home = Path(tempfile.gettempdir()) / f"bots-baseline-{sha[:12]}"
    if _whole_and_ours(home, name):
        return home
    draft = Path(tempfile.mkdtemp(prefix=f"bots-baseline-{sha[:12]}-"))
    (draft / name).mkdir()
    for path in _git("ls-tree", "-r", "--name-only", sha, "games/bots/").split():
        if path.endswith(".py"):
            target = draft / name / Path(path).relative_to("games/bots")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(_git("show", f"{sha}:{path}"))
    try:
        draft.rename(home)
    except OSError:                 # another process put its copy there first: use that one
        if not _whole_and_ours(home, name):
            return draft            # a half copy, or another user's folder: import ours
        shutil.rmtree(draft, ignore_errors=True)
    return home


def _engine_names_of_old() -> None:
    """An earlier commit's bots reached into engine names that were private then and are public
    now: give today's engine those names too, in this (measuring) process only."""
    from games.engine import sixtysix, spades

    if not hasattr(spades, "_cards_of_mask"):
        spades._cards_of_mask = spades.cards_of_mask
    if not hasattr(sixtysix.SixtySixState, "_follow_mask"):
        sixtysix.SixtySixState._follow_mask = sixtysix.SixtySixState.follow_mask


def _whole_and_ours(home: Path, name: str) -> bool:
    """A finished copy this user wrote (code in a shared temporary directory is run only if ours)."""
    try:
        return home.stat().st_uid == os.getuid() and (home / name / "__init__.py").exists()
    except OSError:
        return False


def _git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=ROOT, check=True, capture_output=True,
                          text=True).stdout


def choose_action(level: str, view: dict, rng=None, budget_ms: int | None = None) -> dict:
    """``level`` is ``git:REV:LEVEL``: that commit's level (its module, its budget and cap)."""
    rev, _sep, name = level[len(PREFIX):].partition(":")
    package_name = _package(rev)
    package = importlib.import_module(package_name)
    old_levels = getattr(package, "levels", None)
    if old_levels is None:            # before levels.py: the dispatcher named its modules itself
        return package.choose_action(name or "strong", view, rng, budget_ms)
    found = old_levels.get(name or "strong")
    # The levels name their modules ``games.bots.X``: today's code. Take that commit's instead
    # (its dispatcher alone would search with today's modules at the old budgets).
    module = importlib.import_module(found.module.replace("games.bots", package_name, 1))
    budget = found.budget_ms if budget_ms is None else budget_ms
    cap = getattr(found, "cap_ms", None)
    extra = {"cap_ms": cap} if cap is not None and budget_ms is None else {}
    with _clock_of_today(package_name):
        return module.choose_action(view, rng, budget, **extra)


@contextmanager
def _clock_of_today(package_name: str):
    """The old level's budgets run on today's bot clock (``base.clock``): the arena's --cpu-clock
    must put both sides of an A/B on their CPU clocks, not only today's."""
    old_base = importlib.import_module(package_name + ".base")
    clock = getattr(old_base, "clock", None)
    if clock is None:       # a commit whose bots read the wall clock directly: nothing to switch
        yield
        return
    old_base.clock = bot_base.clock
    try:
        yield
    finally:
        old_base.clock = clock
