"""Abandoned matches in the history index and on the profile."""
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games import presence, services
from games.models import Match, Seat, Table
from archive import history
from tests.games.helpers import every_seat_moves

pytestmark = pytest.mark.django_db(transaction=True)


def abandoned_match(winner, leaver):
    t = services.create_table(winner, "sixtysix", seats=[winner, leaver], start=True)
    every_seat_moves(t.pk, [winner, leaver])              # else the claim aborts the match
    presence.place(t.pk, "leaver", 1)
    presence.remove(t.pk, "leaver")                       # the leaver's last socket closes
    Seat.objects.filter(table=t, index=1).update(away_since=timezone.now() - timedelta(minutes=2))
    services.claim_win(t.pk, winner, Table.objects.get(pk=t.pk).version)
    return Match.objects.get(table=t)


def test_the_profile_counts_the_matches_a_player_abandoned(client, make_user, task_queue):
    ala, ola = make_user("ala"), make_user("ola")
    m = abandoned_match(ala, ola)
    assert m.ended_by == "abandoned"
    assert history.totals(ola)["abandoned"] == 1 and history.totals(ala)["abandoned"] == 0
    html = client.get(reverse("profile", args=["ola"])).content.decode()
    assert "Abandoned: 1" in html and "(left the match)" in html
    assert "Abandoned: 0" in client.get(reverse("profile", args=["ala"])).content.decode()
    page = client.get(reverse("match", args=[m.pk])).content.decode()
    assert "a player left the match" in page and "(left the match)" in page
