"""The table helps (docs/RULES.md, docs/PROTOCOL.md): the rules are a click away; closing the
Sixty-six stock, which cannot be undone, asks first with what a failed close costs and the safe
answer focused (a stray Enter keeps the stock open); "Play now" against bots takes the clock the
player chose, none at all included, and an untimed table shows no clock."""
import re

import pytest

from tests.browser.test_deal_results import open_table, sixtysix_on_lead
from tests.browser.test_tables import register, wait_playing

pytestmark = pytest.mark.browser


def test_closing_the_stock_asks_first_and_says_what_a_failed_close_costs(server, new_page, artifacts):
    page = new_page()
    me = register(page, server)
    table_id = sixtysix_on_lead(server, me, ["AH 9H KS QD AC TC".split(), "KH QH TH 9D QC JC".split()])
    open_table(page, server, table_id)

    rules = page.locator("a[data-action=rules]")
    assert rules.get_attribute("href") == "/rules/sixtysix/" and rules.get_attribute("target") == "_blank"

    page.click("[data-action=close]")
    box = page.locator(".close-confirm")
    box.wait_for()
    text = box.inner_text()
    assert "cannot be undone" in text and "reach 66 points" in text and "you have 0" in text
    assert "3 game points" in text                      # the opponent has taken no trick yet
    page.screenshot(path=str(artifacts / "table-close-confirm.png"))
    assert page.evaluate("document.activeElement.dataset.action") == "cancel-close"
    page.keyboard.press("Enter")                        # the stray Enter of the report
    box.wait_for(state="detached")
    assert page.evaluate("() => window.tableClient.state.view.close !== null")     # still open
    version = page.evaluate("() => window.tableClient.state.version")
    assert server.state(table_id)["status"] == "playing"

    page.click("[data-action=close]")
    page.click("[data-action=confirm-close]")
    page.wait_for_function("v => window.tableClient.state.version > v", arg=version)
    page.wait_for_function("() => window.tableClient.state.view.close === null")
    assert page.locator("[data-action=close]").count() == 0
    assert not page.js_errors, page.js_errors


def test_play_now_against_bots_may_be_untimed(server, new_page):
    page = new_page()
    register(page, server)
    page.goto(server.url + "/")
    card = page.locator("#game-sixtysix")
    clock = card.get_by_label("Clock")
    assert clock.input_value() == "300+5"
    clock.select_option(label="No clock")
    card.get_by_role("button", name=re.compile("Play now")).click()
    page.wait_for_url(re.compile(r"/table/\d+/$"))
    wait_playing(page)
    tc = page.evaluate("() => window.tableClient.state.table.time_control")
    assert tc == {"bank_seconds": 0, "increment_seconds": 0}
    page.locator("#hand .card").first.wait_for()
    assert page.locator("[data-clock-seat]").count() == 0
    deadlines = page.evaluate("() => window.tableClient.state.table.clocks.deadlines")
    assert all(d is None for d in deadlines)
    page.goto(server.url + "/")                         # remembered for the next game
    assert page.locator("#game-sixtysix").get_by_label("Clock").input_value() == "0+0"
    assert not page.js_errors, page.js_errors
