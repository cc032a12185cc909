"""The end of a match in the browser: a rated Sixty-six match of two people, started one deal from
its end (tests/browser/scenarios.py), played out; the rating changes appear in the match-end box;
a rematch offered is accepted by the other player and every client lands on the new table. A
visitor who is not logged in cannot type in the chat, and a toast covers no seat. A rated table
with a house bot is refused in the lobby, with the reason (house bots are never rated)."""
import re
import time

import pytest

from tests.browser.test_tables import page_state, register, step, wait_my_turn, wait_playing

pytestmark = pytest.mark.browser

RATING = re.compile(r"^[+\u2212\u00b1]\d+ \(\d+\)$")


def boxes_meet(a, b) -> bool:
    return not (a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"]
                or a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"])


def assert_toasts_clear_of_the_top_seat(page, count):
    """``count`` toasts on screen: none over the top seat, none over another."""
    toasts = page.locator("#toasts .toast")
    toasts.nth(count - 1).wait_for()
    top = page.locator(".seat-box.pos-top").bounding_box()
    shown = [toasts.nth(i).bounding_box() for i in range(toasts.count())]
    assert len(shown) == count
    for i, box in enumerate(shown):
        assert not boxes_meet(box, top), (box, top)
        assert all(not boxes_meet(box, other) for other in shown[i + 1:])


def send_raw(page, payload: str):
    page.evaluate("p => window.tableClient.state.ws.send(p)", payload)


def play_both_until(pages, game, done_selector, timeout=90):
    """Two people at one table: each page does what its table asks, until ``done_selector``
    shows on the first page."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pages[0].locator(done_selector).count():
            return
        if not any([step(p, game, timeout=800) for p in pages]):
            time.sleep(0.05)
    raise AssertionError(f"{done_selector} did not appear; the page: {page_state(pages[0])}")


def test_the_lobby_refuses_a_rated_table_with_a_house_bot_with_the_reason(server, new_page):
    """House bots are never rated: the lobby refuses a rated table with one, with the reason."""
    page = new_page(1280, 800)
    register(page, server)
    page.goto(f"{server.url}/play/sixtysix/")
    page.check("#id_rated")
    page.select_option("select[name=seat_1]", "basic")
    page.click("#create-table")
    assert "never rated" in page.locator("main").inner_text()
    assert "/table/" not in page.url
    assert not page.js_errors, page.js_errors


def test_a_match_ends_with_rating_changes_and_a_rematch_both_accept(server, new_page, artifacts):
    page, other = new_page(1280, 800), new_page(1280, 800)
    me, ola = register(page, server), register(other, server, prefix="o")
    # One deal from the end: whoever wins this deal wins the match (first to 7). Dealer 1: we lead.
    # Two people: house bots' tables are never rated (ratings/house_bots.py).
    table_id = server.scenario({"owner": me, "game": "sixtysix", "variant": "kurnik", "rated": True,
                                "seats": ["me", f"user:{ola}"], "dealer": 1, "scores": [6, 6]})
    page.goto(f"{server.url}/table/{table_id}/")
    other.goto(f"{server.url}/table/{table_id}/")
    wait_my_turn(page)
    top = page.locator(".seat-box.pos-top")
    assert top.locator(".seat-name").inner_text() == ola
    assert page.locator(".seat-box.pos-bottom .clock").count() == 1
    # Three refusals at once: the toasts stack in a corner, clear of the top seat and each other.
    for _ in range(3):
        send_raw(page, "{not json")
    assert_toasts_clear_of_the_top_seat(page, 3)
    page.screenshot(path=str(artifacts / "match-end-toasts.png"))

    play_both_until([page, other], "sixtysix", ".result-panel[data-kind=match]", timeout=90)
    panel = page.locator(".result-panel[data-kind=match]")
    panel.locator(".rating-changes[data-ratings=ready]").wait_for(timeout=30000)
    deltas = panel.locator(".rating-change .rating-delta").all_inner_texts()
    assert len(deltas) == 2 and all(RATING.match(d) for d in deltas), deltas
    names = panel.locator(".rating-change .rating-name").all_inner_texts()
    assert names == [me, ola]
    winner = page.evaluate("window.tableClient.state.table.match.winners")
    signs = [d[0] for d in deltas]
    assert signs[winner[0]] == "+" and signs[1 - winner[0]] == "\u2212", (winner, deltas)
    page.screenshot(path=str(artifacts / "match-end-ratings.png"))

    # A visitor watching the finished table: chat disabled, with a way to log in.
    phone = new_page(390, 844)
    phone.goto(f"{server.url}/table/{table_id}/")
    phone.wait_for_function("() => window.tableClient.state.table !== null")
    assert phone.locator("#chat-form input").is_disabled()
    login = phone.locator("#chat-form a", has_text="Log in to chat")
    assert "/accounts/login/" in login.get_attribute("href")
    phone.locator(".panel.chat").screenshot(path=str(artifacts / "match-end-visitor-chat-phone.png"))

    # The rematch: offered, accepted by the other; both players and the watcher move to the new table.
    panel.locator("[data-action=rematch]").click()
    other.locator(".result-panel[data-kind=match] [data-action=rematch-accept]").click()
    page.wait_for_url(re.compile(r"/table/(?!%d/)\d+/" % table_id))
    new_id = int(re.search(r"/table/(\d+)/", page.url).group(1))
    wait_playing(page)
    assert page.evaluate("window.tableClient.state.you") == 0
    table = page.evaluate("window.tableClient.state.table")
    assert (table["game"], table["variant"], table["rated"]) == ("sixtysix", "kurnik", True)
    assert table["match"]["scores"] == [0, 0] and table["status"] in ("playing", "between_deals")
    assert page.locator(".seat-box.pos-top .seat-name").inner_text() == ola
    page.screenshot(path=str(artifacts / "match-end-rematch.png"))
    phone.wait_for_url(f"{server.url}/table/{new_id}/")
    wait_playing(phone)
    assert phone.locator("#chat-form input").is_disabled()
    send_raw(phone, "{not json")                       # a visitor's toast, on a phone
    assert_toasts_clear_of_the_top_seat(phone, 1)
    phone.screenshot(path=str(artifacts / "match-end-visitor-phone.png"))
    assert not page.js_errors and not phone.js_errors and not other.js_errors, (page.js_errors, phone.js_errors)

    # The finished match's analysis ran in the server's own analysis worker (embedded mode).
    match_id = int(server.shell(f"from games.models import Match; print(Match.objects.get(table_id={table_id}).pk)"))
    assert wait_analysis(page, f"{server.url}/match/{match_id}/analysis.json") == "done"


def wait_analysis(page, url: str, timeout: float = 300) -> str:   # a slow machine: minutes
    deadline = time.monotonic() + timeout
    status = None
    while time.monotonic() < deadline:
        status = page.request.get(url).json()["status"]
        if status in ("done", "failed"):
            break
        time.sleep(1)
    return status


FINISHED_TABLE = """
from django.db.models import F
from accounts.models import User
from games import services
from games.models import Match, Seat, Table
a, b = User.objects.get(username={a!r}), User.objects.get(username={b!r})
t = services.create_table(a, "sixtysix", "kurnik", seats=[a, b], start=True)
# The match is then marked over (the rematch needs nothing else); the new version tells the
# server's processes that their kept copy of the table is stale.
Match.objects.filter(table=t).update(finished=True, ranks=[1, 2], winners=[0], ended_by="score")
Seat.objects.filter(table=t).update(turn_started_at=None)
Table.objects.filter(pk=t.pk).update(status="finished", due_at=None, version=F("version") + 1)
print(t.pk)
"""


def test_two_players_see_the_rematch_offer_live_decline_leave_and_accept(server, new_page, artifacts):
    ala, ola = new_page(1280, 800), new_page(390, 844)
    a, b = register(ala, server, "a"), register(ola, server, "o")
    table_id = int(server.shell(FINISHED_TABLE.format(a=a, b=b)))
    for page in (ala, ola):
        page.goto(f"{server.url}/table/{table_id}/")
        page.locator(".result-panel[data-kind=match] [data-action=rematch]").wait_for()

    def offer():
        ala.click("[data-action=rematch]")
        ola.locator(".rematch[data-rematch=open] [data-action=rematch-accept]").wait_for()

    # Offered: the other player sees who has accepted, live, and may accept or decline.
    offer()
    assert ola.locator(".rematch-seats li.accepted").inner_text() == f"{a}: accepted"
    assert ola.locator(".rematch-seats li.waiting").inner_text() == f"{b}: waiting…"
    ola.screenshot(path=str(artifacts / "match-end-offer-phone.png"))
    ola.click("[data-action=rematch-decline]")
    ala.locator(".rematch[data-rematch=cancelled]", has_text=f"{b} declined the rematch.").wait_for()
    ala.locator(".toast", has_text=f"{b} declined the rematch.").wait_for()

    # Offered again; the other player leaves the table: the offer is cancelled with that reason.
    offer()
    ola.goto(f"{server.url}/")
    ala.locator(".rematch[data-rematch=cancelled]", has_text=f"{b} left the table").wait_for()
    ala.screenshot(path=str(artifacts / "match-end-left.png"))

    # Back, offered once more, accepted: both land on the same new table, in the same seats.
    ola.goto(f"{server.url}/table/{table_id}/")
    ola.locator(".result-panel[data-kind=match]").wait_for()
    offer()
    ola.click("[data-action=rematch-accept]")
    for page in (ala, ola):
        page.wait_for_url(re.compile(r"/table/(?!%d/)\d+/" % table_id))
        wait_playing(page)
    assert ala.url == ola.url
    assert [ala.evaluate("window.tableClient.state.you"), ola.evaluate("window.tableClient.state.you")] == [0, 1]
    assert not ala.js_errors and not ola.js_errors, (ala.js_errors, ola.js_errors)
