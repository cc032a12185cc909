"""Shared fixtures: users, and a task queue that replaces Celery so tests decide when tasks run."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

import pytest
from django.utils import timezone


@dataclass
class TaskQueue:
    """What services scheduled: (table_id, version, due_at). ``run_due`` runs the due ones the way
    the worker would (the task body, synchronously), including those they schedule in turn."""

    pending: list[tuple[int, int | None, datetime]] = field(default_factory=list)
    ran: int = 0

    def schedule(self, table_id, version, due_at):
        self.pending.append((table_id, version, due_at))

    def run_due(self, limit: int = 10_000, now: datetime | None = None) -> int:
        from games.tasks import advance_table

        done = 0
        while done < limit:
            now_ = now or timezone.now()
            due = [p for p in self.pending if p[2] <= now_]
            if not due:
                break
            item = due[0]
            self.pending.remove(item)
            advance_table(item[0], item[1])
            done += 1
        self.ran += done
        return done

    def run_all_of(self, table_id: int) -> int:
        """Run the pending tasks of a table whatever their due time (as if time had passed)."""
        from games.tasks import advance_table

        items = [p for p in self.pending if p[0] == table_id]
        for item in items:
            self.pending.remove(item)
            advance_table(item[0], item[1])
        return len(items)


@pytest.fixture(autouse=True)
def no_kept_tables():
    """Each test starts with no table kept by the process (games/loading.py): a rolled-back test
    database hands out the same table ids again, and a kept table of an earlier test at the same
    id and version would pass for the new one."""
    from games import loading

    loading.forget()
    yield


@pytest.fixture(autouse=True)
def default_language():
    """A request through the test client leaves its language active in the thread (LocaleMiddleware
    activates it and nothing deactivates it): each test starts from the site's default."""
    from django.utils import translation

    yield
    translation.deactivate()


@pytest.fixture
def guard(monkeypatch):
    """A LeakGuard (tests/games/sockets.py) fed every committed table state: the cards each seat
    may see, for the hidden-card scan of socket messages."""
    from games import services
    from tests.games.sockets import LeakGuard

    g = LeakGuard()
    real = services._bump

    def bump(live, now):
        real(live, now)
        g.record(live)
    monkeypatch.setattr(services, "_bump", bump)
    return g


@pytest.fixture
def sent(monkeypatch):
    """Every group message the services send (after commit), still delivered."""
    from games import broadcast

    out = []
    real = broadcast.deliver

    def capture(messages):
        out.extend(messages)
        real(messages)
    monkeypatch.setattr(broadcast, "deliver", capture)
    return out


@pytest.fixture
def task_queue(monkeypatch):
    from games import scheduling

    queue = TaskQueue()
    monkeypatch.setattr(scheduling, "_scheduler", queue.schedule)
    return queue


@pytest.fixture
def make_bot(db):
    """Distinct bot users (the built-in ones are one user per level)."""
    from accounts.models import User

    def make(name, level="random"):
        return User.objects.create(username=name, is_bot=True, bot_level=level)
    return make


@pytest.fixture
def make_user(db):
    from accounts.models import User

    def make(name="ala", password="a-Secret-123", **extra):
        return User.objects.create_user(username=name, password=password, **extra)
    return make


def pytest_collection_modifyitems(config, items):
    """Browser tests run last: they are the slowest, and Playwright's sync API keeps an event loop
    marked as running in the main thread, where later asyncio tests could not start their own."""
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)
