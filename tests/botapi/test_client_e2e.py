"""End to end: the reference client (``python -m games.bots.client``, a real process) plays a whole
match through a real socket of a real Daphne (embedded mode) against a house bot; and a refused
token ends it at once with a reason."""
import json
import subprocess
import sys

import pytest

from tests.embedded import ROOT, embedded_site

SETUP = """
import json
from accounts import tokens
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
        return subprocess.run([sys.executable, "-m", "games.bots.client", "--url", site.url, *args],
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
