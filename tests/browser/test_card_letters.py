"""Cards carry the reader's letters (games/card_letters.py): a German table shows the jack as B
and the queen as D, a Polish one W and D, a Bulgarian one В, Д and the king П; the codes the
client sends and the records keep stay "JH", "QS"."""
import pytest

from tests.browser.test_deal_results import open_table, sixtysix_on_lead
from tests.browser.test_tables import register

pytestmark = pytest.mark.browser

HANDS = ["JH QH KS QD AC TC".split(), "KH 9H TH 9D QC JC".split()]
LETTERS = {"de-DE": {"JH": "B", "QH": "D", "KS": "K", "AC": "A", "TC": "10"},
           "pl-PL": {"JH": "W", "QH": "D", "KS": "K", "AC": "A", "TC": "10"},
           "bg-BG": {"JH": "В", "QH": "Д", "KS": "П", "AC": "А", "TC": "10"},
           "en-GB": {"JH": "J", "QH": "Q", "KS": "K", "AC": "A", "TC": "10"}}


@pytest.mark.parametrize("locale", list(LETTERS))
def test_the_table_letters_the_cards_in_the_readers_language(server, new_page, artifacts, locale):
    page = new_page(locale=locale)
    me = register(page, server, prefix="cl")
    open_table(page, server, sixtysix_on_lead(server, me, HANDS))
    for code, letter in LETTERS[locale].items():
        card = page.locator(f"#hand [data-card='{code}']")
        assert card.locator(".rank").inner_text() == letter
        assert card.get_attribute("aria-label").startswith(letter)
    page.click("#hand [data-card='JH']")                       # the code goes on the wire as it is
    page.locator("#trick-area [data-card='JH'], #last-trick [data-card='JH']").first.wait_for()
    page.screenshot(path=str(artifacts / f"card-letters-{locale}.png"))
    assert not page.js_errors, page.js_errors
