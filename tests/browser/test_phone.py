"""The site on a phone (390x844): the header's menu folds behind a "Menu" button (static/js/nav.js)
so the header is one line, opens and closes (Escape too), and no page scrolls sideways. On a desktop
the button is hidden and the menu shown; without JS the menu stays open."""
import pytest

from .test_accessibility import sit_at_a_table_against_a_bot
from .test_tables import register

pytestmark = pytest.mark.browser

PHONE = (390, 844)
DESKTOP = (1280, 860)
NAV_LINKS = "#site-menu nav a"


def no_sideways_scroll(page, what):
    widths = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert widths[0] <= widths[1], (what, widths)


def header_is_one_line(page):
    brand = page.locator("header.site-nav .brand").bounding_box()
    button = page.locator("header.site-nav .nav-toggle").bounding_box()
    header = page.locator("header.site-nav").bounding_box()
    # the brand and the button side by side, and nothing below them
    assert abs((brand["y"] + brand["height"] / 2) - (button["y"] + button["height"] / 2)) <= 4, (brand, button)
    assert header["height"] <= button["height"] + 20, (header, button)


def test_the_menu_folds_behind_a_button_on_a_phone(server, new_page, artifacts):
    page = new_page(*PHONE)
    register(page, server, prefix="ph")
    toggle = page.locator("header.site-nav .nav-toggle")
    assert toggle.is_visible()
    assert toggle.evaluate("b => b.tagName") == "BUTTON"
    assert toggle.get_attribute("aria-controls") == "site-menu"
    assert toggle.get_attribute("aria-expanded") == "false"
    links = page.locator(NAV_LINKS)
    assert links.count() >= 5
    assert not any(links.nth(i).is_visible() for i in range(links.count()))
    assert not page.locator("header.site-nav a.user-name").is_visible()
    header_is_one_line(page)
    no_sideways_scroll(page, "home, menu closed")

    toggle.click()
    assert toggle.get_attribute("aria-expanded") == "true"
    assert all(links.nth(i).is_visible() for i in range(links.count()))
    assert page.locator("header.site-nav a.user-name").is_visible()
    no_sideways_scroll(page, "home, menu open")
    page.screenshot(path=str(artifacts / "phone-menu-open.png"))

    # Escape folds it back and gives the focus to the button
    links.first.focus()
    page.keyboard.press("Escape")
    assert toggle.get_attribute("aria-expanded") == "false"
    assert not links.first.is_visible()
    assert page.evaluate("() => document.activeElement.classList.contains('nav-toggle')")
    # the keyboard opens it too; a link in it is clickable
    page.keyboard.press("Enter")
    assert toggle.get_attribute("aria-expanded") == "true"
    page.locator(NAV_LINKS, has_text="Tournaments").click()
    page.wait_for_url(server.url + "/tournaments/")
    assert page.locator("header.site-nav .nav-toggle").get_attribute("aria-expanded") == "false"
    assert page.js_errors == []


def test_no_page_scrolls_sideways_on_a_phone(server, new_page, artifacts):
    page = new_page(*PHONE)
    page.goto(server.url + "/")
    no_sideways_scroll(page, "home, visitor")
    register(page, server, prefix="ph")
    no_sideways_scroll(page, "home")
    sit_at_a_table_against_a_bot(page, server)
    no_sideways_scroll(page, "table")
    header_is_one_line(page)
    page.screenshot(path=str(artifacts / "phone-table.png"))
    page.goto(server.url + "/play/sixtysix/")
    page.locator("#lobby-rows tr[data-table]").first.wait_for()
    no_sideways_scroll(page, "lobby")
    page.screenshot(path=str(artifacts / "phone-lobby.png"), full_page=True)
    page.goto(server.url + "/tournaments/")
    no_sideways_scroll(page, "tournaments")
    assert page.js_errors == []


def test_the_menu_is_open_and_the_button_hidden_on_a_desktop(server, new_page):
    page = new_page(*DESKTOP)
    page.goto(server.url + "/play/sixtysix/")
    assert not page.locator("header.site-nav .nav-toggle").is_visible()
    links = page.locator(NAV_LINKS)
    assert all(links.nth(i).is_visible() for i in range(links.count()))
    links.filter(has_text="Tournaments").click()
    page.wait_for_url(server.url + "/tournaments/")
    header = page.locator("header.site-nav").bounding_box()
    assert header["height"] <= 60, header                        # still one line


def test_without_javascript_the_menu_stays_open_on_a_phone(server, browser):
    ctx = browser.new_context(viewport={"width": PHONE[0], "height": PHONE[1]}, java_script_enabled=False)
    try:
        page = ctx.new_page()
        page.goto(server.url + "/")
        assert not page.locator("header.site-nav .nav-toggle").is_visible()
        links = page.locator(NAV_LINKS)
        assert links.count() >= 5 and all(links.nth(i).is_visible() for i in range(links.count()))
        no_sideways_scroll(page, "home without JS")
    finally:
        ctx.close()
