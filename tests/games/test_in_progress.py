"""A player with a match in progress: every page links to its table, "Play now" takes him back to it
instead of opening a second table, and resigning or aborting frees him (games/in_progress.py)."""
import pytest
from django.urls import reverse

from games import services
from games.actions import exits
from games.models import Table

from .helpers import version

pytestmark = pytest.mark.django_db(transaction=True)


def test_every_page_links_to_the_game_in_progress_but_its_own_table(client, make_user, task_queue):
    ala = make_user("ala")
    client.force_login(ala)
    assert "data-in-progress" not in client.get(reverse("home")).content.decode()
    t = services.create_table(ala, "hearts", seats=["me", "basic", "basic", "basic"], start=True)
    url = reverse("table", args=[t.pk])
    for page in (reverse("home"), reverse("leaderboard_home"), reverse("tournaments")):
        html = client.get(page, follow=True).content.decode()
        assert f'href="{url}" data-in-progress' in html and "Your game in progress" in html
    assert "data-in-progress" not in client.get(url).content.decode()
    exits.abort(t.pk, ala, version(t.pk))
    assert "data-in-progress" not in client.get(reverse("home")).content.decode()


def test_play_now_takes_a_player_back_to_his_table_instead_of_a_second_one(client, make_user, task_queue):
    client.post(reverse("play_now"), {"game": "hearts", "level": "basic"})
    first = Table.objects.get()
    r = client.post(reverse("play_now"), {"game": "spades", "level": "basic"}, follow=True)
    assert Table.objects.count() == 1
    assert r.redirect_chain[-1][0] == reverse("table", args=[first.pk])
    assert "You have a game in progress" in r.content.decode()
    user = first.seats.get(index=0).user
    exits.resign(first.pk, user, version(first.pk))       # nobody moved yet: aborted
    client.post(reverse("play_now"), {"game": "spades", "level": "basic"})
    assert Table.objects.count() == 2


def test_the_pools_at_table_refusal_carries_the_tables_link(make_user, task_queue):
    from realtime.errors import ServiceError
    from pool import services as pool
    ala = make_user("ala")
    t = services.create_table(ala, "sixtysix", seats=["me", "basic"], start=True)
    with pytest.raises(ServiceError) as err:
        pool.join(ala, "sixtysix/kurnik/300+5", "chan-1")
    assert err.value.code == "at_table" and err.value.params["url"] == reverse("table", args=[t.pk])
    assert "resign or abort" in err.value.reason
