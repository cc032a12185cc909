"""The table and lobby sockets, end to end through WebsocketCommunicator."""
import json
import random

import pytest
from channels.db import database_sync_to_async as db

from games import bots, loading, messages, services
from realtime.addresses import ToSeat
from games.models import Match, Table

from .sockets import connect

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def drain_all(socks, guard=None, table_id=None):
    """Every socket's messages up to the table's stored version, when the table is given."""
    version = await version_of(table_id) if table_id is not None else None
    for s in socks:
        await s.drain(version)
        if guard is not None:
            guard.check(table_id, s)


def near_the_end(table_id, scores):
    """Start the match from late scores so that a full match is one or two deals long."""
    m = Match.objects.get(table_id=table_id)
    state = dict(m.state, scores=scores)
    m.state = state
    m.save()
    loading.forget(table_id)       # changed behind the services' back, at the same version


async def play_match(game, n_humans, make_user, task_queue, guard, scores=None, seed=0):
    rng = random.Random(seed)
    n = 2 if game == "sixtysix" else 4
    users = [await db(make_user)(f"p{i}") for i in range(n_humans)]
    spec = ["me"] + [""] * (n_humans - 1) + ["random"] * (n - n_humans)
    table = await db(services.create_table)(users[0], game, seats=spec)
    for i, u in enumerate(users[1:-1], start=1):
        await db(services.sit)(table.pk, u, i)
    socks = [(await connect(table.pk, u))[0] for u in users]
    watcher = (await connect(table.pk))[0]          # an anonymous spectator
    everyone = socks + [watcher]
    assert [s.seat for s in socks] == list(range(n_humans - 1)) + [None] and watcher.seat is None
    # The last player takes the last open seat through his socket: the match starts in that change.
    reply = await socks[-1].request({"type": "sit", "seat": n_humans - 1})
    assert reply["type"] == "update" and reply["event"]["kind"] == "match_start"
    assert [e["kind"] for e in reply["events"]] == ["seat", "match_start"]
    assert reply["you"] == n_humans - 1 and reply["view"]["hand"]
    socks[-1].label = n_humans - 1       # the guard checks it as that seat from now on
    await drain_all(everyone)
    assert [s.seat for s in socks] == list(range(n_humans))
    assert all(s.last["table"]["status"] == "playing" for s in everyone)
    if scores is not None:
        await db(near_the_end)(table.pk, scores)
        for s in everyone:
            await s.drain()
            s.unchecked.clear()
            # Answered when the socket's second since its last snapshot is up (games/sync_pace.py).
            assert (await s.request({"type": "sync"}))["type"] == "snapshot"
    steps = 0
    while True:
        await db(task_queue.run_due)()
        await drain_all(everyone, guard, table.pk)
        status = socks[0].last["table"]["status"]
        if status == "finished":
            break
        acting = [s for s in socks if s.last["view"] and s.seat in s.last["view"]["to_act"]
                  and s.last["table"]["status"] == "playing"]
        if not acting:
            continue
        sock = acting[0]
        action = bots.choose_action("random", sock.last["view"], rng)
        action.pop("seat", None)
        reply = await sock.request({"type": "action", "version": sock.version, "action": action})
        assert reply["type"] == "update", reply
        steps += 1
        assert steps < 5000
    await drain_all(everyone, guard, table.pk)
    for s in everyone:
        assert s.last["table"]["match"]["over"] and s.last["table"]["match"]["winners"]
        await s.comm.disconnect()
    return table, everyone


async def test_it_plays_a_full_sixtysix_match_between_two_people_through_sockets(make_user, task_queue, guard):
    table, socks = await play_match("sixtysix", 2, make_user, task_queue, guard)
    assert guard.checked > 50
    assert all(s.received for s in socks)


async def test_it_plays_a_full_hearts_match_with_a_person_and_bots(make_user, task_queue, guard):
    await play_match("hearts", 2, make_user, task_queue, guard, scores=[95, 90, 80, 85])
    assert guard.checked > 50


async def test_it_plays_a_full_spades_match_with_people_and_bots(make_user, task_queue, guard):
    await play_match("spades", 2, make_user, task_queue, guard, scores=[499, -199])
    assert guard.checked > 50


async def test_it_never_sends_a_seat_a_card_it_may_not_see_in_a_hearts_deal_with_four_people(
        make_user, task_queue, guard):
    await play_match("hearts", 4, make_user, task_queue, guard, scores=[99, 98, 97, 96], seed=3)


# --- bad input ---------------------------------------------------------------------------------------
async def two_player_game(make_user, task_queue):
    ala, ola = await db(make_user)("ala"), await db(make_user)("ola")
    table = await db(services.create_table)(ala, "sixtysix", seats=["me", ""])
    await db(services.sit)(table.pk, ola, 1)         # the last seat: the match starts
    a, _ = await connect(table.pk, ala)
    o, _ = await connect(table.pk, ola)
    w, _ = await connect(table.pk, await db(make_user)("eve"))
    mover = a if a.seat in a.last["view"]["to_act"] else o
    other = o if mover is a else a
    return table, mover, other, w


async def version_of(table_id):
    return (await db(Table.objects.get)(pk=table_id)).version


async def refused(sock, data, code, table_id):
    before = await version_of(table_id)
    reply = await sock.request(data)
    assert reply["type"] == "error" and code in (reply["code"], reply["category"]), reply
    assert reply["reason"] and reply["version"] == before
    assert await version_of(table_id) == before
    return reply


async def test_it_refuses_every_kind_of_bad_input_and_changes_nothing(make_user, task_queue):
    table, mover, other, watcher = await two_player_game(make_user, task_queue)
    v = mover.version
    legal = mover.last["view"]["legal"][0]
    await refused(mover, "{not json", "bad_json", table.pk)
    await refused(mover, json.dumps([1, 2]), "bad_request", table.pk)
    await refused(mover, {"type": "fly"}, "unknown_type", table.pk)
    card = other.last["view"]["hand"][0]
    await refused(other, {"type": "action", "version": v, "action": {"type": "play", "card": card}},
                  "not_your_turn", table.pk)
    not_mine = next(c for c in other.last["view"]["hand"])
    reply = await refused(mover, {"type": "action", "version": v, "action": {"type": "play", "card": not_mine}},
                          "illegal", table.pk)
    assert reply["category"] == "illegal" and reply["code"] == "not_held" and reply["params"] == {"card": not_mine}
    reply = await refused(mover, {"type": "action", "version": v, "action": {"type": "play", "card": "ZZ"}},
                          "illegal", table.pk)
    assert reply["category"] == "illegal" and reply["code"] != "illegal"
    await refused(other, {"type": "action", "version": v, "action": dict(legal, seat=mover.seat)},
                  "not_your_seat", table.pk)
    await refused(watcher, {"type": "action", "version": v, "action": legal}, "spectator", table.pk)
    await refused(mover, {"type": "action", "version": v - 1, "action": legal}, "stale", table.pk)
    snap = await mover.recv()
    assert snap["type"] == "snapshot" and snap["version"] == v
    await refused(mover, {"type": "action", "action": legal}, "stale", table.pk)
    await mover.recv()
    await refused(mover, {"type": "chat", "text": ""}, "bad_request", table.pk)
    await refused(watcher, {"type": "sit", "seat": 0}, "bad_request", table.pk)
    # A good move, then the same message again: the duplicate is stale.
    reply = await mover.request({"type": "action", "version": v, "action": legal})
    assert reply["type"] == "update" and reply["version"] == v + 1
    await other.drain()
    await refused(mover, {"type": "action", "version": v, "action": legal}, "stale", table.pk)
    for s in (mover, other, watcher):
        await s.comm.disconnect()


async def test_it_refuses_an_anonymous_socket_on_a_private_table_but_admits_the_invite(make_user, task_queue):
    ala = await db(make_user)("ala")
    table = await db(services.create_table)(ala, "sixtysix", private=True)
    sock, code = await connect(table.pk)
    assert sock is None and code == 4403
    sock, code = await connect(table.pk, await db(make_user)("eve"))
    assert sock is None and code == 4403
    sock, _ = await connect(table.pk, invite=table.invite_token)
    assert sock.seat is None and sock.last["table"]["private"]
    await sock.comm.disconnect()
    owner, _ = await connect(table.pk, ala)
    assert owner.seat == 0 and owner.last["invite"] == table.invite_token
    await owner.comm.disconnect()


async def test_it_sends_a_full_snapshot_on_reconnect(make_user, task_queue):
    table, mover, other, watcher = await two_player_game(make_user, task_queue)
    legal = mover.last["view"]["legal"][0]
    await mover.request({"type": "action", "version": mover.version, "action": legal})
    user = await db(lambda: Table.objects.get(pk=table.pk).seats.get(index=mover.seat).user)()
    await mover.comm.disconnect()
    again, _ = await connect(table.pk, user)
    assert again.last["type"] == "snapshot" and again.seat == mover.seat
    # Two changes since: his leaving (away) and his coming back (tests/games/test_leavers.py).
    assert again.version == mover.version + 2 and again.last["view"]["hand"]
    for s in (again, other, watcher):
        await s.comm.disconnect()


async def test_it_passes_updates_on_in_version_order_and_resyncs_a_socket_when_one_never_comes(
        make_user, task_queue, monkeypatch):
    """Processes publish what they commit, so updates can reach a socket's process out of order."""
    from channels.layers import get_channel_layer
    from realtime import ordering
    monkeypatch.setattr(ordering, "GAP_SECONDS", 0.1)
    table, mover, other, watcher = await two_player_game(make_user, task_queue)
    from realtime import broadcast
    layer, v = get_channel_layer(), mover.version
    to = ToSeat(table.pk, mover.seat)

    async def publish(version):
        text = json.dumps({"type": "update", "version": version, "you": mover.seat})
        await broadcast.send(layer, [(to, {"type": "table.send", "version": version, "text": text})])

    await publish(v + 2)
    assert await mover.comm.receive_nothing(timeout=0.05)      # held for the one before it
    await publish(v + 1)
    assert [(await mover.recv())["version"] for _ in range(2)] == [v + 1, v + 2]
    await publish(v + 1)                                        # already shown: dropped
    assert await mover.comm.receive_nothing(timeout=0.05)
    await publish(v + 4)                                        # v + 3 is lost
    again = await mover.recv(timeout=2)
    assert again["type"] == "snapshot" and again["version"] == v    # the table's real state
    for s in (mover, other, watcher):
        await s.comm.disconnect()


async def test_a_version_stored_and_never_published_is_resent_to_the_sockets_shown_less(make_user, task_queue):
    """A process killed between a move's commit and its publication (games/republish.py tells
    the table's sockets)."""
    from channels.layers import get_channel_layer
    from realtime import broadcast, hub
    table, mover, other, watcher = await two_player_game(make_user, task_queue)
    user = await db(lambda: Table.objects.get(pk=table.pk).seats.get(index=mover.seat).user)()
    action = mover.last["view"]["legal"][0]

    def move_never_published():
        with broadcast.collecting():            # committed; its messages go nowhere
            services.act(table.pk, user, mover.version, action)

    await db(move_never_published)()
    stored = await version_of(table.pk)
    assert stored == mover.version + 1
    for s in (mover, other, watcher):
        assert await s.comm.receive_nothing(timeout=0.05)
    notice = {"type": hub.BEHIND, "table": table.pk, "version": stored}
    await broadcast.send(get_channel_layer(), [(hub.table_group(table.pk), notice)])
    for s in (mover, other, watcher):
        again = await s.recv()
        assert again["type"] == "snapshot" and again["version"] == stored
    await broadcast.send(get_channel_layer(), [(hub.table_group(table.pk), notice)])
    for s in (mover, other, watcher):
        assert await s.comm.receive_nothing(timeout=0.05)   # shown already: nothing more
    for s in (mover, other, watcher):
        await s.comm.disconnect()


async def test_it_relays_chat_to_players_and_spectators(make_user, task_queue):
    table, mover, other, watcher = await two_player_game(make_user, task_queue)
    msg = await mover.request({"type": "chat", "text": "gl hf"})
    assert msg == {"type": "chat", "message": msg["message"]} and msg["message"]["text"] == "gl hf"
    assert (await other.recv())["message"]["text"] == "gl hf"
    assert (await watcher.recv())["message"]["text"] == "gl hf"
    late, _ = await connect(table.pk)
    assert late.last["chat"][-1]["text"] == "gl hf"
    for s in (mover, other, watcher, late):
        await s.comm.disconnect()


async def test_it_seats_players_through_the_socket_and_the_last_seat_starts_the_match(make_user, task_queue):
    ala, ola = await db(make_user)("ala"), await db(make_user)("ola")
    table = await db(services.create_table)(ala, "sixtysix")
    a, _ = await connect(table.pk, ala)
    o, _ = await connect(table.pk, ola)
    assert o.seat is None
    reply = await o.request({"type": "sit", "seat": 1})
    # One change: ola sits, the match starts, and her socket moves to her seat's group.
    assert reply["type"] == "update" and reply["you"] == 1 and reply["event"]["kind"] == "match_start"
    assert [e["kind"] for e in reply["events"]] == ["seat", "match_start"]
    assert reply["table"]["status"] == "playing" and reply["view"]["seat"] == 1 and reply["view"]["hand"]
    upd = await a.recv()
    assert upd["type"] == "update" and upd["version"] == reply["version"]
    assert upd["you"] == 0 and upd["event"]["kind"] == "match_start"
    assert set(upd["view"]["hand"]).isdisjoint(reply["view"]["hand"])
    for s in (a, o):
        await s.comm.disconnect()


async def test_the_owner_still_starts_a_full_table_kept_waiting(make_user, task_queue):
    ala, ola = await db(make_user)("ala"), await db(make_user)("ola")
    table = await db(services.create_table)(ala, "sixtysix", seats=["me", ola], start=False)
    a, _ = await connect(table.pk, ala)
    o, _ = await connect(table.pk, ola)
    seen = await a.recv()                      # before the match, a seated player arriving is news
    assert seen["event"] == {"kind": "presence", "seat": 1, "connected": True}
    assert seen["table"]["seats"][1]["connected"] is True and seen["table"]["status"] == "waiting"
    await refused(o, {"type": "start"}, "forbidden", table.pk)
    reply = await a.request({"type": "start"})
    assert reply["event"]["kind"] == "match_start" and reply["view"]["hand"]
    upd = await o.recv()
    assert upd["you"] == 1 and upd["view"]["seat"] == 1 and set(upd["view"]["hand"]).isdisjoint(reply["view"]["hand"])
    for s in (a, o):
        await s.comm.disconnect()


async def test_the_lobby_lists_tables_live(make_user, task_queue):
    lobby, _ = await connect(None, path="/ws/lobby/hearts/")
    first = json.loads(await lobby.comm.receive_from())
    assert first == {"type": "tables", "tables": []}
    ala = await db(make_user)("ala")
    table = await db(services.create_table)(ala, "hearts", seats=["me", "random", "", "strong"])
    msg = json.loads(await lobby.comm.receive_from())
    assert msg["type"] == "tables" and msg["tables"][0]["id"] == table.pk
    seats = msg["tables"][0]["seats"]
    assert [s["name"] for s in seats] == ["ala", "bot:random", None, "bot:strong"]
    await db(services.create_table)(ala, "hearts", private=True)   # private: not listed
    msg = json.loads(await lobby.comm.receive_from())
    assert [t["id"] for t in msg["tables"]] == [table.pk]
    await lobby.comm.disconnect()


@pytest.mark.parametrize("gone", ["daphne", "uvicorn"])
async def test_a_send_to_a_socket_its_client_just_closed_does_not_end_the_consumer(gone):
    """Daphne raises Disconnected, uvicorn ClientDisconnected, when a message reaches a socket
    whose client has gone (a player leaving a finished table for its rematch). The consumer must
    live on to its websocket.disconnect, which takes the socket off its seat's count."""
    from autobahn.exception import Disconnected
    from uvicorn.protocols.utils import ClientDisconnected

    from realtime.socket_base import ThinConsumer

    error = {"daphne": Disconnected, "uvicorn": ClientDisconnected}[gone]

    class Gone(ThinConsumer):
        handled = []

        async def table_send(self, message):
            raise error("Attempt to send on a closed protocol")

        async def websocket_disconnect(self, message):
            self.handled.append(message["type"])

    consumer = Gone()
    await consumer.dispatch({"type": "table.send", "text": "{}", "version": 3})
    await consumer.dispatch({"type": "websocket.disconnect", "code": 1000})
    assert Gone.handled == ["websocket.disconnect"]
