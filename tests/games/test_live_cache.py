"""What a process keeps of a table between its changes (games/live_cache.py), and the precompiled
queries of the move path (games/prepared.py): never trusted beyond what the database says."""
import copy
import random

import pytest

from games import loading, prepared, services
from games.loading import LiveCache
from games.models import Deal, Seat, Table

from .helpers import expire_clock, human_move, version

pytestmark = pytest.mark.django_db(transaction=True)


# --- the cache itself ------------------------------------------------------------------------
def test_an_entry_is_taken_out_so_no_two_threads_share_it():
    cache = LiveCache()
    cache.put(1, 5, "live@5")
    assert cache.take(1) == "live@5"
    assert cache.take(1) is None


def test_a_late_put_of_an_older_version_does_not_replace_a_newer_one():
    cache = LiveCache()
    cache.put(1, 7, "live@7")
    cache.put(1, 6, "live@6")
    assert cache.take(1) == "live@7"


def test_it_holds_at_most_its_size_dropping_the_least_recently_stored():
    cache = LiveCache(size=2)
    for table in (1, 2, 3):
        cache.put(table, 1, table)
    assert cache.take(1) is None and cache.take(2) == 2 and cache.take(3) == 3


def test_it_drops_entries_not_stored_again_within_the_idle_limit():
    clock = [0.0]
    cache = LiveCache(idle_seconds=60, clock=lambda: clock[0])
    cache.put(1, 1, "quiet")            # e.g. a table whose match another process finished
    clock[0] = 30.0
    cache.put(2, 1, "busy")
    clock[0] = 61.0
    cache.put(2, 2, "busy@2")           # any store sweeps the idle front
    assert cache.take(1) is None and cache.take(2) == "busy@2"


def test_forget_drops_one_table_or_all():
    cache = LiveCache()
    cache.put(1, 1, "a")
    cache.put(2, 1, "b")
    cache.forget(1)
    assert cache.take(1) is None and cache.take(2) == "b"
    cache.put(3, 1, "c")
    cache.forget()
    assert cache.take(3) is None


# --- the services' use of it ----------------------------------------------------------------------
def four_humans(make_user, game="hearts"):
    users = [make_user(f"p{i}") for i in range(4)]
    t = services.create_table(users[0], game, seats=["me"] + users[1:], start=True)
    return t, users


def move(table_id, users, rng):
    lv = loading.load(table_id)
    seat = lv.state.seats_to_act()[0]
    return human_move(table_id, users[seat], rng, seat=seat)


def test_a_kept_state_left_behind_by_moves_elsewhere_catches_up_from_the_record(make_user, task_queue,
                                                                               monkeypatch):
    """Another process moved the table on: this one's kept state replays the stored actions it
    missed instead of rebuilding the deal, and ends where the database says."""
    t, users = four_humans(make_user)
    rng = random.Random(3)
    move(t.pk, users, rng)
    v = version(t.pk)
    entry = loading._live.take(t.pk)
    behind = copy.deepcopy(entry)              # what this process knew at version v
    loading._live.put(t.pk, v, entry)
    for _ in range(3):                          # "another process" plays on
        move(t.pk, users, rng)
    lv = loading.load(t.pk)
    seat = lv.state.seats_to_act()[0]
    action = lv.state.view(seat)["legal"][0]
    loading.forget(t.pk)
    loading._live.put(t.pk, v, behind)
    rebuilt = []
    real = loading.rebuild_state
    monkeypatch.setattr(loading, "rebuild_state", lambda record: rebuilt.append(1) or real(record))

    services.act(t.pk, users[seat], lv.table.version, action)

    assert rebuilt == []
    kept = loading._live.take(t.pk)
    assert kept.state is behind.state           # the same object, brought up to date
    stored = Deal.objects.get(match__table=t).record
    assert kept.state.record()["actions"] == stored["actions"] and len(stored["actions"]) == 5
    assert kept.table.version == version(t.pk)


def test_a_kept_table_at_the_same_version_still_reads_fresh_seat_rows(make_user, task_queue):
    """Clocks and presence live in the seat rows, which are read on every change."""
    t, users = four_humans(make_user)
    rng = random.Random(4)
    move(t.pk, users, rng)
    seat = loading.load(t.pk).state.seats_to_act()[0]
    expire_clock(t.pk, seat)

    services.advance(t.pk)                      # the clock ran out: a bot takes the seat

    assert Seat.objects.get(table=t, index=seat).replaced_by_bot == "basic"


def test_a_refused_change_leaves_nothing_kept_that_the_database_does_not_hold(make_user, task_queue):
    t, users = four_humans(make_user, "spades")
    lv = loading.load(t.pk)
    seat = lv.state.seats_to_act()[0]
    with pytest.raises(services.ServiceError):
        services.act(t.pk, users[seat], lv.table.version + 1, lv.state.view(seat)["legal"][0])
    assert loading._live.take(t.pk) is None    # dropped with the rolled-back transaction
    move(t.pk, users, random.Random(5))         # and the next change loads it afresh
    assert Deal.objects.get(match__table=t).record["actions"]


# --- the precompiled queries -------------------------------------------------------------------
def test_a_compiled_select_gives_what_the_orm_gives(make_user, task_queue):
    t, users = four_humans(make_user)
    move(t.pk, users, random.Random(6))
    query = prepared.select("test_seats", lambda pk: Seat.objects.filter(table_id=pk).order_by("index"))
    fast = query.fetch(t.pk)
    slow = list(Seat.objects.filter(table_id=t.pk).order_by("index"))
    fields = [f.attname for f in Seat._meta.concrete_fields]
    assert [[getattr(s, f) for f in fields] for s in fast] == [[getattr(s, f) for f in fields] for s in slow]
    assert any(s.turn_started_at is not None for s in fast)   # datetimes converted, aware
    assert all(s.turn_started_at is None or s.turn_started_at.tzinfo for s in fast)


def test_a_compiled_update_stores_what_save_would(make_user, task_queue):
    t, users = four_humans(make_user)
    deal = Deal.objects.get(match__table=t)
    table = Table.objects.get(pk=t.pk)
    before = table.updated_at
    deal.record = dict(deal.record, note={"ünïcode": [1, 2.5, None, True]})
    table.version += 10
    prepared.update_many([(deal, ("record",)), (table, ("version", "updated_at"))])
    assert Deal.objects.get(pk=deal.pk).record["note"] == {"ünïcode": [1, 2.5, None, True]}
    stored = Table.objects.get(pk=t.pk)
    assert stored.version == table.version and stored.updated_at > before   # auto_now applied
