"""Browser journey through an arena: a player registers and, when staff start it from its page,
his page takes him to his table; he comes back by the table's link and, having let his clock run
out, finds himself paused; a phone follows the leaderboard live (no reload) to the final ranking
while staff pause and resume the arena from its page. Screenshots on desktop and phone.

Nothing waits for a wall-clock time: staff start the arena ("Start now") once the pages listen,
and once the page has shown what it must while running, the test brings the window's end forward
(the server's own tick then closes it); the window's length is tests/tournaments' matter."""
import re
import uuid
from datetime import datetime, timedelta, timezone

import pytest

from .test_tables import PASSWORD, register
from .test_tournaments import shell

pytestmark = pytest.mark.browser

SETUP = """
import json
from datetime import datetime
from accounts.models import User
from tournaments import services
from tournaments.models import Tournament
User.objects.create_superuser({admin!r}, "admin@example.com", {password!r})
t = Tournament.objects.create(name={name!r}, game="sixtysix", variant="kurnik", format="arena",
    arena_minutes=1, starts_at=datetime.fromisoformat({starts!r}), bank_seconds=10, increment_seconds=0,
    min_entries=2, max_entries=16)
for i in range(4):
    services.register(t.pk, User.objects.create(username=f"{name}-bot{{i}}"[-30:], is_bot=True, bot_level="basic"))
print(json.dumps(t.pk))
"""

CLOSE_NOW = """
import json
from django.utils import timezone
from tournaments.models import Tournament
print(json.dumps(Tournament.objects.filter(pk={tid}, status="running").update(ends_at=timezone.now())))
"""


GAMES = """() => [...document.querySelectorAll('#leaderboard tbody tr td:nth-child(4)')]
             .reduce((n, td) => n + parseInt(td.textContent, 10), 0)"""


def games_on_board(page):
    return page.evaluate(GAMES)


def test_an_arena_page_follows_the_leaderboard_live(server, new_page, artifacts):
    admin_name = f"arb{uuid.uuid4().hex[:6]}"
    tname = f"Arena {uuid.uuid4().hex[:4]}"
    starts = datetime.now(timezone.utc) + timedelta(hours=1)          # staff start it
    tid = shell(server, SETUP.format(admin=admin_name, password=PASSWORD, name=tname, starts=starts.isoformat()))
    url = f"{server.url}/tournaments/{tid}/"

    player = new_page()
    register(player, server, prefix="a")
    player.goto(url)
    player.locator("[data-action=register]").click()
    player.wait_for_selector("[data-action=withdraw]")
    assert "Arena" in player.locator(".tournament-meta").inner_text()
    rules = player.locator(".tournament-rules").inner_text()
    assert "After two wins in a row every further win counts double" in rules and "1 minute of pairing" in rules

    phone = new_page(width=390, height=844)
    phone.goto(url)
    phone.evaluate("window.__noReload = true")

    staff = new_page()
    staff.goto(server.url + "/admin/login/")
    staff.fill("input[name=username]", admin_name)
    staff.fill("input[name=password]", PASSWORD)
    staff.locator("input[type=submit]").click()
    staff.wait_for_url(re.compile(r"/admin/$"))
    staff.goto(url)
    staff.locator("[data-action=start-now]").click()

    # At the start his page takes him to his table; its link brings him back.
    player.wait_for_url(re.compile(r"/table/\d+/"), timeout=30000)
    table_url = player.url
    player.locator("a.table-tournament").click()
    player.wait_for_url(url)
    assert player.locator("#your-table").get_attribute("href") in table_url
    player.screenshot(path=str(artifacts / "arena-your-table.png"))

    # The phone sees the arena running, the time going and matches counted as they end.
    phone.wait_for_selector(".tournament-live[data-status=running] #arena-progress", timeout=30000)
    first = phone.evaluate("document.getElementById('arena-progress').value")
    phone.wait_for_function("n => document.getElementById('arena-progress').value > n", arg=first + 2)
    # A function, never an expression: Playwright polls an expression with eval(), which the
    # page's CSP refuses once the first check has not passed (a flake that hung on the timing).
    phone.wait_for_function(f"() => ({GAMES})() >= 4", timeout=30000)
    rows = phone.locator("#leaderboard tbody tr")
    assert rows.count() == 5
    phone.screenshot(path=str(artifacts / "arena-phone-running.png"), full_page=True)

    # He never moved: he lost on time and is paused, told so on his page, with a way back.
    player.wait_for_selector("[data-action=come-back]", timeout=30000)
    assert "You are paused" in player.locator(".arena-self").inner_text()

    # Staff pause and resume the arena from its page; the phone hears of both.
    staff.goto(url)
    staff.locator("[data-action=pause]").click()
    staff.wait_for_selector("[data-action=resume]")
    phone.wait_for_selector(".tournament-paused", timeout=10000)
    phone.screenshot(path=str(artifacts / "arena-phone-paused.png"))
    staff.screenshot(path=str(artifacts / "arena-staff-paused.png"), full_page=True)
    staff.locator("[data-action=resume]").click()
    staff.wait_for_selector("[data-action=pause]")
    phone.wait_for_selector(".tournament-paused", state="detached", timeout=10000)

    # The window closes; the last matches finish; the final ranking arrives without a reload.
    phone.wait_for_function(f"() => ({GAMES})() >= 8", timeout=30000)
    shell(server, CLOSE_NOW.format(tid=tid))
    phone.wait_for_selector(".tournament-live[data-status=finished]", timeout=60000)
    assert phone.evaluate("window.__noReload") is True
    ranks = phone.locator("#leaderboard tbody tr .rank")
    assert [ranks.nth(i).inner_text() for i in range(ranks.count())] == ["1", "2", "3", "4", "5"]
    assert "Final ranking" in phone.locator(".arena-leaderboard h2").inner_text()
    assert games_on_board(phone) >= 8
    phone.screenshot(path=str(artifacts / "arena-phone-final.png"), full_page=True)
    player.wait_for_selector(".tournament-live[data-status=finished]", timeout=10000)
    player.screenshot(path=str(artifacts / "arena-desktop-final.png"), full_page=True)
    for page in (player, phone, staff):
        assert not page.js_errors
