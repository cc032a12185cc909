"""How the table feels (issue 14): keyboard play, the deal's result never hiding the next deal,
remembered settings (sound, four-colour deck), reduced motion, and a phone-width hand."""
import re

import pytest

from tests.browser.scenarios import santase_worked_example
from tests.browser.test_tables import create_table, play_until, register, wait_my_turn

# How the table moves is what these tests are about: its pages move (tests/browser/conftest.py).
pytestmark = [pytest.mark.browser, pytest.mark.motion]

# The index in the hand of a card with exactly one way to play it (a marriage card asks how).
SINGLE_PLAY_INDEX = """() => {
  const s = window.tableClient.state, cards = [...document.querySelectorAll('#hand button.card.in-hand')];
  return cards.findIndex(c => s.view.legal.filter(a => a.type === 'play' && a.card === c.dataset.card).length === 1);
}"""


def play_a_card_with_one_way_to_play(page) -> str:
    """Click a card of the hand that plays at once (a marriage card would ask how to lead it) and
    wait until it has left the hand; its code. A played card never comes back to the hand: the
    hand's size or the trick would not do, as the bot may answer and both draw from the stock
    before the page is looked at again."""
    target = page.evaluate(SINGLE_PLAY_INDEX)
    assert target >= 0
    card = page.locator("#hand button.card.in-hand").nth(target)
    code = card.get_attribute("data-card")
    card.click()
    page.wait_for_function("c => !window.tableClient.state.view.hand.includes(c)", arg=code)
    return code


FOCUSED_CARD = "() => { const a = document.activeElement; return a && a.matches('#hand button.card') ? a.dataset.card : null; }"


def tab_into_hand(page, limit=60):
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate(FOCUSED_CARD):
            return
    raise AssertionError("Tab never reached a card of the hand")


def under_a_result_box(page, selector):
    """Whether the middle of ``selector`` is covered by a result box (what a click there hits)."""
    return page.evaluate("""sel => {
      const n = document.querySelector(sel), r = n.getBoundingClientRect();
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return !!(hit && hit.closest('.result-overlay, .result-dock'));
    }""", selector)


def test_it_plays_a_card_with_the_keyboard_only(server, new_page, artifacts):
    page = new_page()
    register(page, server)
    create_table(page, server, "sixtysix", ["basic"])
    wait_my_turn(page)
    page.wait_for_function("() => document.getAnimations().length === 0")    # the deal has landed
    tab_into_hand(page)
    first = page.evaluate(FOCUSED_CARD)
    label = page.get_attribute(f"#hand [data-card='{first}']", "aria-label")
    assert label.endswith(", playable"), label
    assert page.evaluate("() => document.activeElement.matches(':focus-visible')")
    assert page.title().startswith("\u25cf Your turn \u2014 Sixty-six #")      # the tab says so
    assert page.get_attribute("link[rel=icon]", "data-turn") == "1"

    target = page.evaluate(SINGLE_PLAY_INDEX)
    assert target >= 0
    page.keyboard.press("Home")
    for _ in range(target):
        page.keyboard.press("ArrowRight")
    card = page.evaluate(FOCUSED_CARD)
    assert page.get_attribute(f"#hand [data-card='{card}']", "aria-label").endswith(", playable")
    hand_before = page.evaluate("window.tableClient.state.view.hand")
    page.keyboard.press("Enter")

    page.wait_for_function("c => !window.tableClient.state.view.hand.includes(c)", arg=card)
    assert card in hand_before
    played = page.evaluate("""() => { const v = window.tableClient.state.view;
      return (v.trick || []).concat((v.last_trick && v.last_trick.cards) || []).map(p => p.card); }""")
    assert card in played
    # the card travels to the middle and stays there (with the bot's answer) for a moment
    page.locator(f".trick-stage [data-card='{card}']").wait_for()
    page.screenshot(path=str(artifacts / "table-feel-mid-trick-desktop.png"))
    # the focus stayed in the hand, on a neighbour, for the next card
    page.wait_for_function(FOCUSED_CARD)
    assert not page.js_errors, page.js_errors


def test_the_deal_result_moves_beside_the_table_when_the_next_deal_is_ours(server, new_page, artifacts):
    """Santase, we deal and end the deal declaring 66 with a marriage (docs/RULES.md's example);
    the next deal is led by us: its cards must not be under the result box."""
    page = new_page()
    me = register(page, server)
    table_id = server.scenario(santase_worked_example(me))
    page.goto(f"{server.url}/table/{table_id}/")
    wait_my_turn(page)
    page.click("[data-action=exchange]")
    page.locator("#hand [data-card='KC']").wait_for()
    page.click("#hand [data-card='QC']")
    page.click("[data-action=marriage-declare]")

    # the next deal: we lead it, and the box is beside the table, not over it
    page.wait_for_function("""() => { const s = window.tableClient.state;
      return s.view && s.view.deal_number === 1 && !s.view.over && s.view.legal.length > 0 && !s.busy; }""")
    docked = page.locator("#result-dock .result-panel[data-kind=deal]")
    docked.wait_for()
    assert re.search(r"declared 66 with \d+ points: a true claim", docked.inner_text())   # the bot answers at random
    assert page.locator("#result-overlay").is_hidden()
    for selector in ["#felt .talon .trump-card", "#hand button.card.legal"]:
        page.locator(selector).first.wait_for()
        assert not under_a_result_box(page, selector), selector
    page.screenshot(path=str(artifacts / "table-feel-result-docked.png"))

    page.keyboard.press("Escape")
    docked.wait_for(state="detached")
    # we play on at once
    page.wait_for_function("() => !window.tableClient.state.busy")
    play_a_card_with_one_way_to_play(page)
    assert not page.js_errors, page.js_errors


def test_sound_and_four_colours_are_remembered_across_a_reload(server, new_page):
    page = new_page()
    register(page, server)
    create_table(page, server, "sixtysix", ["basic"])
    wait_my_turn(page)
    assert page.is_checked("#sound-on")                       # sound on by default
    page.uncheck("#sound-on")
    page.check("#four-colour")
    page.reload()
    wait_my_turn(page)
    assert not page.is_checked("#sound-on")
    assert page.is_checked("#four-colour")
    assert page.evaluate("window.tableClient.fx.sound.enabled()") is False
    assert page.evaluate("window.tableClient.fx.sound.play('card')") is False       # muted: nothing plays
    assert "four-colour" in page.get_attribute("#table-app", "class")
    page.evaluate("""async () => {
      const main = document.querySelector('script[type=module][src*="js/table/main"]').src;
      const Cards = await import(new URL("../lib/cards.js", main).href);
      const c = document.createElement('div'); c.id = 'probe';
      c.appendChild(Cards.face('9D')); document.getElementById('hand').appendChild(c); }""")
    colour = page.evaluate("getComputedStyle(document.querySelector('#probe .card')).color")
    assert colour == "rgb(29, 95, 209)", colour                               # diamonds blue
    assert not page.js_errors, page.js_errors


def test_reduced_motion_shows_every_change_at_once(server, browser):
    ctx = browser.new_context(viewport={"width": 1280, "height": 860}, reduced_motion="reduce")
    ctx.set_default_timeout(15000)
    try:
        page = ctx.new_page()
        errors = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        register(page, server)
        create_table(page, server, "sixtysix", ["basic"])
        assert page.evaluate("window.tableClient.fx.motionAllowed()") is False
        wait_my_turn(page)
        page.evaluate("window.__lastTrick = JSON.stringify(window.tableClient.state.view.last_trick || null)")
        target = page.evaluate(SINGLE_PLAY_INDEX)      # a marriage card would ask how to lead it
        page.locator("#hand button.card.in-hand").nth(target).click()
        # our card and the bot's answer: the finished trick is there at once, nothing moves
        page.wait_for_function("""() => { const v = window.tableClient.state.view;
          return v.over || JSON.stringify(v.last_trick || null) !== window.__lastTrick; }""")
        assert page.evaluate("document.getAnimations().length") == 0
        assert page.locator(".trick-stage[data-holding]").count() == 0
        assert not errors, errors
    finally:
        ctx.close()


def test_a_hearts_hand_fits_a_phone_without_horizontal_scrolling(server, new_page, artifacts):
    page = new_page(390, 844)
    register(page, server)
    create_table(page, server, "hearts", ["random", "random", "random"])
    wait_my_turn(page)
    hand = page.locator("#hand button.card")
    assert hand.count() == 13
    for i in range(13):                                       # overlapping, every card on screen
        box = hand.nth(i).bounding_box()
        assert 0 <= box["x"] and box["x"] + box["width"] <= 390, (i, box)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    play_until(page, "hearts", ".result-panel", timeout=20, max_steps=1)    # the pass
    page.wait_for_function("() => { const v = window.tableClient.state.view;"
                           " return v.phase === 'play' && v.legal.length > 0 && !window.tableClient.state.busy; }")
    page.wait_for_function("() => document.getAnimations().length === 0")    # the cards have landed
    page.locator("#hand button.card.legal").first.click()
    page.locator(".trick-stage .trick-slot").first.wait_for()
    page.screenshot(path=str(artifacts / "table-feel-mid-trick-phone.png"))
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert not page.js_errors, page.js_errors
