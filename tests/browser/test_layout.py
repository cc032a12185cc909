"""Layout a new user meets, measured in the browser on a desktop and a phone: a 150-character name
(the model allows it; the register form no longer does) must not push the lobby's Join/Watch out of
sight nor stretch the header, a long word must not scroll the chat sideways, and a link styled as a
button centers its text like a <button>."""
import json
import uuid

import pytest

pytestmark = pytest.mark.browser

PASSWORD = "Card-room-test-9"
VIEWPORTS = {"desktop": (1280, 800), "phone": (390, 844)}

MAKE_SEATED_USER = """
import json
from accounts.models import User
from games import services
u = User.objects.create_user(username={name!r}, password={password!r})
t = services.create_table(u, "hearts", seats=["me", "", "basic", ""])
print(json.dumps({{"table_id": t.pk}}))
"""


@pytest.fixture(scope="module")
def long_named(server):
    """A user with a 150-character name, seated at a waiting Hearts table with open seats."""
    name = ("L" + uuid.uuid4().hex).ljust(150, "o")
    out = json.loads(server.shell(MAKE_SEATED_USER.format(name=name, password=PASSWORD)))
    return name, out["table_id"]


def log_in(page, server, name):
    page.goto(server.url + "/accounts/login/")
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(server.url + "/")


def inside(box, width):
    return box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5


def horizontal_overflow(page, selector):
    return page.eval_on_selector(selector, "n => n.scrollWidth - n.clientWidth")


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_it_keeps_join_and_watch_in_sight_beside_a_150_character_name(server, new_page, long_named,
                                                                     viewport, artifacts):
    name, table_id = long_named
    width, height = VIEWPORTS[viewport]
    visitor = new_page(width, height)         # another player: may join or watch
    visitor.goto(server.url + "/play/hearts/")
    row = visitor.locator(f"#lobby-rows tr[data-table='{table_id}']")
    row.locator("[data-action=join]").wait_for()
    for action in ("join", "watch"):
        box = row.locator(f"[data-action={action}]").bounding_box()
        assert inside(box, width), (action, box)
    assert visitor.evaluate("document.documentElement.scrollWidth") <= width

    page = new_page(width, height)            # the long-named player himself: back to his table
    log_in(page, server, name)
    page.goto(server.url + "/play/hearts/")
    row = page.locator(f"#lobby-rows tr[data-table='{table_id}']")
    row.locator("[data-action=mine]").wait_for()
    page.screenshot(path=str(artifacts / f"lobby-long-name-{viewport}.png"), full_page=True)
    assert inside(row.locator("[data-action=mine]").bounding_box(), width)
    assert page.evaluate("document.documentElement.scrollWidth") <= width

    # Read in one step in the page: the lobby may redraw its rows between two separate reads.
    page.wait_for_function("""([id, prefix, width]) => {
        const row = document.querySelector(`#lobby-rows tr[data-table='${id}']`);
        const chip = row && [...row.querySelectorAll(".seat-chip")].find(c => c.textContent.includes(prefix));
        if (!chip) return false;
        const box = chip.getBoundingClientRect();
        return box.width > 0 && box.left >= 0 && box.right <= width + 0.5
            && chip.scrollWidth > chip.clientWidth;          // in sight, the name truncated with an ellipsis
    }""", arg=[table_id, name[:20], width])

    header = page.locator("header.site-nav")
    if viewport == "phone":                  # the account links are in the menu, folded on a phone
        header.locator(".nav-toggle").click()
    assert inside(header.bounding_box(), width) and horizontal_overflow(page, "header.site-nav") <= 0
    me = header.locator("a.user-name")
    assert inside(me.bounding_box(), width) and me.get_attribute("title") == name
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert page.js_errors == []


def test_it_centers_the_text_of_a_link_button_vertically(server, new_page, long_named):
    _name, table_id = long_named
    page = new_page(1280, 800)
    page.goto(server.url + "/play/hearts/")
    for action in ("join", "watch"):
        link = page.locator(f"#lobby-rows tr[data-table='{table_id}'] [data-action={action}]")
        link.wait_for()
        offset = link.evaluate("""a => {
            const range = document.createRange(); range.selectNodeContents(a);
            const text = range.getBoundingClientRect(), box = a.getBoundingClientRect();
            return (text.top + text.height / 2) - (box.top + box.height / 2);
        }""")
        assert abs(offset) <= 2, (action, offset)
        # and as tall as a <button> of the same class
        height = link.evaluate("""a => {
            const b = document.createElement("button"); b.className = a.className; b.textContent = a.textContent;
            a.parentNode.appendChild(b); const h = b.getBoundingClientRect().height; b.remove(); return h;
        }""")
        assert abs(link.bounding_box()["height"] - height) <= 1, (action, height)


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_it_wraps_a_long_word_in_the_chat(server, new_page, long_named, viewport):
    name, table_id = long_named
    width, height = VIEWPORTS[viewport]
    page = new_page(width, height)
    log_in(page, server, name)
    page.goto(f"{server.url}/table/{table_id}/")
    # Chat goes over the table's socket: sent before it is open, the client keeps the text and
    # says "not connected" (on a busy machine the socket opens after the click).
    page.wait_for_function("() => window.tableClient.state.table !== null")
    word = f"w{viewport}" + "x" * 300
    page.fill("#chat-form input[name=text]", word)
    page.locator("#chat-form button[type=submit]").click()
    page.locator("#chat-log .chat-line", has_text=word[:12]).wait_for()
    assert horizontal_overflow(page, "#chat-log") <= 0
    assert inside(page.locator("#chat-log").bounding_box(), width)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
