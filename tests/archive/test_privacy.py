"""Nothing of a deal in progress leaves the server: no replay, no download, for anyone."""
import json

import pytest
from django.test import Client
from django.urls import reverse

from games import loading, services as games
from games.models import Deal, Match

from ..games.helpers import expire_clock, human_move
from tests.ratings.factories import finished_match

pytestmark = pytest.mark.django_db(transaction=True)


def clients(make_user):
    """Everyone who might ask: the player, a stranger, staff, and an anonymous visitor."""
    out = {"anonymous": Client()}
    for name, extra in (("stranger", {}), ("staff", {"is_staff": True, "is_superuser": True})):
        c = Client()
        c.force_login(make_user(name, **extra))
        out[name] = c
    return out


def deal_urls(match_id, number):
    return [reverse("replay", args=[match_id, number]), reverse("download_deal", args=[match_id, number])]


def play_first_deal(table_id, user, task_queue):
    for _ in range(200):
        if Deal.objects.filter(match__table_id=table_id, number=0, finished=True).exists():
            return
        live = loading.load(table_id)
        if loading.seat_of(live, user) in live.state.seats_to_act():
            human_move(table_id, user)
        else:
            task_queue.run_due()
    raise AssertionError("the first deal did not end")


def test_a_deal_in_progress_is_never_replayable_or_downloadable(make_user, task_queue, rating_queue):
    ala = make_user("ala")
    me = Client()
    me.force_login(ala)
    everyone = {"player": me, **clients(make_user)}
    t = games.create_table(ala, "sixtysix", seats=["me", "random"], start=True)
    m = Match.objects.get(table=t)

    # 1. the first deal is being played
    for who, c in everyone.items():
        for url in deal_urls(m.pk, 1):
            assert c.get(url).status_code == 404, (who, url)
        assert c.get(reverse("download_match", args=[m.pk])).status_code == 404, who
        page = c.get(reverse("match", args=[m.pk]))
        assert page.status_code == 200 and b"replay-link" not in page.content

    # 2. the first deal is over but the match goes on: still nothing
    play_first_deal(t.pk, ala, task_queue)
    task_queue.run_due()                       # the next deal starts (a bot may even end one alone)
    deals = list(Deal.objects.filter(match=m).order_by("number"))
    assert deals[0].finished and len(deals) >= 2 and not deals[-1].finished
    for who, c in everyone.items():
        for n in range(1, len(deals) + 1):
            for url in deal_urls(m.pk, n):
                assert c.get(url).status_code == 404, (who, url)

    # 3. ala runs out of time in the deal being played: the match is over, that deal stays hidden
    live = loading.load(t.pk)
    assert loading.seat_of(live, ala) in live.state.seats_to_act()
    expire_clock(t.pk, 0)
    games.advance(t.pk)
    m.refresh_from_db()
    assert m.finished and m.ended_by == "timeout"
    cut = deals[-1].number + 1
    assert not Deal.objects.get(match=m, number=cut - 1).finished
    finished = [d.number for d in deals if d.finished]
    for who, c in everyone.items():
        for n in finished:
            assert all(c.get(url).status_code == 200 for url in deal_urls(m.pk, n + 1)), (who, n)
        assert all(c.get(url).status_code == 404 for url in deal_urls(m.pk, cut)), who
        lines = c.get(reverse("download_match", args=[m.pk])).content.decode().strip().splitlines()
        assert [json.loads(line)["deal_number"] for line in lines] == finished, who


def test_a_private_tables_match_is_only_for_those_who_sat_there(make_user, make_bot, rating_queue):
    ala = make_user("ala")
    m = finished_match(ala, "sixtysix", [ala, make_bot("b1")], private=True, rated=False)
    me = Client()
    me.force_login(ala)
    stranger = Client()
    stranger.force_login(make_user("ola"))
    for url in [reverse("match", args=[m.pk]), reverse("download_match", args=[m.pk]), *deal_urls(m.pk, 1)]:
        assert me.get(url).status_code == 200, url
        assert stranger.get(url).status_code == 404, url
        assert Client().get(url).status_code == 404, url
    own = me.get(reverse("history", args=["ala"])).content.decode()
    theirs = stranger.get(reverse("history", args=["ala"])).content.decode()
    assert reverse("match", args=[m.pk]) in own
    assert reverse("match", args=[m.pk]) not in theirs
