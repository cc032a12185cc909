"""`manage.py demo_data` (what `make run` loads): the demo user and the showcase, per game a bot
table that plays by itself and a table waiting for one player; running it again adds nothing. (It
also stores a few finished matches of bots, the demo puzzles' source deals: tests/puzzles.)"""
import pytest
from django.contrib.auth import authenticate
from django.core.management import call_command

from games.engine.core import GAME_NAMES
from games.models import Table

pytestmark = pytest.mark.django_db(transaction=True)


def test_it_sets_up_the_demo_once_and_its_bot_tables_play(task_queue, settings):
    settings.SHOWCASE = True
    call_command("demo_data")
    assert authenticate(username="demo", password="demo-pass-123") is not None
    tables = list(Table.objects.exclude(status="finished").order_by("pk"))
    assert {t.game for t in tables} == set(GAME_NAMES)
    playing = [t for t in tables if t.status != "waiting"]
    waiting = [t for t in tables if t.status == "waiting"]
    assert len(playing) == len(waiting) == len(GAME_NAMES)
    # No dead end: each waiting table lacks exactly one player, who starts it by sitting down.
    for t in waiting:
        assert t.seats.filter(user=None).count() == 1
    versions = {t.pk: t.version for t in playing}
    task_queue.run_due(limit=10)
    assert any(Table.objects.get(pk=pk).version > v for pk, v in versions.items())
    finished = Table.objects.filter(status="finished").count()
    call_command("demo_data")
    assert Table.objects.exclude(status="finished").count() == len(tables)
    assert Table.objects.filter(status="finished").count() == finished


def test_it_makes_no_tables_when_the_showcase_is_off(task_queue):
    call_command("demo_data")
    assert authenticate(username="demo", password="demo-pass-123") is not None
    assert not Table.objects.exclude(status="finished").exists()
