"""Accessibility, checked by axe-core (the npm package the project installs: package.json,
`make test` runs `npm ci`) where a player plays: no violation of impact serious or critical in the
lobby and at a table, on a desktop and on a phone. Every other page (home, rules, profiles,
replays, tournaments, forms) is checked at both widths by test_pages.py."""
import re

import pytest

from tests.embedded import ROOT
from tests.services import require
from .test_tables import register, wait_my_turn, wait_playing

pytestmark = pytest.mark.browser

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
VIEWPORTS = {"desktop": (1280, 860), "phone": (390, 844)}
BLOCKING = {"serious", "critical"}


@pytest.fixture(scope="module")
def axe_source():
    require(AXE.exists(), "axe-core is not installed (npm ci)")
    return AXE


def sit_at_a_table_against_a_bot(page, server):
    """Create a Sixty-six table against a bot from the lobby and wait until it is our turn. Every
    seat is taken, so the match starts by itself: a click on the Start button that the first
    snapshot may still show would race that start (and lose once the button is gone)."""
    page.goto(f"{server.url}/play/sixtysix/")
    page.select_option("select[name=seat_1]", "basic")
    page.click("#create-table")
    page.wait_for_url(re.compile(r"/table/\d+/"))
    wait_playing(page)
    wait_my_turn(page)


def describe(violations) -> str:
    lines = []
    for v in violations:
        targets = [" ".join(map(str, n["target"])) for n in v["nodes"][:3]]
        lines.append(f"{v['impact']}: {v['id']}: {v['help']} ({len(v['nodes'])} nodes) e.g. {targets}"
                     f"\n    {v['nodes'][0].get('failureSummary', '').replace(chr(10), ' ')}")
    return "\n".join(lines)


def assert_accessible(page, axe_source, what):
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        # Evaluated, not added as a <script>: the Content-Security-Policy refuses inline scripts.
        page.evaluate(axe_source.read_text())
    result = page.evaluate("() => axe.run(document, {resultTypes: ['violations']})")
    bad = [v for v in result["violations"] if v["impact"] in BLOCKING]
    assert not bad, f"{what}: axe found serious or critical violations:\n{describe(bad)}"
    assert page.js_errors == []


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_home_and_lobby_are_accessible(server, new_page, axe_source, viewport):
    page = new_page(*VIEWPORTS[viewport])
    page.goto(server.url + "/play/sixtysix/")
    page.locator("#lobby-rows tr").first.wait_for()
    assert_accessible(page, axe_source, f"lobby ({viewport}, visitor)")

    register(page, server, prefix="ax")
    assert_accessible(page, axe_source, f"home ({viewport}, signed in)")
    page.goto(server.url + "/play/sixtysix/")
    page.locator("#seat-fields select").first.wait_for()
    assert_accessible(page, axe_source, f"lobby ({viewport}, signed in)")


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_a_table_in_play_is_accessible(server, new_page, axe_source, viewport):
    page = new_page(*VIEWPORTS[viewport])
    register(page, server, prefix="ax")
    sit_at_a_table_against_a_bot(page, server)

    visitor = new_page(*VIEWPORTS[viewport])            # a visitor watching (no hand, no chat box)
    visitor.goto(page.url)
    visitor.wait_for_function("() => window.tableClient && tableClient.state.view")
    assert_accessible(visitor, axe_source, f"table watched by a visitor ({viewport})")
    visitor.goto(f"{server.url}/play/sixtysix/")        # the live list, with this table in it
    visitor.locator("#lobby-rows tr[data-table] .seat-chip").first.wait_for()
    assert_accessible(visitor, axe_source, f"lobby with tables ({viewport})")

    assert_accessible(page, axe_source, f"table in play, our turn ({viewport})")


def test_the_first_tab_stop_skips_to_the_content(server, new_page):
    page = new_page()
    page.goto(server.url + "/tournaments/")
    skip = page.locator("a.skip-link")
    assert not skip.is_visible() or skip.bounding_box()["y"] < 0       # out of sight until focused
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.classList.contains('skip-link')")
    assert skip.bounding_box()["y"] >= 0
    page.keyboard.press("Enter")
    assert page.evaluate("() => document.activeElement.id") == "content"
    page.keyboard.press("Tab")                                          # on into the page, past the header
    assert page.evaluate("() => !!document.activeElement.closest('main')")
