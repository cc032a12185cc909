"""Presence that heals: the socket records of a web process that stopped beating are removed by the
sweep, so its players turn away and the leaver rules apply (games/web_process/liveness.py)."""
from datetime import timedelta

import pytest
from django.utils import timezone

from games import presence, services, tasks
from games.web_process import liveness
from games.models import Seat, TableSocket, WebProcess

pytestmark = pytest.mark.django_db(transaction=True)


def two_players(make_user):
    ala, ola = make_user("ala"), make_user("ola")
    t = services.create_table(ala, "sixtysix", "kurnik")
    services.sit(t.pk, ola, 1)          # the last open seat: the match starts
    presence.place(t.pk, "ala-1", 0)
    presence.place(t.pk, "ola-1", 1)
    presence.place(t.pk, "eve-1", None)
    return t


def held_by(channel, process, *, opened_ago=0.0):
    TableSocket.objects.filter(channel=channel).update(
        process=process, opened_at=timezone.now() - timedelta(seconds=opened_ago))


def process_row(name, *, expires_in):
    WebProcess.objects.update_or_create(pk=name, defaults={"expires_at": timezone.now() + timedelta(seconds=expires_in)})


def test_it_names_this_process_in_every_record_it_places(make_user, task_queue):
    t = two_players(make_user)
    assert set(TableSocket.objects.filter(table=t).values_list("process", flat=True)) == {liveness.PROCESS}


def test_it_removes_the_sockets_of_a_process_whose_heartbeat_expired_and_its_player_turns_away(
        make_user, task_queue, sent):
    t = two_players(make_user)
    process_row("web1:dead", expires_in=-1)
    process_row("web2:alive", expires_in=10)
    held_by("ola-1", "web1:dead")
    held_by("eve-1", "web1:dead")
    held_by("ala-1", "web2:alive")
    assert tasks.sweep_sockets() == 2
    ola, ala = Seat.objects.get(table=t, index=1), Seat.objects.get(table=t, index=0)
    assert ola.connections == 0 and ola.away_since is not None      # away: the leaver rules run from here
    assert ala.connections == 1 and ala.away_since is None
    assert list(TableSocket.objects.filter(table=t).values_list("channel", flat=True)) == ["ala-1"]
    assert not WebProcess.objects.filter(pk="web1:dead").exists()      # nothing of it left
    assert WebProcess.objects.filter(pk="web2:alive").exists()
    assert tasks.sweep_sockets() == 0       # idempotent


def test_a_process_that_never_beat_loses_its_records_only_once_they_are_older_than_an_expiry(
        make_user, task_queue, settings):
    t = two_players(make_user)
    held_by("ola-1", "web3:never", opened_ago=settings.GAMES_PROCESS_EXPIRY_SECONDS + 1)
    held_by("ala-1", "web4:starting", opened_ago=1)     # its first beat may not be written yet
    process_row(liveness.PROCESS, expires_in=10)
    assert liveness.dead_sockets() == [(t.pk, "ola-1")]


def test_the_heartbeat_pushes_the_expiry_forward(settings):
    liveness.beat()
    first = WebProcess.objects.get(pk=liveness.PROCESS).expires_at
    assert first > timezone.now()
    liveness.going_away(0)
    assert WebProcess.objects.get(pk=liveness.PROCESS).expires_at < first


def test_a_process_going_away_keeps_its_records_until_its_grace_has_passed(make_user, task_queue):
    t = two_players(make_user)
    liveness.going_away(30)
    assert liveness.sweep() == 0
    liveness.going_away(-1)         # the grace has passed
    assert liveness.sweep() == 3
    assert Seat.objects.get(table=t, index=1).away_since is not None


def test_the_embedded_mode_forgets_the_previous_runs_sockets_on_start_up(make_user, task_queue):
    t = two_players(make_user)
    held_by("ola-1", "previous-run")
    process_row("previous-run", expires_in=10)      # even one that would still look alive
    assert liveness.forget_others() == 1
    assert Seat.objects.get(table=t, index=1).connections == 0
    assert Seat.objects.get(table=t, index=0).connections == 1
    assert not WebProcess.objects.filter(pk="previous-run").exists()


def test_a_beat_says_whether_the_process_was_still_alive_and_whether_it_was_swept(make_user, task_queue):
    assert liveness.beat() is False                 # its first beat
    assert liveness.beat() is True
    t = two_players(make_user)
    liveness.going_away(-1)                         # silent past its expiry (the database down, say)
    assert liveness.beat() is False and not liveness.swept()    # but nobody swept it: records kept
    liveness.going_away(-1)
    liveness.sweep()
    assert liveness.beat() is False and liveness.swept()        # swept: its sockets must reconnect
    assert TableSocket.objects.filter(table=t).count() == 0
