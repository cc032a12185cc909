"""The rules pages (/rules/<game>/): one per game, in the reader's language, with its variants,
and the short "how to play" summaries the home page includes."""
import re

import pytest
from django.template.loader import get_template
from django.urls import reverse

from lobby import rules_views
from games.engine.core import GAME_NAMES, get_rules

LANGS = ("en", "pl", "bg", "de")

# Facts each page must state, in its own language (besides its title).
FACTS = {
    "sixtysix": {
        "en": ["66", "K♣", "A♥ 9♥ K♠ Q♦ A♣ 10♣", "33", "marriage", "trump", "Closing the stock", "120",
               "14 + 20 + 40 = 74", "2 game points", "11 game points"],
        "pl": ["66", "K♣", "atut", "meldunek", "lew", "zamknięcie", "Zamknięcie stosu", "33",
               "14 + 20 + 40 = 74", "66 po meldunku", "punkty za rozdanie"],
        "bg": ["66", "П♣", "коз", "талон", "затвор", "двайсет", "четиресет", "взятка", "33",
               "14 + 20 + 40 = 74", "игрови точки"],
        "de": ["66", "K♣", "A♥ 9♥ K♠ D♦ A♣ 10♣", "33", "Trumpf", "Atout", "Talon", "Zudrehen", "zugedreht",
               "Bauer", "20er", "40er", "Stich", "Farbe bedienen", "Augen", "120", "Bummerl",
               "14 + 20 + 40 = 74", "2 Spielpunkte", "11 Spielpunkte"],
    },
    "hearts": {
        "en": ["2♣", "Q♠", "J♦", "−10", "100", "shot the moon", "26", "broken", "across"],
        "pl": ["2♣", "D♠", "W♦", "−10", "100", "ustrzelił księżyc", "26", "złamane", "naprzeciwko"],
        "bg": ["2♣", "Д♠", "В♦", "−10", "100", "ударил луната", "26", "счупени", "отсреща"],
        "de": ["2♣", "D♠", "B♦", "−10", "100", "den Mond geschossen", "26", "gebrochen", "gegenüber",
               "Pik-Dame", "Karo-Bauer", "Farbe bedienen"],
    },
    "spades": {
        "en": ["500", "−200", "blind nil", "200 points or more", "bag", "starting with the dealer",
               "dealer leads", "7 × 10 + 2 = 72"],
        "pl": ["500", "−200", "ślepe zero", "co najmniej 200 punktów", "nadróbk",
               "zaczynając od rozdającego", "wychodzi rozdający", "7 × 10 + 2 = 72"],
        "bg": ["500", "−200", "сляпо нула", "200 или повече точки", "излишн",
               "като се започва от раздаващия", "открива раздаващият", "7 × 10 + 2 = 72"],
        "de": ["500", "−200", "Blind Null", "200 Punkte oder mehr", "Überstich",
               "beginnend beim Geber", "Geber spielt aus", "7 × 10 + 2 = 72"],
    },
}


def get_page(client, game, lang):
    client.cookies["django_language"] = lang
    return client.get(reverse("rules", args=[game]))


def page_html(client, game, lang):
    """The page's HTML with its line breaks and indentation folded into single spaces."""
    return re.sub(r"\s+", " ", get_page(client, game, lang).content.decode())


def headings(html):
    return [int(level) for level in re.findall(r"<h([1-6])\b", html)]


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAME_NAMES)
def test_it_shows_each_game_in_each_language(client, game, lang):
    r = get_page(client, game, lang)
    assert r.status_code == 200
    html = re.sub(r"\s+", " ", r.content.decode())
    title = rules_views.title(game, lang)
    assert f"<title>{title}" in html and f"<h1>{title}</h1>" in html
    assert f'<html lang="{lang}">' in html
    missing = [fact for fact in FACTS[game][lang] if fact not in html]
    assert missing == []
    for other in LANGS:
        if other != lang:
            assert rules_views.title(game, other) not in html


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAME_NAMES)
def test_it_has_a_section_for_every_variant_of_the_game(client, game, lang):
    html = page_html(client, game, lang)
    for variant in get_rules(game).variants:
        assert f'id="variant-{variant}"' in html and f'href="#variant-{variant}"' in html


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAME_NAMES)
def test_it_has_one_h1_ordered_headings_and_a_table_of_contents_that_leads_somewhere(client, game, lang):
    html = page_html(client, game, lang)
    levels = headings(html)
    assert levels.count(1) == 1 and levels[0] == 1
    assert all(b <= a + 1 for a, b in zip(levels, levels[1:])), levels
    assert 'class="rules-page"' in html and 'class="rules-toc"' in html
    ids = set(re.findall(r'\bid="([^"]+)"', html))
    targets = re.findall(r'href="#([^"]+)"', html)
    assert targets and set(targets) <= ids
    h2_ids = re.findall(r'<h2 id="([^"]+)"', html)
    toc = html.split('class="rules-toc"', 1)[1].split("</nav>", 1)[0]
    assert h2_ids and all(f'href="#{i}"' in toc for i in h2_ids)
    assert "<th" in html and "{%" not in html and "{{" not in html


@pytest.mark.django_db
def test_it_states_the_sites_decided_rules(client):
    sixtysix = page_html(client, "sixtysix", "en")
    assert "once you have won at least one trick in this deal" in sixtysix
    assert "judged at the moment of the claim, before the trick is completed" in sixtysix
    hearts = page_html(client, "hearts", "en")
    assert "Omnibus" in hearts and "scores <strong>−10</strong>" in hearts
    spades = page_html(client, "spades", "en")
    assert "his hand is shown to him only after he declines" in spades
    assert "skips his turn in the bidding" in spades
    assert "whether or not the partner's contract is made" in spades


@pytest.mark.django_db
def test_it_reads_english_without_a_language_cookie(client):
    r = client.get(reverse("rules", args=["spades"]))
    assert r.status_code == 200 and rules_views.title("spades", "en") in r.content.decode()


def test_it_reads_an_unknown_language_as_english():
    assert rules_views.reader_language("fr") == "en"
    assert rules_views.reader_language(None) == "en"
    assert rules_views.reader_language("pl") == "pl"
    assert rules_views.reader_language("bg-BG") == "bg"
    assert rules_views.reader_language("de-AT") == "de"


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/rules/poker/", "/rules/SPADES/", "/rules/hearts.en/"])
def test_it_answers_404_for_an_unknown_game(client, path):
    assert client.get(path).status_code == 404


def test_it_has_a_title_for_every_game_and_language():
    assert set(rules_views.TITLE_FORMS) == set(LANGS)
    for game in GAME_NAMES:
        titles = {rules_views.title(game, lang) for lang in LANGS}
        assert len(titles) == len(LANGS) and all(title.strip() for title in titles)
    assert rules_views.title("sixtysix", "pl") == "Sześćdziesiąt sześć: zasady gry"


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAME_NAMES)
def test_it_links_the_lobby_to_the_rules_page(client, game, lang):
    client.cookies["django_language"] = lang
    html = client.get(reverse("lobby", args=[game])).content.decode()
    label = rules_views.rules_link_label(lang)
    assert f'<a href="{reverse("rules", args=[game])}">{label}</a>' in html


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGS)
def test_it_links_the_rules_page_back_to_the_lobby(client, lang):
    html = page_html(client, "hearts", lang)
    assert f'<a href="{reverse("lobby", args=["hearts"])}">{rules_views.PLAY_LINK_LABELS[lang]}</a>' in html


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAME_NAMES)
def test_it_has_a_short_summary_for_each_game_and_language(game, lang):
    text = get_template(f"rules/{game}.summary.{lang}.html").render({}).strip()
    assert 80 < len(text) < 600
    assert set(re.findall(r"</?([a-z0-9]+)", text)) <= {"strong"}
    assert 2 <= len(re.findall(r"[.!?](?:\s|$)", text)) <= 4
    if lang == "bg":
        assert re.search("[а-я]", text)
    if lang == "pl":
        assert re.search("[ąęłńóśźż]", text)
    if lang == "de":
        assert re.search("[äöüß]", text)
