"""The special actions in the browser, on scenario tables whose deal is chosen
(tests/browser/scenarios.py): Sixty-six exchange, close and a marriage declaring 66; the Hearts moon
choice; Spades blind nil for a team trailing by 200."""
import pytest

from tests.browser.scenarios import santase_worked_example
from tests.browser.test_tables import register, wait_my_turn

pytestmark = pytest.mark.browser

RANKS = "23456789TJQKA"


def open_table(page, server, table_id):
    page.goto(f"{server.url}/table/{table_id}/")
    wait_my_turn(page)


def test_it_exchanges_closes_and_declares_66_with_a_marriage_in_santase(server, new_page, artifacts):
    """docs/RULES.md's worked example (Santase, trump clubs): we are P2, the dealer, on lead after
    winning JD with JC; we exchange 9C for KC, close, lead QC announcing 40 and declare 66."""
    page = new_page()
    me = register(page, server)
    table_id = server.scenario(santase_worked_example(me))
    open_table(page, server, table_id)
    assert page.locator("#hand [data-card='KC']").count() == 0

    page.click("[data-action=exchange]")
    page.locator("#hand [data-card='KC']").wait_for()
    assert page.locator("#hand [data-card='9C']").count() == 0
    page.click("[data-action=close]")
    page.click("[data-action=confirm-close]")       # closing is irreversible: the table asks first
    page.locator(".closed-note").wait_for()
    assert page.locator("[data-action=close]").count() == 0
    page.click("#hand [data-card='QC']")                 # several ways to lead it: the choice bar
    page.click("[data-action=marriage-declare]")

    panel = page.locator(".result-panel[data-kind=deal]")
    panel.wait_for()
    assert panel.locator(".outcome").get_attribute("data-outcome") == "declare:under_33"
    assert "declared 66 with 74 points: a true claim" in panel.inner_text()
    assert page.evaluate("window.tableClient.state.table.match.scores")[0] == 2
    page.screenshot(path=str(artifacts / "sixtysix-declaration.png"))
    assert not page.js_errors, page.js_errors


def test_it_offers_the_moon_choice_to_a_hearts_player_who_took_everything(server, new_page, artifacts):
    """Each seat holds one suit, we hold the clubs; twelve tricks are already played (no pass: the
    fourth deal). Our AC takes the last trick: every heart and QS are ours, we choose the moon."""
    page = new_page()
    me = register(page, server)
    hands = [[r + s for r in RANKS] for s in "CDHS"]
    actions = [{"seat": seat, "type": "play", "card": RANKS[i] + "CDHS"[seat]}
               for i in range(12) for seat in range(4)]
    table_id = server.scenario({"owner": me, "game": "hearts", "variant": "standard",
                                "seats": ["me", "random", "random", "random"], "dealer": 0,
                                "deal_number": 3, "hands": hands, "actions": actions})
    open_table(page, server, table_id)
    page.click("#hand [data-card='AC']")
    page.click("[data-action=moon-others]")
    panel = page.locator(".result-panel[data-kind=deal]")
    panel.wait_for()
    assert "shot the moon" in panel.inner_text()
    assert page.evaluate("window.tableClient.state.table.match.scores") == [0, 26, 26, 26]
    page.screenshot(path=str(artifacts / "hearts-moon.png"))
    assert not page.js_errors, page.js_errors


def test_it_lets_a_spades_player_whose_team_trails_by_200_bid_blind_nil(server, new_page, artifacts):
    page = new_page()
    me = register(page, server)
    table_id = server.scenario({"owner": me, "game": "spades", "variant": "standard",
                                "seats": ["me", "random", "random", "random"], "dealer": 0,
                                "deal_number": 4, "scores": [0, 250]})
    open_table(page, server, table_id)
    assert page.locator("#hand .card.back, #hand .hidden-hand").count() == 13   # not seen yet
    assert page.locator("#hand [data-card]").count() == 0
    page.click("[data-action=blind-accept]")
    page.locator(".seat-box.mine .bid", has_text="Blind nil").wait_for()
    page.wait_for_function("() => (window.tableClient.state.view.hand || []).length === 13")
    page.screenshot(path=str(artifacts / "spades-blind-nil.png"))
    assert not page.js_errors, page.js_errors
