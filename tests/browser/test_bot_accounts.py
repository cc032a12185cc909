"""Browser journey of the bot API's pages: a person makes a bot account and a token (shown once),
its "BOT" badge in the lobby, at the table, on its profile and the bot leaderboard, and a player
challenging it from its profile, on desktop and phone sizes. Screenshots in tests/browser/artifacts."""
import re

import pytest

from .test_tables import register

pytestmark = pytest.mark.browser

SEAT_AND_RATE = """
from accounts.models import User
from games import services
from ratings.models import Rating
robo = User.objects.get(username="{name}")
owner = User.objects.create_user("owner{name}", password="x-Secret-123")
t = services.create_table(owner, "hearts", seats=["me", "", "basic", "basic"], bots_allowed=True, start=False)
services.sit(t.pk, robo, 1)
Rating.objects.create(user=robo, game="hearts", variant="standard", display=1612, games=4)
print(t.pk)
"""


@pytest.mark.parametrize("width,height", [(1280, 860), (390, 844)])
def test_a_bot_account_is_made_and_marked_everywhere(server, new_page, artifacts, width, height):
    page = new_page(width, height)
    name = register(page, server, "bot")
    page.goto(server.url + "/bot/")
    page.check("input[name=confirm]")
    page.locator("[data-action=become-bot]").click()
    page.fill("input[name=name]", "laptop")
    page.locator("[data-action=create-token]").click()
    token = page.locator("#new-token").inner_text()
    assert re.fullmatch(r"cr_[\w-]{43}", token)
    page.screenshot(path=str(artifacts / f"bot_account_{width}.png"), full_page=True)
    page.goto(server.url + "/bot/")     # the token was only in the form's answer: never again
    assert page.locator("#new-token").count() == 0 and page.locator("tr[data-token]").count() == 1

    table_id = server.shell(SEAT_AND_RATE.format(name=name))
    lobby = new_page(width, height)
    lobby.goto(server.url + "/play/hearts/")
    row = lobby.locator(f'tr[data-table="{table_id}"]')
    row.locator(".badge.bot-account").wait_for()
    assert row.locator(".tag.bots-allowed").count() == 1
    lobby.screenshot(path=str(artifacts / f"bot_lobby_{width}.png"), full_page=True)
    lobby.goto(f"{server.url}/table/{table_id}/")
    lobby.locator(".seat-box .badge.bot-account").first.wait_for()
    lobby.screenshot(path=str(artifacts / f"bot_table_{width}.png"))
    lobby.goto(f"{server.url}/leaderboard/bots/hearts/standard/")
    assert lobby.locator(f'.leaderboard tr:has(a[href$="/u/{name}/"]) .badge.bot-account').count() == 1
    lobby.screenshot(path=str(artifacts / f"bot_leaderboard_{width}.png"), full_page=True)

    challenger = new_page(width, height)
    register(challenger, server, "ch")
    challenger.goto(f"{server.url}/accounts/u/{name}/")
    assert challenger.locator("h1 .badge.bot-account").count() == 1
    challenger.screenshot(path=str(artifacts / f"bot_profile_{width}.png"), full_page=True)
    challenger.select_option("select[name=game]", "sixtysix")
    challenger.locator("[data-action=challenge]").click()
    challenger.locator("#challenge-status").wait_for()
    assert challenger.locator("[data-action=cancel-challenge]").count() == 1
    challenger.screenshot(path=str(artifacts / f"bot_challenge_{width}.png"), full_page=True)
    assert not page.js_errors and not lobby.js_errors and not challenger.js_errors
