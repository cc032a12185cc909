"""What a phone (390x844) shows whole: the match page's deal links (not "Verify this dea…" cut off
at the screen's edge), the analysis' headings broken between words only, a 13-card hand in two
rows of whole cards, and the home and lobby headings in the pages' felt banner with links in the
site's blue (never the browser's default)."""
import json
import uuid

import pytest

from tests.browser.test_deal_results import HEARTS_DEAL, open_table
from tests.browser.test_tables import register

pytestmark = pytest.mark.browser

PHONE = (390, 844)

MATCH = """
import json
from accounts.models import User
from ratings import tasks
from tests.ratings.factories import finished_match
tasks._enqueue = lambda match_id: None
me = User.objects.create_user(username={name!r}, password="x-Secret-123")
rival = User.objects.create_user(username={name!r} + "_rival", password="x-Secret-123")
bots = [User.objects.create(username=f"{name}-bot{{i}}", is_bot=True, bot_level="random") for i in range(2)]
m = finished_match(me, "hearts", [me, rival, bots[0], bots[1]], seed=2)
print(json.dumps({{"match": m.pk}}))
"""

# Words broken across two lines: a word of a heading whose text takes more than one line box.
BROKEN_WORDS = """(sel) => {
  const broken = [];
  for (const th of document.querySelectorAll(sel)) {
    const text = th.firstChild;
    if (!text || text.nodeType !== 3) continue;
    let at = 0;
    for (const word of text.data.split(/\\s+/)) {
      const start = text.data.indexOf(word, at); at = start + word.length;
      if (!word) continue;
      const range = document.createRange(); range.setStart(text, start); range.setEnd(text, at);
      const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
      if (tops.size > 1) broken.push(word);
    }
  }
  return broken;
}"""

SITE_BLUE_CHECK = """() => [...document.querySelectorAll('main a')].filter(a => a.offsetParent !== null)
  .map(a => [getComputedStyle(a).color, a.textContent.trim()])
  .filter(([c]) => c === 'rgb(0, 0, 238)' || c === 'rgb(85, 26, 139)')"""


@pytest.fixture(scope="module")
def hearts_match(server):
    return json.loads(server.shell(MATCH.format(name=f"ph{uuid.uuid4().hex[:6]}")))["match"]


def test_the_match_pages_deal_links_are_whole_on_a_phone(server, new_page, artifacts, hearts_match):
    page = new_page(*PHONE)
    page.goto(f"{server.url}/match/{hearts_match}/")
    links = page.locator(".deal-table tbody tr a[href*='/verify/']:visible")
    links.first.wait_for()
    assert links.count() >= 1
    for i in range(links.count()):
        box = links.nth(i).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE[0], box
        assert links.nth(i).evaluate("a => a.scrollWidth <= a.clientWidth + 1 || a.clientWidth === 0")
    replays = page.locator(".deal-table tbody tr a[href*='/deal/']:visible")
    assert replays.count() == links.count()
    assert page.evaluate("document.scrollingElement.scrollWidth") <= PHONE[0]
    scroller = page.locator(".deal-table").locator("xpath=..")
    assert scroller.evaluate("n => n.scrollWidth <= n.clientWidth + 1")     # every column in sight
    page.screenshot(path=str(artifacts / "phone-match-deals.png"), full_page=True)


def test_the_analysis_headings_break_between_words_on_a_phone(server, new_page, artifacts, hearts_match):
    """The analysis' answer is served by the test (a finished analysis' shape), so the summary is
    drawn by the page's own script at once; German has the longest headings."""
    result = {"status": "done", "done": 4, "total": 4, "seats": ["Ala", "Ola", "Bot 1", "Bot 2"],
              "result": {"thresholds": {"inaccuracy": 1, "mistake": 3, "blunder": 6}, "iterations": 800,
                         "summary": [{"seat": s, "decisions": 13, "average_loss": 0.5 * s, "inaccuracies": s,
                                      "mistakes": 1, "blunders": s % 2} for s in range(4)],
                         "deals": []}}
    page = new_page(*PHONE, locale="de-DE")
    page.route("**/analysis.json", lambda route, request: route.fulfill(
        status=200, body=json.dumps(result), content_type="application/json"))
    page.goto(f"{server.url}/match/{hearts_match}/")
    page.locator(".analysis-summary-table thead th").first.wait_for()
    assert page.evaluate(BROKEN_WORDS, ".analysis-summary-table thead th") == []
    assert page.evaluate("document.scrollingElement.scrollWidth") <= PHONE[0]
    page.locator(".analysis").screenshot(path=str(artifacts / "phone-analysis-de.png"))


def test_a_thirteen_card_hand_shows_whole_cards_on_a_phone(server, new_page, artifacts):
    page = new_page(*PHONE)
    me = register(page, server)
    hands = [HEARTS_DEAL[i].split() for i in (2, 3, 0, 1)]           # we hold the 2C: we lead
    table_id = server.scenario({"owner": me, "game": "hearts", "variant": "standard", "deal_number": 3,
                                "seats": ["me", "random", "random", "random"], "dealer": 0, "hands": hands})
    open_table(page, server, table_id)
    boxes = page.locator("#hand .card").evaluate_all("cs => cs.map(c => c.getBoundingClientRect().toJSON())")
    assert len(boxes) == 13
    rows = {}
    for b in boxes:
        rows.setdefault(round(b["top"]), []).append(b)
    assert len(rows) == 2                                             # seven and six
    for row in rows.values():
        row.sort(key=lambda b: b["left"])
        for a, b in zip(row, row[1:]):
            assert b["left"] >= a["right"] - 0.5, (a, b)              # whole cards, none under another
    assert all(b["left"] >= 0 and b["right"] <= PHONE[0] for b in boxes)
    assert min(b["width"] for b in boxes) >= 42
    page.screenshot(path=str(artifacts / "phone-hearts-hand.png"), full_page=True)
    assert not page.js_errors, page.js_errors


@pytest.mark.parametrize("path", ["/", "/play/sixtysix/", "/rules/hearts/"])
def test_home_and_lobby_wear_the_pages_banner_and_links_are_the_sites_blue(server, new_page, artifacts, path):
    page = new_page(*PHONE)
    page.goto(server.url + path)
    page.locator("main h1").first.wait_for()
    if path != "/rules/hearts/":
        assert page.locator("main header.hero h1").count() == 1
    assert page.evaluate(SITE_BLUE_CHECK) == []
    page.screenshot(path=str(artifacts / f"phone-banner{path.replace('/', '-')}.png"), full_page=True)
