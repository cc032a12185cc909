"""A player's place in a tournament as his open pages ask for it (tournaments/follow.py, GET
/tournaments/<id>/me/): his table now, and in an arena whether he is paused and why (his clock ran
out, or he asked), with the way back; nobody else's."""
from datetime import timedelta

import pytest
from django.urls import reverse

from tournaments import controls, services
from tournaments.models import Entry, Game, Tournament
from tournaments.tasks import tournament_tick

pytestmark = pytest.mark.django_db(transaction=True)


def arena(clock):
    return Tournament.objects.create(name="Arena", game="sixtysix", variant="kurnik", format="arena",
                                     arena_minutes=5, starts_at=clock.now() + timedelta(hours=1),
                                     bank_seconds=10, increment_seconds=0, min_entries=2, max_entries=16)


def run(clock, task_queue, advance_queue, seconds):
    for _ in range(seconds):
        tournament_tick()
        advance_queue.run_due(clock.now())
        task_queue.run_due()
        clock.advance(1)


def me(client, t) -> dict:
    r = client.get(reverse("tournament_me", args=[t.pk]))
    assert r.status_code == 200
    return r.json()


def test_a_player_who_lost_on_time_is_told_why_he_is_paused_and_comes_back_to_a_new_table(
        client, make_user, bots, clock, task_queue, advance_queue):
    admin, player = make_user("arbiter", is_superuser=True, is_staff=True), make_user("ala")
    t = arena(clock)
    services.register(t.pk, player)
    for b in bots(2):
        services.register(t.pk, b)
    controls.start_now(t.pk, admin)
    client.force_login(player)
    entry = Entry.objects.get(tournament=t, user=player)
    first = next(g for g in Game.objects.filter(round__tournament=t) if entry.pk in g.players)
    now = me(client, t)
    assert now["table"] == first.table_id and now["url"] == f"/table/{first.table_id}/" and not now["paused"]

    run(clock, task_queue, advance_queue, 15)       # he never moves: his 10 s run out
    first.refresh_from_db()
    assert first.result is not None and first.players.index(entry.pk) in first.result["timed_out"]
    now = me(client, t)
    assert now["paused"] and now["table"] is None and now["url"] is None
    assert "your clock ran out or you left your last match" in now["why"]
    assert now["come_back"] == reverse("tournament_control", args=[t.pk, "come-back"])
    page = client.get(reverse("tournament", args=[t.pk])).content.decode()
    assert "your clock ran out or you left your last match" in page       # the tournament page says it too

    assert client.post(now["come_back"]).status_code == 302
    run(clock, task_queue, advance_queue, 2)        # free again: paired with a free bot at once
    now = me(client, t)
    assert not now["paused"] and now["why"] is None and now["table"] not in (None, first.table_id)


def test_a_player_who_paused_himself_is_told_so_and_others_learn_nothing(
        client, make_user, bots, clock, task_queue, advance_queue):
    admin, player = make_user("arbiter", is_superuser=True, is_staff=True), make_user("ala")
    t = arena(clock)
    services.register(t.pk, player)
    for b in bots(2):
        services.register(t.pk, b)
    controls.start_now(t.pk, admin)
    controls.pause_me(t.pk, player)
    client.force_login(player)
    assert me(client, t)["why"] == "You are paused: you get no new match."
    client.logout()
    assert me(client, t) == {"status": "running", "entrant": False, "table": None, "url": None, "paused": False,
                             "why": None, "come_back": None, "tournament_url": f"/tournaments/{t.pk}/"}
    client.force_login(make_user("ola"))
    assert me(client, t)["entrant"] is False and me(client, t)["table"] is None
