"""games/showcase.py: per game, a table of bots to watch and a table waiting for one player,
kept by ``ensure()`` (demo_data, beat) whatever happened to the last ones."""
import pytest

from games import loading, services, showcase, tasks
from games.engine.core import GAME_NAMES, get_rules
from games.models import Table

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def on(settings):
    settings.SHOWCASE = True


def house_tables():
    return Table.objects.filter(owner__username=showcase.HOUSE)


def finish(table_id):
    """End a watched match (as its last deal would): the table is finished."""
    Table.objects.filter(pk=table_id).update(status=Table.Status.FINISHED, due_at=None)
    loading.forget(table_id)


def test_it_makes_a_table_to_watch_and_a_table_to_join_per_game(on, task_queue):
    made = showcase.ensure()
    assert len(made) == 2 * len(GAME_NAMES)
    house = showcase.house_user()
    assert not house.has_usable_password() and not house.is_bot
    for game in GAME_NAMES:
        n = get_rules(game).seats
        [watch] = showcase.watch_tables(house, game)
        lv = loading.load(watch.pk)
        assert lv.table.status == "playing" and not lv.table.private and lv.state is not None
        assert all(s.user.is_bot for s in lv.seats) and len(lv.seats) == n
        [join] = showcase.join_tables(house, game)
        seats = list(join.seats.order_by("index"))
        assert join.status == "waiting" and not join.private and not join.rated
        assert [s.user_id is None for s in seats] == [True] + [False] * (n - 1)
        assert all(s.user.is_bot for s in seats[1:])
    # The bots of the watched tables play on their own.
    versions = {pk: Table.objects.get(pk=pk).version for pk in made}
    task_queue.run_due(limit=10)
    assert any(Table.objects.get(pk=pk).version > v for pk, v in versions.items())


def test_it_is_idempotent(on, task_queue):
    showcase.ensure()
    count = house_tables().count()
    assert showcase.ensure() == [] and tasks.showcase() == 0
    assert house_tables().count() == count


def test_it_replaces_a_finished_match_and_a_table_that_got_its_player(on, task_queue, make_user):
    showcase.ensure()
    house = showcase.house_user()
    watch = showcase.watch_tables(house, "hearts").get()
    join = showcase.join_tables(house, "sixtysix").get()
    finish(watch.pk)
    ala = make_user("ala")
    services.sit(join.pk, ala, 0)                 # the open seat was the last: the match starts
    assert Table.objects.get(pk=join.pk).status == "playing"
    made = showcase.ensure()
    assert len(made) == 2
    new_watch = showcase.watch_tables(house, "hearts").get()
    new_join = showcase.join_tables(house, "sixtysix").get()
    assert {new_watch.pk, new_join.pk} == set(made)
    # ala's match is not a bots-only table to watch: sixty-six still has exactly one of those.
    assert showcase.watch_tables(house, "sixtysix").count() == 1
    # Each new table takes the game's next variant.
    assert new_join.variant != join.variant and new_watch.variant != watch.variant


def test_it_does_nothing_when_switched_off(task_queue):
    assert showcase.ensure() == [] and tasks.showcase() == 0
    assert not house_tables().exists()


def test_beat_runs_it():
    from django.conf import settings as conf
    entries = [e for e in conf.CELERY_BEAT_SCHEDULE.values() if e["task"] == "games.tasks.showcase"]
    assert len(entries) == 1 and entries[0]["schedule"] <= 60
