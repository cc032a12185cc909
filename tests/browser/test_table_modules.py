"""The table client as ES modules (static/js/table/): each game's table loads, asks its first
decision by the view's description and plays it, on a desktop and a phone, with no console error;
the hint button asks the server at a table against a bot, and is not offered at a table of people."""
import re

import pytest

from .test_tables import create_table, register, step, wait_my_turn, wait_playing

pytestmark = pytest.mark.browser

GAMES = [("sixtysix", ["basic"]), ("hearts", ["basic"] * 3), ("spades", ["basic"] * 3)]


def watch_console(page):
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    return errors


@pytest.mark.parametrize("width,height", [(1280, 860), (390, 844)], ids=["desktop", "phone"])
@pytest.mark.parametrize("game,bots", GAMES, ids=[g for g, _ in GAMES])
def test_it_loads_each_games_table_as_modules_with_no_console_error(server, new_page, artifacts, game, bots,
                                                                     width, height):
    page = new_page(width=width, height=height)
    console = watch_console(page)
    register(page, server)
    create_table(page, server, game, bots)
    assert page.locator("script[type=module][src*='js/table/main']").count() == 1
    wait_my_turn(page)
    decision = page.evaluate("window.tableClient.state.view.decision")
    legal_types = set(page.evaluate("window.tableClient.state.view.legal.map(a => a.type)"))
    assert set(decision["kinds"]) == legal_types                # the prompt is chosen by this
    assert page.locator("#prompt .prompt-text").inner_text().strip()
    page.screenshot(path=str(artifacts / f"modules-{game}-{width}.png"))
    version = page.evaluate("window.tableClient.state.version")
    assert step(page, game, timeout=15000)                      # the prompt's own controls answer it
    page.wait_for_function("v => window.tableClient.state.version > v", arg=version)
    assert not page.js_errors, page.js_errors
    assert not console, console


def test_a_hint_at_a_table_against_a_bot_names_a_legal_play_and_is_counted(server, new_page, artifacts):
    """The server allows hints here (unrated, against a bot): the button asks, the strong bot's
    choice comes back to this page, its card is marked, and the seat counts one hint."""
    page = new_page()
    register(page, server)
    create_table(page, server, "sixtysix", ["basic"])
    wait_my_turn(page)
    assert page.evaluate("window.tableClient.state.view.hints_allowed") is True
    page.locator("[data-action=hint]").click()
    answer = page.locator(".hint-answer")
    answer.wait_for()
    hinted = page.evaluate("JSON.parse(document.querySelector('.hint-answer').dataset.hint)")
    legal = page.evaluate("window.tableClient.state.view.legal")
    assert hinted in legal
    if hinted.get("card"):
        assert page.locator(f"#hand button.card.hinted[data-card='{hinted['card']}']").count() == 1
    page.wait_for_function("() => document.getAnimations().length === 0")     # the deal's cards have landed
    page.screenshot(path=str(artifacts / "modules-hint.png"))
    assert step(page, "sixtysix", timeout=15000)   # the next update carries the seat's count
    page.wait_for_function("() => window.tableClient.state.table.seats[window.tableClient.state.you].hints_used === 1")
    assert not page.js_errors, page.js_errors


def test_no_hint_is_offered_at_a_table_of_people(server, new_page):
    ala, bob = new_page(), new_page()
    register(ala, server)
    register(bob, server)
    ala.goto(f"{server.url}/play/sixtysix/")
    ala.select_option("select[name=seat_1]", "")            # open for a player
    ala.click("#create-table")
    ala.wait_for_url(re.compile(r"/table/\d+/"))
    table_id = int(re.search(r"/table/(\d+)/", ala.url).group(1))
    bob.goto(f"{server.url}/play/sixtysix/")
    bob.locator(f'tr[data-table="{table_id}"] [data-action=join]').click()
    bob.wait_for_url(re.compile(rf"/table/{table_id}/"))
    wait_playing(ala)
    wait_playing(bob)
    for page in (ala, bob):
        assert page.evaluate("window.tableClient.state.view.hints_allowed") is False
        assert page.locator("[data-action=hint]").count() == 0
