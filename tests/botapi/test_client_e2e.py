"""End to end: the reference client (``python -m games.bots.lab.client``, a real process, run as
docs/BOTS.md says) plays whole matches through real sockets of the embedded server (config/serve.py)
in each of its modes: ``--table`` against a house bot, ``--join-open``, and ``--accept-challenges``
answering a person's challenge; a refused token ends it at once with a reason."""
import asyncio
import http.cookiejar
import json
import subprocess
import sys
import time
import urllib.parse
import urllib.request

import pytest

from games.bots.lab.client import BotClient
from tests.embedded import ROOT, embedded_site

SETUP = """
import json
from botapi import tokens
from accounts.models import User
from botapi import services as botapi
from games import services
robo = User.objects.create_user("robo", password="x-Secret-123")
botapi.make_bot_account(robo)
owner = User.objects.create_user("owner", password="x-Secret-123")
table = services.create_table(owner, "sixtysix", seats=["basic", ""], bots_allowed=True)
row, token = tokens.create(robo, "e2e")
revoked, old = tokens.create(robo, "old")
tokens.revoke(robo, revoked.pk)
print(json.dumps({"table": table.pk, "token": token, "revoked": old}))
"""

RESULT = """
import json
from games.models import Match, Seat
m = Match.objects.get(table_id={table})
seats = list(Seat.objects.filter(table_id={table}).order_by("index").values_list("user__username", flat=True))
print(json.dumps({{"finished": m.finished, "winners": m.winners, "ended_by": m.ended_by,
                  "deals": m.deals.count(), "seats": seats}}))
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    with embedded_site(tmp_path_factory.mktemp("botapi"), DEAL_PAUSE_MS="0") as s:
        yield s


def _client(site, *args, timeout=240):
    try:
        return subprocess.run([sys.executable, "-m", "games.bots.lab.client", "--url", site.url, *args],
                              cwd=ROOT, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as exc:     # say where it stood, and what the server said
        pytest.fail(f"the client did not finish:\n{(exc.stderr or b'').decode()[-2000:]}\n"
                    f"server:\n{site.log.read_text()[-2000:]}")


def test_the_reference_client_plays_a_whole_match_against_a_house_bot(site):
    made = json.loads(site.shell(SETUP))
    run = _client(site, "--token", made["token"], "--level", "basic", "--table", str(made["table"]))
    assert run.returncode == 0, run.stderr[-3000:]
    result = json.loads(site.shell(RESULT.format(table=made["table"])))
    assert result["finished"] and result["ended_by"] == "score" and result["winners"]
    assert result["seats"] == ["bot-basic", "robo"] and result["deals"] >= 2
    assert "taking seat 1" in run.stderr and "match over" in run.stderr
    assert made["token"] not in run.stderr + run.stdout          # the token is never logged
    # The revoked token: refused with its reason, exit code 2, no retrying.
    refused = _client(site, "--token", made["revoked"], "--level", "basic", "--table", str(made["table"]), timeout=60)
    assert refused.returncode == 2 and "revoked" in refused.stderr
    wrong = _client(site, "--token", "cr_wrong", "--level", "basic", "--accept-challenges", timeout=60)
    assert wrong.returncode == 2 and "not valid" in wrong.stderr
    # No such table: closed with 4404 and a reason, which ends it rather than retrying forever.
    missing = _client(site, "--token", made["token"], "--level", "basic", "--table", "999999", timeout=60)
    assert missing.returncode == 2 and "There is no such table." in missing.stderr


BOT = """
import json
from botapi import tokens
from accounts.models import User
from botapi import services as botapi
bot = User.objects.create_user("{name}", password="x-Secret-123")
botapi.make_bot_account(bot)
print(json.dumps({{"token": tokens.create(bot, "e2e")[1]}}))
"""


def _bot(site, name: str) -> dict:
    return json.loads(site.shell(BOT.format(name=name)))


JOIN_OPEN = """
import json
from accounts.models import User
from games import services
owner = User.objects.create_user("host", password="x-Secret-123")
table = services.create_table(owner, "sixtysix", seats=["basic", ""], bots_allowed=True)
print(json.dumps({"table": table.pk}))
"""


def test_the_reference_client_joins_an_open_table_and_plays_its_match(site):
    made = _bot(site, "joiner")
    table = json.loads(site.shell(JOIN_OPEN))["table"]
    run = _client(site, "--token", made["token"], "--level", "basic", "--join-open", "sixtysix")
    assert run.returncode == 0, run.stderr[-3000:]
    result = json.loads(site.shell(RESULT.format(table=table)))
    assert result["finished"] and result["ended_by"] == "score"
    assert result["seats"] == ["bot-basic", "joiner"]


# --- --accept-challenges ---------------------------------------------------------------------------
PERSON = """
from django.test import Client
from accounts.models import User
alice = User.objects.create_user("alice", password="x-Secret-123")
c = Client()
c.force_login(alice)
print(c.cookies["sessionid"].value)
"""


class Person:
    """A person in a browser, as far as the site can tell: the session cookie on every request and
    socket. ``play`` plays her seat with the deterministic basic level (the reference client's
    table loop, on her session instead of a token)."""

    def __init__(self, site, session: str):
        self.site = site
        self.session = session
        jar = http.cookiejar.CookieJar()
        self.http = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar), _NoRedirect)
        self.cookies = jar

    def _open(self, path: str, data: dict | None = None):
        body = urllib.parse.urlencode(data).encode() if data is not None else None
        headers = {"Cookie": f"sessionid={self.session}"}
        csrf = next((c.value for c in self.cookies if c.name == "csrftoken"), None)
        if csrf:
            headers["Cookie"] += f"; csrftoken={csrf}"
            headers["X-CSRFToken"] = csrf
        try:
            return self.http.open(urllib.request.Request(self.site.url + path, data=body, headers=headers))
        except urllib.error.HTTPError as answer:    # a redirect (see _NoRedirect)
            return answer

    def challenge(self, bot: str) -> int:
        self._open(f"/accounts/u/{bot}/")           # the profile page: sets the CSRF cookie
        answer = self._open(f"/bot/challenge/{bot}/", {"game": "sixtysix", "bank_seconds": "300"})
        assert answer.status == 302, answer.read()[:500]
        return int(answer.headers["Location"].rstrip("/").split("/")[-1])

    def challenge_table(self, challenge_id: int) -> int | None:
        status = json.load(self._open(f"/bot/challenges/{challenge_id}/status/"))
        return int(status["table_url"].rstrip("/").split("/")[-1]) if status["table_url"] else None

    def play(self, table_id: int) -> dict:
        player = BotClient(self.site.url, "unused", "basic")
        player.headers = {"Cookie": f"sessionid={self.session}", "Origin": self.site.url}
        return asyncio.run(player.play_table(table_id))


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def _wait_until(what: str, found, log_path, proc, timeout: float = 120):
    """Wait for ``found()`` to be true (a state, not a time); the timeout only ends a hung test."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        assert proc.poll() is None, f"the client died before {what}:\n{log_path.read_text()[-3000:]}"
        value = found()
        if value:
            return value
        time.sleep(0.2)
    pytest.fail(f"never saw {what}:\n{log_path.read_text()[-3000:]}")


def test_the_reference_client_accepts_a_challenge_and_plays_the_whole_match(site, tmp_path):
    made = _bot(site, "robo3")
    alice = Person(site, site.shell(PERSON))
    log_path = tmp_path / "client.log"
    with open(log_path, "w") as log:
        # The command docs/BOTS.md gives, run from the project's directory.
        proc = subprocess.Popen([sys.executable, "-m", "games.bots.lab.client", "--url", site.url,
                                 "--token", made["token"], "--level", "basic", "--accept-challenges"],
                                cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    try:
        # Nothing waiting on connecting (an empty "challenges"), then the answer to its own sync.
        _wait_until("the answer to a sync", lambda: log_path.read_text().count("playing at tables") >= 2,
                    log_path, proc)
        challenge = alice.challenge("robo3")
        table = _wait_until("the challenge accepted", lambda: alice.challenge_table(challenge), log_path, proc)
        match = alice.play(table)
        assert match["over"], match
        result = json.loads(site.shell(RESULT.format(table=table)))
        assert result["finished"] and result["ended_by"] == "score"
        assert result["seats"] == ["alice", "robo3"] and result["deals"] >= 2
        # The client plays on to the end of the match, and then keeps listening.
        _wait_until("the client seeing the match end", lambda: "match over" in log_path.read_text(), log_path, proc)
        assert proc.poll() is None
    finally:
        proc.terminate()
        proc.wait(10)
    out = log_path.read_text()
    assert f"accepting challenge {challenge} from alice" in out
    assert "Traceback" not in out and made["token"] not in out
