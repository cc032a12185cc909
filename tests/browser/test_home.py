"""The home page as a new visitor meets it: pick a game, "Play now", and play. Checked on a desktop
and on a phone (no sideways scrolling, axe-core without serious violations); screenshots of both."""
import re
import uuid

import pytest

from tests.embedded import ROOT
from tests.services import require
from .test_tables import wait_playing

pytestmark = pytest.mark.browser

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"

# A table waiting for a player, so that the page's list of open tables shows one to join.
OPEN_TABLE = """
from accounts.models import User
from games import services
u = User.objects.create_user(username={name!r}, password="Card-room-test-9")
t = services.create_table(u, "sixtysix", seats=["me", ""])
print(t.pk)
"""


def no_sideways_scroll(page):
    width = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], f"the page is {width[0]} px wide in a {width[1]} px window"


def axe_clean(page):
    require(AXE.exists(), "axe-core is not installed (npm ci)")
    page.evaluate(AXE.read_text())      # not add_script_tag: the Content-Security-Policy refuses inline scripts
    result = page.evaluate("() => axe.run(document, {resultTypes: ['violations']})")
    bad = [f"{v['impact']}: {v['id']}: {v['help']} e.g. {v['nodes'][0]['target']}"
           for v in result["violations"] if v["impact"] in ("serious", "critical")]
    assert not bad, "\n".join(bad)


def test_a_new_visitor_plays_sixty_six_against_the_basic_bot_in_one_click(server, new_page, artifacts):
    table_id = int(server.shell(OPEN_TABLE.format(name=f"h{uuid.uuid4().hex[:8]}")))

    phone = new_page(390, 844)
    phone.goto(server.url + "/")
    phone.locator(f'.open-table[data-table="{table_id}"]').wait_for()
    no_sideways_scroll(phone)
    phone.screenshot(path=str(artifacts / "home-phone.png"), full_page=True)
    axe_clean(phone)
    # A visitor joins the open table in one click: he becomes a guest, sits, and the match starts.
    phone.locator(f'.open-table[data-table="{table_id}"] [data-action=join]').click()
    phone.wait_for_url(re.compile(rf"/table/{table_id}/"))
    wait_playing(phone)
    assert phone.evaluate("() => window.tableClient.state.you") == 1

    page = new_page(1280, 860)
    page.goto(server.url + "/")
    card = page.locator("#game-sixtysix")
    assert card.locator("h3").inner_text() == "Sixty-six"
    assert card.get_by_label("Bot level").input_value() == "basic"          # the default level
    no_sideways_scroll(page)
    page.screenshot(path=str(artifacts / "home-desktop.png"), full_page=True)
    axe_clean(page)
    assert page.locator(f'.open-table[data-table="{table_id}"]').count() == 0     # no longer open

    # Under the choices, what the chosen level means in play (the ladder's record), kept to the choice.
    level, note = card.get_by_label("Bot level"), card.locator(".level-record")
    for name in ("strong", "basic"):
        level.select_option(name)
        expected = level.locator(f'option[value="{name}"]').get_attribute("data-note")
        assert expected.startswith("Wins about ")
        page.wait_for_function("([el, text]) => el.textContent === text", arg=[note.element_handle(), expected])
    card.get_by_role("button", name=re.compile("Play now")).click()
    page.wait_for_url(re.compile(r"/table/\d+/$"))
    wait_playing(page)
    # A started match: his hand, and either his turn or the bot's move on its way.
    page.locator("#hand .card").first.wait_for()
    state = page.evaluate("() => { const s = window.tableClient.state;"
                          " return {you: s.you, hand: s.view.hand.length, to_act: s.view.to_act,"
                          " status: s.table.status, seats: s.table.seats.map(x => x.name)}; }")
    assert state["you"] == 0 and state["hand"] == 6 and state["status"] in ("playing", "between_deals")
    assert state["seats"][1] == "bot:basic" and state["seats"][0].startswith("guest-")
    page.wait_for_function(
        "() => { const v = window.tableClient.state.view;"
        " return v.to_act.indexOf(0) >= 0 || (v.trick && v.trick.length > 0) || v.last_trick; }")
    page.screenshot(path=str(artifacts / "home-play-now-table.png"))
    # He came as a guest: the page says so.
    assert "guest" in page.locator(".account-nav").inner_text()
    assert not page.js_errors, page.js_errors


def test_a_visitor_who_follows_a_lobby_join_link_sits_as_a_guest_in_one_click(server, new_page):
    table_id = int(server.shell(OPEN_TABLE.format(name=f"h{uuid.uuid4().hex[:8]}")))
    page = new_page(1280, 860)
    page.goto(f"{server.url}/play/sixtysix/")
    page.locator(f'tr[data-table="{table_id}"] [data-action=join]').click()
    page.wait_for_url(re.compile(rf"/table/{table_id}/\?sit=1"))
    page.click("[data-action=sit-as-guest]")          # no refusal toast: the seat is offered
    page.wait_for_url(re.compile(rf"/table/{table_id}/"))
    wait_playing(page)                                 # his was the last seat: the match is on
    assert page.evaluate("() => window.tableClient.state.you") == 1
    assert not page.js_errors, page.js_errors
