"""Embedded mode end to end: the Celery worker thread inside Daphne starts a round, and the
tournament page's socket hears of it. The in-memory layer lives on Daphne's loop; a broadcast
from the worker thread must go through realtime/broadcast.py to reach it."""
import asyncio
import json
import time

import pytest
import websockets

from tests.embedded import embedded_site

CREATE = """
from datetime import timedelta
from django.utils import timezone
from accounts.models import User
from tournaments import services
from tournaments.models import Tournament
t = Tournament.objects.create(name="Worker cup", game="sixtysix", variant="kurnik", format="swiss",
    rounds=1, starts_at=timezone.now() + timedelta(seconds=4), bank_seconds=60, increment_seconds=0,
    min_entries=2, max_entries=8, break_seconds=0)
for i in range(2):
    services.register(t.pk, User.objects.create(username=f"wbot{i}", is_bot=True, bot_level="random"))
print(t.pk)
"""


async def _updates_until_round(url: str, origin: str, seconds: float) -> list[dict]:
    seen = []
    async with websockets.connect(url, origin=origin) as ws:
        seen.append(json.loads(await asyncio.wait_for(ws.recv(), 10)))
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            try:
                msg = json.loads(await asyncio.wait_for(ws.recv(), end - time.monotonic()))
            except asyncio.TimeoutError:
                break
            seen.append(msg)
            if msg["type"] == "update" and msg["state"]["current_round"] >= 1:
                break
    return seen


def test_it_sends_a_round_started_by_the_embedded_worker_to_the_page_socket(tmp_path):
    # asyncio's debug mode raises on a loop touched from another thread, instead of maybe working.
    with embedded_site(tmp_path, TOURNAMENT_TICK_SECONDS="1", PYTHONASYNCIODEBUG="1") as site:
        tid = int(site.shell(CREATE))
        url = f"ws://127.0.0.1:{site.port}/ws/tournament/{tid}/"
        seen = asyncio.run(_updates_until_round(url, site.url, 30))
    assert seen[0]["type"] == "snapshot" and seen[0]["state"]["current_round"] == 0
    started = [m for m in seen if m["type"] == "update" and m["state"]["current_round"] >= 1]
    assert started, [m["state"]["status"] for m in seen]
    assert started[0]["state"]["status"] == "running"
