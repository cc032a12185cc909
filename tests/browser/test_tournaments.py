"""Browser journey: an admin creates a tournament in the Django admin, players register on its
page, and the page follows the rounds live (no reload) to the final ranking. The two registered
players never open their tables, so they lose by the clocks; two bot entrants play."""
import json
import uuid
from datetime import datetime, timedelta, timezone

import pytest

from .test_tables import PASSWORD, register

pytestmark = pytest.mark.browser

SETUP = """
import json
from accounts.models import User
admin = User.objects.create_superuser({name!r}, "admin@example.com", {password!r})
bots = [User.objects.create(username=f"{name}-bot{{i}}", is_bot=True, bot_level="random") for i in range(2)]
print(json.dumps([b.pk for b in bots]))
"""

REGISTER_BOTS = """
from accounts.models import User
from tournaments import services
from tournaments.models import Tournament
t = Tournament.objects.get(name={tname!r})
for pk in {bots!r}:
    services.register(t.pk, User.objects.get(pk=pk))
print(t.pk)
"""

# Registration is open until the start: the test registers with the start an hour off, then brings
# it near, so a slow machine's page loads cannot race the clock. The site's sweep starts it.
START_SOON = """
from datetime import timedelta
from django.utils import timezone
from tournaments.models import Tournament
Tournament.objects.filter(pk={tid}).update(starts_at=timezone.now() + timedelta(seconds=3))
print({tid})
"""


def shell(server, code):
    """The JSON a block of code prints, run against the site's database by its shell."""
    return json.loads(server.shell(code))


def test_it_runs_a_tournament_an_admin_created_while_the_page_follows_it(server, new_page, artifacts):
    admin_name = f"admin{uuid.uuid4().hex[:6]}"
    bots = shell(server, SETUP.format(name=admin_name, password=PASSWORD))
    tname = f"Evening Swiss {uuid.uuid4().hex[:4]}"
    starts = datetime.now(timezone.utc) + timedelta(hours=1)

    admin = new_page()
    admin.goto(server.url + "/admin/login/")
    admin.fill("input[name=username]", admin_name)
    admin.fill("input[name=password]", PASSWORD)
    admin.locator("input[type=submit]").click()
    admin.goto(server.url + "/admin/tournaments/tournament/add/")
    admin.fill("input[name=name]", tname)
    admin.select_option("select[name=game]", "sixtysix")
    admin.fill("input[name=variant]", "kurnik")
    admin.select_option("select[name=format]", "swiss")
    admin.fill("input[name=rounds]", "2")
    admin.fill("input[name=starts_at_0]", starts.strftime("%Y-%m-%d"))
    admin.fill("input[name=starts_at_1]", starts.strftime("%H:%M:%S"))
    admin.fill("input[name=bank_seconds]", "10")
    admin.fill("input[name=increment_seconds]", "0")
    admin.fill("input[name=min_entries]", "4")
    admin.fill("input[name=break_seconds]", "2")
    admin.locator("input[name=_save]").click()
    admin.wait_for_selector("ul.messagelist li.success")
    tid = shell(server, REGISTER_BOTS.format(tname=tname, bots=bots))

    players = []
    for _ in range(2):
        page = new_page()
        name = register(page, server, prefix="t")
        page.goto(server.url + "/tournaments/")
        page.get_by_role("link", name=tname).click()
        page.locator("[data-action=register]").click(timeout=60_000)
        page.wait_for_selector("[data-action=withdraw]", timeout=60_000)   # the registration's round trip on a loaded machine
        assert name in page.locator("#entry-list").inner_text()
        players.append(page)

    page = players[0]
    page.evaluate("window.__noReload = true")
    page.wait_for_selector(".tournament-live[data-status=scheduled]")
    page.screenshot(path=str(artifacts / "tournament-registered.png"))
    shell(server, START_SOON.format(tid=tid))
    # The start, round 1, round 2 and the final ranking arrive through the socket.
    page.wait_for_selector(".tournament-round[data-round='1']", timeout=45000)
    assert page.locator("[data-action=register], [data-action=withdraw]").count() == 0
    watch = page.locator(".tournament-round[data-round='1'] a.btn").first
    assert "/table/" in watch.get_attribute("href")
    page.wait_for_selector(".tournament-round[data-round='2']", timeout=45000)
    page.screenshot(path=str(artifacts / "tournament-round-2.png"))
    page.wait_for_selector(".tournament-live[data-status=finished]", timeout=45000)
    assert page.evaluate("window.__noReload") is True
    ranking = page.locator("#standings tbody tr")
    assert ranking.count() == 4
    assert [ranking.nth(i).locator(".rank").inner_text() for i in range(4)] == ["1", "2", "3", "4"]
    page.screenshot(path=str(artifacts / "tournament-final.png"), full_page=True)
    assert not page.js_errors
    # The other player's page followed too.
    players[1].wait_for_selector(".tournament-live[data-status=finished]", timeout=10000)
    assert tid
