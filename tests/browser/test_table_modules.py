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


# The server's hint answer is another helper's work: here the page is handed the messages the
# protocol describes, through its own socket handler, as if the server had sent them.
DELIVER = "msg => window.tableClient.state.ws.onmessage({data: JSON.stringify(msg)})"


def test_the_hint_stays_away_until_the_server_allows_it_then_shows_its_answer(server, new_page, artifacts):
    page = new_page()
    register(page, server)
    create_table(page, server, "sixtysix", ["basic"])
    wait_my_turn(page)
    assert page.locator("[data-action=hint]").count() == 0           # no hints_allowed: inactive
    snapshot = page.evaluate("""() => { const s = window.tableClient.state;
      return {type: "snapshot", version: s.version, table: Object.assign({}, s.table, {hints_allowed: true}),
              view: s.view, you: s.you, chat: s.chat, me: null, muted: []}; }""")
    page.evaluate(DELIVER, snapshot)
    page.locator("[data-action=hint]").wait_for()
    card = page.evaluate("window.tableClient.state.view.legal.find(a => a.type === 'play').card")
    page.evaluate(DELIVER, {"type": "hint", "version": snapshot["version"],
                            "action": {"type": "play", "card": card}, "margins": [1.25]})
    answer = page.locator(".hint-answer")
    answer.wait_for()
    assert "1.3" in answer.inner_text()
    assert page.locator(f"#hand button.card.hinted[data-card='{card}']").count() == 1
    page.wait_for_function("() => document.getAnimations().length === 0")     # the deal's cards have landed
    page.screenshot(path=str(artifacts / "modules-hint.png"))
    assert not page.js_errors, page.js_errors
