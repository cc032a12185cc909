"""What a newcomer met at the lobby and the table (issue 30): the lobby's form seats no bot unless
asked, the turn is asked only once the felt shows the trick it is about, the deal's result is in
sight on a phone, names are shown in full, the live lists say what their dot means, two Tabs reach
the hand, and each seat has an avatar and its player's rating. Screenshots of the table (two and
four players) and the lobby, desktop and phone, go to tests/browser/artifacts/ (issue30-*.png)."""
import re

import pytest

from tests.browser.test_deal_results import sixtysix_on_lead
from tests.browser.test_table_feel import play_a_card_with_one_way_to_play
from tests.browser.test_tables import create_table, register, wait_my_turn

pytestmark = pytest.mark.browser

VIEWPORTS = {"desktop": (1280, 800), "phone": (390, 844)}

# Our Kurnik deal against the basic bot (which decides the same way every time), we lead.
HANDS = ["AH 9H KS QD AC TC".split(), "KH QH TH 9D QC JC".split()]


def open_scenario(page, server, me):
    page.goto(f"{server.url}/table/{sixtysix_on_lead(server, me, HANDS)}/")
    wait_my_turn(page)


# ---------------------------------------------------------------- 3. the lobby's form
def test_the_lobby_form_leaves_every_other_seat_open(server, new_page):
    page = new_page()
    register(page, server, prefix="lb")
    for game, seats in (("sixtysix", 2), ("hearts", 4)):
        page.goto(f"{server.url}/play/{game}/")
        selects = page.locator("#seat-fields select")
        assert selects.count() == seats - 1
        assert [selects.nth(i).input_value() for i in range(seats - 1)] == [""] * (seats - 1), game
    page.click("#create-table")                 # as it comes: a table waiting for people
    page.wait_for_url(re.compile(r"/table/\d+/"))
    page.wait_for_function("() => window.tableClient.state.table")
    table = page.evaluate("window.tableClient.state.table")
    assert table["status"] == "waiting"
    assert [s["name"] is None for s in table["seats"]] == [False, True, True, True]
    # Back in the lobby, his own table offers the way back to it, not "Watch" or "Join".
    page.goto(f"{server.url}/play/hearts/")
    row = page.locator(f"#lobby-rows tr[data-table='{table['id']}']")
    row.locator("[data-action=mine]").wait_for()
    assert row.locator("td:last-child a").all_inner_texts() == ["Your table"]
    row.locator("[data-action=mine]").click()
    page.wait_for_url(re.compile(rf"/table/{table['id']}/"))
    assert not page.js_errors, page.js_errors


# ---------------------------------------------------------------- 6. the prompt and its trick
# Whenever the table asks us to act (the prompt says it is our turn, or a card is marked playable),
# the middle of the felt must show the trick we answer: no finished trick held there, none sweeping
# away, exactly the cards of the current trick. Checked on every change of the table's DOM.
WATCH_THE_PROMPT = """() => {
  const log = window.__asked = {times: 0, wrong: []};
  const check = () => {
    const asking = document.querySelector('#prompt .prompt-text.mine, #hand button.card.legal');
    const v = window.tableClient.state.view;
    if (!asking || !v) return;
    const stage = document.querySelector('.trick-stage');
    const want = (v.trick || []).map(p => p.card).sort().join(' ');
    const shown = [...stage.querySelectorAll('.trick-slot:not(.previous) [data-card]')]
      .map(n => n.dataset.card).sort().join(' ');
    log.times++;
    if (stage.hasAttribute('data-holding') || shown !== want)
      log.wrong.push({want: want, shown: shown, holding: stage.hasAttribute('data-holding')});
  };
  new MutationObserver(check).observe(document.getElementById('table-app'),
    {subtree: true, childList: true, attributes: true, attributeFilter: ['class', 'data-holding']});
}"""


@pytest.mark.motion            # a held trick, its sweep, then the prompt
def test_the_turn_is_asked_only_with_the_trick_it_is_about(server, new_page):
    page = new_page()
    me = register(page, server, prefix="tr")
    open_scenario(page, server, me)
    page.evaluate(WATCH_THE_PROMPT)
    played = []
    for _ in range(5):
        page.wait_for_function("() => document.querySelector('#prompt .prompt-text.mine')"
                               " || window.tableClient.state.view.over")
        if page.evaluate("window.tableClient.state.view.over"):
            break
        played.append(play_a_card_with_one_way_to_play(page))
    assert len(played) >= 4, played                        # tricks finished and were answered
    asked = page.evaluate("window.__asked")
    assert asked["times"] > 0 and asked["wrong"] == [], asked
    assert not page.js_errors, page.js_errors


# ---------------------------------------------------------------- 8. the result on a phone
def test_the_deal_result_is_in_sight_on_a_phone_scrolled_to_the_hand(server, new_page, artifacts):
    page = new_page(*VIEWPORTS["phone"])
    me = register(page, server, prefix="ph")
    open_scenario(page, server, me)
    page.click("[data-action=declare]")                   # a false claim ends the deal at once
    page.click("[data-action=confirm-declare]")
    to_the_bottom = "() => window.scrollTo(0, document.documentElement.scrollHeight)"
    page.evaluate(to_the_bottom)
    panel = page.locator(".result-panel[data-kind=deal]")
    panel.wait_for()
    page.evaluate(to_the_bottom)
    assert page.evaluate("window.scrollY") > 0            # the page is scrolled: the felt's top is gone
    # Measured in one go inside the page (an update may redraw the panel between two calls from
    # here): the title and the close button in sight, the title on top, not under the hand.
    page.wait_for_function("""(height) => {
      const seen = ['.result-panel[data-kind=deal] h2', '[data-action=close-result]'].every(s => {
        const n = document.querySelector(s); if (!n) return false;
        const r = n.getBoundingClientRect(); return r.height > 0 && r.y >= 0 && r.y + r.height <= height; });
      const h = document.querySelector('.result-panel h2'); if (!seen || !h) return false;
      const r = h.getBoundingClientRect();
      const n = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return !!(n && n.closest('.result-panel')); }""", arg=VIEWPORTS["phone"][1], timeout=5000)
    page.screenshot(path=str(artifacts / "issue30-deal-result-phone.png"))
    page.click("[data-action=close-result]")
    panel.wait_for(state="detached")
    assert not page.js_errors, page.js_errors


# ---------------------------------------------------------------- 9. names in full
CUT_NAMES = """() => [...document.querySelectorAll('.seat-name, #scores th, #scores th .long-name, .last-name')]
  .filter(n => n.scrollWidth > n.clientWidth + 1 || n.scrollHeight > n.clientHeight + 1
               || getComputedStyle(n).textOverflow === 'ellipsis')
  .map(n => n.textContent)"""
# A word of a name split across lines ("Bot 2 (rando" / "m)"): each must lie on one line (a line
# may end after a hyphen, "guest-" / "4de7fc").
SPLIT_WORDS = r"""() => [...document.querySelectorAll('#scores th .long-name')].flatMap(n => {
  const text = n.firstChild, range = document.createRange(), split = [];
  for (const m of text.textContent.matchAll(/[^\s-]+-?/g)) {
    range.setStart(text, m.index); range.setEnd(text, m.index + m[0].length);
    if (new Set([...range.getClientRects()].map(r => Math.round(r.top))).size > 1) split.push(m[0]);
  }
  return split;
})"""


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_four_players_names_are_shown_in_full(server, new_page, artifacts, viewport):
    page = new_page(*VIEWPORTS[viewport])
    page.goto(f"{server.url}/play/hearts/")
    with page.expect_navigation():                        # "Play as guest" (behind the phone's menu)
        page.locator("form[data-guest-form]").evaluate("form => form.submit()")
    page.locator("#seat-fields select").first.wait_for()
    create_table(page, server, "hearts", ["medium", "medium", "random"])    # "(medium)" is wider than its column
    names = page.locator(".seat-box .seat-name")
    assert names.count() == 4
    shown = [names.nth(i).inner_text() for i in range(4)]
    assert shown[0].startswith("guest-") and "Bot 2 (medium)" in shown, shown
    headers = page.locator("#scores th")
    assert [headers.nth(i).inner_text() for i in range(1, 5)] == [page.evaluate(
        f"document.querySelector('.seat-box[data-seat=\"{s}\"] .seat-name').textContent") for s in range(4)]
    assert page.evaluate(CUT_NAMES) == []
    assert page.evaluate(SPLIT_WORDS) == []
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    avatars = page.locator(".seat-box .avatar")
    assert sorted(avatars.nth(i).inner_text() for i in range(4)) == ["B2", "B3", "BR", "GU"]
    page.wait_for_function("() => document.getAnimations().length === 0")    # the deal has landed
    page.screenshot(path=str(artifacts / f"issue30-table-4p-{viewport}.png"), full_page=True)
    assert not page.js_errors, page.js_errors


# ---------------------------------------------------------------- 10. the live lists' dots
def test_the_live_lists_say_what_their_dot_means(server, new_page):
    page = new_page()
    me = register(page, server, prefix="lv")
    page.goto(f"{server.url}/play/sixtysix/")
    conn = page.locator("#lobby-conn")
    page.wait_for_function("() => document.getElementById('lobby-conn').classList.contains('conn-online')")
    assert conn.inner_text().strip() == "Live" and conn.is_visible()
    assert conn.get_attribute("role") == "status"            # read out when it changes
    assert "by itself" in conn.get_attribute("title")

    tournament = server.shell(
        "from datetime import timedelta; from django.utils import timezone; "
        "from accounts.models import User; from tournaments.models import Tournament; "
        f"t = Tournament.objects.create(name='{me} cup', game='sixtysix', rounds=3, "
        f"starts_at=timezone.now() + timedelta(days=2), created_by=User.objects.get(username='{me}')); print(t.pk)")
    page.goto(f"{server.url}/tournaments/{tournament}/")
    page.wait_for_function("() => document.getElementById('tournament-conn').classList.contains('conn-online')")
    conn = page.locator("#tournament-conn")
    assert conn.inner_text().strip() == "Live" and conn.get_attribute("role") == "status"
    assert "by itself" in conn.get_attribute("title")

    # Once it is over the page changes no more: the dot goes and the socket closes, and a finished
    # tournament's page opens none.
    sockets = []
    page.on("websocket", lambda ws: sockets.append(ws.url))
    server.shell("from tournaments.models import Tournament; "
                 f"Tournament.objects.filter(pk={tournament}).update(status='finished')")
    page.evaluate("window.tournamentPage.refresh()")       # as an update on the socket does
    page.wait_for_function("() => !document.getElementById('tournament-conn')")
    page.goto(f"{server.url}/tournaments/{tournament}/")
    page.wait_for_load_state("networkidle")
    assert page.locator("#tournament-conn").count() == 0 and sockets == []
    assert not page.js_errors, page.js_errors


# ---------------------------------------------------------------- 11. two Tabs to the hand
FOCUSED = "() => { const a = document.activeElement; return a ? (a.dataset.card ? 'card' : a.id || a.dataset.skipTo || a.tagName) : null; }"


def test_two_keys_reach_the_hand_and_two_more_the_actions(server, new_page, artifacts):
    page = new_page(*VIEWPORTS["desktop"])
    me = register(page, server, prefix="kb")
    open_scenario(page, server, me)
    page.keyboard.press("Tab")
    assert page.evaluate(FOCUSED) == "hand"                  # the page's first Tab stop
    assert page.locator("a[data-skip-to=hand]").bounding_box()["y"] >= 0     # in sight once focused
    page.screenshot(path=str(artifacts / "issue30-skip-link-desktop.png"))
    page.keyboard.press("Enter")
    assert page.evaluate("() => document.activeElement.matches('#hand button.card.legal')")
    assert page.evaluate("() => document.activeElement.matches(':focus-visible')")

    page.reload()
    wait_my_turn(page)
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    assert page.evaluate(FOCUSED) == "actions"
    page.keyboard.press("Enter")
    assert page.evaluate("() => document.activeElement.dataset.action") in ("declare", "close", "exchange")
    assert not page.js_errors, page.js_errors


# ---------------------------------------------------------------- avatars and the player's rating
@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_seats_show_an_avatar_and_the_players_rating(server, new_page, artifacts, viewport):
    page = new_page(*VIEWPORTS[viewport])
    me = register(page, server, prefix="av")
    create_table(page, server, "sixtysix", ["basic"])
    wait_my_turn(page)
    mine = page.locator(".seat-box.mine")
    assert mine.locator(".avatar").inner_text() == me[:2].upper()
    assert mine.locator(".avatar").get_attribute("aria-hidden") == "true"    # the name says who
    assert mine.locator(".seat-rating").inner_text() == "Rating 1500"        # a newcomer's rating
    bot = page.locator(".seat-box.pos-top")
    assert bot.locator(".seat-name").inner_text() == "Bot (basic)"
    assert bot.locator(".avatar").inner_text() == "BB"
    colours = page.evaluate("[...document.querySelectorAll('.seat-box .avatar')]"
                            ".map(a => getComputedStyle(a).backgroundColor)")
    assert len(colours) == 2 and all(c != "rgba(0, 0, 0, 0)" for c in colours)
    assert page.evaluate(CUT_NAMES) == []
    page.wait_for_function("() => document.getAnimations().length === 0")    # the deal has landed
    page.screenshot(path=str(artifacts / f"issue30-table-2p-{viewport}.png"))

    page.goto(f"{server.url}/play/sixtysix/")                 # the lobby, with this table in it
    page.locator("#lobby-rows tr[data-table]").first.wait_for()
    page.wait_for_function("() => document.getElementById('lobby-conn').classList.contains('conn-online')")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.screenshot(path=str(artifacts / f"issue30-lobby-{viewport}.png"), full_page=True)
    assert not page.js_errors, page.js_errors
