"""An arena in scaled mode: PostgreSQL, Redis, a Daphne, a separate Celery worker and beat.
Six bots and one entrant who never connects play a Sixty-six arena by themselves, started by an
admin; the worker is killed mid-arena, with matches being played, and replaced. Still nobody sits
at two tables at once, nobody is paired after the window, every match gets its result, the absent
entrant forfeits once and is paused, and the page's socket (on Daphne, fed through Redis by the
worker) follows the leaderboard to the final ranking.

The window is not waited out: once the new worker has finished matches of its own and the absent
entrant is paused, the test brings the window's end forward to now (the arena's length is the pure
and embedded tests' matter, tests/tournaments/test_arena*.py); beat's tick then closes it.
"""
import asyncio
import json
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from .test_scaled import manage_shell, scaled_env
from .tournament_run import page_socket, replace_worker, start_now, tournament_processes

pytestmark = pytest.mark.scaled
DB = "cards_arena_scaled_test"

SETUP = """
import json
from datetime import timedelta
from django.utils import timezone
from accounts.models import User
from tournaments import services
from tournaments.models import Entry, Tournament
t = Tournament.objects.create(name="Scaled Arena", game="sixtysix", variant="kurnik", format="arena",
    arena_minutes=10, starts_at=timezone.now() + timedelta(hours=1), bank_seconds=10, increment_seconds=0,
    min_entries=4, max_entries=16)
# Basic bots never claim falsely: a random one's false claim could hand the absent entrant a win.
for i in range(6):
    services.register(t.pk, User.objects.create(username=f"abot{i}", is_bot=True, bot_level="basic"))
services.register(t.pk, User.objects.create_user(username="ghost", password="x-Secret-123"))
print(json.dumps({"tournament": t.pk, "ghost": Entry.objects.get(tournament=t, user__username="ghost").pk}))
"""

CHECK = """
import json
from datetime import timedelta
from tournaments import services
from tournaments.models import Entry, Game, Round, Tournament
t = Tournament.objects.get(pk=%d)
games = list(Game.objects.filter(round__tournament=t).select_related("table__match").order_by("board"))
ghost = Entry.objects.get(tournament=t, user__username="ghost")
print(json.dumps({
    "status": t.status, "rounds": list(Round.objects.filter(tournament=t).values_list("number", "status")),
    "games": len(games), "results": sum(g.result is not None for g in games),
    "finished": sum(g.table.match.finished for g in games),
    # A pairing decided before the close creates its tables a moment later (a real clock, a loaded
    # machine: two games of a step just before the close were once stamped after it);
    # tests/tournaments/formats/test_arena.py checks the rule to the instant on a test clock.
    "after_close": sum(g.table.match.started_at >= t.ends_at + timedelta(seconds=2) for g in games),
    "spans": [[g.players, g.table.match.started_at.timestamp(), g.table.match.finished_at.timestamp()]
              for g in games if g.table.match.finished],
    "ghost": [g.result["timed_out"] == [g.players.index(ghost.pk)] for g in games if ghost.pk in g.players],
    "ghost_paused": ghost.paused,
    "ranks": sorted(Entry.objects.filter(tournament=t).values_list("final_rank", flat=True)),
    "board": [(r["entry"], r["rank"], r["points"], r["games"]) for r in services.state(t)["leaderboard"]],
}))
"""


CLOSE_NOW = """
import json
from django.utils import timezone
from tournaments.models import Tournament
print(json.dumps(Tournament.objects.filter(pk=%d).update(ends_at=timezone.now())))
"""


@pytest.fixture(scope="module")
def env():
    return scaled_env(DB, BOT_DELAY_MS="20", DEAL_PAUSE_MS="50", TOURNAMENT_TICK_SECONDS="1")


async def _watch(env, port, setup, procs, deadline):
    """Follow the page socket, start the arena; kill the worker once matches have ended and others
    are playing; close the window once the new worker has finished two matches and the absent
    entrant is paused."""
    tid = setup["tournament"]
    ws = await page_socket(port, tid)
    boards, killed, closed = [], None, False
    try:
        await start_now(env, tid)
        while time.monotonic() < deadline:
            try:
                msg = json.loads(await asyncio.wait_for(ws.recv(), 1.0))
            except asyncio.TimeoutError:
                continue
            st = msg["state"]
            boards.append((st["status"], sum(r["games"] for r in st["leaderboard"])))
            playing = sum(r["playing"] for r in st["leaderboard"])
            if killed is None and boards[-1][1] >= 6 and playing >= 4:
                await replace_worker(procs, "arena")        # mid-arena, matches being played
                killed = boards[-1][1]
            ghost_paused = any(r["entry"] == setup["ghost"] and r["paused"] for r in st["leaderboard"])
            if killed is not None and not closed and boards[-1][1] >= killed + 4 and ghost_paused:
                await asyncio.get_running_loop().run_in_executor(None, manage_shell, env, CLOSE_NOW % tid)
                closed = True
            if st["status"] in ("finished", "cancelled"):
                break
    finally:
        await ws.close()
    return boards, killed is not None


def test_an_arena_runs_by_itself_across_a_worker_kill(env):
    setup = manage_shell(env, SETUP)
    with tournament_processes(env, "arena") as (port, procs), ThreadPoolExecutor(1) as pool:
        boards, killed = pool.submit(asyncio.run, _watch(env, port, setup, procs,
                                                         time.monotonic() + 240)).result()
    final = manage_shell(env, CHECK % setup["tournament"])
    assert killed, boards[-5:]
    assert final["status"] == "finished", (final["status"], boards[-3:])
    assert final["rounds"] == [[1, "finished"]]
    assert final["games"] == final["results"] == final["finished"] and final["games"] >= 6
    assert final["after_close"] == 0
    by_player = {}
    for players, start, end in final["spans"]:
        for p in players:
            by_player.setdefault(p, []).append((start, end))
    for p, spans in by_player.items():
        spans.sort()
        assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:])), f"entry {p} at two tables at once"
    assert final["ghost"] == [True] and final["ghost_paused"]
    assert final["ranks"] == list(range(1, 8))
    assert sum(g for _e, _r, _p, g in final["board"]) == 2 * final["games"]
    # The page followed the leaderboard as matches ended, to the final ranking.
    counts = [n for _s, n in boards]
    assert len(set(counts)) >= 4 and counts == sorted(counts)
    assert boards[-1] == ("finished", 2 * final["games"])
