"""/healthz, /readyz and /metrics in front of Django (ops/probes.py): answers, failures, access."""
from __future__ import annotations

import json
import logging
import socket
import threading
import time

import pytest
from django.db import connections
from django.test import override_settings

from ops import health
from ops.probes import Probes
from tests.ops.asgi import get


class _Never:
    """An inner application that must not be reached."""

    async def __call__(self, scope, receive, send):
        raise AssertionError(f"{scope['path']} reached Django")


@pytest.fixture
def silent_port():
    """A TCP port that accepts connections and never says a word (a host that went silent)."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(16)
    held, stop = [], threading.Event()

    def accept():
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(server.accept()[0])
            except OSError:
                pass

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield server.getsockname()[1]
    stop.set()
    thread.join()
    for conn in held:
        conn.close()
    server.close()


async def test_healthz_answers_without_the_database_or_django(monkeypatch):
    def no_database(*args, **kwargs):
        raise AssertionError("healthz asked the database")

    monkeypatch.setattr(health, "readiness", no_database)
    answer = await get(Probes(_Never()), "/healthz", client="203.0.113.9")
    assert (answer.status, answer.body) == (200, b"ok\n")
    assert answer.headers["cache-control"] == "no-store"


@pytest.mark.django_db(transaction=True)
async def test_readyz_is_ready_when_the_database_answers_in_embedded_mode():
    answer = await get(Probes(_Never()), "/readyz", client="203.0.113.9")
    assert answer.status == 200
    assert json.loads(answer.body) == {"ready": True, "checks": {"database": "ok"}}


@pytest.mark.django_db(transaction=True)
async def test_readyz_in_scaled_mode_asks_redis_too():
    with override_settings(REDIS_URL="redis://127.0.0.1:6379/15"):
        answer = await get(Probes(_Never()), "/readyz")
    assert answer.status == 200
    assert json.loads(answer.body)["checks"] == {"database": "ok", "redis": "ok"}


@pytest.mark.django_db(transaction=True)
async def test_readyz_says_503_and_what_failed_when_redis_is_silent(silent_port, caplog):
    with override_settings(REDIS_URL=f"redis://127.0.0.1:{silent_port}/0", READY_TIMEOUT_SECONDS=0.5), \
            caplog.at_level(logging.WARNING):
        started = time.monotonic()
        answer = await get(Probes(_Never()), "/readyz")
        took = time.monotonic() - started
    body = json.loads(answer.body)
    assert answer.status == 503 and body["ready"] is False
    assert body["checks"]["database"] == "ok"
    assert body["checks"]["redis"].startswith(("no answer", "TimeoutError"))
    assert took < 5          # the deadline, not the socket's default of never
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


class _SilentDatabase:
    """``connections`` with one PostgreSQL database, on a host that takes the connection and never
    answers (made on the thread that asks, as Django's own connections are)."""

    def __init__(self, port: int):
        self.port = port

    def __getitem__(self, alias):
        from django.db.backends.postgresql.base import DatabaseWrapper

        return DatabaseWrapper({
            **connections["default"].settings_dict, "ENGINE": "django.db.backends.postgresql",
            "NAME": "cards", "HOST": "127.0.0.1", "PORT": str(self.port), "USER": "nobody",
            "PASSWORD": "x", "OPTIONS": {"connect_timeout": 30}, "CONN_MAX_AGE": 0}, alias)


@pytest.fixture
def silent_database(silent_port, monkeypatch, django_db_blocker):
    monkeypatch.setattr(health, "connections", _SilentDatabase(silent_port))
    monkeypatch.setattr(health, "DATABASES", ["silent"])
    with django_db_blocker.unblock():       # this database is none of the test database's
        yield


async def test_readyz_says_503_within_the_timeout_when_the_database_is_silent(silent_database):
    with override_settings(READY_TIMEOUT_SECONDS=0.5):
        answer = await get(Probes(_Never()), "/readyz")
        again = await get(Probes(_Never()), "/readyz")     # the first check is still stuck
    assert answer.status == 503
    assert json.loads(answer.body)["checks"] == {"database:silent": "no answer within 0.5 s"}
    assert json.loads(again.body)["checks"] == {"database:silent": "no answer yet to the previous check"}


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("client", ["127.0.0.1", "::1", "127.0.0.5"])
async def test_metrics_answer_this_machine(client):
    answer = await get(Probes(_Never()), "/metrics", client=client)
    assert answer.status == 200
    assert answer.headers["content-type"].startswith("text/plain; version=")
    assert b"cards_ready{check=\"database\"} 1.0" in answer.body


@pytest.mark.django_db(transaction=True)
async def test_metrics_are_hidden_from_elsewhere_unless_allowed_by_address_or_token():
    probes = Probes(_Never())
    assert (await get(probes, "/metrics", client="203.0.113.9")).status == 404
    assert (await get(probes, "/metrics", client="203.0.113.9",
                      headers={"Authorization": "Bearer guess"})).status == 404
    with override_settings(METRICS_ALLOWED_IPS=["203.0.113.0/24"]):
        assert (await get(probes, "/metrics", client="203.0.113.9")).status == 200
        assert (await get(probes, "/metrics", client="198.51.100.1")).status == 404
    with override_settings(METRICS_TOKEN="s3cret-token"):
        assert (await get(probes, "/metrics", client="203.0.113.9",
                          headers={"Authorization": "Bearer s3cret-token"})).status == 200
        assert (await get(probes, "/metrics", client="203.0.113.9",
                          headers={"Authorization": "Bearer s3cret-tokeN"})).status == 404


async def test_other_paths_and_methods_pass_through_or_are_refused():
    reached = []

    async def inner(scope, receive, send):
        reached.append(scope["path"])
        await send({"type": "http.response.start", "status": 204, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    assert (await get(Probes(inner), "/healthz/x")).status == 204
    assert (await get(Probes(inner), "/healthz", method="POST")).status == 405
    assert reached == ["/healthz/x"]


@pytest.mark.django_db(transaction=True)
async def test_a_flood_of_readyz_costs_one_check_a_second(monkeypatch):
    asked = []
    real = health._database_probe

    def counting(alias):
        probe = real(alias)

        def run():
            asked.append(alias)
            probe()
        return run

    monkeypatch.setattr(health, "_database_probe", counting)
    monkeypatch.setattr(health, "_checks", {})
    monkeypatch.setattr(health, "_passed", {})
    clock = [100.0]
    monkeypatch.setattr(health, "_clock", lambda: clock[0])
    answers = [await get(Probes(_Never()), "/readyz") for _ in range(20)]
    assert {a.status for a in answers} == {200}
    assert len(asked) == 1
    clock[0] += health.READY_FOR_SECONDS
    assert (await get(Probes(_Never()), "/readyz")).status == 200
    assert len(asked) == 2          # a second later, asked again
