"""deploy/nginx.conf under a real nginx: a table's sockets reach one web process, everything else
is spread, WebSocket upgrades pass, the client's address replaces X-Forwarded-For, half-open
requests are closed and one address's requests in progress are capped."""
from __future__ import annotations

import http.client
import json
import re
import shutil
import socket
import subprocess
import threading
from concurrent.futures import ThreadPoolExecutor
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from tests.embedded import ROOT, _free_port, _wait_for_port
from tests.services import require

CONF = ROOT / "deploy" / "nginx.conf"


class _Backend(BaseHTTPRequestHandler):
    """A stand-in web process: answers with its name and the headers the proxy sent it."""

    def do_GET(self):
        if self.path == "/hold":        # a request in progress until the test lets it go
            self.server.arrived.release()
            self.server.release.wait(60)
        body = json.dumps({"backend": self.server.name, "headers": dict(self.headers)}).encode()
        # web1 is not ready (its database does not answer, say): its /readyz says 503.
        self.send_response(503 if self.path == "/readyz" and self.server.name == "web1" else 200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def _backend(name: str) -> ThreadingHTTPServer:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Backend)
    server.name = name
    server.release = threading.Event()
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


HEADER_SECONDS = 2      # the file's client_header_timeout, made short for the test
PER_ADDRESS = 4         # the file's limit_conn, made small for the test
PATIENCE = 60


@pytest.fixture
def proxy(tmp_path: Path, backends):
    nginx = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
    require(nginx is not None, "nginx (Debian's nginx-light; `make test` installs it)")
    port = _free_port()
    conf = CONF.read_text()
    conf = re.sub(r"client_header_timeout \d+s;", f"client_header_timeout {HEADER_SECONDS}s;", conf)
    conf = re.sub(r"limit_conn cards_per_address \d+;", f"limit_conn cards_per_address {PER_ADDRESS};", conf)
    # This file's two upstream servers and its port, pointed at the stand-ins.
    upstreams = iter(f"server 127.0.0.1:{b.server_address[1]}" for b in backends)
    conf = re.sub(r"server 127\.0\.0\.1:\d+", lambda _m: next(upstreams), conf)
    conf = conf.replace("listen 80;", f"listen 127.0.0.1:{port};")
    (tmp_path / "site.conf").write_text(conf)
    (tmp_path / "nginx.conf").write_text(f"""
pid {tmp_path}/nginx.pid;
error_log {tmp_path}/error.log;
events {{}}
http {{
    access_log off;
    client_body_temp_path {tmp_path}/body;
    proxy_temp_path {tmp_path}/proxy;
    fastcgi_temp_path {tmp_path}/fastcgi;
    uwsgi_temp_path {tmp_path}/uwsgi;
    scgi_temp_path {tmp_path}/scgi;
    include {tmp_path}/site.conf;
}}
""")
    proc = subprocess.Popen([nginx, "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf"),
                             "-g", "daemon off;"], stderr=subprocess.PIPE)
    try:
        _wait_for_port(port, proc, timeout=10)
        yield port
    finally:
        proc.terminate()
        proc.wait(10)


@pytest.fixture
def backends():
    started = [_backend("web1"), _backend("web2")]
    arrived = threading.Semaphore(0)         # one release per held request in progress
    for b in started:
        b.arrived = arrived
    yield started
    for b in started:
        b.release.set()
        b.shutdown()
        b.server_close()


def _get(port: int, path: str, headers: dict | None = None) -> dict:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        conn.request("GET", path, headers=headers or {})
        response = conn.getresponse()
        assert response.status == 200
        return json.loads(response.read())
    finally:
        conn.close()


def test_every_socket_of_a_table_reaches_the_same_web_process_and_tables_spread(proxy):
    first = {t: _get(proxy, f"/ws/table/{t}/")["backend"] for t in range(1, 41)}
    again = {t: _get(proxy, f"/ws/table/{t}/?invite=x")["backend"] for t in range(1, 41)}
    assert again == first
    assert set(first.values()) == {"web1", "web2"}


def test_pages_lobbies_and_the_bot_api_are_spread_over_the_processes(proxy):
    for path in ("/", "/ws/lobby/hearts/", "/ws/bot/"):
        assert {_get(proxy, path)["backend"] for _ in range(40)} == {"web1", "web2"}


def test_a_websocket_upgrade_passes_and_the_client_address_replaces_x_forwarded_for(proxy):
    seen = _get(proxy, "/ws/table/7/", {"Upgrade": "websocket", "Connection": "Upgrade",
                                        "X-Forwarded-For": "203.0.113.9"})["headers"]
    assert seen["Upgrade"] == "websocket"
    assert seen["Connection"] == "upgrade"
    assert seen["X-Forwarded-For"] == "127.0.0.1"      # not "203.0.113.9, 127.0.0.1": no spoofing


def _until_closed(conn: socket.socket) -> bytes:
    """What the proxy sends until it closes the connection (a reset counts as closed)."""
    got = b""
    try:
        while chunk := conn.recv(4096):
            got += chunk
    except ConnectionResetError:
        pass
    return got


def _status(port: int, path: str, source: str = "127.0.0.1") -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=PATIENCE, source_address=(source, 0))
    try:
        conn.request("GET", path)
        return conn.getresponse().status
    finally:
        conn.close()


def test_half_open_requests_are_closed_by_the_header_timeout_while_pages_answer(proxy):
    held = []
    try:
        for _ in range(200):
            # Fifteen times the file's timeout (as the test sets it), half nginx's default of 60 s.
            conn = socket.create_connection(("127.0.0.1", proxy), timeout=15 * HEADER_SECONDS)
            conn.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            held.append(conn)
        assert _status(proxy, "/") == 200
        for conn in held:
            assert not _until_closed(conn).startswith(b"HTTP/1.1 200")
    finally:
        for conn in held:
            conn.close()


def test_one_address_cannot_have_more_requests_in_progress_than_its_share(proxy, backends):
    pool = ThreadPoolExecutor(PER_ADDRESS)
    try:
        holding = [pool.submit(_status, proxy, "/hold") for _ in range(PER_ADDRESS)]
        for _ in holding:
            assert backends[0].arrived.acquire(timeout=PATIENCE)
        assert _status(proxy, "/") == 429                           # one more from the address
        assert _status(proxy, "/", source="127.0.0.2") == 200      # another address is served
        for b in backends:
            b.release.set()
        assert [f.result(PATIENCE) for f in holding] == [200] * PER_ADDRESS
        assert _status(proxy, "/") == 200
    finally:
        for b in backends:
            b.release.set()
        pool.shutdown()


def test_readyz_through_the_proxy_asks_the_next_process_when_one_is_not_ready(proxy):
    answered = {_get(proxy, "/readyz")["backend"] for _ in range(20)}
    assert answered == {"web2"}


def test_every_request_carries_a_request_id_of_the_proxys_for_the_logs(proxy):
    ids = {_get(proxy, "/", {"X-Request-ID": "forged"})["headers"]["X-Request-ID"] for _ in range(5)}
    assert len(ids) == 5 and "forged" not in ids
