"""The move path on PostgreSQL, in one process: prepared statements, pipelined reads and writes,
and the COMMIT sent with a change's last writes (games/prepared.py). The rest of the suite runs
on SQLite, where none of that applies."""
import os
import socket
import subprocess
import sys

import pytest

from .test_scaled import ROOT, manage_shell, scaled_env

pytestmark = pytest.mark.scaled
DB = "cards_pg_moves_test"


def hearts_table(prefix: str, connected: tuple) -> str:
    """Script lines: four new users (``prefix``0-3) at a started hearts table ``t``, with a socket
    counted at each seat of ``connected`` (None: a spectator's)."""
    return f"""
from accounts.models import User
from games import loading, messages, presence, services
users = [User.objects.create_user(username=f"{prefix}{{i}}", password="x-Secret-123") for i in range(4)]
t = services.create_table(users[0], "hearts", seats=["me", "", "", ""])
for i in (1, 2, 3):
    services.sit(t.pk, users[i], i)          # the last seat taken starts the match
for seat in {connected!r}:
    presence.place(t.pk, f"socket-{{seat}}", seat)
"""


PLAY = hearts_table("pg", (0, 1, 2, 3, None)) + """
import json, random
from django.db import connection, transaction
from psycopg.pq import TransactionStatus
from realtime import broadcast
from games.bots import choose_action
from games.models import Deal, Table
rng = random.Random(7)

def state():
    table = Table.objects.get(pk=t.pk)
    deal = Deal.objects.filter(match__table=table).order_by("-number").first()
    return table.version, len(deal.record["actions"])

def move(version=None):
    live = loading.load(t.pk)
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

# What a move costs once the process keeps the table: round trips (a pipeline is one), the
# statements in them, and statements sent through Django's cursors (none expected).
from games import prepared
cost = {"round_trips": 0, "statements": 0, "django": 0}
plain_run = prepared._run_prepared
def counted(conn, statements, fetch, commit=False):
    cost["round_trips"] += 1
    cost["statements"] += len(statements)
    return plain_run(conn, statements, fetch, commit)
prepared._run_prepared = counted
def through_django(execute, sql, params, many, context):
    cost["django"] += 1
    return execute(sql, params, many, context)
out["costs"] = []
for _ in range(8):
    live = loading.load(t.pk)
    seat = live.state.seats_to_act()[0]
    action = choose_action("random", live.state.view(seat), rng)
    deal_before = state()[1]
    cost.update(round_trips=0, statements=0, django=0)
    with connection.execute_wrapper(through_django), broadcast.collecting():
        services.act(t.pk, users[seat], live.table.version, action)
    if state()[1] == deal_before + 1:           # an ordinary move, not one that ends a deal
        out["costs"].append(dict(cost))
prepared._run_prepared = plain_run
with connection.cursor() as cursor:
    cursor.execute("SELECT count(*) FROM pg_prepared_statements")
    out["prepared_statements"] = cursor.fetchone()[0]

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
out["connect_timeout"] = connection.get_connection_params().get("connect_timeout")
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def out():
    return manage_shell(scaled_env(DB), PLAY)


def test_a_move_on_postgres_commits_with_its_last_writes_and_nothing_else_changes(out):
    for (v0, a0), (v1, a1), messages in out["applied"]:
        assert (v1, a1) == (v0 + 1, a0 + 1) or (v1 == v0 + 1 and a1 == 0)   # or a new deal began
        assert messages == 5                    # four seats and the spectators, after the commit
    assert not any(out["in_block_after"])
    assert all(c == [True, False] for c in out["commits"]), out["commits"]
    code, before, after = out["stale"]
    assert code == "stale" and before == after


def test_a_move_on_postgres_costs_two_round_trips_of_prepared_statements(out):
    """Pinned: a library upgrade that undid the pipelining or the prepared statements fails here.
    The read: the table row locked and its seats, with its match and latest deal unless what
    this process kept of the table was current the time before (here every move is made in
    this one process, so from the second move on it is); the write: one statement updating the
    deal record, the clock of the seat that moved (and of the next one, after a pass: passes
    are simultaneous) and the table row, then COMMIT."""
    assert out["costs"], "no ordinary move was measured"
    for cost in out["costs"]:
        assert cost["round_trips"] == 2 and cost["django"] == 0, out["costs"]
    reads = [2 if c["statements"] == 2 + 1 else 4 if c["statements"] == 4 + 1 else None
             for c in out["costs"]]
    assert None not in reads and reads[1:] == [2] * (len(reads) - 1), out["costs"]
    assert out["prepared_statements"] >= 6


def test_a_move_inside_a_callers_transaction_is_not_committed_early(out):
    before, after, commits = out["inside_after"]
    v0, a0 = before
    assert out["inside_seen"][0] == v0 + 1      # applied inside the block...
    assert after == before                      # ...and rolled back with it
    assert True not in commits                  # no COMMIT was sent from inside it


def test_a_database_host_that_stops_answering_is_given_up_on_in_seconds(out):
    """libpq's connect_timeout (DB_CONNECT_TIMEOUT, 5 s unless set): without it a connection to a
    host that takes the connection and never answers waits for as long as the host stays silent,
    holding a move. Here, with 1 s, the site's own connection gives up with libpq's timeout while
    the silent listener is still listening (the subprocess's 60 s limit is the hang's)."""
    assert out["connect_timeout"] == 5
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        port = silent.getsockname()[1]
        env = dict(os.environ, DJANGO_SETTINGS_MODULE="config.settings", SECRET_KEY="timeout-test",
                   DATABASE_URL=f"postgres://postgres@127.0.0.1:{port}/none", DB_CONNECT_TIMEOUT="1")
        code = ("import django; django.setup()\n"
                "from django.db import OperationalError, connection\n"
                "try:\n    connection.ensure_connection()\n"
                "except OperationalError as err:\n    print(err)\n")
        done = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True,
                              text=True, timeout=60)
    assert "timeout expired" in done.stdout, done.stdout + done.stderr


# A socket is counted while a move holds the table's lock, between the move's reading of the
# counts and its commit: the move must reach the new socket, by its group or by its snapshot.
# Seat 1 has no socket until then.
PRESENCE = hearts_table("pr", (0, 2, 3)) + """
import json, random, threading, time
from django.db import connection
from realtime import broadcast
from realtime.addresses import ToSeat
from games.bots import choose_action

read, release = threading.Event(), threading.Event()
plain_lock = loading._lock
def slow_lock(table_id):
    live = plain_lock(table_id)
    read.set()
    release.wait(10)
    return live
loading._lock = slow_lock

live = loading.load(t.pk)
mover_seat = live.state.seats_to_act()[0]
action = choose_action("random", live.state.view(mover_seat), random.Random(3))
sent, joined = [], {}
def move():
    with broadcast.collecting() as out:
        services.act(t.pk, users[mover_seat], live.table.version, action)
    sent.extend(group for group, _payload in out)
    connection.close()
def join():
    presence.place(t.pk, "joining", 1)
    joined["counted_at"] = time.monotonic()
    msg, _seat = messages.snapshot(t.pk, users[1])
    joined["version"] = msg["version"]
    connection.close()

mover = threading.Thread(target=move); mover.start()
read.wait(10)
joiner = threading.Thread(target=join); joiner.start()
time.sleep(0.5)                          # a counted socket would have read its snapshot by now
committed_at = time.monotonic()
release.set()
mover.join(); joiner.join()
print(json.dumps({"before": live.table.version, "snapshot": joined["version"],
                  "to_seat_1": ToSeat(t.pk, 1) in sent,
                  "counted_after_commit": joined["counted_at"] > committed_at}))
"""


def test_a_socket_counted_during_a_move_gets_the_move_by_its_group_or_its_snapshot():
    out = manage_shell(scaled_env(DB + "_presence"), PRESENCE)
    assert out["to_seat_1"] or out["snapshot"] == out["before"] + 1, out
    assert out["counted_after_commit"], out     # it waited for the move's lock
