"""Fixtures for the ratings app: a queue for rating tasks, and finished matches played by bots."""
from __future__ import annotations

import pytest


class RatingQueue:
    """Rating tasks enqueued on commit (match ids); ``run`` executes them like the worker would."""

    def __init__(self):
        self.pending: list[int] = []

    def add(self, match_id: int) -> None:
        self.pending.append(match_id)

    def run(self) -> int:
        from ratings.tasks import rate_match

        done = 0
        while self.pending:
            rate_match(self.pending.pop(0))
            done += 1
        return done


@pytest.fixture
def rating_queue(monkeypatch):
    from ratings import tasks

    queue = RatingQueue()
    monkeypatch.setattr(tasks, "_enqueue", queue.add)
    return queue


@pytest.fixture
def play_out(task_queue):
    """Create a table with ``seats`` (users or bot levels), start it and let the bots play it to
    the end; returns the games.models.Match."""
    from games import services
    from games.models import Match

    def play(owner, game, seats, *, rated=True, private=False):
        t = services.create_table(owner, game, rated=rated, private=private, seats=seats, start=True)
        task_queue.run_due()
        return Match.objects.select_related("table").get(table=t)
    return play
