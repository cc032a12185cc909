"""Mute and report at a live table: two players chat, one mutes the other from the chat's name
menu (by keyboard), the other's next line never shows for him, then he reports him from the seat
box's menu."""
import json
import re

import pytest

from tests.browser.test_tables import register, wait_playing

pytestmark = pytest.mark.browser


def active(page, attribute):
    return page.evaluate(f"() => document.activeElement && document.activeElement.getAttribute('{attribute}')")


def test_a_player_mutes_another_from_the_chat_then_reports_him(server, new_page, artifacts):
    ala = new_page()
    ala_name = register(ala, server, "mu")
    ala.goto(f"{server.url}/play/sixtysix/")
    ala.select_option("select[name=seat_1]", "")          # an open seat, for bob
    ala.click("#create-table")
    ala.wait_for_url(re.compile(r"/table/\d+/"))
    table_id = int(re.search(r"/table/(\d+)/", ala.url).group(1))
    bob = new_page()
    bob_name = register(bob, server, "mb")
    bob.goto(f"{server.url}/table/{table_id}/?sit=1")     # he takes the seat: the match starts
    wait_playing(bob)
    assert bob.evaluate("window.tableClient.state.you") == 1
    wait_playing(ala)

    bob.fill("#chat-form input", "hello there")
    bob.press("#chat-form input", "Enter")
    ala.locator("#chat-log .chat-line", has_text="hello there").wait_for()
    ala.fill("#chat-form input", "hi bob")
    ala.press("#chat-form input", "Enter")
    bob.locator("#chat-log .chat-line", has_text="hi bob").wait_for()
    # His own name is no button; bob's is.
    assert ala.locator("#chat-log .player-name-btn", has_text=ala_name).count() == 0

    # The menu by keyboard: Enter opens it on its first item, arrows move, Escape closes it.
    name = ala.locator("#chat-log .player-name-btn", has_text=bob_name).first
    assert name.get_attribute("aria-haspopup") == "menu" and name.get_attribute("aria-expanded") == "false"
    name.focus()
    ala.keyboard.press("Enter")
    menu = ala.locator("#player-menu [role=menu]")
    menu.wait_for()
    assert name.get_attribute("aria-expanded") == "true" and active(ala, "data-pm") == "mute"
    ala.keyboard.press("ArrowDown")
    assert active(ala, "data-pm") == "report"
    ala.keyboard.press("ArrowUp")
    ala.keyboard.press("Escape")
    assert ala.locator("#player-menu").is_hidden() and active(ala, "data-player") == bob_name
    ala.keyboard.press("Enter")
    menu.wait_for()
    ala.keyboard.press("Enter")                 # "Mute"
    ala.locator(".toast", has_text="is muted").wait_for()
    # His lines already shown go at once; bob still sees everything.
    ala.locator("#chat-log .chat-line", has_text="hello there").wait_for(state="detached")
    assert ala.locator("#chat-log .chat-line", has_text="hi bob").count() == 1

    bob.fill("#chat-form input", "can you hear me")
    bob.press("#chat-form input", "Enter")
    bob.locator("#chat-log .chat-line", has_text="can you hear me").wait_for()
    ala.fill("#chat-form input", "quiet now")         # a line after his: when it shows, his never will
    ala.press("#chat-form input", "Enter")
    ala.locator("#chat-log .chat-line", has_text="quiet now").wait_for()
    bob.locator("#chat-log .chat-line", has_text="quiet now").wait_for()
    assert ala.locator("#chat-log .chat-line", has_text="can you hear me").count() == 0

    # Report him from his seat box: the menu now offers Unmute.
    ala.locator(".seat-box .player-name-btn", has_text=bob_name).click()
    assert ala.locator("#player-menu [data-pm=unmute]").is_visible()
    ala.click("#player-menu [data-pm=report]")
    ala.select_option("#player-menu select[name=reason]", "abuse")
    ala.fill("#player-menu textarea[name=text]", "Insults in the chat.")
    ala.screenshot(path=str(artifacts / "mute-report.png"))
    ala.click("#player-menu [data-pm=send-report]")
    ala.locator(".toast", has_text="Report sent").wait_for()
    assert ala.locator("#player-menu").is_hidden()

    stored = json.loads(server.shell(
        "import json; from moderation.models import Report; r = Report.objects.get(table_id=%d); "
        "print(json.dumps([r.reporter.username, r.reported.username, r.reason, r.text, "
        "[c['text'] for c in r.chat], len(r.records)]))" % table_id))
    assert stored == [ala_name, bob_name, "abuse", "Insults in the chat.",
                      ["hello there", "hi bob", "can you hear me", "quiet now"], 1]
    assert not ala.js_errors and not bob.js_errors, (ala.js_errors, bob.js_errors)
