"""The ratings' own pages: the leaderboards and how ratings work."""
import re

import pytest

from django.urls import reverse

from ratings.models import Rating

pytestmark = pytest.mark.django_db


def test_the_leaderboard_lists_rated_players_best_first_and_paginates(client, make_user):
    users = [make_user(f"p{i:03d}") for i in range(60)]
    Rating.objects.bulk_create([Rating(user=u, game="hearts", variant="standard", mu=20 + i * 0.1,
                                       display=1350 + i * 3, games=i % 15, wins=0) for i, u in enumerate(users)])
    html = client.get(reverse("leaderboard", args=["hearts", "standard"])).content.decode()
    names = re.findall(r'href="/accounts/u/(p\d+)/"', html)
    assert names[0] == "p059" and len(names) == 50
    assert "p000" not in html and "p015" not in html        # no games yet: not listed
    page2 = client.get(reverse("leaderboard", args=["hearts", "standard"]) + "?page=2").content.decode()
    assert len(re.findall(r'href="/accounts/u/(p\d+)/"', page2)) == 60 - 4 - 50
    assert client.get(reverse("leaderboard", args=["hearts", "nope"])).status_code == 404
    assert client.get(reverse("leaderboard_home")).status_code == 302


def test_the_ratings_help_says_the_fair_play_rules_and_the_leaderboard_links_it(client, settings):
    page = client.get(reverse("ratings_help")).content.decode()
    assert "House bots are never rated" in page and "Accounts seen together" in page
    assert f"more than {settings.PUZZLE_MAX_CHANGE} points" in page and f"last {settings.ADDRESS_KEY_DAYS} days" in page
    assert "never played at two tables at the same time" in page
    board = client.get(reverse("leaderboard", args=["sixtysix", "kurnik"])).content.decode()
    assert reverse("ratings_help") in board
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "de"
    assert "nie gewertet" in client.get(reverse("ratings_help"), HTTP_ACCEPT_LANGUAGE="de").content.decode()
