"""The socket guard through a real server process, on each server the project runs (uvicorn as
`make run` and the Procfile do, Daphne as the Procfile's comment does): a path with no socket is
closed with 4404 and logs no traceback; the server itself refuses a 16 MB frame; a message between
SOCKET_MESSAGE_BYTES and the frame limit is answered too_large; an address that opens more sockets
than SOCKET_PER_ADDRESS is refused with 4429 and a reason."""
import asyncio
import json

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from django.conf import settings

from tests.embedded import embedded_site


@pytest.fixture(scope="module", params=["uvicorn", "daphne"])
def site(request, tmp_path_factory):
    with embedded_site(tmp_path_factory.mktemp(request.param), server=request.param, SOCKET_PER_ADDRESS="3") as s:
        yield s


def ws(site, path, source="127.0.0.1"):
    """A browser's socket (its Origin) from the loopback address ``source``."""
    return connect(f"ws://127.0.0.1:{site.port}{path}", origin=site.url, local_addr=(source, 0), max_size=None)


async def closed_by_server(sock) -> ConnectionClosed:
    """How the server closed the socket; a socket still open after 60 s fails the test (a deadline
    for a hung test, not a timing)."""
    try:
        while True:
            await asyncio.wait_for(sock.recv(), 60)
    except ConnectionClosed as exc:
        return exc


def test_a_path_with_no_socket_is_closed_with_4404_and_logs_nothing(site):
    async def run():
        codes = []
        for path in ("/ws/nothing/", "/ws/table/abc/", "/ws/table/999999/", "/ws/lobby/chess/"):
            async with ws(site, path) as sock:
                error = json.loads(await sock.recv())
                exc = await closed_by_server(sock)
                assert exc.rcvd.reason in ("", error["reason"])        # Daphne sends no close reason
                codes.append((exc.rcvd.code, error["reason"]))
        return codes
    assert asyncio.run(run()) == [(4404, "There is no socket at this address."),
                                  (4404, "There is no socket at this address."),
                                  (4404, "There is no such table."), (4404, "There is no such game.")]
    log = site.log.read_text()
    assert "Traceback" not in log and "No route found" not in log


def test_the_server_refuses_a_16_mb_frame_and_the_site_a_message_over_its_limit(site):
    async def run():
        async with ws(site, "/ws/lobby/hearts/", "127.0.0.3") as sock:
            assert json.loads(await sock.recv())["type"] == "tables"
            await sock.send(json.dumps({"type": "chat", "text": "x" * 40000}))      # over 16 KB, under 64 KB
            error = json.loads(await sock.recv())
            try:
                await sock.send("x" * (16 * 1024 * 1024))
            except ConnectionClosed as exc:     # Daphne drops the connection while it is sent
                return error, exc
            return error, await closed_by_server(sock)      # no answer: the site never read it
    error, exc = asyncio.run(run())
    assert error["code"] == "too_large" and error["params"] == {"max_bytes": settings.SOCKET_MESSAGE_BYTES}
    # uvicorn closes with 1009 ("message too big"); Daphne (autobahn) drops the connection.
    assert (exc.rcvd.code == 1009) if site.server == "uvicorn" else (exc.rcvd is None or exc.rcvd.code == 1009)
    assert "Traceback" not in site.log.read_text()


def test_an_address_opening_more_sockets_than_allowed_is_refused_with_4429(site):
    async def run():
        opened = [await ws(site, "/ws/lobby/hearts/", "127.0.0.2") for _ in range(3)]
        for sock in opened:
            assert json.loads(await sock.recv())["type"] == "tables"
        async with ws(site, "/ws/lobby/hearts/", "127.0.0.2") as extra:
            error = json.loads(await extra.recv())
            exc = await closed_by_server(extra)
        for sock in opened:
            await sock.close()
        return error, exc
    error, exc = asyncio.run(run())
    assert error["code"] == "too_many_sockets" and "from your address" in error["reason"]
    assert exc.rcvd.code == 4429 and exc.rcvd.reason in ("", error["reason"])
