"""Half-open requests against the real embedded server (config/serve.py with config/http_guard.py):
a request whose head or body never completes is answered 408 and closed, an address holding its
share of plain HTTP connections gets 429 for one more, other visitors' pages answer meanwhile, and
the server runs with its open-files limit raised to the hard limit.

Outcomes only: every wait is bounded generously (a socket timeout of a minute) and none is
measured; the deadlines are made short so that the test is quick, not so that it races them."""
from __future__ import annotations

import http.client
import json
import resource
import socket
from pathlib import Path

import pytest
from websockets.sync.client import connect as ws_connect

from tests.embedded import embedded_site

CAP = 20
PATIENCE = 60       # seconds a socket waits for the server's answer before the test gives up


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    # Started with a soft open-files limit under the hard one, as a login shell's 1024 often is.
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(soft, 1024), hard))
    try:
        server = embedded_site(tmp_path_factory.mktemp("guard"), HTTP_HEADER_TIMEOUT_SECONDS="2",
                               HTTP_BODY_TIMEOUT_SECONDS="2", HTTP_CONNECTIONS_PER_ADDRESS=str(CAP))
        s = server.__enter__()
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    try:
        yield s
    finally:
        server.__exit__(None, None, None)


def connect(site, source: str = "127.0.0.1") -> socket.socket:
    conn = socket.create_connection(("127.0.0.1", site.port), timeout=PATIENCE, source_address=(source, 0))
    return conn


def answer(conn: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection."""
    got = b""
    while chunk := conn.recv(4096):
        got += chunk
    return got


def page_status(site, source: str) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", site.port, timeout=PATIENCE, source_address=(source, 0))
    try:
        conn.request("GET", "/")
        return conn.getresponse().status
    finally:
        conn.close()


def half_open(site, count: int, source: str = "127.0.0.1") -> list[socket.socket]:
    held = []
    for _ in range(count):
        conn = connect(site, source)
        conn.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        held.append(conn)
    return held


def test_half_open_heads_are_closed_and_one_address_cannot_hold_every_connection(site):
    held = half_open(site, CAP)
    extra = half_open(site, 30)                 # beyond the address's share: refused at once
    try:
        for conn in extra:
            assert answer(conn).startswith(b"HTTP/1.1 429 ")
        assert page_status(site, "127.0.0.2") == 200        # another visitor is served meanwhile
        for conn in held:                                  # the deadline closes every half-open one
            assert answer(conn).startswith(b"HTTP/1.1 408 ")
    finally:
        for conn in held + extra:
            conn.close()
    assert page_status(site, "127.0.0.1") == 200        # the address has its places back


def test_a_head_trickled_a_byte_at_a_time_still_meets_its_deadline(site):
    conn = connect(site)
    conn.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    sent = 0
    try:
        # Each byte resets uvicorn's own keep-alive timer; the head's deadline is not reset.
        # The deadline is 2 s: the server must close long before 600 header lines at 0.1 s each.
        while sent < 600:
            try:
                conn.sendall(b"X-a: b\r\n")
            except OSError:
                break
            conn.settimeout(0.1)
            try:
                if conn.recv(4096, socket.MSG_PEEK):
                    break
            except TimeoutError:
                pass
            sent += 1
        conn.settimeout(PATIENCE)
        assert sent < 600
        assert answer(conn).startswith(b"HTTP/1.1 408 ")
    finally:
        conn.close()


def test_a_body_that_never_arrives_is_answered_408(site):
    conn = connect(site)
    try:
        conn.sendall(b"POST /accounts/login/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                     b"application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\nusername=ala")
        assert answer(conn).startswith(b"HTTP/1.1 408 ")
    finally:
        conn.close()


def test_keep_alive_requests_and_sockets_are_not_counted_against_the_address(site):
    conn = http.client.HTTPConnection("127.0.0.1", site.port, timeout=PATIENCE)
    try:
        for _ in range(CAP + 5):         # one connection, many requests: it holds one place
            conn.request("GET", "/")
            response = conn.getresponse()
            response.read()
            assert response.status == 200
    finally:
        conn.close()
    # Sockets leave the count once upgraded (they have their own limit, SOCKET_PER_ADDRESS).
    sockets = [ws_connect(f"ws://127.0.0.1:{site.port}/ws/lobby/sixtysix/", open_timeout=PATIENCE,
                          origin=site.url)
               for _ in range(CAP + 5)]
    try:
        for ws in sockets:
            assert json.loads(ws.recv(timeout=PATIENCE))["type"]
        assert page_status(site, "127.0.0.1") == 200
    finally:
        for ws in sockets:
            ws.close()


def test_the_server_raised_its_open_files_limit_to_the_hard_limit(site):
    limits = Path(f"/proc/{site.pid}/limits").read_text()
    line = next(line for line in limits.splitlines() if line.startswith("Max open files"))
    soft, hard = line.split()[3:5]
    assert soft == hard
    assert int(soft) == resource.getrlimit(resource.RLIMIT_NOFILE)[1]


def test_every_address_together_cannot_take_the_last_connections(tmp_path):
    """The total cap (HTTP_CONNECTIONS_TOTAL, at least 64): one more plain HTTP connection, from any
    address, is answered 503, and the held ones' deadlines give the places back."""
    with embedded_site(tmp_path, HTTP_HEADER_TIMEOUT_SECONDS="2", HTTP_CONNECTIONS_PER_ADDRESS="0",
                       HTTP_CONNECTIONS_TOTAL="64") as other:
        held = half_open(other, 32) + half_open(other, 32, source="127.0.0.2")
        extra = half_open(other, 3, source="127.0.0.3")
        try:
            for conn in extra:
                assert answer(conn).startswith(b"HTTP/1.1 503 ")
            for conn in held:
                assert answer(conn).startswith(b"HTTP/1.1 408 ")
        finally:
            for conn in held + extra:
                conn.close()
        assert page_status(other, "127.0.0.3") == 200
