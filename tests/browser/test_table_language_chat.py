"""The table page in Polish, Bulgarian and German (server strings, client strings, bot names, a refusal
reason from the engine), and the table chat reaching a spectator in another browser context."""
import json
import re

import pytest

from tests.browser.test_tables import create_table, register, wait_my_turn

pytestmark = pytest.mark.browser

PAGES = {
    "pl": {"sidebar": ["Wynik", "Ostatnia lewa", "Czat"], "bot": "Bot {n} (losowy)",
           "refusal": "Licytacja jeszcze trwa: najpierw zalicytuj."},
    "bg": {"sidebar": ["Резултат", "Последна взятка", "Чат"], "bot": "Бот {n} (случаен)",
           "refusal": "Наддаването още не е свършило: първо наддайте."},
    "de": {"sidebar": ["Stand", "Letzter Stich", "Chat"], "bot": "Bot {n} (zufällig)",
           "refusal": "Das Bieten läuft noch: erst bieten, dann spielen."},
}


def switch_language(page, code):
    with page.expect_navigation():
        page.select_option("select[name=language]", code)
    wait_my_turn(page)
    assert page.get_attribute("html", "lang") == code


def test_it_shows_the_table_in_polish_bulgarian_and_german(server, new_page, artifacts):
    page = new_page()
    me = register(page, server)
    table_id = server.scenario({"owner": me, "game": "spades", "variant": "standard",
                                "seats": ["me", "random", "random", "random"], "dealer": 0})
    page.goto(f"{server.url}/table/{table_id}/")
    wait_my_turn(page)
    assert page.locator(".seat-name").all_inner_texts()[1:] == [f"Bot {n} (random)" for n in (2, 3, 4)]
    for code, expect in PAGES.items():
        switch_language(page, code)
        side = page.locator(".side").text_content()
        for word in expect["sidebar"]:
            assert word in side, (code, word)
        names = page.locator(".seat-name").all_inner_texts()
        assert names[0] == me
        assert names[1:] == [expect["bot"].format(n=n) for n in (2, 3, 4)]
        # a play during the bidding: the engine's reason comes back in the socket's language
        page.evaluate("""() => { const s = window.tableClient.state;
            s.ws.send(JSON.stringify({type: "action", version: s.version,
                                      action: {type: "play", card: s.view.hand[0]}})); }""")
        page.locator(".toast.error", has_text=expect["refusal"]).wait_for()
        page.screenshot(path=str(artifacts / f"table-{code}.png"))
    assert not page.js_errors, page.js_errors


def test_a_chat_message_reaches_a_spectator_and_back(server, new_page):
    player = new_page()
    register(player, server)
    player.goto(f"{server.url}/play/sixtysix/")
    player.select_option("select[name=seat_1]", "random")
    player.click("#create-table")
    player.wait_for_url(re.compile(r"/table/\d+/"))
    player.wait_for_function("() => window.tableClient.state.table !== null")

    watcher = new_page()
    watcher.goto(player.url)
    watcher.wait_for_function("() => window.tableClient.state.table !== null")
    assert watcher.locator("#my-role").inner_text() == "You are watching"

    player.fill("#chat-form input", "good luck, all")
    player.press("#chat-form input", "Enter")
    watcher.locator("#chat-log .chat-line", has_text="good luck, all").wait_for()
    assert player.locator("#chat-log .chat-line", has_text="good luck, all").count() == 1

    # the spectator plays as a guest (chat needs a user) and answers
    with watcher.expect_navigation():
        watcher.click("form[action*=guest] button")
    watcher.wait_for_function("() => window.tableClient.state.table !== null")
    watcher.fill("#chat-form input", "thanks!")
    watcher.press("#chat-form input", "Enter")
    player.locator("#chat-log .chat-line", has_text="thanks!").wait_for()
    assert not player.js_errors and not watcher.js_errors
