"""The site in German, chosen by the browser's own language (Austrian on a desktop, Swiss on a
tablet, German on a phone): the home page, the Sixty-six rules and a Sixty-six table, without
sideways scrolling and with no button cut short by the longer German words. Screenshots of each."""
import pytest

from lobby.rules_views import title
from tests.browser.test_deal_results import sixtysix_on_lead
from tests.browser.test_tables import register, wait_my_turn

pytestmark = pytest.mark.browser

SCREENS = {"desktop": ("de-AT", 1280, 860), "tablet": ("de-CH", 1024, 768), "phone": ("de-DE", 390, 844)}


def sideways_overflow(page):
    """How many pixels the page is wider than the window (0: no sideways scrolling)."""
    return page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")


def clipped_controls(page, selector):
    """The visible controls under ``selector`` whose text is wider than the control itself."""
    return page.evaluate("""(sel) => [...document.querySelectorAll(sel)]
        .filter(el => el.offsetParent !== null && el.scrollWidth > el.clientWidth + 1)
        .map(el => el.textContent.trim())""", selector)


@pytest.mark.parametrize("kind", list(SCREENS))
def test_a_german_browser_reads_the_site_in_german(server, new_page, artifacts, kind):
    locale, width, height = SCREENS[kind]
    page = new_page(width, height, locale=locale)
    me = register(page, server, prefix="de")

    page.goto(f"{server.url}/")
    assert page.evaluate("document.documentElement.lang") == "de"
    assert "Wähle ein Spiel" in page.locator("main").inner_text()
    assert page.locator("select[name=language] option:checked").inner_text() == "Deutsch"
    assert sideways_overflow(page) <= 0
    assert clipped_controls(page, "main button, main a.button") == []
    page.screenshot(path=str(artifacts / f"home-de-{kind}.png"), full_page=True)

    page.goto(f"{server.url}/rules/sixtysix/")
    assert page.locator("h1").inner_text() == title("sixtysix", "de")
    assert page.locator("#close").inner_text() == "Zudrehen"
    assert sideways_overflow(page) <= 0
    page.screenshot(path=str(artifacts / f"rules-de-{kind}.png"))

    table_id = sixtysix_on_lead(server, me, ["KH QH 9H KS QD AC".split(), "TH 9D QC JC TC AH".split()])
    page.goto(f"{server.url}/table/{table_id}/")
    wait_my_turn(page)
    side = page.locator(".side").text_content()
    assert "Letzter Stich" in side and "Chat" in side
    assert page.locator("[data-action=close]").inner_text() == "Zudrehen"
    page.click("#hand [data-card='QH']")             # a marriage: the longest German choices
    page.locator("[data-action=marriage]").wait_for()
    assert page.locator("[data-action=marriage]").inner_text() == "20 ansagen"
    assert sideways_overflow(page) <= 0
    assert clipped_controls(page, "button") == []
    page.screenshot(path=str(artifacts / f"table-de-{kind}.png"))
    assert not page.js_errors, page.js_errors
