"""What every socket passes before it is served (realtime/socket_guard.py): refusals a browser can read
(accepted, then closed with the code docs/PROTOCOL.md gives), a path with no socket, the size of a
message (refused before it is parsed), and the sockets one address or one account may hold open at
once, counted in the shared cache with leases a dead process cannot keep."""
import json

import pytest
from channels.db import database_sync_to_async as db
from channels.testing import WebsocketCommunicator

from config.routing import application
from games import services
from realtime import socket_guard, wire
from tests.limits import clock  # noqa: F401  (fixture)

from tests.botapi.test_sockets import _bot_with_token, token_socket

from tests.games.sockets import _cookie, connect, refused

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


# --- refusals and paths with no socket ------------------------------------------------------------
@pytest.mark.parametrize("path", ["/ws/nothing/", "/ws/table/abc/", "/ws/table/", "/", "/ws/lobby/a/b/"])
async def test_a_path_with_no_socket_is_closed_with_4404_not_an_exception(path):
    closed = await refused(path)
    assert closed == {"type": "websocket.close", "code": 4404, "reason": "There is no socket at this address."}


async def test_an_unknown_table_or_game_is_closed_with_4404_that_a_browser_can_read():
    assert await refused("/ws/table/999999/") == {"type": "websocket.close", "code": 4404,
                                                  "reason": "There is no such table."}
    assert (await refused("/ws/lobby/chess/"))["code"] == 4404


async def test_a_private_table_is_closed_with_4403_in_the_visitors_language(make_user, task_queue):
    ala = await db(make_user)("ala")
    table = await db(services.create_table)(ala, "sixtysix", private=True)
    closed = await refused(f"/ws/table/{table.pk}/")
    assert closed["code"] == 4403 and closed["reason"] == "You may not watch this private table."
    polish = await refused(f"/ws/table/{table.pk}/", [(b"cookie", b"django_language=pl")])
    assert polish["code"] == 4403 and polish["reason"] not in ("", closed["reason"])


# --- the size of a message ------------------------------------------------------------------------
async def test_a_message_over_the_limit_is_refused_as_too_large_before_it_is_parsed(make_user, task_queue, monkeypatch,
                                                                                    settings):
    ala = await db(make_user)("ala")
    table = await db(services.create_table)(ala, "sixtysix", seats=["me", ""])
    sock, _ = await connect(table.pk, ala)
    parsed = []
    loads = wire.loads
    monkeypatch.setattr(wire, "loads", lambda data: parsed.append(len(data)) or loads(data))
    big = json.dumps({"type": "chat", "text": "x" * (2 * 1024 * 1024)})        # 2 MB
    error = await sock.request(big)
    assert error["type"] == "error" and error["code"] == "too_large" and error["category"] == "bad_request"
    assert error["params"] == {"max_bytes": 16384} and "too large" in error["reason"]
    assert error["version"] == sock.version and parsed == []
    # Bytes, not characters: 5000 four-byte characters are 20,000 bytes.
    assert (await sock.request(json.dumps({"type": "chat", "text": "🂡" * 5000}, ensure_ascii=False)))["code"] == "too_large"
    # At the limit it is read: not JSON is still "not valid JSON"; the socket goes on.
    assert (await sock.request("x" * 16384))["code"] == "bad_json" and parsed == [16384]
    assert (await sock.request({"type": "sync"}))["type"] == "snapshot"
    settings.SOCKET_MESSAGE_BYTES = 0                   # no limit
    assert (await sock.request(big))["code"] == "bad_request"      # read: a chat over 500 characters
    await sock.comm.disconnect()


async def test_the_limit_holds_on_the_bot_event_socket(make_user):
    _robo, token = await db(_bot_with_token)(make_user)
    bot = await token_socket("/ws/bot/", token)
    assert [(await bot.recv())["type"] for _ in range(2)] == ["challenges", "playing"]
    error = await bot.request(json.dumps({"type": "sync", "pad": "x" * 20000}))
    assert error["code"] == "too_large" and error["version"] is None
    assert (await bot.request({"type": "sync"}))["type"] == "challenges"
    await bot.comm.disconnect()


async def test_an_oversized_message_counts_against_the_connections_rate(settings):
    settings.SOCKET_BURST, settings.SOCKET_RATE, settings.SOCKET_FLOOD_CLOSE = 2, 0.001, 1
    comm = WebsocketCommunicator(application, "/ws/lobby/hearts/", headers=[(b"origin", b"http://localhost")])
    assert (await comm.connect())[0]
    await comm.receive_from()                            # the tables
    replies = []
    for _ in range(3):
        await comm.send_to(text_data="[" * 20000)
        replies.append(await comm.receive_output())
    assert [json.loads(r["text"])["code"] for r in replies[:2]] == ["too_large", "too_large"]
    assert replies[2] == {"type": "websocket.close", "code": 4429}     # over the rate: flooding


# --- sockets per address and per account -----------------------------------------------------------
def socket_from(address: str, path="/ws/lobby/hearts/", cookie: bytes | None = None) -> WebsocketCommunicator:
    headers = [(b"origin", b"http://localhost")] + ([(b"cookie", cookie)] if cookie else [])
    comm = WebsocketCommunicator(application, path, headers=headers)
    comm.scope["client"] = (address, 50000)
    return comm


async def opened(comm) -> dict:
    """The first thing the socket gets: the lobby's tables, or the refusal (error, then close)."""
    assert (await comm.connect())[0]
    first = json.loads(await comm.receive_from())
    if first["type"] == "error":
        first["closed"] = await comm.receive_output()
    return first


async def test_an_address_may_hold_so_many_sockets_open_and_no_more(settings, clock):
    settings.SOCKET_PER_ADDRESS = 3
    socks = [socket_from("10.0.0.1") for _ in range(3)]
    assert [(await opened(s))["type"] for s in socks] == ["tables"] * 3
    extra = await opened(socket_from("10.0.0.1"))
    assert extra["code"] == "too_many_sockets" and extra["category"] == "rate_limited"
    assert "Too many connections from your address" in extra["reason"]
    assert extra["closed"] == {"type": "websocket.close", "code": 4429, "reason": extra["reason"][:123]}
    # Another address is not counted with it; an IPv6 address counts by its /64.
    assert (await opened(socket_from("10.0.0.2")))["type"] == "tables"
    v6 = [socket_from(f"2001:db8::{n}") for n in range(4)]
    assert [(await opened(s))["type"] for s in v6] == ["tables"] * 3 + ["error"]
    # A closed socket gives its slot back at once.
    await socks[0].disconnect()
    assert (await opened(socket_from("10.0.0.1")))["type"] == "tables"
    for s in socks[1:]:
        await s.disconnect()


async def test_an_account_may_hold_so_many_sockets_open_from_any_address(settings, clock, make_user, task_queue):
    settings.SOCKET_PER_ACCOUNT = 2
    ala = await db(make_user)("ala")
    cookie = await db(_cookie)(ala)
    table = await db(services.create_table)(ala, "sixtysix", seats=["me", ""])
    mine = [socket_from(f"10.0.1.{n}", f"/ws/table/{table.pk}/", cookie) for n in range(3)]
    assert [(await opened(s))["type"] for s in mine[:2]] == ["snapshot", "snapshot"]
    third = await opened(mine[2])
    assert third["code"] == "too_many_sockets" and "for your account" in third["reason"]
    assert third["closed"]["code"] == 4429
    # A visitor from the same address is not that account.
    assert (await opened(socket_from("10.0.1.0")))["type"] == "tables"


async def test_slots_are_counted_across_processes_and_a_dead_process_loses_them(settings, clock, monkeypatch):
    """Two books are two web processes on one cache; the one that dies stops renewing."""
    import django.core.cache.backends.base as base
    import django.core.cache.backends.locmem as locmem
    for module in (base, locmem):                           # the cache's expiry reads the test's clock
        monkeypatch.setattr(module, "time", clock)
    living, dying = socket_guard.SlotBook(), socket_guard.SlotBook()
    assert dying.take("address:10.0.0.9", 3) and dying.take("address:10.0.0.9", 3)
    kept = living.take("address:10.0.0.9", 3)
    assert kept and living.take("address:10.0.0.9", 3) is None        # 2 + 1 of 3
    clock.advance(socket_guard.RENEW_SECONDS)
    living.renew(dict(living.held))                         # the living process renews; the dead one cannot
    clock.advance(socket_guard.LEASE_SECONDS - socket_guard.RENEW_SECONDS + 1)
    assert living.take("address:10.0.0.9", 3) and living.take("address:10.0.0.9", 3)
    assert living.take("address:10.0.0.9", 3) is None      # the renewed slot is still held
    living.release([kept])
    assert living.take("address:10.0.0.9", 3)
