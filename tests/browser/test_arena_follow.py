"""Two players in an arena, from one match to the next without a dead end: staff start it, both
pages go to their table; neither moves, so the first to act loses on time. At the finished table
neither is offered a rematch (the tournament pairs the next match); the loser is told he is paused
and why, with one button to come back; when he does, the arena pairs them again and BOTH tables'
pages go to the new table by themselves, the winner's with the turn's chime (docs/PROTOCOL.md
"Tournament tables"). Nothing waits for a wall-clock time: every step waits for what a page shows."""
import re
import uuid
from datetime import datetime, timedelta, timezone

import pytest

from .test_tables import PASSWORD, register, wait_playing
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
    arena_minutes=10, starts_at=datetime.fromisoformat({starts!r}), bank_seconds=10, increment_seconds=0,
    min_entries=2, max_entries=16)
for name in {players!r}:
    services.register(t.pk, User.objects.get(username=name))
print(json.dumps(t.pk))
"""

TABLE = re.compile(r"/table/(\d+)/")

# Every sound the page asks for, kept in the tab's sessionStorage so the next page can tell.
SPY = """() => { const s = window.tableClient.fx.sound, play = s.play;
  s.play = (name) => { sessionStorage.setItem("sounds", (sessionStorage.getItem("sounds") || "") + name + " ");
                       return play(name); }; }"""


def table_of(page) -> int:
    return int(TABLE.search(page.url).group(1))


def test_an_arena_takes_both_players_to_their_next_table_and_a_paused_one_back_in(server, new_page, artifacts):
    admin = f"arf{uuid.uuid4().hex[:6]}"
    ala, ola = new_page(), new_page()
    names = [register(ala, server, "af"), register(ola, server, "af")]
    starts = datetime.now(timezone.utc) + timedelta(hours=1)
    tid = shell(server, SETUP.format(admin=admin, password=PASSWORD, name=f"Follow {uuid.uuid4().hex[:4]}",
                                     starts=starts.isoformat(), players=names))
    url = f"{server.url}/tournaments/{tid}/"
    for page in (ala, ola):
        page.goto(url)
        page.wait_for_selector("[data-action=withdraw]")

    staff = new_page()
    staff.goto(server.url + "/admin/login/")
    staff.fill("input[name=username]", admin)
    staff.fill("input[name=password]", PASSWORD)
    staff.locator("input[type=submit]").click()
    staff.wait_for_url(re.compile(r"/admin/$"))
    staff.goto(url)
    staff.locator("[data-action=start-now]").click()

    for page in (ala, ola):
        page.wait_for_url(TABLE, timeout=30000)
        wait_playing(page)
        page.evaluate(SPY)
    first = table_of(ala)
    assert table_of(ola) == first

    # Nobody moves: the first to act loses on time. Both pages learn where they stand.
    boxes = {}
    for page in (ala, ola):
        page.locator(".result-panel[data-kind=match]").wait_for(timeout=30000)
        box = page.locator("#tournament-next")
        box.wait_for(timeout=15000)
        boxes[page] = box
    paused = [p for p in (ala, ola) if boxes[p].get_attribute("data-paused") == "yes"]
    waiting = [p for p in (ala, ola) if boxes[p].get_attribute("data-paused") == "no"]
    assert len(paused) == 1 and len(waiting) == 1, [boxes[p].get_attribute("data-paused") for p in (ala, ola)]
    loser, winner = paused[0], waiting[0]
    assert "your clock ran out or you left your last match" in boxes[loser].inner_text()
    assert "Your next match starts as soon as an opponent is free" in boxes[winner].inner_text()
    for page in (ala, ola):
        assert page.locator("[data-action=rematch]").count() == 0      # no rematch at a tournament's table
        back = page.locator(".result-panel[data-kind=match] a.btn.primary")
        assert back.inner_text() == "Back to the tournament" and back.get_attribute("href").endswith(f"/tournaments/{tid}/")
    assert winner.url.endswith(f"/table/{first}/")                    # no one free to play: he waits here
    loser.screenshot(path=str(artifacts / "arena-follow-paused.png"))
    winner.screenshot(path=str(artifacts / "arena-follow-waiting.png"))

    # One click brings the loser back; the arena pairs them again and both pages follow.
    loser.locator("#tournament-next [data-action=come-back]").click()
    for page in (winner, loser):
        page.wait_for_url(lambda u: (m := TABLE.search(u)) is not None and int(m.group(1)) != first, timeout=45000)
        wait_playing(page)
    assert table_of(winner) == table_of(loser)
    assert "turn" in winner.evaluate("() => sessionStorage.getItem('sounds') || ''").split()
    for page in (ala, ola):
        assert not page.js_errors, page.js_errors
