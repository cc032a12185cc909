"""Variants are shown by their translated labels, never by the engine's identifiers."""
import re

import pytest
from django.urls import reverse
from django.utils import translation

from games.engine.core import GAME_NAMES, get_rules
from games.labels import VARIANT_LABELS, variant_label

LABELS = {
    "en": {"kurnik": "Kurnik", "jack_of_diamonds": "Jack of diamonds"},
    "pl": {"kurnik": "Kurnik", "jack_of_diamonds": "Walet karo"},
    "bg": {"kurnik": "Курник", "jack_of_diamonds": "Вале каро"},
    "de": {"kurnik": "Kurnik", "jack_of_diamonds": "Karo-Bauer"},
}


def visible_text(html: str) -> str:
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_it_has_a_label_for_every_variant_of_every_game():
    missing = [(g, v) for g in GAME_NAMES for v in get_rules(g).variants if v not in VARIANT_LABELS]
    assert missing == []


def test_it_shows_an_unknown_variant_as_it_is():
    assert variant_label("house_rules") == "house_rules" and variant_label("") == ""


@pytest.mark.django_db
@pytest.mark.parametrize("lang", ["en", "pl", "bg", "de"])
def test_it_shows_translated_variants_on_the_profile_and_in_the_lobby(client, make_user, lang):
    from games import services
    ala = make_user("ala")
    services.create_table(ala, "sixtysix", "kurnik")
    services.create_table(ala, "hearts", "jack_of_diamonds")
    client.cookies["django_language"] = lang
    profile = visible_text(client.get(reverse("profile", args=["ala"])).content.decode())
    lobby = visible_text(client.get(reverse("lobby", args=["hearts"])).content.decode())
    for code, label in LABELS[lang].items():
        assert label in profile      # the page shows it beside the game (no parentheses since the redesign)
        assert code not in profile
    assert LABELS[lang]["jack_of_diamonds"] in lobby and "jack_of_diamonds" not in lobby


def test_it_offers_the_labels_in_the_create_table_form():
    from games.forms import CreateTableForm
    with translation.override("pl"):
        form = CreateTableForm(rules=get_rules("hearts"))
        assert [(v, str(label)) for v, label in form.fields["variant"].choices] == \
            [("standard", "Standardowy"), ("jack_of_diamonds", "Walet karo")]


# --- the games themselves: the engine's words, translated here ---------------------------------------
def test_it_names_each_game_in_the_readers_language_from_the_engines_words():
    from games.labels import game_label, site_games

    with translation.override("pl"):
        assert game_label("hearts") == "Kierki"
        assert [g["name"] for g in site_games()] == list(GAME_NAMES)
    assert game_label("sixtysix") == get_rules("sixtysix").title
    assert game_label("poker") == "poker" and game_label(None) == ""


def test_the_choices_of_a_game_field_are_the_engines_games():
    from games.models import GAME_CHOICES

    assert [(g, str(label)) for g, label in GAME_CHOICES] == [(g, get_rules(g).title) for g in GAME_NAMES]


@pytest.mark.django_db
def test_the_menu_links_every_game_of_the_engine(client):
    html = client.get(reverse("home")).content.decode()
    menu = html[html.index('class="games-nav"'):html.index("</nav>")]
    for game in GAME_NAMES:
        assert f'href="{reverse("lobby", args=[game])}">{get_rules(game).title}</a>' in menu


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_the_table_clients_dictionary_has_each_games_goal_from_the_engine(lang):
    import json

    from django.template.loader import render_to_string

    from games.labels import game_goal

    with translation.override(lang):
        html = render_to_string("lobby/_table_i18n.html")
        goals = {g: game_goal(g) for g in GAME_NAMES}
    words = json.loads(re.search(r'type="application/json">(.*)</script>', html, re.S).group(1))
    for game in GAME_NAMES:
        assert words[f"goal_{game}"] == goals[game] and "{n}" in goals[game]
    if lang == "pl":
        assert words["goal_spades"] == "Pierwsza drużyna do {n}"
