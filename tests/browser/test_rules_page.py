"""The rules pages as a player reads them: reached from the lobby, in his language, a contents list
that jumps to each part, readable on a phone without sideways scrolling. Screenshots of both."""
import pytest

pytestmark = pytest.mark.browser


def test_a_player_reads_the_rules_from_the_lobby_on_a_desktop(server, new_page, artifacts):
    page = new_page(1280, 860)
    page.goto(f"{server.url}/play/sixtysix/")
    page.locator(".lobby-rules a").click()
    page.wait_for_url(f"{server.url}/rules/sixtysix/")
    assert page.locator("h1").inner_text() == "Sixty-six: the rules"
    page.locator(".rules-toc a[href='#variant-santase']").click()
    assert page.evaluate("location.hash") == "#variant-santase"
    assert page.locator("#variant-santase").is_visible()
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(artifacts / "rules-desktop.png"))
    assert not page.js_errors, page.js_errors


def test_a_polish_player_reads_the_hearts_rules_on_a_phone(server, new_page, artifacts):
    page = new_page(390, 844)
    page.context.add_cookies([{"name": "django_language", "value": "pl", "url": server.url}])
    page.goto(f"{server.url}/rules/hearts/")
    assert page.locator("h1").inner_text() == "Kierki: zasady gry"
    assert page.evaluate("document.documentElement.lang") == "pl"
    width = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1]
    page.screenshot(path=str(artifacts / "rules-phone-pl.png"))
    assert not page.js_errors, page.js_errors
