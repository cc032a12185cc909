"""A stalled connection (docs/PROTOCOL.md "Heartbeat"): a player's browser reaches the site through
a proxy that holds every packet (tests/stall_proxy.py), then through Chromium's own offline mode.
His page says "reconnecting" while it hears nothing and "reconnected" once it is back; his opponent
sees him away while the server's pings go unanswered, and back after. Nothing waits for a time:
each step waits for what the page shows, the proxy holds until the opponent has seen him away."""
import re
from types import SimpleNamespace

import pytest

from tests.stall_proxy import StallProxy

from .test_tables import register, wait_playing

pytestmark = pytest.mark.browser

CONN = "#conn-status"


def test_a_stalled_path_shows_reconnecting_and_the_opponent_sees_the_player_away(server, new_page):
    port = int(server.url.rsplit(":", 1)[1])
    with StallProxy(port) as proxy:
        ala, ola = new_page(), new_page()
        register(ala, server, "hb")
        ala.goto(f"{server.url}/play/sixtysix/")
        ala.select_option("select[name=seat_1]", "")
        ala.click("#create-table")
        ala.wait_for_url(re.compile(r"/table/\d+/"))
        table_id = int(re.search(r"/table/(\d+)/", ala.url).group(1))

        via_proxy = SimpleNamespace(url=proxy.url)
        register(ola, via_proxy, "hb")
        ola.goto(f"{proxy.url}/table/{table_id}/?sit=1")
        wait_playing(ola)
        wait_playing(ala)
        ola.wait_for_selector(f"{CONN}.conn-online")
        badge = ala.locator('.seat-box[data-seat="1"] .badge.leaver')
        assert badge.count() == 0

        proxy.hold()
        ola.wait_for_selector(f"{CONN}.conn-lost", timeout=15000)
        assert "reconnecting" in ola.locator(CONN).inner_text()
        assert "conn-lost" in ola.locator("#table-app").get_attribute("class")   # the hand takes no click
        badge.wait_for(timeout=20000)                   # the server closed the silent socket
        assert badge.inner_text().strip().startswith("away")
        proxy.release()
        ola.wait_for_selector(f"{CONN}.conn-reconnected", timeout=30000)
        assert ola.locator(CONN).inner_text() == "Reconnected"
        badge.wait_for(state="detached", timeout=15000)
        ola.wait_for_selector(f"{CONN}.conn-online", timeout=15000)

        # Chromium's offline mode keeps the socket open and carries nothing: the same story.
        ola.context.set_offline(True)
        ola.wait_for_selector(f"{CONN}.conn-lost", timeout=15000)
        ola.context.set_offline(False)
        ola.wait_for_selector(f"{CONN}.conn-reconnected", timeout=30000)
        assert ola.evaluate("() => window.tableClient.state.you") == 1
        for page in (ala, ola):
            assert not page.js_errors, page.js_errors
