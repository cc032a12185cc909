"""The table client as ES modules (static/js/table/): each game's table loads, asks its first
decision by the view's description and plays it, on a desktop and a phone, with no console error."""
import pytest

from .test_tables import create_table, register, step, wait_my_turn

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
    assert step(page, game)                                     # the prompt's own controls answer it
    page.wait_for_function("v => window.tableClient.state.version > v", arg=version)
    assert not page.js_errors, page.js_errors
    assert not console, console
