"""A duplicate round through the sockets: a person plays his table through its socket while the
other table's bots play the same boards; no message of the table socket or of the tournament page
carries the round's seed (the LeakGuard scans every table message for it and for hidden cards), the
page carries no card while the round is played, a spectator cannot watch a table of a round in
play, and once the round is over the page shows the seed and the boards."""
import json
import random
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async as db
from channels.testing import WebsocketCommunicator
from django.utils import timezone

from config.routing import application
from games import bots as game_bots
from tests.games.sockets import _codes, connect
from tests.games.test_consumers import drain_all
from tournaments import services
from tournaments.models import Game, Round, Tournament

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def _setup(people, robots):
    t = Tournament.objects.create(
        name="Duplicate sockets", game="sixtysix", variant="kurnik", format="duplicate", rounds=1, boards=2,
        starts_at=timezone.now() + timedelta(hours=1), bank_seconds=600, increment_seconds=0,
        min_entries=2, bot_level="random")
    for u in people + robots:
        services.register(t.pk, u)
    Tournament.objects.filter(pk=t.pk).update(starts_at=timezone.now() - timedelta(seconds=1))
    return t


def _table_of(t, user):
    entry = t.entries.get(user=user)
    return next(g.table_id for g in Game.objects.filter(round__tournament=t) if entry.pk in g.players)


def _finish_other_tables(t, table_id, task_queue):
    """Play the round's other tables to their end, each held deal's recheck made due at once (as
    if its second had passed)."""
    from games.models import Table

    for _step in range(2000):
        others = (Table.objects.filter(tournament_game__round__tournament=t).exclude(pk=table_id)
                  .exclude(status=Table.Status.FINISHED))
        if not others.exists():
            return
        past = timezone.now() - timedelta(seconds=1)
        others.filter(status=Table.Status.BETWEEN_DEALS).update(next_deal_at=past, due_at=past)
        for other in others:
            task_queue.run_all_of(other.pk)
    raise AssertionError("the other tables did not finish")


async def _page_messages(comm) -> list[dict]:
    out = []
    while not await comm.receive_nothing(timeout=0.05):
        out.append(json.loads(await comm.receive_from()))
    return out


async def test_no_socket_carries_the_round_seed_or_a_card_before_the_round_is_over(make_user, bots, task_queue,
                                                                                   advance_queue, guard):
    ala = await db(make_user)("ala")
    t = await db(_setup)([ala], await db(bots)(3))
    page = WebsocketCommunicator(application, f"/ws/tournament/{t.pk}/", headers=[(b"origin", b"http://testserver")])
    assert (await page.connect())[0]
    await page.receive_from()                                           # the snapshot
    assert await db(services.start)(t.pk)
    rnd = await db(Round.objects.get)(tournament=t)
    table_id = await db(_table_of)(t, ala)
    sock, _ = await connect(table_id, ala)
    spectator, code = await connect(table_id)
    assert sock is not None and spectator is None, "a table of a round in play has no spectators"
    seen_on_page = await _page_messages(page)
    rng = random.Random(3)
    for _step in range(2000):
        await db(task_queue.run_due)()
        await drain_all([sock], guard, table_id)
        seen_on_page += await _page_messages(page)
        last = sock.last
        if last["table"]["status"] == "finished":
            break
        view = last["view"]
        if not view or sock.seat not in view["to_act"] or last["table"]["status"] != "playing":
            continue
        action = game_bots.choose_action("random", view, rng)
        action.pop("seat", None)
        reply = await sock.request({"type": "action", "version": sock.version, "action": action})
        assert reply["type"] == "update", reply
    assert sock.last["table"]["status"] == "finished" and guard.checked >= 2      # both boards' cards, checked
    # The bots' table plays the boards in the other order, so it waited for ala's first board
    # (no board at two tables at once) and may have its last board still to play.
    await db(_finish_other_tables)(t, table_id, task_queue)
    assert rnd.seed in guard.secret_seeds            # the guard looked for the round's seed in every message
    assert all(rnd.seed not in json.dumps(m) for m in sock.received)

    # Until the round closes, the page carried its commitment, never its seed nor a card; the round
    # closes with its last table, no queued step needed.
    await db(advance_queue.run_due)(timezone.now())
    seen_on_page += await _page_messages(page)
    closed_at = next(i for i, m in enumerate(seen_on_page) if m["state"]["rounds"][0]["status"] == "finished")
    seen_on_page, closing = seen_on_page[:closed_at], seen_on_page[closed_at:]
    assert seen_on_page and closing
    for m in seen_on_page:
        assert rnd.seed not in json.dumps(m) and not list(_codes(m["state"]["rounds"]))
    assert rnd.commitment in json.dumps(seen_on_page[-1])
    final = closing[-1]["state"]
    shown = final["rounds"][0]["duplicate"]
    assert final["status"] == "finished" and shown["seed"] == rnd.seed and len(shown["boards"]) == 2
    # Now anyone may watch the tables and download their records with the seed.
    spectator, code = await connect(table_id)
    assert spectator is not None
    await spectator.comm.disconnect()
    await sock.comm.disconnect()
    await page.disconnect()
