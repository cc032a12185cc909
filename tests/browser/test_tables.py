"""Browser journeys through the real server: register, create tables against bots, play by
clicking, reload mid-deal, and watch as a spectator without seeing a hidden card."""
import re
import time
import uuid

import pytest
from playwright.sync_api import TimeoutError as PWTimeout

pytestmark = pytest.mark.browser

PASSWORD = "Card-room-test-9"


def register(page, server, prefix="p"):
    name = f"{prefix}{uuid.uuid4().hex[:8]}"
    page.goto(server.url + "/accounts/register/")
    page.fill("input[name=username]", name)
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(server.url + "/")
    return name


def create_table(page, server, game, bots):
    """Create a table from the lobby form (seat 0: me, the others: ``bots``): with no seat left
    open, the match starts at once."""
    page.goto(f"{server.url}/play/{game}/")
    for i, level in enumerate(bots, start=1):
        page.select_option(f"select[name=seat_{i}]", level)
    page.click("#create-table")
    page.wait_for_url(re.compile(r"/table/\d+/"))
    table_id = int(re.search(r"/table/(\d+)/", page.url).group(1))
    wait_playing(page)
    return table_id


def wait_playing(page):
    page.wait_for_function(
        "() => { const s = window.tableClient && window.tableClient.state;"
        " return s && s.view && s.table && s.table.status !== 'waiting'; }")


def click(page, selector, timeout=1500):
    try:
        page.locator(selector).first.click(timeout=timeout)
        return True
    except PWTimeout:
        return False


def step(page, game, timeout=1500):
    """Do whatever the table asks of this player now; return what was done (None: nothing). Each
    click is bounded by ``timeout`` ms: a loop of steps tries again at its next step; a test that
    takes one step, when the table asks, gives it the page's whole time (a loaded machine's click
    waits for the element to hold still over animation frames)."""
    if page.locator(".result-panel[data-kind=deal]").count():
        return "result" if click(page, "[data-action=close-result]", timeout) else None
    if game == "hearts" and page.locator("[data-action=pass]").count():
        # Picked by name, each click bounded: a card the page makes unplayable for a moment (an
        # update re-rendering the hand, the felt still showing a trick) is tried again at the next
        # step, and the cards already picked stay picked (a second click would put one back).
        picked = page.evaluate("window.tableClient.state.selected.length")
        free = page.eval_on_selector_all("#hand button.card.legal:not(.selected)",
                                         "els => els.map(e => e.dataset.card)")
        if picked + len(free) < 3:
            return None
        for code in free[:3 - picked]:
            if not click(page, f'#hand button.card.legal[data-card="{code}"]:not(.selected)', timeout):
                return None
        return "pass" if click(page, "[data-action=pass]:not([disabled])", timeout) else None
    if page.locator("[data-action=blind-decline]").count():
        return "blind" if click(page, "[data-action=blind-decline]", timeout) else None
    if page.locator("[data-bid]").count():
        return "bid" if click(page, "[data-bid='3'], [data-bid]", timeout) else None
    if page.locator("[data-action^=moon-]").count():
        return "moon" if click(page, "[data-action=moon-self]", timeout) else None
    if page.locator("[data-action=marriage]").count():
        return "marriage" if click(page, "[data-action=marriage]", timeout) else None
    if page.locator("#hand button.card.legal").count():
        if not click(page, "#hand button.card.legal", timeout):
            return None
        # A card that may be led with its marriage asks how (announce.js) and sends nothing yet:
        # answer, so that a step is always a move (the deal decides whether the first card is one).
        if page.locator(".marriage-choice").count():
            answer = ".marriage-choice [data-action=marriage]"
            if not page.locator(answer).count():
                answer = ".marriage-choice [data-action=play-plain]"
            return "marriage" if click(page, answer, timeout) else None
        return "play"
    return None


def play_until(page, game, done_selector, timeout=90, max_steps=None):
    done, end = [], time.monotonic() + timeout
    while time.monotonic() < end:
        if page.locator(done_selector).count():
            return done
        if max_steps is not None and len(done) >= max_steps:
            return done
        what = step(page, game)
        if what:
            done.append(what)
        else:
            time.sleep(0.05)
    raise AssertionError(f"{done_selector} did not appear; steps so far: {done}; "
                         f"page errors: {getattr(page, 'js_errors', [])}; the page: {page_state(page)}")


def page_state(page) -> str:
    """What a stuck journey's page shows: its state, prompt and hand, for the failure's message."""
    return page.evaluate("""() => { const s = window.tableClient.state, v = s.view || {};
        return JSON.stringify({version: s.version, busy: s.busy, presenting: window.tableClient.presenting(),
            phase: v.phase, to_act: v.to_act, legal: (v.legal || []).length, selected: s.selected,
            prompt: document.querySelector("#prompt") && document.querySelector("#prompt").innerText,
            hand: Array.from(document.querySelectorAll("#hand button.card")).map(
                c => [c.dataset.card, c.className, c.disabled, c.getAttribute("aria-disabled")])}); }""")


def wait_my_turn(page):
    """Our turn, as the page asks it: once the felt shows the trick it is about (a finished trick
    held there first makes the prompt and the playable cards wait, static/js/table/stage.js)."""
    page.wait_for_function(
        "() => { const s = window.tableClient.state;"
        " return s.view && s.view.legal.length > 0 && !s.busy && !window.tableClient.presenting(); }")


def wait_passed_and_my_turn(page):
    """After our pass: wait for the update in which all four have passed (the cards have arrived,
    the play phase began) and it is our turn. Bots pass at any moment, before or after us."""
    page.wait_for_function(
        "() => { const s = window.tableClient.state, v = s.view;"
        " return v && v.phase !== 'pass' && v.received && v.received.length === 3"
        " && v.legal.length > 0 && !s.busy && !window.tableClient.presenting(); }")


def dom_cards(page):
    return set(page.eval_on_selector_all("[data-card]", "els => els.map(e => e.dataset.card)"))


@pytest.mark.motion            # one whole match as a player's page shows it: tricks held, swept
def test_it_plays_a_sixty_six_match_to_its_end_against_a_bot(server, new_page, artifacts):
    """Deal after deal to the match's end, from 5:5 (one to three deals; a match from 0:0 took a
    minute of the suite to show the same). The basic bot, not the random one: a random bot may
    declare 66 falsely on its first lead, which ends the deal before we play a card."""
    page = new_page()
    me = register(page, server)
    table_id = server.scenario({"owner": me, "game": "sixtysix", "variant": "kurnik",
                                "seats": ["me", "basic"], "dealer": 1, "scores": [5, 5]})   # dealer 1: we lead
    page.goto(f"{server.url}/table/{table_id}/")
    wait_my_turn(page)
    # The first deal's result (or the match's, when that deal ended it).
    played = play_until(page, "sixtysix", ".result-panel[data-kind=deal], .result-panel[data-kind=match]",
                        timeout=60)
    assert "play" in played
    page.screenshot(path=str(artifacts / "sixtysix-deal-result.png"))
    wait_my_turn_or_result = play_until(page, "sixtysix", ".result-panel[data-kind=match]", timeout=150)
    panel = page.locator(".result-panel[data-kind=match]")
    assert panel.locator(".result-winner").inner_text().strip()
    scores = page.evaluate("window.tableClient.state.table.match.scores")
    goal = 7
    assert max(scores) >= goal
    page.screenshot(path=str(artifacts / "sixtysix-match-result.png"))
    assert not page.js_errors, page.js_errors


def test_it_plays_a_sixty_six_deal_on_a_phone(server, new_page, artifacts):
    page = new_page(390, 844)
    register(page, server)
    create_table(page, server, "sixtysix", ["basic"])        # it never declares falsely (see above)
    wait_my_turn(page)
    page.screenshot(path=str(artifacts / "sixtysix-phone.png"))
    hand = page.locator("#hand button.card")
    box = hand.first.bounding_box()
    assert box["width"] >= 40 and box["height"] >= 56          # big enough to tap
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390
    for i in range(hand.count()):                                  # the whole hand is on screen
        b = hand.nth(i).bounding_box()
        assert 0 <= b["x"] and b["x"] + b["width"] <= 390
    play_until(page, "sixtysix", ".result-panel[data-kind]", timeout=60)
    assert not page.js_errors, page.js_errors


def test_it_plays_a_hearts_deal_with_a_pass_and_survives_a_reload(server, new_page, artifacts):
    page = new_page()
    register(page, server)
    table_id = create_table(page, server, "hearts", ["random", "random", "random"])
    wait_my_turn(page)
    assert "to the left" in page.locator("#prompt").inner_text()
    page.screenshot(path=str(artifacts / "hearts-pass.png"))
    done = play_until(page, "hearts", ".result-panel", timeout=20, max_steps=1)
    assert done[0] == "pass"
    wait_passed_and_my_turn(page)
    received = page.locator("#hand .card.received")
    assert received.count() == 3
    page.screenshot(path=str(artifacts / "hearts-play.png"))

    # reload mid-deal: the same seat, the same hand, and the game goes on
    before = sorted(page.evaluate("window.tableClient.state.view.hand"))
    version = page.evaluate("window.tableClient.state.version")
    page.reload()
    wait_my_turn(page)
    assert sorted(page.evaluate("window.tableClient.state.view.hand")) == before
    # Nothing moved on, but the player's leaving and coming back are two changes (docs/PROTOCOL.md,
    # "Leavers"), unless the new page's socket was counted before the old one's close.
    assert page.evaluate("window.tableClient.state.version") in (version, version + 2)
    assert sorted(c for c in dom_cards(page) if c in before) == before

    play_until(page, "hearts", ".result-panel", timeout=90)
    panel = page.locator(".result-panel").first
    assert panel.locator("table.result-table").count() == 1          # the scores,
    assert panel.locator("table[data-breakdown]").count() == 1       # and each seat's points part by part
    page.screenshot(path=str(artifacts / "hearts-result.png"))
    assert server.state(table_id)["status"] in ("between_deals", "playing", "finished")
    assert not page.js_errors, page.js_errors


def test_it_plays_a_spades_deal_with_a_bid_and_a_spectator_sees_no_hidden_card(server, new_page, artifacts):
    page = new_page(390, 844)
    register(page, server)
    table_id = create_table(page, server, "spades", ["random", "random", "random"])
    done = play_until(page, "spades", ".result-panel", timeout=20, max_steps=1)
    if done != ["bid"]:  # bots may bid first; then it is our bid now
        done += play_until(page, "spades", ".result-panel", timeout=20, max_steps=1)
    assert "bid" in done
    wait_my_turn(page)
    assert page.locator("#mine .team-line").count() == 2
    page.screenshot(path=str(artifacts / "spades-phone.png"))

    # a spectator joins while it is our turn (the table cannot move on without us)
    watcher = new_page()
    watcher.goto(f"{server.url}/table/{table_id}/")
    watcher.wait_for_function("() => window.tableClient.state.view !== null")
    truth = server.state(table_id)
    me = page.evaluate("window.tableClient.state.you")
    hidden = {c for s, hand in enumerate(truth["hands"]) for c in hand}
    seen = dom_cards(watcher)
    assert not (seen & hidden), f"spectator sees hidden cards {seen & hidden}"
    assert watcher.locator("#hand button.card").count() == 0
    others = {c for s, hand in enumerate(truth["hands"]) if s != me for c in hand}
    assert not (dom_cards(page) & others), "a player sees another seat's cards"
    assert set(truth["hands"][me]) <= dom_cards(page)
    watcher.screenshot(path=str(artifacts / "spades-spectator.png"))

    play_until(page, "spades", ".result-panel", timeout=90)
    page.screenshot(path=str(artifacts / "spades-result-phone.png"))
    assert not page.js_errors, page.js_errors
    assert not watcher.js_errors, watcher.js_errors
