"""The list page, the tournament page and registering through them."""
import re
from datetime import timedelta, timezone as dt_timezone

import pytest
from django.utils import timezone

from tournaments.models import Entry, Tournament

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def cup(db):
    return Tournament.objects.create(name="Spring Cup", game="hearts", variant="standard",
                                     starts_at=timezone.now() + timedelta(hours=1), min_entries=2)


def test_it_lists_upcoming_tournaments(client, cup):
    html = client.get("/tournaments/").content.decode()
    assert "Spring Cup" in html and f"/tournaments/{cup.pk}/" in html


def test_it_registers_and_withdraws_a_player_from_the_page(client, make_user, cup):
    user = make_user("ala")
    client.force_login(user)
    page = client.get(f"/tournaments/{cup.pk}/").content.decode()
    assert 'data-action="register"' in page and f"/ws/tournament/{cup.pk}/" in page
    client.post(f"/tournaments/{cup.pk}/register/")
    assert Entry.objects.filter(tournament=cup, user=user, withdrawn=False).exists()
    live = client.get(f"/tournaments/{cup.pk}/live/").content.decode()
    assert 'data-action="withdraw"' in live and "ala" in live
    client.post(f"/tournaments/{cup.pk}/withdraw/")
    assert Entry.objects.get(tournament=cup, user=user).withdrawn


def test_it_shows_why_a_tournament_was_cancelled_in_polish(client, cup):
    Tournament.objects.filter(pk=cup.pk).update(
        status="cancelled", cancel_reason="Too few players entered: the tournament needed at least %(min)s.")
    html = client.get(f"/tournaments/{cup.pk}/", HTTP_ACCEPT_LANGUAGE="pl").content.decode()
    assert "Zapisało się za mało graczy: turniej potrzebował co najmniej 2." in html
    html = client.get(f"/tournaments/{cup.pk}/", HTTP_ACCEPT_LANGUAGE="bg").content.decode()
    assert "поне 2" in html and "Турнири" in html


def test_it_sends_anonymous_visitors_to_log_in_before_registering(client, cup):
    r = client.post(f"/tournaments/{cup.pk}/register/")
    assert r.status_code == 302 and "/accounts/login/" in r["Location"]


def test_it_validates_the_admin_form(admin_client):
    r = admin_client.post("/admin/tournaments/tournament/add/", {
        "name": "Bad", "game": "hearts", "variant": "", "format": "elimination", "rounds": 3,
        "starts_at_0": "2030-01-01", "starts_at_1": "10:00:00", "bank_seconds": 5, "increment_seconds": 0,
        "min_entries": 4, "max_entries": 8, "break_seconds": 30, "bot_level": "basic",
        "entries-TOTAL_FORMS": 0, "entries-INITIAL_FORMS": 0, "round_set-TOTAL_FORMS": 0,
        "round_set-INITIAL_FORMS": 0})
    assert r.status_code == 200 and not Tournament.objects.filter(name="Bad").exists()
    html = r.content.decode()
    assert "Four-player games are played as Swiss tournaments." in html
    assert "Between 10 and 3600 seconds." in html


def test_an_empty_list_says_so_and_what_to_do_meanwhile(client, db):
    html = " ".join(client.get("/tournaments/").content.decode().split())
    assert "No tournament is scheduled yet." in html and "Admins announce tournaments on this page" in html
    assert 'href="/"' in html and "Play now against bots" in html
    for game in ("sixtysix", "hearts", "spades"):
        assert f'href="/play/{game}/"' in html


def test_it_explains_the_formats_byes_bots_and_standings(client, db):
    html = " ".join(client.get("/tournaments/").content.decode().split())
    assert "How tournaments work" in html
    for words in ("Swiss", "Round robin", "Single elimination", "everyone plays everyone once",
                  "scores a win", "filled with bots", "Buchholz", "match points", "game points"):
        assert words in html, words
    # Headings in order: h1, then h2s, then h3s under them.
    levels = [int(h) for h in re.findall(r"<h([1-6])", html.split("<main")[1])]
    assert levels[0] == 1 and all(b - a <= 1 for a, b in zip(levels, levels[1:]))


def test_an_upcoming_tournament_shows_entries_limit_and_registration(client, cup, make_user):
    from tournaments import services as tservices
    tservices.register(cup.pk, make_user("ala"))
    html = " ".join(client.get("/tournaments/").content.decode().split())
    row = re.search(rf'<tr data-tournament="{cup.pk}">.*?</tr>', html).group(0)
    assert "Hearts · Standard" in row and "Swiss" in row and "1 of 64" in row and "Open: register" in row
    Tournament.objects.filter(pk=cup.pk).update(max_entries=1)
    html = " ".join(client.get("/tournaments/").content.decode().split())
    assert "Full" in re.search(rf'<tr data-tournament="{cup.pk}">.*?</tr>', html).group(0)
    Tournament.objects.filter(pk=cup.pk).update(max_entries=8, registration_opens_at=timezone.now() + timedelta(minutes=30))
    html = " ".join(client.get("/tournaments/").content.decode().split())
    assert "Opens " in re.search(rf'<tr data-tournament="{cup.pk}">.*?</tr>', html).group(0)


def test_registration_times_are_marked_for_the_readers_time_zone(client, cup):
    opens = timezone.now() + timedelta(minutes=30)
    Tournament.objects.filter(pk=cup.pk).update(registration_opens_at=opens)
    stamp = opens.astimezone(dt_timezone.utc).strftime("%Y-%m-%d %H:%M")
    for url in ("/tournaments/", f"/tournaments/{cup.pk}/"):
        html = client.get(url).content.decode()
        assert f'data-local="date">{stamp} UTC</time>' in html, url
