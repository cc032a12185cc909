"""What the site counts (ops/metrics.py through games' signals) and reads at scrape time
(ops/scrape.py), in one process: a move counted once, on commit, by game and by who moved."""
from __future__ import annotations

import os

import pytest
from prometheus_client import generate_latest

from games import loading, services
from games.models import Deal
from realtime.errors import ServiceError
from ops import registry
from tests.games.helpers import human_move

pytestmark = pytest.mark.django_db(transaction=True)


def sample(name: str, **labels) -> float:
    found = registry.readings(site=name.startswith(("cards_tables", "cards_queue", "cards_pool",
                                                     "cards_analysis", "cards_ready")))
    return sum(v for l, v in found.get(name, ()) if all(l.get(k) == m for k, m in labels.items()))


def to_act(table_id, users):
    lv = loading.load(table_id)
    seat = lv.state.seats_to_act()[0]
    return next(u for u in users if lv.seats[seat].user_id == u.id)


def test_a_persons_move_is_counted_once_on_commit_and_a_refused_one_not(make_user, task_queue):
    ala, ola = make_user("ala"), make_user("ola")
    t = services.create_table(ala, "sixtysix", "kurnik")
    services.sit(t.pk, ola, 1)
    before = sample("cards_moves_total", game="sixtysix", by="person")
    refused_before = sample("cards_moves_total")
    user = to_act(t.pk, [ala, ola])
    human_move(t.pk, user)
    assert sample("cards_moves_total", game="sixtysix", by="person") == before + 1
    other = ola if user == ala else ala
    with pytest.raises(ServiceError):
        services.act(t.pk, other, 0, {"type": "play", "card": "AS"})        # stale: nothing applied
    assert sample("cards_moves_total") == refused_before + 1


def test_a_bots_move_is_counted_as_the_bots(make_user, make_bot, task_queue):
    ala, bot = make_user("ala"), make_bot("rob")
    t = services.create_table(ala, "sixtysix", "kurnik")
    services.sit(t.pk, bot, 1)
    before = sample("cards_moves_total", game="sixtysix", by="bot")
    person_before = sample("cards_moves_total", game="sixtysix", by="person")
    for _ in range(40):             # until both have moved, whoever the deal makes start
        if sample("cards_moves_total", game="sixtysix", by="bot") > before and \
                sample("cards_moves_total", game="sixtysix", by="person") > person_before:
            break
        lv = loading.load(t.pk)
        to_act = lv.state.seats_to_act() if lv.state is not None else ()
        if to_act and lv.seats[to_act[0]].user_id == ala.id:
            human_move(t.pk, ala)
        else:
            task_queue.run_all_of(t.pk)     # the bot's move, or the next deal
    bots = sample("cards_moves_total", game="sixtysix", by="bot") - before
    people = sample("cards_moves_total", game="sixtysix", by="person") - person_before
    assert bots >= 1 and people >= 1
    assert bots + people == sum(len(d.record["actions"]) for d in Deal.objects.filter(match__table_id=t.pk))


def test_the_scrape_reads_live_tables_by_game_and_the_queues(make_user, task_queue):
    ala, ola = make_user("ala"), make_user("ola")
    t = services.create_table(ala, "sixtysix", "kurnik")
    assert sample("cards_tables_live", game="sixtysix") == 0
    services.sit(t.pk, ola, 1)
    assert sample("cards_tables_live", game="sixtysix") == 1
    assert sample("cards_tables_live", game="hearts") == 0       # every game is named, at 0 too
    text = generate_latest(registry.scrape_registry()).decode()
    assert 'cards_queue_depth{queue="celery"}' in text
    assert 'cards_queue_depth{queue="analysis"}' in text
    assert "cards_pool_waiters 0.0" in text
    assert 'cards_ready{check="database"} 1.0' in text


def test_a_process_killed_outright_stops_counting_at_the_next_sweep(tmp_path, monkeypatch):
    import subprocess
    import sys

    from ops import process

    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    for pid in (gone.pid, os.getpid()):
        (tmp_path / f"gauge_liveall_{pid}.db").write_bytes(b"")
        (tmp_path / f"counter_{pid}.db").write_bytes(b"")
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(tmp_path))
    assert process.sweep_dead() == [gone.pid]
    left = sorted(p.name for p in tmp_path.iterdir())
    assert left == sorted([f"counter_{gone.pid}.db", f"counter_{os.getpid()}.db",      # counters stay in the sums
                           f"gauge_liveall_{os.getpid()}.db"])
