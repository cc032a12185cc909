"""Tournament fixtures: a clock the test moves, and a queue for the tournament tasks."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

import pytest


@dataclass
class Clock:
    """``django.utils.timezone.now`` under the test's control: every service, the table clocks and
    the tournament's start time and breaks read it, so a test moves time instead of sleeping."""
    at: datetime

    def now(self) -> datetime:
        return self.at

    def advance(self, seconds: float) -> None:
        self.at += timedelta(seconds=seconds)


@pytest.fixture
def clock(monkeypatch):
    from django.utils import timezone

    c = Clock(timezone.now())
    monkeypatch.setattr(timezone, "now", c.now)
    return c


@dataclass
class AdvanceQueue:
    """What the tournament services enqueued: (tournament_id, eta)."""
    pending: list = field(default_factory=list)

    def enqueue(self, tid, eta=None):
        self.pending.append((tid, eta))

    def run_due(self, now, times: int = 1) -> int:
        """Run the due ``advance_tournament`` tasks, each ``times`` times (a redelivery)."""
        from tournaments.tasks import advance_tournament

        due = [p for p in self.pending if p[1] is None or p[1] <= now]
        for item in due:
            self.pending.remove(item)
            for _ in range(times):
                advance_tournament(item[0])
        return len(due)


@pytest.fixture
def advance_queue(monkeypatch):
    from tournaments import scheduling

    q = AdvanceQueue()
    monkeypatch.setattr(scheduling, "_enqueue", q.enqueue)
    return q


@pytest.fixture
def bots(make_bot):
    """``bots(n, level)``: n bot users of their own (entrants need distinct users)."""
    def make(n, level="random", prefix="tbot"):
        return [make_bot(f"{prefix}{i}", level) for i in range(n)]
    return make


def shorten_matches(tid):
    """Put every new match of the tournament one deal or so from its end (fast tests)."""
    from games import loading
    from games.models import Match

    near = {"sixtysix": [6, 6], "hearts": [90, 85, 88, 80], "spades": [480, 470]}
    for m in Match.objects.filter(table__tournament_game__round__tournament_id=tid, finished=False):
        if m.state.get("deal_number", 0) <= 1 and m.state.get("scores") != near[m.table.game]:
            m.state = dict(m.state, scores=near[m.table.game])
            m.save(update_fields=["state"])
            loading.forget(m.table_id)   # changed behind the services' back, at the same version


def run_tournament(tid, clock, task_queue, advance_queue, *, step=1.0, limit=2000, redeliver=1,
                   on_step=None, short=False):
    """Drive time forward the way beat and the worker would: the tick, the queued tournament
    tasks, the due table tasks (bot moves, clocks, next deals), then one ``step`` of time."""
    from tournaments.models import Tournament
    from tournaments.tasks import tournament_tick

    for i in range(limit):
        for _ in range(redeliver):
            tournament_tick()
        advance_queue.run_due(clock.now(), times=redeliver)
        if short:
            shorten_matches(tid)
        task_queue.run_due()
        t = Tournament.objects.get(pk=tid)
        if on_step is not None:
            on_step(i, t)
        if t.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
            return t
        clock.advance(step)
    raise AssertionError(f"tournament {tid} did not finish: {Tournament.objects.get(pk=tid).status}")
