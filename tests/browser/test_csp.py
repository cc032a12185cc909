"""The Content-Security-Policy (config/settings.py, config/csp.py) in Chromium: every page a player or
an admin meets is served with it and runs without a single violation — the table client with its
sockets, animations, sounds and canvas favicon, a Hearts pass, the replay viewer, the live lobby and
tournament pages, the language switch, the invite link, the admin's own pages and widgets."""
import json
import re
import uuid

import pytest

from .test_tables import PASSWORD, create_table, register, step, wait_my_turn, wait_playing

pytestmark = pytest.mark.browser

# A finished rated match of two registered players (built from the engine, as the ratings tests
# do, and rated at once: house bots' matches are never rated), and a scheduled tournament with
# two entries.
FIXTURES = """
import json
from accounts.models import User
from ratings import services as ratings, tasks
from tests.ratings.factories import finished_match
from tournaments import services as tournaments
from tournaments.models import Tournament
from django.utils import timezone
from datetime import timedelta
tasks._enqueue = lambda match_id: None
u = User.objects.create_user(username={name!r}, password={password!r})
bot = User.objects.create_user(username={name!r} + "-o", password={password!r})
m = finished_match(u, "sixtysix", [u, bot], seed=7)
ratings.rate_match(m.pk)
t = Tournament.objects.create(name={name!r} + " cup", game="sixtysix", rounds=3,
                              starts_at=timezone.now() + timedelta(days=2), created_by=u)
tournaments.register(t.pk, u)
tournaments.register(t.pk, bot)
print(json.dumps({{"match": m.pk, "tournament": t.pk}}))
"""

# Runs in every document before its own scripts: each violation the browser reports is kept in the
# page (window.__cspViolations) and handed to the test at once (it outlives navigations).
RECORD_VIOLATIONS = """
(() => {
  window.__cspViolations = [];
  document.addEventListener("securitypolicyviolation", (e) => {
    const v = {directive: e.effectiveDirective || e.violatedDirective, blocked: e.blockedURI,
               source: e.sourceFile, line: e.lineNumber, sample: e.sample, page: location.href};
    window.__cspViolations.push(v);
    if (window.__reportCspViolation) window.__reportCspViolation(v);
  }, true);
})();
"""

ADMIN = """
from accounts.models import User
User.objects.create_superuser({name!r}, password={password!r})
print("ok")
"""


class Watch:
    """A page whose CSP violations, console errors, page errors and document responses are kept."""

    def __init__(self, page):
        self.page = page
        self.violations, self.console, self.documents = [], [], []
        page.context.expose_function("__reportCspViolation", lambda v: self.violations.append(v))
        page.add_init_script(RECORD_VIOLATIONS)
        page.on("console", self._console)
        page.on("response", self._response)

    def _console(self, message):
        if message.type == "error":     # every page names its icon: no stray /favicon.ico 404 either
            self.console.append(f"{message.text} ({message.location.get('url')}, on {self.page.url})")

    def _response(self, response):
        if response.request.resource_type == "document" and response.frame == self.page.main_frame:
            self.documents.append((response.url, response.status,
                                   response.headers.get("content-security-policy")))

    def goto(self, url):
        response = self.page.goto(url)
        assert response.ok, (url, response.status)
        return response

    def assert_clean(self, what):
        """No violation so far (as reported, and as this document recorded it), no console error,
        no uncaught exception, and every page answered with the policy."""
        here = self.page.evaluate("() => window.__cspViolations || []")
        assert not self.violations and not here, f"{what}: CSP violations: {self.violations or here}"
        assert not self.console, f"{what}: console errors: {self.console}"
        assert not self.page.js_errors, f"{what}: page errors: {self.page.js_errors}"
        missing = [(url, status) for url, status, csp in self.documents if status < 300 and not csp]
        assert self.documents and not missing, f"{what}: pages without the policy: {missing}"


def policy_of(response) -> dict[str, list[str]]:
    header = response.headers.get("content-security-policy")
    assert header, f"no Content-Security-Policy on {response.url}"
    return {p.split()[0]: p.split()[1:] for p in header.split(";") if p.strip()}


def play_cards(page, game, n):
    """Play ``n`` cards (or passes) when it is our turn."""
    done = []
    while len(done) < n:
        wait_my_turn(page)
        what = step(page, game)
        if what:
            done.append(what)
    return done


@pytest.fixture(scope="module")
def site_data(server):
    name = f"c{uuid.uuid4().hex[:8]}"
    out = json.loads(server.shell(FIXTURES.format(name=name, password=PASSWORD)))
    return {"name": name, **out}


def test_visitor_pages_and_the_language_switch_keep_the_policy(server, new_page, site_data):
    w = Watch(new_page())
    policy = policy_of(w.goto(server.url + "/"))
    assert policy["default-src"] == ["'self'"] and policy["script-src"] == ["'self'"]
    assert policy["style-src"] == ["'self'"] and policy["object-src"] == ["'none'"]
    assert policy["frame-ancestors"] == ["'none'"] and policy["img-src"] == ["'self'", "data:"]
    assert policy["connect-src"] == ["'self'", "ws://" + server.url.split("//", 1)[1]]
    w.assert_clean("home")

    # the language select submits its form (static/js/site.js; no inline onchange any more)
    # Each switch waits for the new page's load: its <html lang> is there before site.js listens
    # to the select, and a second switch made meanwhile would go unheard.
    for code in ("pl", "en"):
        with w.page.expect_navigation():
            w.page.select_option("select[name=language]", code)
        assert w.page.get_attribute("html", "lang") == code
    w.assert_clean("language switch")

    w.goto(f"{server.url}/play/sixtysix/")                      # the live list over its socket
    w.page.locator("#lobby-rows tr").first.wait_for()
    w.page.wait_for_function("() => !document.querySelector('.conn-connecting')")
    for path in ("/rules/sixtysix/", "/rules/hearts/", "/tournaments/", f"/tournaments/{site_data['tournament']}/",
                 f"/accounts/u/{site_data['name']}/", f"/match/{site_data['match']}/",
                 "/leaderboard/", "/accounts/login/", "/accounts/register/", "/accounts/password/reset/"):
        w.goto(server.url + path)
        w.assert_clean(path)

    # the replay viewer of the finished match, stepped through
    w.goto(f"{server.url}/match/{site_data['match']}/deal/1/")
    w.page.wait_for_function("() => window.replayViewer && window.replayViewer.deal")
    for _ in range(3):
        w.page.locator("[data-go=forward]").click()
    w.page.keyboard.press("End")
    w.page.keyboard.press("Home")
    assert w.page.locator("#replay").get_attribute("data-step") == "0"
    w.assert_clean("replay viewer")


def test_the_table_client_keeps_the_policy(server, new_page):
    w = Watch(new_page())
    page = w.page
    register(page, server, prefix="csp")
    w.assert_clean("register")

    # Sixty-six against a bot: the socket, a few cards played (animations, sounds after the first
    # click), the tab's favicon drawn as a data: URL when it is our turn
    create_table(page, server, "sixtysix", ["basic"])
    wait_my_turn(page)
    page.wait_for_function("() => (document.querySelector(\"link[rel~='icon']\") || {}).href"
                           " && document.querySelector(\"link[rel~='icon']\").href.startsWith('data:image/png')")
    played = play_cards(page, "sixtysix", 3)
    assert played.count("play") + played.count("marriage") + played.count("result") >= 1
    assert page.evaluate("() => window.tableClient.fx.sound.enabled()")
    page.locator("#four-colour").check()                          # the table's settings
    page.locator("#four-colour").uncheck()
    w.assert_clean("Sixty-six table")

    # a visitor watching the same table (no hand, no chat box)
    visitor = Watch(new_page())
    visitor.goto(page.url)
    visitor.page.wait_for_function("() => window.tableClient && tableClient.state.view")
    visitor.assert_clean("a visitor at the table")

    # a Hearts deal's pass against three bots
    create_table(page, server, "hearts", ["basic", "basic", "basic"])
    page.wait_for_function("() => document.querySelector('[data-action=pass]')")
    assert play_cards(page, "hearts", 1) == ["pass"]
    page.wait_for_function("() => { const v = window.tableClient.state.view; return v && v.phase !== 'pass'; }")
    w.assert_clean("Hearts pass")

    # a private table waiting for a player: its invite link selects itself when clicked
    page.goto(f"{server.url}/play/sixtysix/")
    page.locator("input[name=private]").check()
    page.select_option("select[name=seat_1]", "")                  # open for a player
    page.click("#create-table")
    page.wait_for_url(re.compile(r"/table/\d+/"))
    invite = page.locator("#invite-box input")
    invite.wait_for()
    page.wait_for_function("() => document.querySelector('#invite-box input').value.includes('invite=')")
    invite.click()
    assert page.evaluate("() => { const i = document.querySelector('#invite-box input');"
                         " return i.selectionStart === 0 && i.selectionEnd === i.value.length; }")
    w.assert_clean("private table")


def test_the_admin_keeps_the_policy(server, new_page):
    name = f"adm{uuid.uuid4().hex[:8]}"
    assert server.shell(ADMIN.format(name=name, password=PASSWORD)) == "ok"
    w = Watch(new_page())
    page = w.page
    policy_of(w.goto(server.url + "/admin/login/"))
    w.assert_clean("admin login")
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", PASSWORD)
    page.locator("input[type=submit], button[type=submit]").first.click()
    page.wait_for_url(server.url + "/admin/")
    # lists with filters and search, forms with date and time widgets, inlines, the sidebar
    for path in ("/admin/", "/admin/accounts/user/", "/admin/tournaments/tournament/",
                 "/admin/tournaments/tournament/add/", "/admin/games/table/"):
        w.goto(server.url + path)
        w.assert_clean(path)
    page.goto(server.url + "/admin/tournaments/tournament/add/")
    page.locator(".datetimeshortcuts a").first.click()            # "Today"
    page.locator("#calendarlink0").click()                        # the calendar pops up
    page.locator(".calendarbox").first.wait_for()
    page.locator("#nav-sidebar, .toggle-nav-sidebar").first.wait_for(state="attached")
    w.assert_clean("admin widgets")
