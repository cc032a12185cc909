"""Every page but the table and the lobby, on a desktop (1280x800) and a phone (390x844): each is
built from the site's design (templates/base.html links static/css/pages.css: a page container,
panes, data tables, centred forms, empty states), nothing on it is wider than the phone, axe-core
finds nothing serious, and its screenshot is saved as tests/browser/artifacts/pages-<name>-<size>.png
for a person to look at. Each page is loaded once, looked at on the desktop, then at the phone's
width (a resize: these pages' layout is their CSS's, no script of theirs measures the window).
The error pages (403/404/429/500) are rendered by the server's own templates and served to the
browser under a test address (the test server runs with DEBUG on)."""
import json
import uuid

import pytest

from .test_accessibility import assert_accessible, axe_source  # noqa: F401  (a fixture)
from .test_tables import PASSWORD

pytestmark = pytest.mark.browser

VIEWPORTS = {"desktop": (1280, 800), "phone": (390, 844)}

SETUP = """
import json
from datetime import timedelta
from django.contrib.auth.tokens import default_token_generator
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from botapi import tokens
from accounts.models import User
from botapi import services as botapi
from games import services as games
from games.models import Match
from moderation import services as moderation
from ratings import services as ratings, tasks
from tests.ratings.factories import finished_match
from tournaments import services as tournaments
from tournaments.models import Tournament
tasks._enqueue = lambda match_id: None
name, pw = {name!r}, {password!r}
me = User.objects.create_user(username=name, password=pw, email=name + "@example.com")
rival = User.objects.create_user(username=name + "_rival", password=pw)
forgetful = User.objects.create_user(username=name + "_forgetful", password=pw, email=name + "-f@example.com")
bots = [User.objects.create(username=f"{{name}}-bot{{i}}", is_bot=True, bot_level=lvl)
        for i, lvl in enumerate(["basic", "strong", "random"])]
sixtysix = [finished_match(me, "sixtysix", [me, bots[0]], seed=s) for s in (3, 5, 7, 11, 13)]
sixtysix += [finished_match(me, "sixtysix", [rival, me], seed=17)]
hearts = finished_match(me, "hearts", [me, rival, bots[1], bots[2]], seed=2)
for m in sixtysix + [hearts]:
    ratings.rate_match(m.pk)
fair_table = games.create_table(me, "sixtysix", seats=["basic", "random"], start=True)
robo = User.objects.create_user(username=name + "_robo", password=pw)
botapi.make_bot_account(robo)
tokens.create(robo, "laptop")
challenge = botapi.challenge(me, robo.username, "sixtysix", None, bank_seconds=300, increment_seconds=0)
moderation.mute(me, rival.username)

def tournament(label, **kw):
    fields = dict(name=label, game="sixtysix", variant="kurnik", format="swiss", rounds=2, bank_seconds=600,
                  increment_seconds=0, min_entries=2, max_entries=16, break_seconds=0, bot_level="random",
                  starts_at=timezone.now() + timedelta(seconds=3))
    fields.update(kw)
    return Tournament.objects.create(**fields)

def entrants(n, prefix):
    return [User.objects.create(username=f"{{prefix}}{{i}}", is_bot=True, bot_level="random") for i in range(n)]

scheduled = tournament("Autumn Hearts Cup", game="hearts", variant="standard", rounds=3,
                       starts_at=timezone.now() + timedelta(days=2), max_entries=32)
for u in [me, rival] + entrants(5, name + "-h"):
    tournaments.register(scheduled.pk, u)
live = tournament("Friday Swiss")
for u in [me, rival] + entrants(4, name + "-s"):
    tournaments.register(live.pk, u)
swiss = tournament("Bots' Swiss", rounds=2, bank_seconds=120)
for u in entrants(6, name + "-w"):
    tournaments.register(swiss.pk, u)
dup = tournament("Duplicate Night", format="duplicate", rounds=1, boards=2, bank_seconds=120)
for u in entrants(4, name + "-d"):
    tournaments.register(dup.pk, u)
arena = tournament("Arena Hour", format="arena", arena_minutes=60)
for u in [me, rival] + entrants(3, name + "-a"):
    tournaments.register(arena.pk, u)
print(json.dumps({{
    "match": sixtysix[0].pk, "hearts": hearts.pk, "fair_match": Match.objects.get(table=fair_table).pk,
    "challenge": challenge.pk, "robo": robo.username, "rival": rival.username,
    "reset": "/accounts/reset/%s/%s/" % (urlsafe_base64_encode(force_bytes(forgetful.pk)), default_token_generator.make_token(forgetful)),
    "tournaments": {{"scheduled": scheduled.pk, "live": live.pk, "swiss": swiss.pk, "duplicate": dup.pk, "arena": arena.pk}},
}}))
"""

# The error pages, rendered by the server's templates for an anonymous visitor.
ERRORS = """
import json
from django.contrib.auth.models import AnonymousUser
from django.template.loader import render_to_string
from django.test import RequestFactory
from accounts.limits import wait_text
request = RequestFactory().get("/somewhere/")
request.user = AnonymousUser()
pages = {
    "403": render_to_string("403.html", {"exception": "This table is private: ask its players for the invitation link."}, request=request),
    "404": render_to_string("404.html", {}, request=request),
    "429": render_to_string("429.html", {"message": "Too many failed logins for this account.", "wait": wait_text(840), "login": True}, request=request),
    "500": render_to_string("500.html", {}),
}
print(json.dumps(pages))
"""

MAIN_LOOK = ".page, .auth, .error-page, .home, .rules-page"

# A page is finished when its content sits in the design's container, every table in it is one of
# the design's tables (or belongs to a viewer that draws its own), and nothing is wider than the screen.
LOOK = """() => {
  const main = document.querySelector('main');
  const problems = [];
  if (!main.querySelector(%r)) problems.push('no design container in <main>');
  for (const t of main.querySelectorAll('table')) {
    if (!t.closest('.data-table, .analysis, .replay-app, .verify-app, .rules-page') && !t.classList.contains('data-table'))
      problems.push('a bare table: ' + (t.id || t.className || t.outerHTML.slice(0, 60)));
  }
  const width = document.scrollingElement.scrollWidth;
  if (width > window.innerWidth) problems.push('wider than the screen: ' + width + ' > ' + window.innerWidth);
  for (const form of main.querySelectorAll('form.form')) {
    if (getComputedStyle(form).display === 'none' || form.closest('details:not([open])')) continue;
    const box = form.getBoundingClientRect();
    const middle = box.left + box.width / 2;
    if (Math.abs(middle - window.innerWidth / 2) > window.innerWidth * 0.12 && form.closest('.auth'))
      problems.push('an account form off centre: ' + Math.round(middle) + ' of ' + window.innerWidth);
  }
  return problems;
}""" % MAIN_LOOK


@pytest.fixture(scope="module")
def pages_data(server):
    name = f"pg{uuid.uuid4().hex[:6]}"
    data = json.loads(server.shell(SETUP.format(name=name, password=PASSWORD)))
    data["errors"] = json.loads(server.shell(ERRORS))
    return {"name": name, **data}


def log_in(page, server, username):
    page.goto(f"{server.url}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(server.url + "/")


def visitor_pages(server, data):
    """(name, address, what to wait for) for someone not logged in."""
    return [
        ("home", "/", ".game-card"),
        ("login", "/accounts/login/", "form.form"),
        ("register", "/accounts/register/", "form.form"),
        ("password-reset", "/accounts/password/reset/", "form.form"),
        ("password-reset-done", "/accounts/password/reset/done/", "h1"),
        ("password-reset-invalid", "/accounts/reset/MQ/bad-token/", ".notice"),
        ("password-reset-complete", "/accounts/reset/done/", "h1"),
        ("rules", "/rules/sixtysix/", "h1"),
        ("tournaments", "/tournaments/", "h1"),
        ("tournament-scheduled", f"/tournaments/{data['tournaments']['scheduled']}/", "#entry-list"),
    ]


def member_pages(server, data):
    t = data["tournaments"]
    return [
        ("profile", f"/accounts/u/{data['name']}/", ".rating-card"),
        ("profile-other", f"/accounts/u/{data['rival']}/", ".player-actions"),
        ("profile-bot-account", f"/accounts/u/{data['robo']}/", ".challenge-form"),
        ("history", "/history/", ".history-table"),
        ("leaderboard", "/leaderboard/sixtysix/kurnik/", ".leaderboard"),
        ("leaderboard-bots", "/leaderboard/bots/sixtysix/kurnik/", "h1"),
        ("match", f"/match/{data['match']}/", ".deal-table"),
        ("match-hearts", f"/match/{data['hearts']}/", ".deal-table"),
        ("replay", f"/match/{data['match']}/deal/1/", ".replay-app .card"),
        ("verify", f"/match/{data['fair_match']}/verify/", "#verify[data-state=verified]"),
        ("upload", "/replay/upload/", "form.form"),
        ("password-change", "/accounts/password/change/", "form.form"),
        ("password-change-done", "/accounts/password/change/done/", "h1"),
        ("bot-account", "/bot/", ".bot-account-page h1"),
        ("challenge", f"/bot/challenges/{data['challenge']}/", "#challenge-status"),
        ("muted", "/accounts/muted/", ".muted-list"),
        ("tournaments-member", "/tournaments/", ".tournament-list"),
        ("tournament-registered", f"/tournaments/{t['scheduled']}/", "[data-action=withdraw]"),
        ("tournament-live", f"/tournaments/{t['live']}/", ".tournament-live[data-status=running] #standings"),
        ("tournament-arena", f"/tournaments/{t['arena']}/", ".tournament-live[data-status=running] #leaderboard"),
        ("tournament-swiss-final", f"/tournaments/{t['swiss']}/", ".tournament-live[data-status=finished]"),
        ("tournament-duplicate-final", f"/tournaments/{t['duplicate']}/", ".tournament-live[data-status=finished]"),
    ]


def serve(status: int, html: str):
    """A route handler answering with the server's rendered error page."""
    return lambda route, request: route.fulfill(status=status, body=html, content_type="text/html; charset=utf-8")


def look_at(page, artifacts, axe, name, viewport, problems):
    page.screenshot(path=str(artifacts / f"pages-{name}-{viewport}.png"), full_page=True)
    problems += [f"{name} ({viewport}): {p}" for p in page.evaluate(LOOK)]
    try:
        assert_accessible(page, axe, f"{name} ({viewport})")
    except AssertionError as err:
        problems.append(str(err))


def look_at_both(page, artifacts, axe, name, problems):
    """The page as loaded on a desktop, then at a phone's width (what these pages show at a width
    is their CSS's: no script of theirs measures the window), then back for the next page."""
    for viewport, (width, height) in VIEWPORTS.items():
        page.set_viewport_size({"width": width, "height": height})
        look_at(page, artifacts, axe, name, viewport, problems)
    page.set_viewport_size(dict(zip(("width", "height"), VIEWPORTS["desktop"])))


def test_every_page_has_the_sites_look_on_a_desktop_and_a_phone(server, new_page, artifacts, axe_source,  # noqa: F811
                                                                pages_data):
    size = VIEWPORTS["desktop"]
    problems: list[str] = []

    def look(page, name):
        look_at_both(page, artifacts, axe_source, name, problems)

    visitor = new_page(*size)
    for name, path, ready in visitor_pages(server, pages_data):
        visitor.goto(server.url + path)
        visitor.locator(ready).first.wait_for()
        look(visitor, name)
    # A form's errors, beside its fields.
    visitor.goto(f"{server.url}/accounts/register/")
    visitor.fill("input[name=username]", pages_data["name"])
    visitor.fill("input[name=password1]", "short")
    visitor.fill("input[name=password2]", "other")
    visitor.locator("main form button[type=submit]").click()
    visitor.locator(".field.has-errors").first.wait_for()
    look(visitor, "register-errors")
    visitor.goto(f"{server.url}/accounts/login/")
    visitor.fill("input[name=username]", pages_data["name"])
    visitor.fill("input[name=password]", "not-the-password")
    visitor.locator("main form button[type=submit]").click()
    visitor.locator(".form-errors").wait_for()
    look(visitor, "login-errors")
    visitor.goto(server.url + pages_data["reset"])
    visitor.locator("form.form input[type=password]").first.wait_for()
    look(visitor, "password-reset-confirm")
    for code, html in pages_data["errors"].items():
        address = f"{server.url}/__error/{code}/"
        visitor.route(address, serve(int(code), html))
        visitor.goto(address)
        visitor.locator(".error-page h1").wait_for()
        look(visitor, f"error-{code}")

    member = new_page(*size)
    log_in(member, server, pages_data["name"])
    for name, path, ready in member_pages(server, pages_data):
        member.goto(server.url + path)
        member.locator(ready).first.wait_for(timeout=90000)
        look(member, name)

    robot = new_page(*size)                  # the bot account's own page: its tokens
    log_in(robot, server, pages_data["robo"])
    robot.goto(f"{server.url}/bot/")
    robot.locator("tr[data-token]").first.wait_for()
    look(robot, "bot-account-tokens")

    assert not problems, "\n".join(problems)
