"""What one may make the server do with /replay/upload/ (each deal is replayed through the engine):
records of at most RECORD_UPLOAD_BYTES and RECORD_UPLOAD_DEALS, RECORD_UPLOAD_RATE uploads per
address, one upload checked at a time per process, off the server's event loop."""
import asyncio
import json
import random
import re
import threading
from urllib.parse import urlencode

import pytest
from channels.testing import HttpCommunicator
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from config.routing import application
from games.engine.core import deal
from archive import views
from tests.limits import clock  # noqa: F401  (fixture)

pytestmark = pytest.mark.django_db(transaction=True)

VALID = "Valid: the engine computes the same result."


def records(n: int) -> str:
    """``n`` finished Sixty-six deals as JSON lines (random but seeded play)."""
    rng, lines = random.Random(37), []
    for number in range(n):
        state = deal("sixtysix", None, dealer=number % 2, deal_number=number)
        while not state.is_over():
            state.apply_move(state.random_move(rng))
        lines.append(json.dumps(state.record()))
    return "\n".join(lines)


@pytest.fixture
def replays(monkeypatch):
    """Counts the deals replayed."""
    counted = []
    real = views.replay_of

    def replay(record):
        counted.append(record)
        return real(record)
    monkeypatch.setattr(views, "replay_of", replay)
    return counted


def test_it_checks_at_most_record_upload_deals_at_a_time(client, settings, replays):
    settings.RECORD_UPLOAD_DEALS = 3
    assert client.post(reverse("upload_record"), {"text": records(3)}).content.decode().count(VALID) == 3
    r = client.post(reverse("upload_record"), {"text": records(4)})
    assert r.status_code == 413
    assert "At most 3 deals can be checked at a time; these records hold 4." in r.content.decode()
    assert len(replays) == 3                    # none of the four was replayed


def test_it_refuses_records_over_record_upload_bytes_before_parsing_them(client, settings, replays):
    payload = records(2)
    settings.RECORD_UPLOAD_BYTES = len(payload.encode()) - 1
    too_large = "The records are too large: at most"
    assert too_large in client.post(reverse("upload_record"), {"text": payload}).content.decode()
    upload = SimpleUploadedFile("match.jsonl", payload.encode(), "application/jsonl")
    assert too_large in client.post(reverse("upload_record"), {"file": upload}).content.decode()
    settings.RECORD_UPLOAD_BYTES = 1024         # far over it: refused on its length, before the form reads it
    big = records(100)
    assert len(big) > 64 * 1024         # far over the limit and the form's own bytes
    r = client.post(reverse("upload_record"), {"text": big})
    assert r.status_code == 413 and too_large in r.content.decode()
    assert replays == []


def test_it_limits_uploads_per_address(settings, clock, replays):
    settings.RECORD_UPLOAD_RATE = "2/h"
    payload = {"text": records(1)}
    here, there = Client(REMOTE_ADDR="203.0.113.5"), Client(REMOTE_ADDR="203.0.113.6")
    assert [here.post(reverse("upload_record"), payload).status_code for _ in range(2)] == [200, 200]
    r = here.post(reverse("upload_record"), payload)
    assert r.status_code == 429 and int(r["Retry-After"]) > 0
    assert "Many records were checked from your address lately." in r.content.decode()
    assert len(replays) == 2
    assert there.post(reverse("upload_record"), payload).status_code == 200    # per address
    clock.advance(3600)
    assert here.post(reverse("upload_record"), payload).status_code == 200


async def asgi(method: str, path: str, body: bytes = b"", headers=()) -> dict:
    """One request through the site's ASGI application, as the server hands it over (Django runs
    a sync view on a thread of its own per request there, unlike the test client)."""
    comm = Visit(application, method, path, body=body, headers=[(b"host", b"localhost"), *headers])
    return await comm.get_response(timeout=30)


class Visit(HttpCommunicator):
    """A request from a visitor's address, as a server's scope names it."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.scope["client"] = ("198.51.100.7", 50000)      # read when the request runs


async def form_post(path: str, fields: dict) -> dict:
    """A POST with the CSRF cookie and token the page gives."""
    page = await asgi("GET", path)
    cookie = next(v.decode() for k, v in page["headers"] if k.lower() == b"set-cookie"
                  and v.startswith(b"csrftoken=")).split(";")[0]
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page["body"].decode()).group(1)
    body = urlencode(dict(fields, csrfmiddlewaretoken=token)).encode()
    return await asgi("POST", path, body, [(b"cookie", cookie.encode()),
                                           (b"content-type", b"application/x-www-form-urlencoded")])


async def test_one_upload_is_checked_at_a_time_off_the_event_loop(monkeypatch):
    """While an upload is being checked (held inside the engine's replay here), the server's loop
    serves other requests, and a second upload is told to come back rather than run as CPU work
    beside it."""
    checking, release = threading.Event(), threading.Event()
    real = views.replay_of

    def held_replay(record):
        checking.set()
        release.wait(30)
        return real(record)
    monkeypatch.setattr(views, "replay_of", held_replay)
    path, payload = reverse("upload_record"), {"text": records(1)}
    first = asyncio.ensure_future(form_post(path, payload))
    while not checking.is_set():
        assert not first.done(), first.result()
        await asyncio.sleep(0.01)
    try:
        other = await asgi("GET", reverse("home"))
        assert other["status"] == 200
        second = await form_post(path, payload)
        assert second["status"] == 503 and (b"retry-after", b"5") in [(k.lower(), v) for k, v in second["headers"]]
        assert "checking other records just now" in second["body"].decode()
    finally:
        release.set()
    done = await first
    assert done["status"] == 200 and VALID in done["body"].decode()
