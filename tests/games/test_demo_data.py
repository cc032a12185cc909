"""`manage.py demo_data` (what `make run` loads): the demo user, open tables, and a bot table that
plays by itself; running it again adds nothing."""
import pytest
from django.core.management import call_command

from games.models import Table

pytestmark = pytest.mark.django_db(transaction=True)


def test_it_sets_up_the_demo_once_and_its_bot_table_plays(task_queue):
    call_command("demo_data")
    tables = list(Table.objects.order_by("pk"))
    assert {t.game for t in tables} == {"sixtysix", "hearts", "spades"}
    playing = [t for t in tables if t.status != "waiting"]
    assert len(playing) == 1
    version = playing[0].version
    task_queue.run_due(limit=5)
    assert Table.objects.get(pk=playing[0].pk).version > version
    call_command("demo_data")
    assert Table.objects.count() == len(tables)
