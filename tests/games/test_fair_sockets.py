"""Provably fair deals through the table socket: the commitment reaches every seat and spectator
before any card of its deal, a player's client seed goes into the deal, and no message ever carries
a server seed (the LeakGuard scans every message for every seed the table committed to)."""
import random
import secrets

import pytest
from channels.db import database_sync_to_async as db

from games import bots, services
from games.models import Deal, Match

from .sockets import _codes, connect
from .test_consumers import drain_all

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.fixture
def seed_wait(settings):
    settings.GAMES_FAIR_SEED_WAIT_MS = 1500
    settings.GAMES_DEAL_PAUSE_MS = 0


class CommitmentOrder:
    """Per socket: every deal's cards come after (``strict``) or with its commitment."""

    def __init__(self, strict: bool):
        self.strict = strict
        self.seen: set[str] = set()
        self.deals_checked = 0

    def check(self, sock):
        for msg in sock.received[len(getattr(sock, "_order_done", [])):]:
            fair = (msg.get("table") or {}).get("fair") or {}
            deal = fair.get("deal")
            cards = list(_codes(msg.get("view"))) if msg.get("view") else []
            if cards:
                assert deal and deal["commitment"], msg
                if self.strict:
                    assert deal["commitment"] in self.seen, ("cards before their commitment", msg)
                self.deals_checked += 1
            if deal:
                self.seen.add(deal["commitment"])
            if fair.get("next"):
                self.seen.add(fair["next"]["commitment"])
        sock._order_done = list(sock.received)


async def seed_if_asked(sock) -> bool:
    nxt = sock.last and sock.last["table"]["fair"]["next"]
    if not nxt or sock.seat is None or sock.seat in nxt["seeded"] or getattr(sock, "seeded", None) == nxt["commitment"]:
        return False
    sock.seeded = nxt["commitment"]
    await sock.send({"type": "seed", "commitment": nxt["commitment"], "seed": secrets.token_hex(32)})
    return True


async def test_a_player_seeds_every_deal_after_its_commitment_and_no_seed_is_ever_sent(
        make_user, task_queue, guard, seed_wait):
    ala = await db(make_user)("ala")
    table = await db(services.create_table)(ala, "sixtysix", seats=["me", "random"], start=True)
    me, _ = await connect(table.pk, ala)
    watcher, _ = await connect(table.pk)
    # Play now: the match has started, its first deal is committed but not drawn.
    first = me.last["table"]["fair"]["next"]
    assert me.last["view"] is None and first["awaiting"] == [0] and not list(_codes(me.last))
    assert watcher.last["table"]["fair"]["next"]["commitment"] == first["commitment"]
    order = {me: CommitmentOrder(strict=True), watcher: CommitmentOrder(strict=True)}
    rng = random.Random(4)
    sent_seeds = {}
    steps = 0
    while True:
        await db(task_queue.run_due)()
        await drain_all([me, watcher], guard, table.pk)
        for sock in (me, watcher):
            order[sock].check(sock)
        if me.last["table"]["status"] == "finished":
            break
        nxt = me.last["table"]["fair"]["next"]
        if await seed_if_asked(me):
            sent_seeds[nxt["deal_number"]] = True
            continue
        view = me.last["view"]
        if not view or me.seat not in view["to_act"] or me.last["table"]["status"] != "playing":
            continue
        action = bots.choose_action("random", view, rng)
        action.pop("seat", None)
        reply = await me.request({"type": "action", "version": me.version, "action": action})
        assert reply["type"] == "update", reply
        steps += 1
        assert steps < 3000
    deals = await db(lambda: list(Deal.objects.filter(match__table=table).order_by("number")))()
    assert len(deals) >= 2 and set(sent_seeds) == {d.number for d in deals}
    # Each deal was drawn with her seed in it, from the seed committed before it.
    assert all(d.record["fair"]["client_seeds"][0] and d.record["fair"]["client_seeds"][1] is None for d in deals)
    assert guard.secret_seeds >= {d.server_seed for d in deals} and guard.checked > 20
    assert order[me].deals_checked > 10 and order[watcher].deals_checked > 10
    for sock in (me, watcher):
        await sock.comm.disconnect()


async def test_without_a_wait_the_deals_first_message_carries_its_commitment(make_user, task_queue, guard):
    ala, ola = await db(make_user)("ala"), await db(make_user)("ola")
    table = await db(services.create_table)(ala, "hearts", seats=["me", "", "random", "random"])
    a, _ = await connect(table.pk, ala)
    o, _ = await connect(table.pk, ola)
    w, _ = await connect(table.pk)
    reply = await o.request({"type": "sit", "seat": 1})    # the match starts with its first deal
    assert reply["event"]["kind"] == "match_start"
    o.label = 1
    await drain_all([a, o, w], guard, table.pk)
    deal = await db(lambda: Deal.objects.get(match__table=table))()
    for sock in (a, o, w):
        first_of_deal = next(m for m in sock.received if m.get("view"))
        assert first_of_deal["table"]["fair"]["deal"] == dict(deal.record["fair"], deal_number=0)
    assert guard.secret_seeds == {deal.server_seed} and deal.server_seed not in str([a.received, o.received, w.received])
    for sock in (a, o, w):
        await sock.comm.disconnect()


async def test_the_socket_refuses_seeds_with_a_reason(make_user, task_queue, seed_wait):
    ala = await db(make_user)("ala")
    table = await db(services.create_table)(ala, "spades", seats=["me", "random", "random", "random"], start=True)
    me, _ = await connect(table.pk, ala)
    watcher, _ = await connect(table.pk, await db(make_user)("eve"))
    commitment = me.last["table"]["fair"]["next"]["commitment"]
    reply = await watcher.request({"type": "seed", "commitment": commitment, "seed": "ab" * 16})
    assert reply["type"] == "error" and reply["code"] == "spectator" and reply["reason"]
    reply = await me.request({"type": "seed", "commitment": commitment, "seed": "not hex"})
    assert reply["type"] == "error" and reply["code"] == "bad_seed" and reply["reason"]
    reply = await me.request({"type": "seed", "commitment": "00" * 32, "seed": "ab" * 16})
    assert reply["type"] == "error" and reply["code"] == "seed_too_late"
    reply = await me.request({"type": "seed", "commitment": commitment, "seed": "ab" * 16})
    assert reply["type"] == "update" and [e["kind"] for e in reply["events"]] == ["seeded", "deal_start"]
    assert reply["view"]["hand"] and reply["table"]["fair"]["deal"]["client_seeds"] == ["ab" * 16, None, None, None]
    reply = await me.request({"type": "seed", "commitment": commitment, "seed": "cd" * 16})
    assert reply["type"] == "error" and reply["code"] == "seed_too_late"
    match = await db(lambda: Match.objects.get(table=table))()
    assert not match.finished
    for sock in (me, watcher):
        await sock.comm.disconnect()
