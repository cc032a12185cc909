"""Browser journey: finish a rated match of two people, see the rating change on the profile, open
the replay of a deal and step through it card by card. (House bots' tables are never rated.)"""
import re
import time

import pytest
from playwright.sync_api import TimeoutError as PWTimeout

from .test_tables import register, step as table_step, wait_playing

pytestmark = pytest.mark.browser


EXPIRE_SCRIPT = """
from datetime import timedelta
from django.utils import timezone
from games.models import Seat, Table
s = Seat.objects.get(table_id={table_id}, index={seat})
s.turn_started_at = timezone.now() - timedelta(milliseconds=s.bank_ms + 1)
s.save(update_fields=["turn_started_at"])
Table.objects.filter(pk={table_id}).update(due_at=timezone.now() - timedelta(seconds=5))
"""


def run_django(server, script):
    """Run a snippet against the server's database, in its shell."""
    server.shell(script)


def my_turn_after_the_first_deal(page, other, timeout=20):
    """Wait until we are to act in a later deal (closing the result panel of a deal the other
    player may have ended, e.g. by claiming 66; he plays whatever his table asks of him)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if page.locator(".result-panel[data-kind=deal]").count():
            page.locator("[data-action=close-result]").first.click()
        if not page.evaluate("() => { const v = window.tableClient.state.view; return !!(v && v.legal.length); }"):
            table_step(other, "sixtysix", timeout=800)
        if page.evaluate("() => { const s = window.tableClient.state; return !!(s.view && s.view.deal_number >= 1"
                         " && !s.view.over && s.view.legal.length > 0 && !s.busy); }"):
            return
        time.sleep(0.1)
    raise AssertionError("our turn did not come")


def play_one_step(page):
    for selector in ("[data-action=marriage]", "#hand button.card.legal"):
        try:
            page.locator(selector).first.click(timeout=800)
            return True
        except PWTimeout:
            continue
    return False


def test_it_rates_a_match_shows_the_change_and_replays_a_deal(server, new_page, artifacts):
    page, other = new_page(), new_page()
    name = register(page, server)
    register(other, server, prefix="o")

    # a rated table of two people: the other takes the open seat and the match starts
    page.goto(f"{server.url}/play/sixtysix/")
    page.check("#id_rated")
    page.click("#create-table")
    page.wait_for_url(re.compile(r"/table/\d+/"))
    table_id = int(re.search(r"/table/(\d+)/", page.url).group(1))
    other.goto(f"{server.url}/table/{table_id}/?sit")
    wait_playing(page)

    # play the first deal to its end by clicking cards, both of us
    end = time.monotonic() + 60
    while not page.locator(".result-panel[data-kind=deal]").count():
        assert time.monotonic() < end, "the first deal did not end"
        if not any([play_one_step(page), table_step(other, "sixtysix", timeout=800)]):
            time.sleep(0.05)
    page.locator("[data-action=close-result]").first.click()

    # in the next deal our clock runs out: a forfeit, which counts as a loss
    my_turn_after_the_first_deal(page, other)
    run_django(server, EXPIRE_SCRIPT.format(table_id=table_id, seat=0))
    page.wait_for_selector(".result-panel[data-kind=match]", timeout=20000)

    # the profile shows the rating (provisional) and the change of this match
    end = time.monotonic() + 20
    while True:
        page.goto(f"{server.url}/accounts/u/{name}/")
        if page.locator(".rating-card[data-game=sixtysix] .rating-value").count():
            break
        assert time.monotonic() < end, "the rating did not arrive"
        time.sleep(0.5)
    value = page.locator(".rating-card[data-game=sixtysix] .rating-value").inner_text()
    assert value.endswith("?") and int(value[:-1]) < 1500
    delta = int(page.locator(".history-table .rating-delta").first.get_attribute("data-delta"))
    assert delta < 0 and int(value[:-1]) == 1500 + delta
    assert page.locator(".rating-chart polyline").count() == 1
    page.screenshot(path=str(artifacts / "ratings-profile.png"), full_page=True)

    # the match page: deal by deal, the finished deals replayable, the cut-short one not
    page.locator(".history-table a", has_text="Match").first.click()
    page.wait_for_url(re.compile(r"/match/\d+/$"))
    # (Usually the time-out cuts the second deal short; when that deal ended by itself first, the
    # forfeit falls in the pause between deals and cuts none: each row is judged by what it shows.)
    rows = page.locator(".deal-table tr[data-deal]")
    finished = [rows.nth(i).locator(".deal-points").count() > 0 for i in range(rows.count())]
    replayable = [rows.nth(i).locator(".replay-link").count() == 1 for i in range(rows.count())]
    assert replayable == finished and finished[0]
    assert page.locator(".rating-change-cell .rating-delta").count() == 2
    page.locator(".replay-link").first.click()
    page.wait_for_url(re.compile(r"/match/\d+/deal/1/$"))

    # step through the deal: all hands are shown, forward, back, jump to a trick, to the end
    page.wait_for_function("() => window.replayViewer && window.replayViewer.deal")
    assert page.locator("#replay").get_attribute("data-step") == "0"
    assert page.locator(".replay-hand .card").count() == 12              # both hands, face up
    page.locator("[data-go=forward]").click()
    assert page.locator("#replay").get_attribute("data-step") == "1"
    assert re.search(r"plays|exchanges|closes|claims", page.locator("#replay-caption").inner_text())
    page.locator("[data-go=forward]").click()
    page.locator("[data-go=back]").click()
    assert page.locator("#replay").get_attribute("data-step") == "1"
    tricks = page.locator("#replay-tricks button")
    if tricks.count() >= 2:
        tricks.nth(1).click()
        assert "current" in tricks.nth(1).get_attribute("class")
        step = int(page.locator("#replay").get_attribute("data-step"))
        frame_trick = page.evaluate("(i) => window.replayViewer.deal.frames[i].trick", step)
        assert frame_trick == 2
        assert page.locator("#replay-trick .card").count() == 1                 # the lead card
    page.keyboard.press("End")
    assert page.locator("#replay-result").is_visible()
    page.screenshot(path=str(artifacts / "ratings-replay.png"), full_page=True)
    page.keyboard.press("Home")
    assert page.locator("#replay").get_attribute("data-step") == "0"
    assert not page.js_errors, page.js_errors
