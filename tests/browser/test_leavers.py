"""A player who leaves a two-player match: his opponent sees him away with the grace counting down,
then a "Claim the win" button, and wins with one click. The site runs with a short grace
(LEAVER_GRACE_SECONDS) of its own, so the other browser tests keep the default."""
import re

import pytest

from tests.embedded import embedded_site

from .test_tables import register, step, wait_playing

pytestmark = pytest.mark.browser

GRACE = 6


@pytest.fixture(scope="module")
def short_grace(tmp_path_factory):
    """A site of its own whose leavers' grace is GRACE seconds."""
    with embedded_site(tmp_path_factory.mktemp("leavers"), LEAVER_GRACE_SECONDS=str(GRACE)) as site:
        yield site


def test_the_opponent_of_a_player_who_left_claims_the_win(short_grace, new_page, artifacts):
    site = short_grace
    ala, ola = new_page(), new_page()
    register(ala, site, "ala")
    ala.goto(f"{site.url}/play/sixtysix/")
    ala.select_option("select[name=seat_1]", "")            # open for a player
    ala.click("#create-table")
    ala.wait_for_url(re.compile(r"/table/\d+/"))
    table_id = int(re.search(r"/table/(\d+)/", ala.url).group(1))
    ala.locator("#prompt").wait_for()

    register(ola, site, "ola")
    ola.goto(f"{site.url}/play/sixtysix/")
    ola.locator(f'tr[data-table="{table_id}"] [data-action=join]').click()
    ola.wait_for_url(re.compile(rf"/table/{table_id}/"))
    wait_playing(ola)
    wait_playing(ala)
    assert ola.evaluate("() => window.tableClient.state.you") == 1
    # Both make their first move: a match left before that is aborted, not won (tests/games/actions/test_exits.py).
    abortable = "() => window.tableClient.state.table.match.abortable"
    for _ in range(200):
        if not ala.evaluate(abortable) and not ola.evaluate(abortable):
            break
        step(ala, "sixtysix") or step(ola, "sixtysix")
    assert not ala.evaluate(abortable)

    ola.close()                                             # he leaves: his socket closes
    badge = ala.locator('.seat-box[data-seat="1"] .badge.leaver')
    badge.wait_for()
    assert re.fullmatch(r"away \d:\d\d", badge.inner_text().strip()), badge.inner_text()
    bar = ala.locator("#leaver-bar")
    assert "can claim the win in" in bar.inner_text()
    assert ala.locator("[data-action=claim-win]").count() == 0     # not before the grace is over
    ala.screenshot(path=str(artifacts / "leaver-away.png"))
    claim = ala.locator("[data-action=claim-win]")
    claim.wait_for(timeout=(GRACE + 5) * 1000)
    assert "has not come back" in bar.inner_text()
    assert badge.inner_text().strip() == "away"
    ala.screenshot(path=str(artifacts / "leaver-claim.png"))

    claim.click()
    panel = ala.locator(".result-panel[data-kind=match]")
    panel.wait_for()
    text = panel.inner_text()
    assert "left the match and did not come back" in text and ala.locator("#leaver-bar").is_hidden()
    state = ala.evaluate("() => { const t = window.tableClient.state.table;"
                         " return {status: t.status, winners: t.match.winners, ended_by: t.match.ended_by}; }")
    assert state == {"status": "finished", "winners": [0], "ended_by": "abandoned"}
    ala.screenshot(path=str(artifacts / "leaver-claimed.png"))
    assert not ala.js_errors, ala.js_errors
