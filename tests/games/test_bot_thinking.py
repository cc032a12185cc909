"""A bot thinks before its table is locked (games/services.py ``_think_ahead``): a strong bot's
search must not hold the table row, nor under SQLite the whole database's write lock."""
from __future__ import annotations

from contextlib import contextmanager

import pytest

from games import bots, loading, services
from games.models import Table

from .helpers import version

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def thinking(monkeypatch):
    """Whether a table lock was held at each bot decision."""
    held = {"now": False}
    seen: list[bool] = []
    real_locked, real_choose = services.locked, bots.choose_action

    @contextmanager
    def watched_locked(table_id):
        with real_locked(table_id) as live:
            held["now"] = True
            try:
                yield live
            finally:
                held["now"] = False

    def watched_choose(level, view, rng=None, budget_ms=None):
        seen.append(held["now"])
        return real_choose(level, view, rng, budget_ms)

    monkeypatch.setattr(services, "locked", watched_locked)
    monkeypatch.setattr(bots, "choose_action", watched_choose)
    return seen


def test_it_chooses_a_bot_move_with_no_lock_held_and_commits_it(make_user, task_queue, thinking):
    t = services.create_table(make_user("ala"), "sixtysix", seats=["random", "random"], start=True)
    v = version(t.pk)
    assert task_queue.run_due(limit=1) == 1
    assert version(t.pk) == v + 1
    assert thinking == [False]


def test_it_plays_a_whole_bot_match_thinking_outside_the_lock(make_user, task_queue, thinking):
    t = services.create_table(make_user("ala"), "hearts", seats=["random"] * 4, start=True)
    task_queue.run_due()
    assert Table.objects.get(pk=t.pk).status == "finished"
    assert thinking and not any(thinking)


def test_it_thinks_again_under_the_lock_when_the_table_moved_on_meanwhile(
        make_user, task_queue, thinking, monkeypatch):
    t = services.create_table(make_user("ala"), "sixtysix", seats=["random", "random"], start=True)
    v = version(t.pk)
    real_think = services._think_ahead

    def think_then_lose_the_race(table_id, version_):
        move = real_think(table_id, version_)
        # Another process moves the table on while this one thinks: the move chosen for the old
        # version must not be applied to the new one.
        Table.objects.filter(pk=table_id).update(version=version_ + 1)
        loading.forget(table_id)
        return move

    monkeypatch.setattr(services, "_think_ahead", think_then_lose_the_race)
    task_queue.run_due(limit=1)             # the task's version is stale now: nothing happens
    assert version(t.pk) == v + 1
    assert thinking == [False]
    services.advance(t.pk)                  # the sweeper (no version): thinks under the lock
    assert version(t.pk) == v + 2
    assert thinking == [False, True]
