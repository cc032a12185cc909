"""The reader's card letters (games/card_letters.py) on the server's pages and in refusals."""
import pytest
from django.utils import translation

from games import reasons
from games.card_letters import card_text
from games.engine.refusals import IllegalAction
from games.templatetags.game_labels import card


@pytest.mark.parametrize("lang,expected", [
    ("en", ["J♥", "Q♠", "K♦", "A♣", "10♥", "9♠"]),
    ("de", ["B♥", "D♠", "K♦", "A♣", "10♥", "9♠"]),
    ("pl", ["W♥", "D♠", "K♦", "A♣", "10♥", "9♠"]),
    ("bg", ["В♥", "Д♠", "П♦", "А♣", "10♥", "9♠"]),
])
def test_each_language_letters_the_court_cards_its_own_way(lang, expected):
    with translation.override(lang):
        assert [card_text(c) for c in ("JH", "QS", "KD", "AC", "TH", "9S")] == expected
        drawn = card("QS")
        assert f'<span class="rank">{expected[1][0]}</span>' in drawn and 'data-card' not in drawn


def test_a_refusal_names_the_card_with_the_readers_letters_and_keeps_the_code():
    refusal = IllegalAction("not_held", card="QS")
    assert refusal.params == {"card": "QS"}
    with translation.override("de"):
        assert "D♠" in reasons.translate(refusal) and "QS" not in reasons.translate(refusal)
    with translation.override("en"):
        assert "Q♠" in reasons.translate(refusal)


@pytest.mark.django_db
def test_the_pages_carry_the_letters_for_the_cards_script(client):
    html = client.get("/", HTTP_ACCEPT_LANGUAGE="pl").content.decode()
    assert '<meta name="card-letters" content="W D K A">' in html
