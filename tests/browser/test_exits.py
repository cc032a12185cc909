"""The ways out of a match at the table, as a player meets them on a desktop and on a phone: "Play
now" against bots, the "Abort" button asks first (its dialog has the focus on Cancel; Escape
closes it), the aborted match says so and frees the player; the next match, once everyone has
moved, offers "Resign" instead, confirmed from the keyboard; and every page links to the game in
progress meanwhile, where "Play now" takes the player back instead of opening a second table."""
import re

import pytest

from .test_tables import step, wait_playing

pytestmark = pytest.mark.browser


def play_now(page, server, game):
    page.goto(server.url + "/")
    page.locator(f'.game-card[data-game="{game}"]').get_by_role("button", name=re.compile("Play now")).click()
    page.wait_for_url(re.compile(r"/table/\d+/$"))
    wait_playing(page)


def table_state(page, expression):
    return page.evaluate(f"() => {{ const m = window.tableClient.state.table.match; return {expression}; }}")


@pytest.mark.parametrize("size", [(1280, 860), (390, 844)], ids=["desktop", "phone"])
def test_abort_then_resign_with_confirmations_and_the_game_in_progress_link(server, new_page, artifacts, size):
    page = new_page(*size)
    play_now(page, server, "hearts")
    first = page.url
    # The deal starts with the pass: the player has not moved, so the match may be aborted.
    abort = page.locator("#exit-bar [data-action=abort]")
    abort.wait_for()
    assert page.locator("#exit-bar [data-action=resign]").count() == 0

    # Every other page links back to the game in progress; "Play now" takes him back there.
    page.goto(server.url + "/leaderboard/")
    link = page.locator("[data-in-progress]")
    assert link.get_attribute("href") == first.replace(server.url, "")
    play_now(page, server, "spades")
    assert page.url == first and "You have a game in progress" in page.locator(".messages").inner_text()

    abort = page.locator("#exit-bar [data-action=abort]")
    abort.click()
    dialog = page.locator("#exit-bar [role=alertdialog]")
    dialog.wait_for()
    assert "Nobody wins and it is not rated" in dialog.inner_text()
    page.wait_for_function("() => document.activeElement && document.activeElement.dataset.action === 'cancel-exit'")
    page.screenshot(path=str(artifacts / f"exit-abort-confirm-{size[0]}.png"))
    page.keyboard.press("Escape")                                   # changed his mind
    dialog.wait_for(state="detached")
    assert table_state(page, "m.over") is False
    abort.click()
    page.locator("[data-action=confirm-abort]").click()
    panel = page.locator(".result-panel[data-kind=match]")
    panel.wait_for()
    assert "Match aborted" in panel.inner_text() and "it is not rated" in panel.inner_text()
    assert table_state(page, "m.ended_by") == "aborted"
    assert page.locator("#exit-bar").is_hidden()
    page.goto(server.url + "/")
    assert page.locator("[data-in-progress]").count() == 0          # free again

    # A new match: once every seat has moved, "Resign" replaces "Abort".
    play_now(page, server, "hearts")
    assert page.url != first
    for _ in range(200):
        if not table_state(page, "m.abortable"):
            break
        step(page, "hearts")
        page.wait_for_timeout(50)
    assert table_state(page, "m.abortable") is False
    resign = page.locator("#exit-bar [data-action=resign]")
    resign.wait_for()
    page.wait_for_function("() => !window.tableClient.state.busy")  # no move of his on its way
    resign.focus()
    page.keyboard.press("Enter")                                    # the keyboard alone
    page.locator("#exit-bar [role=alertdialog]").wait_for()
    assert "You lose it at once" in page.locator("#exit-bar").inner_text()
    page.wait_for_function("() => document.activeElement && document.activeElement.dataset.action === 'cancel-exit'")
    page.keyboard.press("Shift+Tab")                                # from Cancel back to "Yes, resign"
    page.keyboard.press("Enter")
    panel = page.locator(".result-panel[data-kind=match]")
    panel.wait_for()
    assert "resigned" in panel.inner_text()
    assert table_state(page, "[m.ended_by, m.resigned]") == ["resigned", [0]]
    page.screenshot(path=str(artifacts / f"exit-resigned-{size[0]}.png"))
    assert not page.js_errors, page.js_errors


def test_a_claim_of_the_rest_asks_first_and_ends_the_deal_with_the_cards_shown(server, new_page, artifacts):
    from .test_tables import register
    page = new_page()
    me = register(page, server, "claim")
    suits = "SHDC"
    hands = [[r + suits[seat] for r in "23456789TJQKA"] for seat in range(4)]     # seat 0: every spade
    bids = [{"seat": s, "type": "bid", "tricks": 3} for s in range(4)]
    table_id = server.scenario({"owner": me, "game": "spades", "seats": ["me", "random", "random", "random"],
                                "dealer": 0, "hands": hands, "actions": bids})
    page.goto(f"{server.url}/table/{table_id}/")
    wait_playing(page)
    claim = page.locator("#exit-bar [data-action=claim-rest]")
    claim.wait_for()
    assert page.locator("#exit-bar [data-action=resign]").count() == 1     # everyone has bid
    claim.click()
    dialog = page.locator("#exit-bar [role=alertdialog]")
    dialog.wait_for()
    assert "Your cards are shown to everyone" in dialog.inner_text()
    page.locator("[data-action=confirm-claim]").click()
    note = page.locator(".result-panel[data-kind=deal] [data-claim-note]")
    note.wait_for()
    assert "claimed the remaining 13 tricks with 2S 3S" in note.inner_text() and "AS" in note.inner_text()
    page.screenshot(path=str(artifacts / "exit-claimed.png"))
    tricks = page.evaluate("() => window.tableClient.state.table.match.results[0].tricks")
    assert tricks == [13, 0, 0, 0]
    assert not page.js_errors, page.js_errors


def test_play_a_person_while_at_a_table_links_to_it_and_is_free_again_after_an_abort(server, new_page):
    from .test_tables import register
    page = new_page(390, 844)
    register(page, server, "pool")
    play_now(page, server, "sixtysix")
    table_url = page.url.replace(server.url, "")
    page.goto(server.url + "/")
    pool = page.locator("[data-pool-game=hearts]")
    pool.locator("[data-action=play-person]").click()
    error = pool.locator("[data-pool-error]")
    error.wait_for(state="visible")
    assert "already sit at a table" in error.inner_text()
    link = error.locator("[data-pool-table-link]")
    assert link.get_attribute("href") == table_url and link.inner_text() == "Go to your table"
    link.click()                                          # back at the table: abort frees him
    page.wait_for_url(server.url + table_url)
    page.locator("#exit-bar [data-action=abort]").click()
    page.locator("[data-action=confirm-abort]").click()
    page.locator(".result-panel[data-kind=match]").wait_for()
    page.goto(server.url + "/")
    page.locator("[data-pool-game=hearts] [data-action=play-person]").click()
    page.locator("[data-pool-game=hearts] [data-pool-waiting]").wait_for(state="visible")
    page.locator("[data-pool-game=hearts] [data-action=leave-pool]").click()
    assert not page.js_errors, page.js_errors
