"""Duplicate tournaments in scaled mode: PostgreSQL, Redis, a Daphne, a separate Celery
worker and beat. A Sixty-six and a Hearts duplicate tournament of bots run by themselves, two
rounds each; the worker is killed mid-round, with tables of both playing, and replaced. Still each
round has its tables once, every table plays exactly the round's boards, the stored records prove
that every table of a round held the same cards (Sixty-six: swapped at every second table) and
each verifies against the round's seed, which the page socket (on Daphne, fed through Redis by the
worker) showed only once the round was over.
"""
import asyncio
import json
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from .test_scaled import manage_shell, scaled_env
from .tournament_run import page_socket, replace_worker, start_now, tournament_processes

pytestmark = pytest.mark.scaled
DB = "cards_duplicate_scaled_test"

SETUP = """
import json
from datetime import timedelta
from django.utils import timezone
from accounts.models import User
from tournaments import services
from tournaments.models import Tournament
out = {}
for game, variant, n in (("sixtysix", "kurnik", 4), ("hearts", "standard", 6)):
    t = Tournament.objects.create(name=f"Scaled duplicate {game}", game=game, variant=variant, format="duplicate",
        rounds=2, boards=3, starts_at=timezone.now() + timedelta(hours=1), bank_seconds=60, increment_seconds=0,
        min_entries=2, break_seconds=2, bot_level="random")
    for i in range(n):
        services.register(t.pk, User.objects.create(username=f"d{game}{i}", is_bot=True, bot_level="random"))
    out[game] = t.pk
print(json.dumps(out))
"""

CHECK = """
import json
from games.engine import fair
from games.engine.core import get_rules
from games.models import Deal
from archive.visibility import public_record
from tournaments import duplicate
from tournaments.models import Entry, Game, Round, Tournament
t = Tournament.objects.get(pk=%d)
rounds = []
for rnd in Round.objects.filter(tournament=t).order_by("number"):
    tables = []
    for g in Game.objects.filter(round=rnd, bye=False).select_related("table__match").order_by("board"):
        m = g.table.match
        records = [public_record(m, d) for d in Deal.objects.filter(match=m).order_by("number")]
        verified = 0
        for r in records:
            fair.check_record(r, get_rules)
            assert r["fair"]["server_seed"] == rnd.seed and r["fair"]["label"] == fair.round_label(t.pk, rnd.number)
            verified += 1
        # Each seat's hand keyed by what it is: (board, position from the dealer).
        hands = {f"{r['fair'].get('board', r['deal_number'])}:{duplicate.position(s, r['dealer'], len(r['hands']))}": r["hands"][s]
                 for r in records for s in range(len(r["hands"]))}
        tables.append({"finished": m.finished, "result": g.result is not None, "deals": len(records),
                       "verified": verified, "hands": hands, "dealers": [r["dealer"] for r in sorted(records, key=lambda r: r["fair"]["board"])]})
    rounds.append({"number": rnd.number, "status": rnd.status, "seed": rnd.seed, "commitment": rnd.commitment,
                   "tables": tables})
print(json.dumps({"status": t.status, "rounds": rounds,
                  "ranks": sorted(Entry.objects.filter(tournament=t).values_list("final_rank", flat=True))}))
"""


@pytest.fixture(scope="module")
def env():
    return scaled_env(DB, BOT_DELAY_MS="20", DEAL_PAUSE_MS="50", TOURNAMENT_TICK_SECONDS="1")


async def _follow(ws, messages, deadline):
    while time.monotonic() < deadline:
        try:
            msg = json.loads(await asyncio.wait_for(ws.recv(), 1.0))
        except asyncio.TimeoutError:
            continue
        messages.append(msg["state"])
        if msg["state"]["status"] in ("finished", "cancelled"):
            return


async def _watch(env, port, tids, procs, deadline):
    """Follow both pages, start both tournaments; kill the worker once both have a round being
    played, then replace it."""
    socks = {game: await page_socket(port, tid) for game, tid in tids.items()}
    messages = {game: [] for game in tids}
    tasks = [asyncio.create_task(_follow(ws, messages[game], deadline)) for game, ws in socks.items()]
    await start_now(env, *tids.values())
    killed = False
    try:
        while not killed and time.monotonic() < deadline and not all(t.done() for t in tasks):
            await asyncio.sleep(0.2)
            playing = [any(r["status"] == "playing" and any(g["status"] != "finished" for g in r["games"])
                           for r in (m[-1]["rounds"] if m else [])) for m in messages.values()]
            if all(playing):
                await asyncio.sleep(0.5)                 # deals under way at the tables
                await replace_worker(procs, "duplicate")
                killed = True
        await asyncio.gather(*tasks)
    finally:
        for ws in socks.values():
            await ws.close()
    return messages, killed


def test_duplicate_tournaments_run_by_themselves_across_a_worker_kill(env):
    tids = manage_shell(env, SETUP)
    with tournament_processes(env, "duplicate") as (port, procs), ThreadPoolExecutor(1) as pool:
        messages, killed = pool.submit(asyncio.run, _watch(env, port, tids, procs, time.monotonic() + 240)).result()
    assert killed
    for game, tid in tids.items():
        final = manage_shell(env, CHECK % tid)
        assert final["status"] == "finished", (game, messages[game][-1:])
        assert [(r["number"], r["status"]) for r in final["rounds"]] == [(1, "finished"), (2, "finished")]
        seats = 2 if game == "sixtysix" else 4
        for rnd in final["rounds"]:
            tables = rnd["tables"]
            assert len(tables) == 2 and all(tb["finished"] and tb["result"] for tb in tables)
            assert all(tb["deals"] == tb["verified"] == 3 for tb in tables), game
            # Every table held the same cards per board and position; Sixty-six swapped the dealer.
            assert tables[0]["hands"] == tables[1]["hands"] and len(tables[0]["hands"]) == 3 * seats
            if game == "sixtysix":
                assert [1 - d for d in tables[0]["dealers"]] == tables[1]["dealers"]
            else:
                assert tables[0]["dealers"] == tables[1]["dealers"] == [0, 1, 2]
            # The page showed the commitment from the start, the seed only once the round was over.
            for state in messages[game]:
                text = json.dumps(state)
                shown = [r for r in state["rounds"] if r["number"] == rnd["number"]]
                if shown and shown[0]["status"] != "finished":
                    assert rnd["seed"] not in text and rnd["commitment"] in text
        assert rnd["seed"] in json.dumps(messages[game][-1])
        assert final["ranks"] == list(range(1, 5 if game == "sixtysix" else 7))
