"""Browser: a puzzle solved on a desktop and one failed on a phone (tests/puzzles has the known
position: TD wins, 9H loses). Screenshots of both; axe-core without serious violations; the phone
page never scrolls sideways; the home page offers the puzzle of the day."""
import pytest

from .test_accessibility import assert_accessible, axe_source  # noqa: F401 (fixture)
from .test_home import no_sideways_scroll
from .test_tables import register

pytestmark = pytest.mark.browser

MAKE = """
from games.engine.core import Match as EngineMatch
from puzzles import demo, services
from puzzles.models import Puzzle
from tests.puzzles.test_puzzles import finished_record
m = demo.store_match("sixtysix", EngineMatch.start("sixtysix", first_dealer=0), [finished_record()])
services.extract_match(m.pk)
print(Puzzle.objects.get(match=m).pk)
"""


def test_a_puzzle_solved_on_a_desktop_and_one_failed_on_a_phone(server, new_page, artifacts, axe_source):  # noqa: F811
    solved_id = int(server.shell(MAKE))
    failed_id = int(server.shell(MAKE))

    page = new_page(1280, 860)
    register(page, server, "pz")
    assert page.locator("[data-action=daily-puzzle]").count() == 1         # on the home page
    page.goto(f"{server.url}/puzzles/")
    page.locator(f'tr[data-puzzle="{solved_id}"] a').click()
    page.wait_for_url(f"**/puzzles/{solved_id}/")
    hand = page.locator('.replay-seat[data-pos=bottom] button.card')
    assert sorted(hand.evaluate_all("cs => cs.map(c => c.dataset.card)")) == ["9H", "TD"]
    assert page.locator('.replay-seat[data-pos=top] .card').count() == 2      # the other hand, open
    page.screenshot(path=str(artifacts / "puzzle-desktop-start.png"), full_page=True)
    assert_accessible(page, axe_source, "a puzzle to solve")
    page.locator('.replay-seat[data-pos=bottom] button.card[data-card=TD]').click()
    page.locator("#puzzle[data-status=solved]").wait_for()
    assert "Solved" in page.locator("#puzzle-message").inner_text()
    assert "1500 →" in page.locator("#puzzle-rating").inner_text()
    source = page.locator("#puzzle-source")
    assert source.is_visible() and "/deal/1/" in source.get_attribute("href")
    page.screenshot(path=str(artifacts / "puzzle-desktop-solved.png"), full_page=True)
    assert_accessible(page, axe_source, "a solved puzzle")
    source.click()
    page.wait_for_url("**/deal/1/")

    phone = new_page(390, 844)
    register(phone, server, "pf")
    phone.goto(f"{server.url}/puzzles/{failed_id}/")
    phone.locator('.replay-seat[data-pos=bottom] button.card[data-card="9H"]').click()
    phone.locator("#puzzle[data-status=failed]").wait_for()
    assert "Not the best play" in phone.locator("#puzzle-message").inner_text()
    assert "10♦" in phone.locator("#puzzle-solution").inner_text()           # the answer is shown
    no_sideways_scroll(phone)
    phone.screenshot(path=str(artifacts / "puzzle-phone-failed.png"), full_page=True)
    assert_accessible(phone, axe_source, "a failed puzzle on a phone")
    # Another try: not rated, solved.
    phone.locator("[data-action=retry]").click()
    phone.locator("#puzzle[data-status=playing]").wait_for()
    phone.locator('.replay-seat[data-pos=bottom] button.card[data-card="TD"]').click()
    phone.locator("#puzzle[data-status=solved]").wait_for()
    assert "Not rated" in phone.locator("#puzzle-rating").inner_text()


DEMO = """
from puzzles import demo
from puzzles.models import Puzzle
demo.ensure(per_game=1)
print(Puzzle.objects.filter(game="hearts").first().pk)
"""


def test_a_hearts_puzzle_shows_four_open_hands_on_a_phone(server, new_page, artifacts, axe_source):  # noqa: F811
    puzzle_id = int(server.shell(DEMO))
    phone = new_page(390, 844)
    register(phone, server, "ph")
    phone.goto(f"{server.url}/puzzles/{puzzle_id}/")
    phone.locator("#puzzle[data-status=new]").wait_for()
    for pos in ("bottom", "left", "top", "right"):
        assert phone.locator(f".replay-seat[data-pos={pos}] .card").count() >= 1
    assert phone.locator(".replay-seat[data-pos=bottom] button.card").count() >= 2
    assert phone.locator(".replay-seat[data-pos=top] .replay-name").inner_text() == "Across"   # no partners
    no_sideways_scroll(phone)
    phone.screenshot(path=str(artifacts / "puzzle-phone-hearts.png"), full_page=True)
    assert_accessible(phone, axe_source, "a hearts puzzle on a phone")
