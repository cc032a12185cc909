"""The bot API's sockets through WebsocketCommunicator: a token on the table socket (good, wrong,
revoked, not a bot account's), what the token authorises, the event socket's challenge flow."""
import asyncio
import json

import pytest
from channels.db import database_sync_to_async as db
from channels.testing import WebsocketCommunicator

from botapi import tokens
from botapi import services as botapi
from config.routing import application
from games import bots, services
from games.models import Table
from tests.games.sockets import Sock, connect

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def _bot_with_token(make_user, name="robo"):
    user = make_user(name)
    botapi.make_bot_account(user)
    return user, tokens.create(user, "test")[1]


async def token_socket(path: str, token: str | None, header: bytes | None = None):
    """A socket opened the way a bot opens it: an Authorization header, no cookie, no Origin."""
    value = header if header is not None else f"Bearer {token}".encode()
    comm = WebsocketCommunicator(application, path, headers=[(b"authorization", value)])
    ok, code = await comm.connect()
    assert ok, code
    return Sock(comm, None)


async def refused(path: str, header: bytes) -> dict:
    """A token the server refuses: one error saying why, then close code 4401."""
    sock = await token_socket(path, None, header)
    error = await sock.recv()
    closed = await sock.comm.receive_output(timeout=2)
    assert closed == {"type": "websocket.close", "code": 4401, "reason": error["reason"][:123]}
    return error


async def test_a_wrong_or_revoked_token_is_refused_with_a_reason_never_taken_for_a_visitor(make_user):
    robo, token = await db(_bot_with_token)(make_user)
    table = await db(services.create_table)(robo, "sixtysix", seats=["random", ""], bots_allowed=True)
    path = f"/ws/table/{table.pk}/"
    for header in (b"Bearer cr_wrong", b"Bearer ", b"Basic cm9ibzpwdw==", f"Bearer {token}x".encode()):
        error = await refused(path, header)
        assert error["type"] == "error" and error["code"] == "bad_token" and error["reason"]
    row = await db(lambda: robo.api_tokens.get())()
    await db(tokens.revoke)(robo, row.pk)
    error = await refused(path, f"Bearer {token}".encode())
    assert error["code"] == "revoked_token" and "revoked" in error["reason"]
    assert (await refused("/ws/bot/", f"Bearer {token}".encode()))["code"] == "revoked_token"
    # A browser without a token on the event socket is told the socket is for bots.
    comm = WebsocketCommunicator(application, "/ws/bot/", headers=[(b"origin", b"http://localhost")])
    assert (await comm.connect())[0]
    assert json.loads(await comm.receive_from())["code"] == "no_token"
    assert (await comm.receive_output())["code"] == 4401


async def test_a_token_of_an_account_that_is_no_longer_a_bot_account_is_refused(make_user):
    robo, token = await db(_bot_with_token)(make_user)
    await db(lambda: type(robo).objects.filter(pk=robo.pk).update(is_bot_account=False))()
    error = await refused("/ws/bot/", f"Bearer {token}".encode())
    assert error["code"] == "not_bot_account"


async def test_a_bot_plays_a_whole_match_with_its_token_seeing_only_its_seat(make_user, task_queue, guard):
    """The bot sits at a table that allows bots and plays a house bot to the end; every message it
    gets carries only the cards its seat may know; the token authorises only its own seat."""
    owner = await db(make_user)("owner")
    robo, token = await db(_bot_with_token)(make_user)
    table = await db(services.create_table)(owner, "sixtysix", seats=["basic", ""], bots_allowed=True)
    sock = await token_socket(f"/ws/table/{table.pk}/", token)
    snap = await sock.recv()
    assert snap["type"] == "snapshot" and snap["you"] is None and snap["me"] == "robo"
    reply = await sock.request({"type": "sit", "seat": 1})
    assert reply["type"] == "update" and reply["you"] == 1
    sock.label = 1
    assert reply["table"]["seats"][1]["bot_account"] is True and reply["table"]["seats"][0]["bot_account"] is False
    refused_other = False
    steps = 0
    while True:
        await db(task_queue.run_due)()
        await sock.drain()
        guard.check(table.pk, sock)
        last = sock.last
        if last["table"]["status"] == "finished":
            break
        view = last["view"]
        if not (view and view.get("legal") and 1 in last["table"]["clocks"]["to_act"]):
            continue
        if not refused_other:       # acting for the other seat: refused, with the reason
            error = await sock.request({"type": "action", "version": sock.version,
                                        "action": dict(view["legal"][0], seat=0)})
            assert error["type"] == "error" and error["code"] == "not_your_seat" and error["reason"]
            refused_other = True
        action = bots.choose_action("basic", view)
        reply = await sock.request({"type": "action", "version": sock.version, "action": action})
        assert reply["type"] == "update", reply
        steps += 1
        assert steps < 2000
    assert refused_other and guard.checked > 20
    assert sock.last["table"]["match"]["over"]
    await sock.comm.disconnect()


async def test_a_bot_account_in_the_browser_may_watch_but_not_play(make_user):
    owner = await db(make_user)("owner")
    robo, _token = await db(_bot_with_token)(make_user)
    table = await db(services.create_table)(owner, "sixtysix", bots_allowed=True)
    sock, _code = await connect(table.pk, robo)       # session cookie, no token
    error = await sock.request({"type": "sit", "seat": 1})
    assert error["code"] == "bot_account" and "bot API" in error["reason"]
    await sock.comm.disconnect()


async def test_a_bot_cannot_sit_where_bots_may_not_join(make_user):
    owner = await db(make_user)("owner")
    robo, token = await db(_bot_with_token)(make_user)
    table = await db(services.create_table)(owner, "sixtysix")
    sock = await token_socket(f"/ws/table/{table.pk}/", token)
    await sock.recv()
    error = await sock.request({"type": "sit", "seat": 1})
    assert error["code"] == "bots_not_allowed" and error["category"] == "forbidden"
    await sock.comm.disconnect()


async def test_a_flooding_bot_is_cut_off_like_anyone(make_user, settings):
    settings.SOCKET_BURST, settings.SOCKET_RATE, settings.SOCKET_FLOOD_CLOSE = 3, 0.001, 5
    robo, token = await db(_bot_with_token)(make_user)
    sock = await token_socket("/ws/bot/", token)
    await sock.recv(), await sock.recv()            # challenges, playing
    for _ in range(3):
        assert (await sock.request({"type": "sync"}))["type"] == "challenges"
        await sock.recv()
    await sock.send({"type": "sync"})
    assert (await sock.recv())["code"] == "rate_limited"
    for _ in range(4):
        await sock.send({"type": "sync"})
    while True:
        out = await sock.comm.receive_output(timeout=2)
        if out["type"] == "websocket.close":
            assert out["code"] == 4429
            break


async def test_the_event_socket_brings_challenges_and_accepting_one_starts_the_table(make_user):
    ala = await db(make_user)("ala")
    robo, token = await db(_bot_with_token)(make_user)
    early = await db(botapi.challenge)(ala, "robo", "sixtysix", None, bank_seconds=300, increment_seconds=5)
    sock = await token_socket("/ws/bot/", token)
    first = await sock.recv()
    assert first["type"] == "challenges" and [c["id"] for c in first["challenges"]] == [early.pk]
    assert (await sock.recv()) == {"type": "playing", "tables": []}
    late = await db(botapi.challenge)(ala, "robo", "hearts", None, bank_seconds=600, increment_seconds=5)
    event = await sock.recv()
    assert event["type"] == "challenge" and event["challenge"]["id"] == late.pk
    assert event["challenge"]["from"] == "ala" and event["challenge"]["game"] == "hearts"
    reply = await sock.request({"type": "decline", "id": early.pk, "reason": "sixty-six bores me"})
    assert reply in ({"type": "declined", "id": early.pk},
                     {"type": "challenge_gone", "id": early.pk, "status": "declined"})
    await sock.drain()
    reply = await sock.request({"type": "accept", "id": late.pk})
    replies = [reply] + await sock.drain()
    accepted = next(r for r in replies if r["type"] == "accepted")
    table = await db(Table.objects.get)(pk=accepted["table"])
    assert table.game == "hearts" and table.status == Table.Status.PLAYING
    error = await sock.request({"type": "accept", "id": late.pk})
    assert error["type"] == "error" and error["code"] == "challenge_accepted"
    assert (await sock.request({"type": "accept", "id": "x"}))["code"] == "bad_request"
    assert (await sock.request({"type": "dance"}))["code"] == "unknown_type"
    await sock.send({"type": "sync"})
    state = [await sock.recv(), await sock.recv()]
    assert state[1] == {"type": "playing", "tables": [table.pk]}
    # The table socket with the token: the bot's own seat's view.
    table_sock = await token_socket(f"/ws/table/{table.pk}/", token)
    snap = await table_sock.recv()
    assert snap["you"] == 1 and snap["view"]["hand"]
    await table_sock.comm.disconnect()
    await sock.comm.disconnect()


async def test_revoking_a_token_closes_its_open_sockets_and_the_seat_counts_them_off(make_user, task_queue):
    """The event socket and a table socket opened with a token are closed with its reason (4401)
    once the token is revoked; another token's socket stays open, and the seat is counted off as
    on any close."""
    owner = await db(make_user)("owner")
    robo, token = await db(_bot_with_token)(make_user)
    _row, other = await db(tokens.create)(robo, "other")
    table = await db(services.create_table)(owner, "sixtysix", seats=["basic", ""], bots_allowed=True)
    events = await token_socket("/ws/bot/", token)
    await events.recv(), await events.recv()            # challenges, playing
    seat = await token_socket(f"/ws/table/{table.pk}/", token)
    await seat.recv()
    assert (await seat.request({"type": "sit", "seat": 1}))["you"] == 1
    await seat.drain()
    kept = await token_socket("/ws/bot/", other)
    await kept.recv(), await kept.recv()
    row = await db(lambda: robo.api_tokens.get(name="test"))()
    await db(tokens.revoke)(robo, row.pk)
    for sock in (events, seat):
        out = [await sock.comm.receive_output(timeout=2)]
        while out[-1]["type"] != "websocket.close":
            out.append(await sock.comm.receive_output(timeout=2))
        told = [json.loads(o["text"]) for o in out if o["type"] == "websocket.send"]
        assert told[-1]["code"] == "revoked_token" and "revoked" in told[-1]["reason"]
        assert out[-1] == {"type": "websocket.close", "code": 4401}
    # The seat's socket is counted off (its consumer was told the client left): wait for it.
    from games.models import Seat
    connections = db(lambda: Seat.objects.get(table=table, index=1).connections)
    for _ in range(400):
        if await connections() == 0:
            break
        await asyncio.sleep(0.025)
    assert await connections() == 0
    # The other token's socket still works.
    assert (await kept.request({"type": "sync"}))["type"] == "challenges"
    await kept.comm.disconnect()
