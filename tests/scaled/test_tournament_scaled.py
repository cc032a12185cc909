"""A tournament in scaled mode: PostgreSQL, Redis, a Daphne, a separate Celery worker and beat.
An 8-entrant Swiss of bots (one entrant never connects), started by an admin, runs to its final
ranking by itself; the worker is killed mid-round and replaced, and still no round is created
twice, no result is lost, and the page's socket (on Daphne, fed through Redis by the worker) sees
every round.
"""
import asyncio
import json
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from .test_scaled import manage_shell, scaled_env
from .tournament_run import page_socket, replace_worker, start_now, tournament_processes

pytestmark = pytest.mark.scaled
DB = "cards_tournament_scaled_test"

SETUP = """
import json
from datetime import timedelta
from django.utils import timezone
from accounts.models import User
from tournaments import services
from tournaments.models import Tournament
t = Tournament.objects.create(name="Scaled Swiss", game="sixtysix", variant="kurnik", format="swiss",
    rounds=3, starts_at=timezone.now() + timedelta(hours=1), bank_seconds=10, increment_seconds=0,
    min_entries=4, max_entries=16, break_seconds=1)
for i in range(7):
    services.register(t.pk, User.objects.create(username=f"sbot{i}", is_bot=True, bot_level="random"))
ghost = User.objects.create_user(username="ghost", password="x-Secret-123")
services.register(t.pk, ghost)
print(json.dumps({"tournament": t.pk}))
"""

CHECK = """
import json
from accounts.models import User
from games.models import Match
from tournaments import services
from tournaments.models import Entry, Game, Round, Tournament
t = Tournament.objects.get(pk=%d)
ghost = Entry.objects.get(tournament=t, user__username="ghost")
games = list(Game.objects.filter(round__tournament=t))
print(json.dumps({
    "status": t.status, "rounds": list(Round.objects.filter(tournament=t).values_list("number", flat=True)),
    "games": len(games), "results": sum(g.result is not None for g in games),
    "matches_finished": sum(Match.objects.filter(table_id=g.table_id, finished=True).exists() for g in games),
    "pairs": [sorted(g.players) for g in games],
    "ghost_lost_on_time": [g.result["timed_out"] == [g.players.index(ghost.pk)] for g in games if ghost.pk in g.players],
    "ranks": sorted(Entry.objects.filter(tournament=t).values_list("final_rank", flat=True)),
    "standings": [(r["entry"], r["rank"], r["match_points"]) for r in services.state(t)["standings"]],
    "ghost": ghost.pk,
}))
"""


@pytest.fixture(scope="module")
def env():
    return scaled_env(DB, BOT_DELAY_MS="20", DEAL_PAUSE_MS="50", TOURNAMENT_TICK_SECONDS="1")


async def _watch(env, port, tid, procs, deadline):
    """Listen to the tournament page socket, start the tournament; kill the worker once round 2
    is under way."""
    ws = await page_socket(port, tid)
    seen, killed = [], False
    try:
        await start_now(env, tid)
        while time.monotonic() < deadline:
            try:
                msg = json.loads(await asyncio.wait_for(ws.recv(), 1.0))
            except asyncio.TimeoutError:
                continue
            st = msg["state"]
            seen.append((st["status"], st["current_round"]))
            playing = [g for r in st["rounds"] if r["number"] == st["current_round"]
                       for g in r["games"] if g["points"] is None]
            if not killed and st["current_round"] == 2 and len(playing) >= 2:
                await replace_worker(procs, "tournament")  # mid-round, tables still playing
                killed = True
            if st["status"] in ("finished", "cancelled"):
                break
    finally:
        await ws.close()
    return seen, killed


def test_it_runs_a_swiss_by_itself_across_a_worker_kill(env):
    setup = manage_shell(env, SETUP)
    with tournament_processes(env, "tournament") as (port, procs), ThreadPoolExecutor(1) as pool:
        seen, killed = pool.submit(asyncio.run, _watch(env, port, setup["tournament"], procs,
                                                       time.monotonic() + 240)).result()
    final = manage_shell(env, CHECK % setup["tournament"])
    assert killed, seen
    assert final["status"] == "finished", (final, seen[-3:])
    assert final["rounds"] == [1, 2, 3]
    assert final["games"] == final["results"] == final["matches_finished"] == 12
    pairs = [tuple(p) for p in final["pairs"]]
    assert len(pairs) == len(set(pairs)), "no repeat opponents, no duplicate game"
    assert final["ghost_lost_on_time"] == [True, True, True]
    assert final["ranks"] == list(range(1, 9))
    # The no-show scored nothing: only entrants as pointless as he is may rank below him.
    ghost_rank, ghost_points = next((rank, mp) for e, rank, mp in final["standings"] if e == final["ghost"])
    assert ghost_points == 0
    assert all(mp == 0 for _e, rank, mp in final["standings"] if rank > ghost_rank)
    assert {r for s, r in seen if s == "running"} >= {1, 2, 3}     # the page saw every round live
    assert seen[-1] == ("finished", 3)
