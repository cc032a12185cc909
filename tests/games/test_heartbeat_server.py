"""The server's half of the heartbeat through a real server process, on each server the project
runs (uvicorn as `make run` and the Procfile do, Daphne as the Procfile's comment does): a client
that reads but never answers the server's WebSocket pings (what a stalled path looks like from the
server) is closed well inside the leaver's grace, so its player is away in time
(docs/PROTOCOL.md "Heartbeat"). The client here speaks the protocol by hand: a library would answer
the pings itself."""
import asyncio
import base64
import os
import time

import pytest

from tests.embedded import embedded_site

PING, CLOSE = 0x9, 0x8
WITHIN_SECONDS = 30     # half the default leaver's grace: the spec, not a measurement


@pytest.fixture(scope="module", params=["uvicorn", "daphne"])
def site(request, tmp_path_factory):
    with embedded_site(tmp_path_factory.mktemp(request.param), server=request.param) as s:
        yield s


async def frames(reader):
    """The server's frames as (opcode, payload) until it closes the connection."""
    while True:
        try:
            head = await reader.readexactly(2)
        except (asyncio.IncompleteReadError, ConnectionResetError):     # Daphne drops the connection
            return
        size = head[1] & 0x7F
        if size == 126:
            size = int.from_bytes(await reader.readexactly(2), "big")
        elif size == 127:
            size = int.from_bytes(await reader.readexactly(8), "big")
        try:
            payload = await reader.readexactly(size)
        except (asyncio.IncompleteReadError, ConnectionResetError):
            return
        yield head[0] & 0x0F, payload


async def silent_client(site) -> tuple[list[int], float]:
    """Open a lobby socket, read everything, answer nothing: the opcodes seen and how long the
    server kept the connection."""
    reader, writer = await asyncio.open_connection("127.0.0.1", site.port)
    key = base64.b64encode(os.urandom(16)).decode()
    writer.write((f"GET /ws/lobby/hearts/ HTTP/1.1\r\nHost: 127.0.0.1:{site.port}\r\nUpgrade: websocket\r\n"
                  f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
                  f"Origin: {site.url}\r\n\r\n").encode())
    await writer.drain()
    status = await reader.readuntil(b"\r\n\r\n")
    assert status.startswith(b"HTTP/1.1 101"), status
    opened, seen = time.monotonic(), []
    async for opcode, _ in frames(reader):
        seen.append(opcode)
    writer.close()
    return seen, time.monotonic() - opened


def test_a_client_that_never_answers_the_servers_pings_is_closed_in_time(site):
    seen, lasted = asyncio.run(asyncio.wait_for(silent_client(site), 120))
    assert PING in seen                                   # the server asked
    assert lasted < WITHIN_SECONDS, lasted                # and gave up on the silent client in time
    if site.server == "uvicorn":
        assert seen[-1] == CLOSE                          # 1011, "keepalive ping timeout"
