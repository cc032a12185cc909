import json

import pytest
from django.urls import reverse

from games.models import Table

pytestmark = pytest.mark.django_db(transaction=True)


def test_it_lists_the_games_on_the_home_page(client):
    body = client.get("/").content.decode()
    for game in ("sixtysix", "hearts", "spades"):
        assert reverse("lobby", args=[game]) in body


def test_it_creates_a_table_from_the_lobby_with_bots(client, make_user, task_queue):
    client.force_login(make_user("ala"))
    r = client.post(reverse("create_table", args=["hearts"]), {
        "variant": "jack_of_diamonds", "bank_seconds": 300, "increment_seconds": 5,
        "seat_0": "me", "seat_1": "random", "seat_2": "", "seat_3": "basic"})
    table = Table.objects.get()
    assert r.status_code == 302 and r["Location"] == reverse("table", args=[table.pk])
    assert [s.user.username if s.user else None for s in table.seats.all()] == \
        ["ala", "bot-random", None, "bot-basic"]


def test_a_table_created_from_the_lobby_with_no_open_seat_starts_at_once(client, make_user, task_queue):
    client.force_login(make_user("ala"))
    client.post(reverse("create_table", args=["sixtysix"]), {
        "variant": "kurnik", "bank_seconds": 300, "increment_seconds": 5, "seat_0": "me", "seat_1": "basic"})
    table = Table.objects.get()
    assert table.status == "playing" and table.match.deals.count() == 1


def test_it_renders_the_table_page_with_its_boot_data(client, make_user, task_queue):
    client.force_login(make_user("ala"))
    client.post(reverse("create_table", args=["sixtysix"]), {
        "variant": "santase", "bank_seconds": 300, "increment_seconds": 5, "private": "on",
        "seat_0": "me", "seat_1": ""})
    table = Table.objects.get()
    r = client.get(reverse("table", args=[table.pk]))
    boot = r.context["table_boot"]
    assert boot["you"] == 0 and boot["invite"] == table.invite_token
    assert boot["ws_url"] == f"/ws/table/{table.pk}/"
    json.dumps(boot)


def test_it_hides_a_private_table_without_the_invite(client, make_user, task_queue):
    from games import services
    table = services.create_table(make_user("ala"), "sixtysix", private=True)
    assert client.get(reverse("table", args=[table.pk])).status_code == 403
    r = client.get(reverse("table", args=[table.pk]) + f"?invite={table.invite_token}")
    assert r.status_code == 200 and r.context["table_boot"]["you"] is None


def test_it_renders_the_lobby(client):
    r = client.get(reverse("lobby", args=["spades"]))
    assert r.status_code == 200 and r.context["variants"] == ["standard"]
    assert client.get("/play/poker/").status_code == 404
