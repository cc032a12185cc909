"""Staff create a tournament on /tournaments/new/ (not the admin): the list links to it, the form
shows the chosen game's variants and the chosen format's settings, times are the browser's local
times, and a value the format refuses (the arena's minimum length) is shown before submitting."""
import json
import uuid
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from playwright.sync_api import expect

from .test_tables import register

pytestmark = pytest.mark.browser

MAKE_STAFF = """
from accounts.models import User
User.objects.filter(username={name!r}).update(is_staff=True)
print(1)
"""

CREATED = """
import json
from tournaments.models import Tournament
t = Tournament.objects.get(name={tname!r})
print(json.dumps({{"starts_at": t.starts_at.isoformat(), "game": t.game, "variant": t.variant, "format": t.format,
                   "arena_minutes": t.arena_minutes, "bank": t.bank_seconds, "inc": t.increment_seconds}}))
"""


@pytest.mark.parametrize("width,height", [(1280, 860), (390, 844)], ids=["desktop", "phone"])
def test_staff_create_a_tournament_in_their_local_time(server, browser, artifacts, width, height):
    ctx = browser.new_context(viewport={"width": width, "height": height}, timezone_id="Asia/Tokyo",
                              reduced_motion="reduce")
    ctx.set_default_timeout(15000)
    page = ctx.new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        name = register(page, server, prefix="staff")
        page.goto(server.url + "/tournaments/")
        expect(page.locator("#new-tournament")).to_have_count(0)        # not staff yet
        server.shell(MAKE_STAFF.format(name=name))
        page.reload()
        page.locator("#new-tournament").click()
        page.wait_for_url(server.url + "/tournaments/new/")
        expect(page.locator("#zone-note [data-zone]")).to_have_text("Asia/Tokyo")

        tname = f"Night Arena {uuid.uuid4().hex[:4]}"
        page.fill("input[name=name]", tname)
        page.select_option("select[name=game]", "sixtysix")
        variants = page.locator("select[name=variant] option:not([disabled])")
        expect(variants).to_have_count(3)          # the game's own variants only
        page.select_option("select[name=variant]", "schnapsen")
        page.select_option("select[name=format]", "arena")
        expect(page.locator("[data-setting=rounds]")).to_be_hidden()
        expect(page.locator("[data-setting=arena_minutes]")).to_be_visible()
        page.select_option("select[name=time_control]", "180+3")
        starts = (datetime.now(ZoneInfo("Asia/Tokyo")) + timedelta(days=1)).replace(second=0, microsecond=0)
        page.fill("input[name=starts_at]", starts.strftime("%Y-%m-%dT%H:%M"))
        page.fill("input[name=min_entries]", "2")
        page.fill("input[name=arena_minutes]", "3")
        page.locator("input[name=arena_minutes]").dispatch_event("change")
        expect(page.locator("#arena_minutes-errors")).to_have_text("Between 5 and 720 minutes.")
        page.screenshot(path=str(artifacts / f"tournament-new-error-{width}.png"), full_page=True)
        page.locator("#tournament-new button[type=submit]").click()
        expect(page.locator("input[name=arena_minutes]")).to_be_focused()
        assert page.url == server.url + "/tournaments/new/"              # not submitted

        page.fill("input[name=arena_minutes]", "30")
        page.locator("input[name=arena_minutes]").dispatch_event("change")
        expect(page.locator("#arena_minutes-errors li")).to_have_count(0)
        page.locator("#tournament-new button[type=submit]").click()
        page.wait_for_url(f"{server.url}/tournaments/*/")
        expect(page.locator("h1")).to_contain_text(tname)
        # Its page and the list show the start in the same local time (the server renders UTC).
        local = starts.strftime("%Y-%m-%d %H:%M")
        expect(page.locator("#tournament-live time[data-local]").first).to_have_text(local)
        page.goto(server.url + "/tournaments/")
        row = page.locator("tr", has_text=tname)
        expect(row.locator("time[data-local]:visible").first).to_have_text(local)
        expect(row.locator("time[data-local]:visible").first).to_have_attribute("title", "Asia/Tokyo")

        made = json.loads(server.shell(CREATED.format(tname=tname)))
        assert datetime.fromisoformat(made["starts_at"]) == starts
        assert {k: made[k] for k in ("game", "variant", "format", "arena_minutes", "bank", "inc")} == {
            "game": "sixtysix", "variant": "schnapsen", "format": "arena", "arena_minutes": 30, "bank": 180, "inc": 3}
        assert errors == []
    finally:
        ctx.close()
