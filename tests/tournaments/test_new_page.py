"""/tournaments/new/: staff create a tournament on the site's page, with choices from the
registries, local times and the same checks as the admin, before and on submitting."""
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(client, make_user):
    user = make_user("organiser", is_staff=True)
    client.force_login(user)
    return user


def local(dt: datetime) -> str:
    return dt.strftime("%Y-%m-%dT%H:%M")


def valid(**changes) -> dict:
    starts = timezone.now().astimezone(ZoneInfo("Europe/Warsaw")) + timedelta(days=2)
    data = {"name": "Evening Arena", "game": "sixtysix", "variant": "schnapsen", "format": "arena",
            "time_control": "180+3", "starts_at": local(starts), "registration_opens_at": "",
            "arena_minutes": "30", "rounds": "5", "boards": "4", "break_seconds": "30",
            "min_entries": "2", "max_entries": "32", "bot_level": "medium", "rated": "on",
            "time_zone": "Europe/Warsaw"}
    data.update(changes)
    return data


def test_it_is_for_staff_only(client, make_user):
    assert client.get("/tournaments/new/").status_code == 302          # log in first
    client.force_login(make_user("ala"))
    assert client.get("/tournaments/new/").status_code == 403
    assert client.post("/tournaments/new/", valid()).status_code == 403
    assert client.post("/tournaments/new/check/", valid()).status_code == 403
    assert "/tournaments/new/" not in client.get("/tournaments/").content.decode()
    assert not Tournament.objects.exists()


def test_the_list_links_staff_to_it(client, staff):
    assert 'href="/tournaments/new/"' in client.get("/tournaments/").content.decode()


def test_its_choices_come_from_the_registries(client, staff):
    from accounts.models import BOT_LEVELS
    from games.engine.core import GAME_NAMES, get_rules
    from tournaments import formats

    html = client.get("/tournaments/new/").content.decode()
    for game in GAME_NAMES:
        assert f'<option value="{game}"' in html
        for variant in get_rules(game).variants:
            assert f'<option value="{variant}"' in html
    for name in formats.NAMES:
        assert f'<option value="{name}"' in html
    for level in BOT_LEVELS:
        assert f'<option value="{level}"' in html
    assert '<label for="id_format">Tournament format' in html


def test_it_creates_the_tournament_at_the_local_time(client, staff):
    data = valid()
    r = client.post("/tournaments/new/", data)
    t = Tournament.objects.get()
    assert r.status_code == 302 and r["Location"] == f"/tournaments/{t.pk}/"
    wanted = datetime.strptime(data["starts_at"], "%Y-%m-%dT%H:%M").replace(tzinfo=ZoneInfo("Europe/Warsaw"))
    assert t.starts_at == wanted
    assert (t.game, t.variant, t.format, t.arena_minutes, t.bot_level) == ("sixtysix", "schnapsen", "arena", 30, "medium")
    assert (t.bank_seconds, t.increment_seconds, t.rated, t.created_by) == (180, 3, True, staff)
    assert t.status == Tournament.Status.SCHEDULED


def test_the_check_answers_the_arenas_minimum_before_submitting(client, staff):
    errors = client.post("/tournaments/new/check/", valid(arena_minutes="3")).json()["errors"]
    assert errors == {"arena_minutes": ["Between 5 and 720 minutes."]}
    # Submitted anyway, the server refuses it in the same words, and nothing is created.
    r = client.post("/tournaments/new/", valid(arena_minutes="3"))
    assert r.status_code == 200 and "Between 5 and 720 minutes." in r.content.decode()
    assert not Tournament.objects.exists()
    assert client.post("/tournaments/new/check/", valid()).json()["errors"] == {}


def test_it_refuses_what_the_admin_refuses(client, staff):
    errors = client.post("/tournaments/new/check/", valid(
        game="hearts", variant="schnapsen", format="round_robin", min_entries="6", max_entries="4",
        starts_at=local(timezone.now() - timedelta(hours=1)))).json()["errors"]
    assert set(errors) == {"variant", "format", "max_entries", "starts_at"}
    assert errors["format"] == ["Four-player games are played as Swiss tournaments."]


def test_settings_of_other_formats_are_neither_checked_nor_kept(client, staff):
    r = client.post("/tournaments/new/", valid(format="swiss", arena_minutes="1", rounds="3"))
    assert r.status_code == 302
    t = Tournament.objects.get()
    assert (t.format, t.rounds, t.arena_minutes) == ("swiss", 3, 45)


def test_registration_must_open_before_the_start_in_local_time(client, staff):
    starts = timezone.now().astimezone(ZoneInfo("America/New_York")) + timedelta(days=1)
    errors = client.post("/tournaments/new/check/", valid(
        time_zone="America/New_York", starts_at=local(starts),
        registration_opens_at=local(starts + timedelta(minutes=5)))).json()["errors"]
    assert errors == {"registration_opens_at": ["Registration must open before the start."]}


def test_it_answers_in_the_staff_members_language(client, staff):
    errors = client.post("/tournaments/new/check/", valid(arena_minutes="3"), HTTP_ACCEPT_LANGUAGE="de").json()
    assert errors["errors"]["arena_minutes"] == ["Zwischen 5 und 720 Minuten."]
