""""Play now" against bots lets the player choose the clock (games/time_controls.py), untimed
included: an untimed table runs no clock at all, so no deadline ever passes; a clock the page does
not offer is refused with a reason and nothing is made; the choice is remembered."""
import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games import clocks, loading, services
from games.models import Table

from .test_home import card

pytestmark = pytest.mark.django_db(transaction=True)


def test_an_untimed_table_runs_no_clock_and_nothing_is_ever_due_for_the_player(client, make_user, task_queue):
    client.force_login(make_user("ala"))
    r = client.post(reverse("play_now"), {"game": "sixtysix", "level": "basic", "clock": "0+0"})
    table = Table.objects.get()
    assert r.status_code == 302 and (table.bank_seconds, table.increment_seconds) == (0, 0)
    task_queue.run_due()
    live = loading.load(table.pk)
    if live.state.seats_to_act() != [0]:      # the bot leads: let it
        task_queue.run_due()
        live = loading.load(table.pk)
    assert list(live.state.seats_to_act()) == [0]
    me = live.seats[0]
    assert me.turn_started_at is None and clocks.deadline(me) is None
    later = timezone.now() + timedelta(hours=3)
    assert clocks.expired(live, later) is None and clocks.due_at(live, later) is None
    assert live.table.status == "playing"
    html = client.get("/").content.decode()
    assert re.search(r'<option value="0\+0" selected>', card(html, "sixtysix"))


def test_play_now_takes_the_chosen_clock(client, make_user, task_queue):
    client.force_login(make_user("ala"))
    client.post(reverse("play_now"), {"game": "hearts", "clock": "900+10"})
    table = Table.objects.get()
    assert (table.bank_seconds, table.increment_seconds) == (900, 10)


def test_play_now_without_a_clock_keeps_five_minutes_and_five_seconds(client, make_user, task_queue):
    client.force_login(make_user("ala"))
    client.post(reverse("play_now"), {"game": "spades"})
    table = Table.objects.get()
    assert (table.bank_seconds, table.increment_seconds) == (300, 5)


@pytest.mark.parametrize("clock", ["1+0", "0+5", "abc", "300+5; drop"])
def test_play_now_refuses_a_clock_it_does_not_offer(client, clock, task_queue):
    r = client.post(reverse("play_now"), {"game": "sixtysix", "clock": clock})
    assert r.status_code == 400 and "Choose one of the offered clocks." in r.content.decode()
    assert not Table.objects.exists()


@pytest.mark.parametrize("seats, rated", [(["me", ""], False), (["me", "basic"], True)])
def test_only_an_unrated_table_against_bots_may_be_untimed(make_user, seats, rated):
    from realtime.errors import ServiceError
    with pytest.raises(ServiceError) as err:
        services.create_table(make_user("ala"), "sixtysix", seats=seats, rated=rated,
                              bank_seconds=0, increment_seconds=0)
    assert err.value.code == "bad_request" and not Table.objects.exists()
