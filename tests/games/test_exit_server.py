"""Resign, abort and claim-the-rest over a real server (tests/embedded.py: the embedded site as
`make run` serves it), each player on his own websocket with his session: every seat sees the
match end (or the claim) from the one message that did it, and what is stored says the same."""
from __future__ import annotations

import asyncio
import json

import pytest
import websockets

from tests.embedded import embedded_site

pytestmark = pytest.mark.e2e

SETUP = """
import json
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
from accounts.models import User
from games import loading, services
from games.engine import cards as C
from games.models import Deal

def session(user):
    store = SessionStore()
    store.update({SESSION_KEY: str(user.pk), BACKEND_SESSION_KEY: settings.AUTHENTICATION_BACKENDS[0],
                  HASH_SESSION_KEY: user.get_session_auth_hash()})
    store.create()
    return store.session_key

def people(prefix, n):
    return [User.objects.create_user(f"{prefix}{i}", password="a-Secret-123") for i in range(n)]

out = {}
for name in ("abort", "resign"):
    pair = people(name, 2)
    t = services.create_table(pair[0], "sixtysix", "kurnik", seats=pair, start=True, rated=True)
    out[name] = {"table": t.pk, "sessions": [session(u) for u in pair]}
four = people("claim", 4)
t = services.create_table(four[0], "spades", seats=four, start=True)
deal = Deal.objects.get(match__table=t)
dealer = deal.record["dealer"]
suits = "SHDC"
hands = [None] * 4
for k in range(4):
    hands[(dealer + k) % 4] = [r + suits[k] for r in C.RANKS]
deal.record["hands"] = hands     # the dealer holds every spade: his claim is provable from the start
deal.record.pop("fair", None)
deal.save()
out["claim"] = {"table": t.pk, "sessions": [session(u) for u in four], "dealer": dealer}
print(json.dumps(out))
"""

CHECK = """
import json
from games.models import Match
from ratings.models import MatchPlayer, RatingChange
out = {}
for key, table in %s.items():
    m = Match.objects.get(table_id=table)
    rows = MatchPlayer.objects.filter(match=m).order_by("seat")
    out[key] = {"ended_by": m.ended_by, "winners": m.winners, "aborted": [r.aborted for r in rows],
                "rated": [r.rated for r in rows], "results": [r.result for r in rows],
                "changes": RatingChange.objects.filter(match=m).count()}
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    with embedded_site(tmp_path_factory.mktemp("exits"), FAIR_SEED_WAIT_MS="0") as s:
        s.made = json.loads(s.shell(SETUP))
        yield s


class Player:
    """One seat's socket: the last snapshot/update it was sent."""

    def __init__(self, ws):
        self.ws, self.last = ws, None

    async def next(self) -> dict:
        """The next message (a deadline for a hung test, not a timing)."""
        msg = json.loads(await asyncio.wait_for(self.ws.recv(), 60))
        if msg["type"] in ("snapshot", "update"):
            self.last = msg
        return msg

    async def until(self, check) -> dict:
        while True:
            msg = await self.next()
            if check(msg):
                return msg

    async def shown(self, check) -> dict:
        """The first table state (the last one shown, or a later one) that passes ``check``."""
        if self.last is not None and check(self.last):
            return self.last
        return await self.until(lambda m: m["type"] in ("snapshot", "update") and check(m))

    async def send(self, data: dict) -> None:
        await self.ws.send(json.dumps(data))


def sockets(site, key):
    made = site.made[key]
    url = f"ws://127.0.0.1:{site.port}/ws/table/{made['table']}/"
    return [websockets.connect(url, origin=site.url, additional_headers={"Cookie": f"sessionid={s}"})
            for s in made["sessions"]]


async def _seated(conns) -> list[Player]:
    players = [Player(await c) for c in conns]
    for p in players:
        await p.until(lambda m: m["type"] == "snapshot")
    return players


def _ended(msg) -> bool:
    return msg["type"] == "update" and any(e["kind"] == "match_end" for e in msg["events"])


def test_an_abort_before_both_moved_ends_the_match_unrated_for_both(site):
    async def run():
        players = await _seated(sockets(site, "abort"))
        assert players[0].last["table"]["match"]["abortable"] is True
        await players[1].send({"type": "abort", "version": players[1].last["version"]})
        ends = [await p.until(_ended) for p in players]
        for p in players:
            await p.ws.close()
        return ends
    ends = asyncio.run(run())
    for msg in ends:
        assert [e["kind"] for e in msg["events"]] == ["aborted", "match_end"]
        assert msg["event"]["ended_by"] == "aborted" and msg["event"]["winners"] == []
        assert msg["table"]["status"] == "finished"
    stored = json.loads(site.shell(CHECK % {"abort": site.made["abort"]["table"]}))["abort"]
    assert stored == {"ended_by": "aborted", "winners": [], "aborted": [True, True], "rated": [False, False],
                      "results": ["draw", "draw"], "changes": 0}


def test_a_resignation_after_both_moved_is_a_rated_loss_and_abort_is_refused(site):
    async def run():
        players = await _seated(sockets(site, "resign"))
        while players[0].last["table"]["match"]["abortable"]:      # play until both have moved
            mover = next(p for p in players if p.last["view"].get("legal"))
            action = dict(mover.last["view"]["legal"][0])
            action.pop("seat", None)
            await mover.send({"type": "action", "version": mover.last["version"], "action": action})
            target = mover.last["version"] + 1
            for p in players:
                await p.until(lambda m, v=target: m["type"] in ("snapshot", "update") and m["version"] >= v)
        refused = players[0]
        await refused.send({"type": "abort", "version": refused.last["version"]})
        error = await refused.until(lambda m: m["type"] == "error")
        await players[0].send({"type": "resign", "version": players[0].last["version"]})
        ends = [await p.until(_ended) for p in players]
        for p in players:
            await p.ws.close()
        return error, ends
    error, ends = asyncio.run(run())
    assert error["code"] == "abort_refused" and "resign" in error["reason"]
    for msg in ends:
        assert [e["kind"] for e in msg["events"]] == ["resigned", "match_end"]
        assert msg["event"]["ended_by"] == "resigned" and msg["event"]["winners"] == [1]
        assert msg["table"]["match"]["resigned"] == [0]
    stored = json.loads(site.shell(CHECK % {"resign": site.made["resign"]["table"]}))["resign"]
    assert stored["ended_by"] == "resigned" and stored["results"] == ["loss", "win"] and stored["rated"] == [True, True]


def test_a_proved_claim_ends_the_deal_at_once_and_everyone_sees_the_claimers_cards(site):
    dealer = site.made["claim"]["dealer"]

    async def run():
        players = await _seated(sockets(site, "claim"))
        for k in range(4):                                  # everyone bids, the dealer first
            seat = (dealer + k) % 4
            p = players[seat]
            await p.shown(lambda m: bool(m["view"] and m["view"].get("legal")))
            await p.send({"type": "action", "version": p.last["version"], "action": {"type": "bid", "tricks": 3}})
        for p in players:
            await p.shown(lambda m: m["table"]["match"]["claims"])
        other = players[(dealer + 1) % 4]
        await other.send({"type": "claim_rest", "version": other.last["version"]})
        error = await other.until(lambda m: m["type"] == "error")
        claimer = players[dealer]
        await claimer.send({"type": "claim_rest", "version": claimer.last["version"]})
        claimed = [await p.until(lambda m: m["type"] == "update" and any(e["kind"] == "claim" for e in m["events"]))
                   for p in players]
        for p in players:
            await p.ws.close()
        return error, claimed
    error, claimed = asyncio.run(run())
    assert error["code"] == "claim_unproved" and error["reason"]
    spades = [r + "S" for r in "23456789TJQKA"]
    for msg in claimed:
        kinds = [e["kind"] for e in msg["events"]]
        assert kinds[0] == "claim" and "deal_end" in kinds
        assert msg["events"][0] == {"kind": "claim", "seat": dealer, "cards": spades, "tricks": 13}
        deal_end = next(e for e in msg["events"] if e["kind"] == "deal_end")
        assert deal_end["result"]["tricks"][dealer] == 13
