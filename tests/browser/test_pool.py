""""Play a person" in the browser (embedded mode): two players pressing it in the same pool, one
from the home page and one from the lobby, are sent to one new rated table; the lobby shows the
first one waiting, live; a third, alone in his pool, is offered a bot after the wait and takes it
by choice. Screens of the home page and the lobby with the pool, desktop and phone, checked by axe."""
import json
import re

import pytest

from .conftest import ARTIFACTS
from .test_accessibility import BLOCKING, AXE, describe
from .test_tables import register
from tests.services import require

PAIRS = "sixtysix/schnapsen/180+3"
ALONE = "hearts/jack_of_diamonds/180+3"
TABLE = re.compile(r"/table/(\d+)/")


def accessible(page, what):
    require(AXE.exists(), "axe-core is not installed (npm ci)")
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.evaluate(AXE.read_text())
    result = page.evaluate("() => axe.run(document, {resultTypes: ['violations']})")
    bad = [v for v in result["violations"] if v["impact"] in BLOCKING]
    assert not bad, f"{what}: axe found serious or critical violations:\n{describe(bad)}"
    assert page.js_errors == []


def shot(page, name):
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"pool-{name}.png"), full_page=True)


def panel(page, game):
    return page.locator(f"[data-pool-game={game}]")


def count_of(page, key):
    return page.locator(f'[data-pool-count="{key}"] [data-count]')


def join(page, game, key, wait=True):
    p = panel(page, game)
    p.locator("[data-pool-select]").select_option(key)
    p.locator("[data-action=play-person]").click()
    if wait:            # (the second of a pair is paired at once: he goes straight to the table)
        p.locator("[data-pool-waiting]").wait_for(state="visible")
    return p


def test_two_browsers_are_paired_and_a_third_is_offered_a_bot(server, new_page):
    ala, bob = new_page(), new_page(390, 844)
    register(ala, server, prefix="pa")
    register(bob, server, prefix="pb")
    bob.goto(f"{server.url}/play/sixtysix/")
    bob.wait_for_function("() => document.querySelector('#lobby-conn').classList.contains('conn-online')")

    waiting = join(ala, "sixtysix", PAIRS)
    assert "Looking for a person" in waiting.locator("[data-pool-status]").inner_text()
    count_of(bob, PAIRS).filter(has_text="1").wait_for()        # the lobby's count, live
    shot(ala, "home-waiting-desktop")
    shot(bob, "lobby-count-phone")
    accessible(ala, "home with a player waiting (desktop)")
    accessible(bob, "lobby with the pool's count (phone)")

    join(bob, "sixtysix", PAIRS, wait=False)
    ala.wait_for_url(TABLE)
    bob.wait_for_url(TABLE)
    table_id = TABLE.search(ala.url).group(1)
    assert TABLE.search(bob.url).group(1) == table_id
    seen = json.loads(server.shell(
        "import json; from games.models import Table; t = Table.objects.get(pk=%s); "
        "print(json.dumps({'rated': t.rated, 'variant': t.variant, 'bank': t.bank_seconds, "
        "'people': sorted(s.user.username for s in t.seats.all() if not s.user.is_bot)}))" % table_id))
    assert seen["rated"] and seen["variant"] == "schnapsen" and seen["bank"] == 180
    assert len(seen["people"]) == 2

    cat = new_page(390, 844)
    register(cat, server, prefix="pc")
    shot(cat, "home-phone")
    accessible(cat, "home with the pool (phone)")
    alone = join(cat, "hearts", ALONE)
    offer = alone.locator("[data-pool-offer]")
    offer.wait_for(state="visible", timeout=90000)      # after POOL_BOT_OFFER_SECONDS alone in the pool
    assert cat.url.endswith("/")                        # offered, not moved: the choice is his
    shot(cat, "bot-offer-phone")
    accessible(cat, "the bot offer (phone)")
    offer.locator("[data-pool-level]").select_option("basic")
    offer.locator("[data-action=play-bot]").click()
    cat.wait_for_url(TABLE)
    bots = json.loads(server.shell(
        "import json; from games.models import Table; t = Table.objects.get(pk=%s); "
        "print(json.dumps({'rated': t.rated, 'bots': sum(s.user.is_bot for s in t.seats.all())}))"
        % TABLE.search(cat.url).group(1)))
    assert bots == {"rated": False, "bots": 3}


def test_the_lobby_and_the_home_page_show_the_pools_on_a_desktop(server, new_page):
    page = new_page()
    page.goto(f"{server.url}/play/hearts/")
    panel(page, "hearts").wait_for()
    shot(page, "lobby-visitor-desktop")
    accessible(page, "lobby with the pool (desktop, visitor)")
    register(page, server, prefix="pd")
    shot(page, "home-desktop")
    accessible(page, "home with the pools (desktop)")
    page.goto(f"{server.url}/play/hearts/")
    panel(page, "hearts").locator("[data-action=play-person]").wait_for()
    shot(page, "lobby-desktop")
    accessible(page, "lobby with the pool (desktop)")
