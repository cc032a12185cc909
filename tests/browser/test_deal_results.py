"""What a player is told at the table (issue 14): a claim of 66 short of 66 asks first and says what
it costs; a marriage shows as a bubble by its player; Sixty-six's result says who ended the deal,
how, and why the points; Spades' result breaks the score down, and the side panel's bags agree with
it at once (defect 7); Hearts shows which way the cards go and who sent the received ones."""
import pytest

from tests.browser.test_tables import register, wait_my_turn

pytestmark = pytest.mark.browser

RANKS = "23456789TJQKA"
SIXTYSIX_DECK = [r + s for s in "CDHS" for r in "9JQKTA"]


def open_table(page, server, table_id):
    page.goto(f"{server.url}/table/{table_id}/")
    wait_my_turn(page)


def sixtysix_on_lead(server, me, hands):
    """A Kurnik deal (trump clubs, the KC turned up) in which we (seat 0) lead the first trick."""
    stock = [c for c in SIXTYSIX_DECK if c not in hands[0] + hands[1] + ["KC"]]
    return server.scenario({"owner": me, "game": "sixtysix", "variant": "kurnik",
                            "seats": ["me", "basic"], "dealer": 1, "hands": hands,
                            "stock": stock, "trump_card": "KC"})


def test_it_asks_before_a_claim_short_of_66_and_says_how_the_deal_ended(server, new_page, artifacts):
    page = new_page()
    me = register(page, server)
    table_id = sixtysix_on_lead(server, me, ["AH 9H KS QD AC TC".split(), "KH QH TH 9D QC JC".split()])
    open_table(page, server, table_id)

    declare = page.locator("[data-action=declare]")
    assert "primary" not in declare.get_attribute("class")      # 0 points: not the main button
    declare.click()
    box = page.locator(".claim-confirm")
    box.wait_for()
    text = box.inner_text()
    assert "0 points, not 66" in text and "3 game points" in text   # the opponent has no trick yet
    assert page.evaluate("document.activeElement.dataset.action") == "cancel-declare"
    page.screenshot(path=str(artifacts / "sixtysix-claim-confirm.png"))
    page.click("[data-action=cancel-declare]")
    assert box.count() == 0
    assert page.evaluate("window.tableClient.state.view.over") is False   # nothing was sent

    page.click("[data-action=declare]")
    page.click("[data-action=confirm-declare]")
    outcome = page.locator(".result-panel[data-kind=deal] .outcome")
    outcome.wait_for()
    assert outcome.get_attribute("data-outcome") == "declare:false_claim"
    assert "false claim" in outcome.inner_text() and "scores 3" in outcome.inner_text()
    assert page.evaluate("window.tableClient.state.table.match.scores") == [0, 3]
    page.screenshot(path=str(artifacts / "sixtysix-false-claim-result.png"))
    assert not page.js_errors, page.js_errors


def test_it_shows_a_marriage_as_a_bubble_by_its_player(server, new_page, artifacts):
    page = new_page()
    me = register(page, server)
    table_id = sixtysix_on_lead(server, me, ["KH QH 9H KS QD AC".split(), "TH 9D QC JC TC AH".split()])
    open_table(page, server, table_id)
    page.click("#hand [data-card='QH']")
    page.click("[data-action=marriage]")
    bubble = page.locator(".bubble[data-seat='0']")
    bubble.wait_for()
    assert "20" in bubble.inner_text() and "\u2665" in bubble.inner_text()
    box = bubble.bounding_box()
    mine = page.locator(".seat-box.mine").bounding_box()
    assert abs((box["y"] + box["height"]) - mine["y"]) < 120           # beside our own seat
    page.screenshot(path=str(artifacts / "sixtysix-marriage-bubble.png"))
    assert not page.js_errors, page.js_errors


def test_it_breaks_a_spades_score_down_and_counts_its_bags_at_once(server, new_page, artifacts):
    """Each seat holds one suit; seat 3 (spades) trumps the first trick and takes all 13. We bid
    nil and keep it (+100); our partner's 1 is set (−10). Their 11 is made with 2 overtricks,
    which take their 9 bags to 11: −100 and 1 bag left."""
    page = new_page()
    me = register(page, server)
    hands = [[r + s for r in RANKS] for s in "CDHS"]
    bids = [{"seat": s, "type": "bid", "tricks": n} for s, n in enumerate([0, 1, 1, 10])]
    plays = [{"seat": s, "type": "play", "card": RANKS[0] + "CDHS"[s]} for s in range(4)]
    for i in range(1, 13):
        plays += [{"seat": s, "type": "play", "card": RANKS[i] + "CDHS"[s]} for s in (3, 0, 1, 2)]
    actions = bids + plays[:-3]                           # the last trick: seat 3 has led, we follow
    table_id = server.scenario({"owner": me, "game": "spades", "variant": "standard",
                                "seats": ["me", "random", "random", "random"], "dealer": 0,
                                "bags": [0, 9], "hands": hands, "actions": actions})
    open_table(page, server, table_id)
    page.click("#hand [data-card='AC']")
    table = page.locator(".result-panel[data-kind=deal] table[data-breakdown]")
    table.wait_for()
    rows = {r.locator("th").inner_text(): [c.inner_text() for c in r.locator("td").all()]
            for r in table.locator("tr").all()[1:]}
    assert rows["Contract"] == ["0 of 1: set", "13 of 11: made"]
    assert rows["Contract points"] == ["\u221210", "+110"]
    assert rows["Overtricks (bags)"] == ["", "+2"]
    assert "nil +100" in rows["Nil"][0]
    assert rows["Ten bags"] == ["", "\u2212100"]
    assert rows["This deal"] == ["+90", "+12"]
    assert rows["Bags"] == ["0 \u2192 0", "9 \u2192 1"]
    assert "Bags: 0 / 1" in page.locator("#scores").inner_text()     # not the deal's start: 0 / 9
    page.screenshot(path=str(artifacts / "spades-breakdown.png"))
    assert not page.js_errors, page.js_errors


def test_it_points_the_hearts_pass_and_names_who_sent_the_received_cards(server, new_page, artifacts):
    page = new_page()
    me = register(page, server)
    hands = [[r + s for r in RANKS] for s in "CDHS"]
    table_id = server.scenario({"owner": me, "game": "hearts", "variant": "standard",
                                "seats": ["me", "random", "random", "random"], "dealer": 0,
                                "hands": hands})
    open_table(page, server, table_id)
    assert page.locator("#prompt .pass-arrow.pass-left").count() == 1
    assert page.locator("#trick-area .pass-center.pass-left").count() == 1
    for card in ("2C", "3C", "4C"):
        page.click(f"#hand [data-card='{card}']")
    page.click("[data-action=pass]")
    line = page.locator(".received-line")
    line.wait_for()
    received = page.evaluate("window.tableClient.state.view.received")
    assert len(received) == 3 and all(c.endswith("S") for c in received)   # from seat 3 (spades)
    assert "Received from" in line.inner_text()
    assert page.locator("#hand button.card.received").count() == 3
    page.screenshot(path=str(artifacts / "hearts-received.png"))
    assert not page.js_errors, page.js_errors


HEARTS_DEAL = ["QS 4C JH 6S TS AC AD 9H 6D 5S 2D 4H 6C", "JC AH 7C 4D TD KS 2H 5C 7S 3C KD 7H JS",
               "KH 8D 5H QD 3S 8H TH 7D 2C 8S 4S 9C QH", "JD KC AS 9S 2S 9D QC 3D 3H 8C 6H 5D TC"]


def test_it_breaks_a_hearts_score_down_who_took_the_queen_and_the_hearts(server, new_page, artifacts):
    """A deal without a pass (the fourth), each seat playing its first legal card; we play the
    last card, the QS, which seat 3 takes with the trick: 1 heart and the queen, 14."""
    from games.engine.core import DealSetup, new_state
    hands = [h.split() for h in HEARTS_DEAL]
    state = new_state(DealSetup("hearts", "standard", ["a", "b", "c", "d"], 0, 3, [0] * 4, hands))
    actions = []
    while not state.is_over():
        actions.append(state.legal_actions(state.to_act())[0])
        state.apply(actions[-1])
    assert actions[-1] == {"seat": 0, "type": "play", "card": "QS"}
    page = new_page()
    me = register(page, server)
    table_id = server.scenario({"owner": me, "game": "hearts", "variant": "standard", "deal_number": 3,
                                "seats": ["me", "random", "random", "random"], "dealer": 0,
                                "hands": hands, "actions": actions[:-1]})
    open_table(page, server, table_id)
    page.click("#hand [data-card='QS']")
    table = page.locator(".result-panel[data-kind=deal] table[data-breakdown]")
    table.wait_for()
    rows = {r.locator("th").inner_text(): [c.inner_text() for c in r.locator("td").all()]
            for r in table.locator("tr").all()[1:]}
    assert rows["Hearts taken"] == ["0", "+4", "+8", "+1"]
    assert rows["Queen of spades"] == ["", "", "", "+13"]
    assert rows["This deal"] == ["0", "+4", "+8", "+14"]
    assert "Contract" not in rows and "Bags" not in rows and "Jack of diamonds" not in rows
    page.screenshot(path=str(artifacts / "hearts-breakdown.png"))
    assert not page.js_errors, page.js_errors
