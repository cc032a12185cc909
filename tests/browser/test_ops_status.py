"""The staff status page in Chromium: an administrator who runs no Prometheus sees the site's
numbers, and they follow the site without a reload (a table started meanwhile is counted)."""
import re
import uuid

import pytest

from .test_tables import PASSWORD

pytestmark = pytest.mark.browser

ADMIN = """
from accounts.models import User
User.objects.create_superuser({name!r}, "ops@example.com", {password!r})
print("ok")
"""
START_TABLE = """
from accounts.models import User
from games import services
owner = User.objects.create(username={name!r})
print(services.create_table(owner, "hearts", seats=["me", "random", "random", "random"], start=True).pk)
"""
CELL = "name => (document.querySelector(`[data-ops=\"${name}\"]`) || {}).textContent"


def test_staff_follow_the_sites_numbers_live(server, new_page, artifacts):
    name = f"ops{uuid.uuid4().hex[:6]}"
    server.shell(ADMIN.format(name=name, password=PASSWORD))
    page = new_page()
    page.goto(server.url + "/admin/login/")
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", PASSWORD)
    page.locator("input[type=submit]").click()
    page.wait_for_url(re.compile(r"/admin/$"))

    page.goto(server.url + "/staff/status/")
    assert page.locator("h1").inner_text() == "Site status"
    assert page.locator('[data-check="database"]').get_attribute("data-ok") == "1"
    assert page.locator('[data-ops="processes"] tbody tr[data-kind="web"]').count() == 1
    before = int(page.evaluate(CELL, "tables-hearts"))

    server.shell(START_TABLE.format(name=f"{name}-p"))
    # The page reads again every 5 s: the new table is counted, and a rate appears (two readings).
    page.wait_for_function(f"() => Number(({CELL})('tables-hearts')) === {before + 1}", timeout=20000)
    page.wait_for_function(f"() => /^[0-9.]+$/.test(({CELL})('bot-moves-rate'))", timeout=20000)
    assert page.js_errors == []
    page.screenshot(path=str(artifacts / "ops-status.png"), full_page=True)
