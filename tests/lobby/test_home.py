"""The home page as a game picker, and "Play now": one click to a started table against bots."""
import re

import pytest
from django.urls import reverse

from accounts.models import User
from games import loading, services
from games.engine.core import GAME_NAMES, get_rules
from games.labels import game_label, variant_label
from games.models import Table

pytestmark = pytest.mark.django_db(transaction=True)


def card(html: str, game: str) -> str:
    """The part of the page that is ``game``'s card."""
    m = re.search(rf'<article class="game-card" id="game-{game}".*?</article>', html, re.S)
    assert m, f"no card for {game}"
    return m.group(0)


def test_it_lists_every_game_with_its_variants_seats_rules_and_play_now_form(client):
    html = client.get("/").content.decode()
    for game in GAME_NAMES:
        rules = get_rules(game)
        part = card(html, game)
        assert game_label(game) in part
        for v in rules.variants:
            assert variant_label(v) in part
        assert f"{rules.seats} players" in part
        assert reverse("rules", args=[game]) in part and reverse("lobby", args=[game]) in part
        assert f'action="{reverse("play_now")}"' in part and f'name="game" value="{game}"' in part
        assert '<select id="level-%s" name="level"' % game in part
        assert re.search(r'<option value="basic"[^>]* selected>', part)     # the default level
        # ... and what it means in play, under the choices (site.js keeps it to the choice).
        assert re.search(r'id="level-record-%s"[^>]*>Wins about \d+ of 100 deals against random</p>' % game, part)
        assert "No table is playing right now" in part
    # Every select has its label (axe: label).
    for select_id in re.findall(r'<select id="([^"]+)"', html):
        assert f'<label for="{select_id}">' in html


def test_it_shows_the_live_counts_and_the_tables_waiting_for_a_player(client, make_user, task_queue):
    ala, ola = make_user("ala"), make_user("ola")
    services.create_table(ala, "hearts", seats=["me", "basic", ola, "basic"])       # starts at once
    services.create_table(ala, "sixtysix", seats=["random", "random"])              # bots only
    waiting = services.create_table(ola, "spades", seats=["me", "", "basic", "basic"])
    services.create_table(ola, "sixtysix", seats=["me", ""], private=True)          # private: not listed
    html = client.get("/").content.decode()
    assert "1 table playing now</span> <span aria-hidden=\"true\">·</span> <span>2 people playing" in " ".join(
        card(html, "hearts").split())
    assert "1 table playing now</span> <span aria-hidden=\"true\">·</span> <span>0 people playing" in " ".join(
        card(html, "sixtysix").split())
    assert "Watch a game" in card(html, "hearts") and "Watch a game" not in card(html, "spades")
    # A visitor joins through the guest form (one click); a player follows a link.
    joins = re.findall(r'name="next" value="(/table/\d+/\?sit=1)"', html)
    assert joins == [f"/table/{waiting.pk}/?sit=1"] and 'action="/accounts/guest/"' in html
    client.force_login(make_user("eve"))
    html = client.get("/").content.decode()
    joins = re.findall(r'href="(/table/\d+/\?sit=1)" data-action="join"', html)
    assert joins == [f"/table/{waiting.pk}/?sit=1"]
    # Who sits there himself is offered his way back, not a seat.
    client.force_login(ola)
    html = client.get("/").content.decode()
    assert re.findall(r'href="(/table/\d+/[^"]*)" data-action="mine">Your table', html) == [f"/table/{waiting.pk}/"]
    assert 'data-action="join"' not in html


def test_play_now_starts_a_table_against_bots_of_the_chosen_level(client, make_user, task_queue):
    ala = make_user("ala")
    client.force_login(ala)
    r = client.post(reverse("play_now"), {"game": "hearts", "variant": "jack_of_diamonds", "level": "strong"})
    table = Table.objects.get()
    assert r.status_code == 302 and r["Location"] == reverse("table", args=[table.pk])
    live = loading.load(table.pk)
    assert live.table.status == "playing" and not live.table.rated and not live.table.private
    assert live.table.variant == "jack_of_diamonds" and live.state is not None
    assert [s.user.username for s in live.seats] == ["ala", "bot-strong", "bot-strong", "bot-strong"]
    # The choices are remembered for the next visit.
    html = client.get("/").content.decode()
    assert re.search(r'<option value="strong"[^>]* selected>', card(html, "hearts"))
    assert '<option value="jack_of_diamonds" selected>' in card(html, "hearts")


def test_play_now_defaults_to_the_basic_bot_and_the_first_variant(client, make_user, task_queue):
    client.force_login(make_user("ala"))
    client.post(reverse("play_now"), {"game": "spades"})
    live = loading.load(Table.objects.get().pk)
    assert live.table.variant == "standard" and live.table.status == "playing"
    assert [s.user.username for s in live.seats][1:] == ["bot-basic"] * 3


def test_an_anonymous_visitor_becomes_a_guest_and_lands_at_his_table(client, task_queue):
    r = client.post(reverse("play_now"), {"game": "sixtysix", "variant": "santase", "level": "basic"})
    table = Table.objects.get()
    assert r.status_code == 302 and r["Location"] == reverse("table", args=[table.pk])
    guest = User.objects.get(is_guest=True)
    assert table.owner == guest and table.seats.get(index=0).user == guest
    page = client.get(r["Location"])
    assert page.status_code == 200 and page.context["table_boot"]["you"] == 0
    assert page.context["table_boot"]["is_guest"] is True


@pytest.mark.parametrize("data, reason", [
    ({"game": "sixtysix", "variant": "kurnik", "level": "grandmaster"}, "Choose a bot level"),
    ({"game": "sixtysix", "variant": "texas", "level": "basic"}, "Choose one of this game"),
    ({"game": "poker", "level": "basic"}, "There is no such game."),
])
def test_play_now_refuses_a_bad_choice_with_a_readable_error(client, data, reason, task_queue):
    r = client.post(reverse("play_now"), data)
    assert r.status_code == 400
    html = r.content.decode()
    assert reason in html and 'role="alert"' in html
    assert not Table.objects.exists() and not User.objects.filter(is_guest=True).exists()


def test_play_now_is_a_post(client):
    assert client.get(reverse("play_now")).status_code == 405


def test_it_includes_a_games_short_rules_in_the_readers_language(client, tmp_path, settings):
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "hearts.summary.en.html").write_text("<p>Avoid hearts.</p>")
    (rules / "hearts.summary.pl.html").write_text("<p>Unikaj kier.</p>")
    settings.TEMPLATES = [dict(settings.TEMPLATES[0], DIRS=[tmp_path, *settings.TEMPLATES[0]["DIRS"]])]
    html = client.get("/", HTTP_ACCEPT_LANGUAGE="pl").content.decode()
    assert "Unikaj kier." in card(html, "hearts")
    from lobby.home import _summary_template
    assert _summary_template("hearts", "fr") == "rules/hearts.summary.en.html"     # else English
    assert _summary_template("hearts", "de-AT") == "rules/hearts.summary.de.html"
    assert _summary_template("no-such-game", "pl") is None                          # none: nothing shown
