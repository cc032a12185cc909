"""Helpers for driving tables in tests."""
from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from games import bots, first_moves, loading, services
from games.models import Seat, Table


def live(table_id):
    return loading.load(table_id)


def human_move(table_id, user, rng=None, seat=None):
    """A random legal action for ``user``'s seat, acted through the service."""
    lv = loading.load(table_id)
    seat = loading.seat_of(lv, user) if seat is None else seat
    view = lv.state.view(seat)
    action = bots.choose_action("random", view, rng or random.Random(1))
    services.act(table_id, user, lv.table.version, action)
    return action


def version(table_id) -> int:
    return Table.objects.get(pk=table_id).version


def expire_clock(table_id, seat):
    """Run out ``seat``'s clock: its turn began longer ago than its bank, and the table is due."""
    s = Seat.objects.get(table_id=table_id, index=seat)
    s.turn_started_at = timezone.now() - timedelta(milliseconds=s.bank_ms + 1)
    s.save()
    Table.objects.filter(pk=table_id).update(due_at=timezone.now() - timedelta(seconds=1))


def every_seat_moves(table_id, users, task_queue=None):
    """Play until every seat has made its first move of the match (a match ended earlier is aborted):
    random legal moves for the people (``users`` by seat, None for a bot), due tasks for the bots."""
    while not first_moves.every_seat_moved(live(table_id)):      # a finished deal counts as everyone's
        if task_queue is not None:
            task_queue.run_due()
        lv = live(table_id)
        seats = [s for s in lv.state.seats_to_act() if users[s] is not None]
        if seats:
            human_move(table_id, users[seats[0]], seat=seats[0])


@pytest.fixture
def ratings_enqueued(monkeypatch):
    """The rating tasks a test's finished matches enqueue (not run)."""
    from ratings import tasks as rating_tasks
    out = []
    monkeypatch.setattr(rating_tasks, "_enqueue", out.append)
    return out
