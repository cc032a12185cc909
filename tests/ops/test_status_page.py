"""/staff/status/ (ops/views.py, ops/status.py): staff only, the numbers of /metrics, and rates
between two readings."""
from __future__ import annotations

import pytest
from django.core.cache import cache

from games import services
from ops import status
from tests.games.helpers import human_move

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def no_previous_reading():
    cache.delete(status.PREVIOUS_KEY)
    yield
    cache.delete(status.PREVIOUS_KEY)


def test_only_staff_see_it(client, make_user):
    anonymous = client.get("/staff/status/")
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]
    client.force_login(make_user("ala"))
    assert client.get("/staff/status/").status_code == 404
    assert client.get("/staff/status.json").status_code == 404
    assert "/staff/status/" not in client.get("/").content.decode()         # no link to it either


def test_staff_find_it_in_the_menu(client, make_user):
    client.force_login(make_user("op", is_staff=True))
    assert 'href="/staff/status/"' in client.get("/").content.decode()


def test_staff_see_readiness_tables_processes_and_moves(client, make_user, task_queue, settings, tmp_path):
    settings.BACKUP_DIR = str(tmp_path)
    (tmp_path / "cards-1.dump").write_bytes(b"x")
    ala = make_user("ala", is_staff=True)
    services.create_table(ala, "sixtysix", "kurnik", seats=["me", "random"])
    client.force_login(ala)
    page = client.get("/staff/status/").content.decode()
    assert 'data-check="database" data-ok="1"' in page
    assert 'data-ops="tables-sixtysix">1<' in page
    assert 'data-ops="person-moves-rate">…<' in page          # no earlier reading: no rate yet
    assert "s ago" in page and 'data-ops="disk"' in page
    reading = client.get("/staff/status.json").json()
    assert reading["tables"]["sixtysix"] == 1 and reading["ready"] == {"database": True}
    assert reading["backup_age"] is not None and reading["backup_age"] < 60
    assert 'data-ops="tables-sixtysix">1<' in reading["html"]


def test_rates_are_over_the_time_between_two_readings(make_user, task_queue, monkeypatch):
    ala, ola = make_user("ala"), make_user("ola")
    t = services.create_table(ala, "sixtysix", "kurnik")
    services.sit(t.pk, ola, 1)
    clock = [1000.0]
    monkeypatch.setattr(status.time, "time", lambda: clock[0])
    assert status.reading()["rates"] is None
    from games import loading
    for _ in range(3):
        lv = loading.load(t.pk)
        seat = lv.state.seats_to_act()[0]
        human_move(t.pk, ala if lv.seats[seat].user_id == ala.id else ola)
    clock[0] += 10
    rates = status.reading()["rates"]
    assert rates["seconds"] == 10 and rates["person_moves"] == pytest.approx(0.3)
    assert rates["bot_moves"] == 0
