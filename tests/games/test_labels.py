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
