"""A searching bot thinks with no table lock held (games/actions/bot_turns.py ``advance``, ``_think``): it
reads the table at version v, searches, and applies its move under the lock only if the table is
still at v; otherwise the stale choice is dropped and the bot thinks again from the new state.
How long it thinks when its moves run late: games/thinking.py ``budget``."""
from __future__ import annotations

import random
import time
from contextlib import contextmanager

import pytest

from games import loading, services, thinking
from games.actions import bot_turns
from games.bots import levels
from games.models import Deal, Table

from .helpers import human_move, version

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def thinking_log(monkeypatch):
    """Each searching bot's decision: (whether a table lock was held, the seat's view, the action);
    ``during`` runs inside the next decision (another player acting meanwhile)."""
    held = {"now": False}
    log: list[dict] = []
    during: list = []
    real_locked, real_choose = bot_turns.locked, thinking.choose

    @contextmanager
    def watched_locked(table_id):
        with real_locked(table_id) as live:
            held["now"] = True
            try:
                yield live
            finally:
                held["now"] = False

    def watched_choose(level, view, due):
        locked_now = held["now"]
        if during:
            during.pop(0)()
        action = real_choose(level, view, due)
        log.append({"locked": locked_now, "seat": view["seat"], "action": action})
        return action

    monkeypatch.setattr(bot_turns, "locked", watched_locked)
    monkeypatch.setattr(thinking, "choose", watched_choose)
    log_obj = type("ThinkingLog", (), {"decisions": log, "during": during})()
    return log_obj


def _actions(table_id: int) -> list[dict]:
    return Deal.objects.filter(match__table_id=table_id).order_by("-number").first().record["actions"]


def _same_pass(stored: dict, chosen: dict) -> bool:
    """The record keeps a pass's cards in deck order, whatever order they were chosen in."""
    return dict(stored, cards=set(stored["cards"])) == dict(chosen, cards=set(chosen["cards"]))


def test_a_searching_bot_chooses_with_no_lock_held_and_its_move_is_committed(make_user, task_queue, thinking_log):
    t = services.create_table(make_user("ala"), "sixtysix", seats=["medium", "medium"], start=True)
    v = version(t.pk)
    assert task_queue.run_due(limit=1) == 1
    assert version(t.pk) == v + 1
    assert [d["locked"] for d in thinking_log.decisions] == [False]
    assert _actions(t.pk)[-1]["seat"] == thinking_log.decisions[0]["seat"]


def test_a_bot_match_plays_out_with_every_search_outside_the_lock(make_user, task_queue, thinking_log):
    t = services.create_table(make_user("ala"), "hearts", seats=["medium"] * 4, start=True)
    task_queue.run_due()
    assert Table.objects.get(pk=t.pk).status == "finished"
    assert thinking_log.decisions and not any(d["locked"] for d in thinking_log.decisions)


def _hearts_pass_race(make_user, thinking_log):
    """A person and three bots, in the pass (simultaneous): while the first bot thinks, the
    person passes, which moves the table on."""
    ala = make_user("ala")
    t = services.create_table(ala, "hearts", seats=["me", "medium", "medium", "medium"], start=True)
    assert loading.load(t.pk).state.view(0)["phase"] == "pass"
    thinking_log.during.append(lambda: human_move(t.pk, ala, random.Random(3)))
    return t


def test_a_task_whose_table_moved_on_during_the_search_drops_its_choice(make_user, task_queue, thinking_log):
    t = _hearts_pass_race(make_user, thinking_log)
    v = version(t.pk)
    [(table_id, task_version, _due)] = [p for p in task_queue.pending if p[0] == t.pk]
    assert task_version == v
    task_queue.pending.clear()
    services.advance(t.pk, v)
    # The person's pass was committed meanwhile (v + 1); the bot's pass chosen at v was not applied.
    assert version(t.pk) == v + 1
    assert [a["seat"] for a in _actions(t.pk)] == [0]
    stale = thinking_log.decisions[0]
    # The person's change scheduled the work at its version: the bot thinks again from there.
    assert [p[1] for p in task_queue.pending if p[0] == t.pk] == [v + 1]
    task_queue.run_due(limit=1)
    assert version(t.pk) == v + 2
    fresh = thinking_log.decisions[1]
    assert fresh["seat"] == stale["seat"] and not fresh["locked"]
    assert _same_pass(_actions(t.pk)[1], dict(fresh["action"], seat=fresh["seat"]))


def test_the_sweeper_thinks_again_from_the_new_state_when_the_table_moved_on(make_user, task_queue, thinking_log):
    t = _hearts_pass_race(make_user, thinking_log)
    v = version(t.pk)
    services.advance(t.pk)           # the sweeper: no version
    assert version(t.pk) == v + 2
    stale, fresh = thinking_log.decisions
    assert stale["seat"] == fresh["seat"] and not stale["locked"] and not fresh["locked"]
    assert [a["seat"] for a in _actions(t.pk)] == [0, fresh["seat"]]
    assert _same_pass(_actions(t.pk)[1], dict(fresh["action"], seat=fresh["seat"]))


def test_a_late_move_thinks_less_down_to_the_floor():
    strong = levels.get("strong")
    assert thinking.budget("strong", 0).budget_ms == strong.budget_ms
    assert thinking.budget("strong", thinking.LATE_SLACK_MS).budget_ms == strong.budget_ms
    assert thinking.budget("strong", thinking.LATE_SLACK_MS + 120).budget_ms == strong.budget_ms - 120
    assert thinking.budget("strong", 60_000).budget_ms == strong.floor_ms == strong.budget_ms // 4
    expert = levels.get("expert")
    late = thinking.budget("expert", thinking.LATE_SLACK_MS + 1000)
    assert late.budget_ms == expert.floor_ms and late.cap_ms == expert.cap_ms - 1000
    assert thinking.budget("expert", 60_000).cap_ms == expert.floor_ms


@pytest.fixture
def bot_processes(settings):
    settings.GAMES_BOT_PROCESSES = 1
    yield
    thinking.stop_pool()


def _played_view(game: str, seed: int) -> dict:
    """A view of the seat to act, a few moves into a deal dealt from ``seed``."""
    from games.bots import choose_action
    from games.engine.core import deal
    rng = random.Random(seed)
    state = deal(game, rng=rng)
    for _ in range(5):
        seat = state.seats_to_act()[0]
        state.apply(dict(choose_action("basic", state.view(seat), rng), seat=seat))
    return state.view(state.seats_to_act()[0])


def test_with_bot_processes_a_move_and_an_analysis_are_searched_in_a_child_process(bot_processes, monkeypatch):
    from games import bots
    from games.bots import strong
    view = _played_view("spades", 11)
    here = strong.evaluate(view, random.Random("7/0"), iterations=8, actions=view["legal"])

    def not_here(*args, **kwargs):
        raise AssertionError("searched in the calling process")

    # The children import the bots afresh (forkserver), without these.
    monkeypatch.setattr(strong, "evaluate", not_here)
    monkeypatch.setattr(bots, "choose_action", not_here)
    assert thinking.choose("medium", view, time.time()) in view["legal"]
    # The analysis's verdict is the same wherever it is searched (each batch has its own seeded rng).
    cpu = thinking.cpu_clock()
    assert thinking.evaluate(view, random.Random("7/0"), 8, view["legal"]) == here
    assert thinking.cpu_clock() > cpu


def test_a_bot_thinks_during_its_pause_and_moves_at_its_time(make_user, task_queue, thinking_log, settings,
                                                             monkeypatch):
    from datetime import timedelta

    from django.utils import timezone
    settings.GAMES_BOT_DELAY_MS = 10_000
    t = services.create_table(make_user("ala"), "sixtysix", seats=["medium", "medium"], start=True)
    v = version(t.pk)
    due = Table.objects.get(pk=t.pk).due_at
    # The task starts at once, not at the bot's due time: it thinks, keeps the move and looks again then.
    [(_table, _version, starts)] = task_queue.pending
    assert starts < due
    assert task_queue.run_due() == 1
    assert version(t.pk) == v and len(thinking_log.decisions) == 1
    [(_table, task_version, again)] = task_queue.pending
    assert (task_version, again) == (v, due)
    real_now = timezone.now
    monkeypatch.setattr(timezone, "now", lambda: real_now() + timedelta(seconds=11))
    assert task_queue.run_due(limit=1) == 1
    assert version(t.pk) == v + 1
    assert len(thinking_log.decisions) == 1          # the move thought during the pause, not again
    chosen = thinking_log.decisions[0]
    assert _actions(t.pk)[-1] == dict(chosen["action"], seat=chosen["seat"])


def test_a_table_of_instant_bots_is_not_read_apart_for_a_search(make_user, task_queue, monkeypatch):
    peeks = []
    real_peek = loading.peek
    monkeypatch.setattr(loading, "peek", lambda *a: (peeks.append(a[0]), real_peek(*a))[1])
    t = services.create_table(make_user("ala"), "hearts", seats=["basic"] * 4, start=True)
    v = version(t.pk)
    assert task_queue.run_due(limit=5) == 5
    assert version(t.pk) == v + 5 and peeks == []


def test_with_bot_processes_the_task_hands_the_search_over_and_the_move_comes_in_the_next(
        make_user, task_queue, bot_processes):
    t = services.create_table(make_user("ala"), "sixtysix", seats=["medium", "medium"], start=True)
    v = version(t.pk)
    assert task_queue.run_due(limit=1) == 1
    # The task did not wait for the search: nothing moved yet, and no task is pending until the
    # bot process has chosen; then the table's task is scheduled, and it applies the move.
    assert version(t.pk) == v
    end = time.monotonic() + 60
    while not task_queue.pending and time.monotonic() < end:
        time.sleep(0.05)
    assert [p[:2] for p in task_queue.pending] == [(t.pk, v)]
    assert task_queue.run_due(limit=1) == 1
    assert version(t.pk) == v + 1
