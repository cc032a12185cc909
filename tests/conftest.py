"""Shared fixtures: users, and a task queue that replaces Celery so tests decide when tasks run."""
from __future__ import annotations

import asyncio.runners
from dataclasses import dataclass, field
from datetime import datetime

import pytest
from django.utils import timezone

_cancel_all_tasks = asyncio.runners._cancel_all_tasks


def _cancel_every_task(loop) -> None:
    """An async test's loop shutdown (asyncio.Runner, as pytest-asyncio runs it), repeated while
    cancelling tasks started others: a socket the shutdown kills spawns its cleanup
    (games/consumers.py). A task left pending when its loop closes is finalized later by the cyclic
    garbage collector, inside whatever test runs then, and its asgiref frame sets context
    variables there; on CPython 3.11 a set made while the collector interrupts another set frees
    memory still in use (CPython gh-148891): the segfaults that killed test workers."""
    for _ in range(10):
        if not asyncio.all_tasks(loop):
            return
        _cancel_all_tasks(loop)


asyncio.runners._cancel_all_tasks = _cancel_every_task


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
    from games.actions import steps
    from tests.games.sockets import LeakGuard

    g = LeakGuard()
    real = steps.bump

    def bump(live, now):
        real(live, now)
        g.record(live)
    monkeypatch.setattr(steps, "bump", bump)
    return g


@pytest.fixture
def sent(monkeypatch):
    """Every group message the services send (after commit), still delivered."""
    from realtime import broadcast

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


# --- kinds of tests, and how pytest-xdist shares them out ----------------------------------------
# Marked by where a test lives (or what its module runs), never by lists of paths: a new test in
# tests/browser is a browser test, a new module that serves the site with tests/embedded.py is e2e,
# and so is every documented command run as a process (tests/commands).
KIND_BY_DIRECTORY = {"browser": "browser", "scaled": "scaled", "commands": "e2e"}


def _kind_of_directory(item) -> str | None:
    parts = item.path.relative_to(item.config.rootpath / "tests").parts
    return KIND_BY_DIRECTORY.get(parts[0]) if len(parts) > 1 else None


# The browser modules' worker-seconds in a whole run (`--junitxml`, reduced motion), longest
# first: the units are handed out in this order, so the last ones to start are short and the
# workers end together. The other kinds keep the order they are collected in (docs/TESTING.md).
BROWSER_COST = {"test_pages": 128, "test_fair": 95, "test_table_newcomer": 90, "test_tables": 87,
                "test_tournaments": 81, "test_accessibility": 75, "test_arena": 66, "test_table_modules": 60,
                "test_pool": 50, "test_csp": 46, "test_table_feel": 45, "test_leavers": 40,
                "test_bot_accounts": 39, "test_german": 34, "test_match_end": 33, "test_ratings": 29}


def _order(item) -> tuple:
    """The scaled tests first (the longest unit of work), browser tests last: Playwright's sync API
    keeps an event loop marked as running in the main thread for the rest of the session, where
    later asyncio tests could not start their own."""
    if item.get_closest_marker("browser"):
        return (2, -BROWSER_COST.get(item.path.stem, 0))
    return (0,) if item.get_closest_marker("scaled") else (1,)


def pytest_collection_modifyitems(config, items):
    for item in items:
        kind = _kind_of_directory(item)
        if kind:
            item.add_marker(kind)
        module = getattr(item, "module", None)
        if module is not None and "embedded_site" in vars(module):
            item.add_marker("e2e")
    items.sort(key=_order)


# Units of work for `--dist loadgroup` (the Makefile's): one per module, so its module-scoped
# fixtures are set up once, except tests/scaled, which runs whole on one worker (they share the one
# PostgreSQL server, and test_faults stops and starts it). Browser modules are units of their own:
# the units are handed out in the order _order sorts them, so on every worker they come after all
# its other tests, and each worker that reaches one starts its own embedded server and chromium
# (session fixtures), so every worker ends the run in the browser instead of one.
# By path, as the controller sees only node ids: xdist's own xdist_group markers are lost on
# pytest 9, whose node ids xdist cannot suffix.
SHARED_UNITS = ("tests/scaled/",)


def unit_of_work(nodeid: str) -> str:
    return next((unit for unit in SHARED_UNITS if nodeid.startswith(unit)), nodeid.split("::")[0])


def pytest_xdist_make_scheduler(config, log):
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class UnitScheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return unit_of_work(nodeid)

    return UnitScheduling(config, log)
