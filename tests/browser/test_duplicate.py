"""A duplicate Sixty-six tournament in a real browser: the page shows the round's commitment while
it is played and, once every table has finished, the seed and each board's comparison (desktop and
phone); "Verify this deal" checks a table's deals against the round's seed and label."""
import json
import uuid

import pytest

pytestmark = pytest.mark.browser

SETUP = """
import json
from datetime import timedelta
from django.utils import timezone
from accounts.models import User
from tournaments import services
from tournaments.models import Tournament
t = Tournament.objects.create(name={name!r}, game="sixtysix", variant="kurnik", format="duplicate", rounds=1,
                              boards=2, starts_at=timezone.now() + timedelta(hours=1), bank_seconds=120,
                              increment_seconds=0, min_entries=2, bot_level="random")
for i in range(4):
    services.register(t.pk, User.objects.create(username=f"{name}-{{i}}", is_bot=True, bot_level="random"))
print(t.pk)
"""

START_NOW = """
from django.utils import timezone
from tournaments.models import Tournament
print(Tournament.objects.filter(pk={tid}).update(starts_at=timezone.now()))
"""

ROUND = """
import json
from tournaments.models import Game, Round
r = Round.objects.filter(tournament_id={tid}).first()
games = list(Game.objects.filter(round=r).select_related("table__match")) if r else []
print(json.dumps(r and {{"seed": r.seed, "commitment": r.commitment,
                        "matches": [g.table.match.pk for g in games], "tables": [g.table_id for g in games]}}))
"""


def test_the_duplicate_page_reveals_the_boards_after_the_round_and_the_deals_verify(server, new_page, artifacts):
    name = f"dup{uuid.uuid4().hex[:6]}"
    tid = int(server.shell(SETUP.format(name=name)))
    page = new_page(1280, 860)
    page.goto(f"{server.url}/tournaments/{tid}/")
    page.evaluate("window.__noReload = true")
    # It starts once the page is open (the site's tick starts it), not at a time a slow machine's
    # page load could miss.
    server.shell(START_NOW.format(tid=tid))
    page.wait_for_selector(".tournament-round[data-round='1'] .duplicate-round", timeout=30000)
    rnd = json.loads(server.shell(ROUND.format(tid=tid)))
    assert rnd["commitment"] in page.content()
    assert "Schedule and rules" in page.content() and "matchpoints" in page.locator(".tournament-rules").inner_text()

    page.wait_for_selector(".tournament-live[data-status=finished]", timeout=60000)
    assert page.evaluate("window.__noReload") is True
    assert page.locator("[data-round-seed=revealed]").count() == 1
    assert rnd["seed"] in page.content()
    boards = page.locator("[data-duplicate-board]")
    assert boards.count() == 2
    first = boards.first
    assert first.locator("tbody.duplicate-hand").count() == 2            # both hands, each at both tables
    assert first.locator("tbody.duplicate-hand tr").count() == 2 * 3
    assert page.locator("#standings tbody tr").count() == 4
    assert not page.js_errors, page.js_errors
    page.screenshot(path=str(artifacts / "duplicate-final-desktop.png"), full_page=True)

    phone = new_page(390, 844)
    phone.goto(f"{server.url}/tournaments/{tid}/")
    phone.locator("[data-duplicate-board]").first.wait_for()
    assert phone.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    phone.screenshot(path=str(artifacts / "duplicate-final-phone.png"), full_page=True)

    # The table itself says it plays a fixed number of boards, not to a target.
    table = new_page(1280, 860)
    table.goto(f"{server.url}/table/{rnd['tables'][0]}/")
    table.wait_for_selector(".score-goal")
    assert "board 2 of 2" in table.locator(".score-goal").first.inner_text()
    assert not table.js_errors, table.js_errors
    table.screenshot(path=str(artifacts / "duplicate-table.png"))

    match_id = rnd["matches"][1]
    verify = new_page(1280, 860)
    verify.goto(f"{server.url}/match/{match_id}/verify/")
    verify.wait_for_function("() => document.getElementById('verify').dataset.state !== 'running'")
    assert verify.locator("#verify").get_attribute("data-state") == "verified"
    assert verify.locator('.verify-deal[data-verdict="ok"]').count() == 2
    assert f"round:{tid}-1" in verify.locator(".verify-deal#deal-1 .verify-checks").inner_text()
    assert rnd["seed"] in verify.locator(".verify-deal#deal-1 .verify-seeds").inner_text()
    assert not verify.js_errors, verify.js_errors
    verify.screenshot(path=str(artifacts / "duplicate-verify.png"), full_page=True)
