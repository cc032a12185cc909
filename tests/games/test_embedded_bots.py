"""Bots on the real embedded site (tests/embedded.py: `config.serve` with its worker, beat and bot
processes): a person plays three strong bots through a real socket, at a table another process
created and started (so its first task was lost with that process's in-memory broker). Every bot
move after the sweeper's first must come from the table's own tasks, thought in the pool of bot
processes: the server's log says who did each (games/tasks.py ``sweep``, games/thinking.py). And the
bot processes end with the server."""
from __future__ import annotations

import asyncio
import json
import os
import random
import re
import time

import pytest
import websockets

from tests.embedded import embedded_site

SETUP = """
import json
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
from accounts.models import User
from games import services
ala = User.objects.create_user("ala", password="a-Secret-123")
store = SessionStore()
store.update({SESSION_KEY: str(ala.pk), BACKEND_SESSION_KEY: settings.AUTHENTICATION_BACKENDS[0],
              HASH_SESSION_KEY: ala.get_session_auth_hash()})
store.create()
t = services.create_table(ala, "hearts", seats=["me", "strong", "strong", "strong"], start=True)
print(json.dumps({"table": t.pk, "session": store.session_key}))
"""
PERSON_MOVES = 10


def _choose(view: dict, rng: random.Random) -> dict:
    action = dict(rng.choice(view["legal"]))
    if action.get("type") == "pass" and len(action.get("cards", ())) > 3:
        action["cards"] = rng.sample(list(action["cards"]), 3)
    action.pop("seat", None)
    return action


async def _play(url: str, origin: str, session: str) -> dict:
    """Play the person's seat for PERSON_MOVES moves; count the bots' moves seen meanwhile."""
    rng = random.Random(7)
    seen = {"person": 0, "bots": 0}
    async with websockets.connect(url, origin=origin, additional_headers={"Cookie": f"sessionid={session}"}) as ws:
        version = None
        while seen["person"] < PERSON_MOVES:
            msg = json.loads(await asyncio.wait_for(ws.recv(), 120))
            if msg["type"] not in ("snapshot", "update"):
                continue
            version = msg["version"]
            for event in msg.get("events") or [msg.get("event") or {}]:
                if event.get("kind") == "action" and event.get("seat") != 0:
                    seen["bots"] += 1
            if msg["table"]["status"] == "finished":
                break
            if msg["view"].get("legal"):
                await ws.send(json.dumps({"type": "action", "version": version,
                                          "action": _choose(msg["view"], rng)}))
                seen["person"] += 1
    return seen


def test_bots_move_by_their_tasks_and_think_in_the_bot_processes(tmp_path):
    with embedded_site(tmp_path, LOG_LEVEL="INFO", FAIR_SEED_WAIT_MS="0", SWEEP_GRACE_SECONDS="5") as site:
        made = json.loads(site.shell(SETUP))
        url = f"ws://127.0.0.1:{site.port}/ws/table/{made['table']}/"
        seen = asyncio.run(_play(url, site.url, made["session"]))
        log = site.log.read_text()
    assert seen["person"] == PERSON_MOVES and seen["bots"] >= 3 * (PERSON_MOVES - 1), seen
    swept = re.findall(rf"sweeper: table {made['table']} is overdue", log)
    # Once: the task the creating process scheduled died with its in-memory broker.
    assert len(swept) <= 1, log[-3000:]
    thought = re.findall(r"bot strong: .* ms late, thought .* ms \(budget \d+ ms\)(.*)", log)
    assert len(thought) >= seen["bots"] and all(where == " in the pool" for where in thought), log[-3000:]
    pids = [int(p) for p in re.search(r"bot processes: \[([\d, ]+)\]", log).group(1).split(",")]
    assert pids and not _alive_after(pids, 30)


def _alive_after(pids: list[int], seconds: float) -> list[int]:
    """The processes of ``pids`` still running once they all ended, or ``seconds`` passed."""
    end = time.monotonic() + seconds
    while True:
        alive = [p for p in pids if os.path.exists(f"/proc/{p}") and "Z" not in _state(p)]
        if not alive or time.monotonic() > end:
            return alive
        time.sleep(0.2)


def _state(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return ""
