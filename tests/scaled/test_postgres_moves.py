"""The move path on PostgreSQL, in one process: prepared statements, pipelined reads and writes,
and the COMMIT sent with a change's last writes (games/prepared.py). The rest of the suite runs
on SQLite, where none of that applies."""
import pytest

from .test_scaled import manage_shell, scaled_env

pytestmark = pytest.mark.scaled
DB = "cards_pg_moves_test"

PLAY = """
import json, random
from django.db import connection, transaction
from psycopg.pq import TransactionStatus
from accounts.models import User
from games import broadcast, services
from games.bots import choose_action
from games.models import Deal, Table

users = [User.objects.create_user(username=f"pg{i}", password="x-Secret-123") for i in range(4)]
t = services.create_table(users[0], "hearts", seats=["me", "", "", ""])
for i in (1, 2, 3):
    services.sit(t.pk, users[i], i)
services.start(t.pk, users[0])
for seat in (0, 1, 2, 3, None):          # a socket at each seat, and a spectator's
    services.set_connected(t.pk, seat, +1)
rng = random.Random(7)

def state():
    table = Table.objects.get(pk=t.pk)
    deal = Deal.objects.filter(match__table=table).order_by("-number").first()
    return table.version, len(deal.record["actions"])

def move(version=None):
    live = services.load(t.pk)
    seat = live.state.seats_to_act()[0]
    action = choose_action("random", live.state.view(seat), rng)
    with broadcast.collecting() as sent:
        services.act(t.pk, users[seat], live.table.version if version is None else version, action)
    return sent

# Which commits found a transaction to end: the one sent with the last writes does, Django's
# own at the end of the atomic block then finds none.
connection.ensure_connection()
raw = connection.connection
commits = []
plain_commit = raw.commit
def watched_commit():
    commits.append(raw.info.transaction_status != TransactionStatus.IDLE)
    plain_commit()
raw.commit = watched_commit

out = {"applied": [], "in_block_after": [], "commits": []}
for _ in range(12):
    before = state()
    commits.clear()
    sent = move()
    out["applied"].append([before, state(), len(sent)])
    out["in_block_after"].append(connection.in_atomic_block)
    out["commits"].append(list(commits))

before = state()
try:
    move(version=before[0] - 1)
except services.ServiceError as err:
    out["stale"] = [err.code, before, state()]

# Inside a caller's transaction the change waits for that transaction, and rolls back with it.
before = state()
commits.clear()
with transaction.atomic():
    move()
    out["inside_seen"] = state()
    transaction.set_rollback(True)
out["inside_after"] = [before, state(), list(commits)]
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def out():
    return manage_shell(scaled_env(DB, 12), PLAY)


def test_a_move_on_postgres_commits_with_its_last_writes_and_nothing_else_changes(out):
    for (v0, a0), (v1, a1), messages in out["applied"]:
        assert (v1, a1) == (v0 + 1, a0 + 1) or (v1 == v0 + 1 and a1 == 0)   # or a new deal began
        assert messages == 5                    # four seats and the spectators, after the commit
    assert not any(out["in_block_after"])
    assert all(c == [True, False] for c in out["commits"]), out["commits"]
    code, before, after = out["stale"]
    assert code == "stale" and before == after


def test_a_move_inside_a_callers_transaction_is_not_committed_early(out):
    before, after, commits = out["inside_after"]
    v0, a0 = before
    assert out["inside_seen"][0] == v0 + 1      # applied inside the block...
    assert after == before                      # ...and rolled back with it
    assert True not in commits                  # no COMMIT was sent from inside it


# games/loop_moves.py: the same move on the event loop, over its own asynchronous connections.
ON_LOOP = """
import asyncio, json, random
from asgiref.sync import sync_to_async
from accounts.models import User
from games import loop_moves, services
from games.bots import choose_action
from games.models import Deal, Match, Table

users = [User.objects.create_user(username=f"lp{i}", password="x-Secret-123") for i in range(4)]
t = services.create_table(users[0], "hearts", seats=["me", "", "", ""])
for i in (1, 2, 3):
    services.sit(t.pk, users[i], i)
services.start(t.pk, users[0])
m = Match.objects.get(table=t)
m.state = dict(m.state, scores=[99, 99, 99, 99])      # this deal ends the match
m.save()
for seat in (0, 1, 2, 3):
    services.set_connected(t.pk, seat, +1)
rng = random.Random(11)

def state():
    table = Table.objects.get(pk=t.pk)
    deal = Deal.objects.filter(match__table=table).order_by("-number").first()
    return [table.version, len(deal.record["actions"])]

def next_move():
    live = services.load(t.pk)
    seat = live.state.seats_to_act()[0]
    return seat, live.table.version, choose_action("random", live.state.view(seat), rng)

async def refused(seat, version, action):
    before = await sync_to_async(state)()
    try:
        await loop_moves.act(t.pk, users[seat], version, action)
    except services.ServiceError as err:
        return [err.code, before == await sync_to_async(state)()]
    return ["applied", False]

async def main():
    out = {}
    services.forget()      # a process that has not seen the table: it reads the users on a thread
    seat, version, action = await sync_to_async(next_move)()
    try:
        await loop_moves.act(t.pk, users[seat], version, action)
        out["unseen"] = "applied"
    except services.NeedsThread:
        out["unseen"] = ["needs thread", await sync_to_async(state)()]
    await sync_to_async(services.act)(t.pk, users[seat], version, action)
    out["moves"] = []
    for _ in range(10):
        seat, version, action = await sync_to_async(next_move)()
        before = await sync_to_async(state)()
        sent, blocking = await loop_moves.act(t.pk, users[seat], version, action)
        after = await sync_to_async(state)()
        out["moves"].append([before, after, sorted(group for group, _m in sent),
                             [json.loads(m["text"])["version"] for _g, m in sent]])
    seat, version, action = await sync_to_async(next_move)()
    out["stale"] = await refused(seat, version - 1, action)
    out["not_your_turn"] = await refused((seat + 1) % 4, version,
                                         {k: v for k, v in action.items() if k != "seat"})
    out["illegal"] = await refused(seat, version, {"type": "play", "card": "XX"})
    # The deal's last move finishes the match, whose receivers run on a thread: on the loop
    # nothing is written, and the same move is then made on a thread.
    while True:
        seat, version, action = await sync_to_async(next_move)()
        before = await sync_to_async(state)()
        try:
            await loop_moves.act(t.pk, users[seat], version, action)
        except services.NeedsThread:
            out["finishing"] = [before, await sync_to_async(state)()]
            break
    await sync_to_async(services.act)(t.pk, users[seat], version, action)
    out["finished"] = await sync_to_async(lambda: Match.objects.get(table=t).finished)()
    return out

print(json.dumps(asyncio.run(main())))
"""


@pytest.fixture(scope="module")
def on_loop():
    return manage_shell(scaled_env(DB + "_loop", 12), ON_LOOP)


def test_a_move_on_the_event_loop_commits_and_returns_each_listening_seats_view(on_loop):
    assert on_loop["unseen"][0] == "needs thread"
    for (v0, a0), (v1, a1), groups, versions in on_loop["moves"]:
        assert v1 == v0 + 1 and (a1 == a0 + 1 or a1 == 0)
        assert len(groups) == 4 and all(g.endswith(f".seat.{i}") for i, g in enumerate(groups))
        assert versions == [v1] * 4


def test_a_refused_move_on_the_event_loop_changes_nothing(on_loop):
    assert on_loop["stale"] == ["stale", True]
    assert on_loop["not_your_turn"] == ["not_your_turn", True]
    assert on_loop["illegal"] == ["illegal", True]


def test_a_move_whose_work_blocks_leaves_the_event_loop_without_writing(on_loop):
    before, after = on_loop["finishing"]
    assert before == after                          # the deal's last card was not written...
    assert on_loop["finished"]                      # ...until the move was made on a thread
