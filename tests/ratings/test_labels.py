"""The ratings pages in every language: variants by their labels, and no two columns of one table
under the same heading (Bulgarian and Polish once said "Result" for both "Result" and "Score")."""
import re

import pytest
from django.urls import reverse

from ratings import services

from .factories import finished_match

pytestmark = pytest.mark.django_db

KURNIK = {"en": "Kurnik", "pl": "Kurnik", "bg": "Курник", "de": "Kurnik"}


def visible_text(html: str) -> str:
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def headings(html: str) -> list[list[str]]:
    """The column headings of each table on the page."""
    return [[visible_text(th).strip() for th in re.findall(r"<th\b[^>]*>(.*?)</th>", head, re.S)]
            for head in re.findall(r"<thead>(.*?)</thead>", html, re.S)]


@pytest.fixture
def match(make_user, make_bot):
    ala = make_user("ala")
    m = finished_match(ala, "sixtysix", [ala, make_bot("b1")], seed=1, ranks=[1, 2])
    services.rate_match(m.pk)
    assert m.table.variant == "kurnik"
    return m


@pytest.mark.parametrize("lang", ["en", "pl", "bg", "de"])
def test_it_shows_the_variant_label_on_every_ratings_page(client, match, lang):
    client.cookies["django_language"] = lang
    pages = [reverse("profile", args=["ala"]), reverse("history", args=["ala"]),
             reverse("leaderboard", args=["sixtysix", "kurnik"]), reverse("match", args=[match.pk])]
    for url in pages:
        text = visible_text(client.get(url).content.decode())
        assert KURNIK[lang] in text and "kurnik" not in text, url


@pytest.mark.parametrize("lang", ["en", "pl", "bg", "de"])
def test_it_heads_each_column_differently(client, match, lang):
    client.cookies["django_language"] = lang
    for url in (reverse("profile", args=["ala"]), reverse("history", args=["ala"]),
                reverse("match", args=[match.pk])):
        for row in headings(client.get(url).content.decode()):
            named = [h for h in row if h and h != "#"]
            assert len(named) == len(set(named)), (url, row)
