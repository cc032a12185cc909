"""What a move costs on SQLite, pinned: a change of Django or of the move path that adds a
statement fails here instead of only showing, maybe, in bench/service.py. PostgreSQL's round
trips are pinned in tests/scaled/test_postgres_moves.py."""
import random
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import bots, loading, services
from realtime import broadcast
from games.models import Deal, Seat

pytestmark = pytest.mark.django_db(transaction=True)


def shape(sql: str) -> str:
    """``SELECT games_table``, ``UPDATE games_seat``: what a statement does to which table."""
    verb = sql.split()[0].upper()
    table = re.search(r'(?:FROM|UPDATE|INTO)\s+"?(\w+)"?', sql, re.I)
    return f"{verb} {table.group(1) if table else ''}".strip()


def hearts_table(make_user):
    users = [make_user(f"mc{i}") for i in range(4)]
    t = services.create_table(users[0], "hearts", seats=["me", *users[1:]], start=True)
    Seat.objects.filter(table=t).update(connections=1)      # every seat listens, as in live play
    return t, users


def costed_move(t, users, rng) -> tuple[list[str], bool]:
    lv = loading.load(t.pk)
    seat = lv.state.seats_to_act()[0]
    action = bots.choose_action("random", lv.state.view(seat), rng)
    actions_before = len(Deal.objects.filter(match__table=t).latest("number").record["actions"])
    with CaptureQueriesContext(connection) as queries, broadcast.collecting():
        services.act(t.pk, users[seat], lv.table.version, action)
    ordinary = len(Deal.objects.filter(match__table=t).latest("number").record["actions"]) == actions_before + 1
    return [shape(q["sql"]) for q in queries.captured_queries], ordinary


def test_a_move_at_a_table_this_process_keeps_runs_the_pinned_statements(make_user, task_queue):
    """The table row under its lock and its seats are read (the match and deal come from the
    process's cache while the version vouches for them); the writes are the deal record, the
    clocks that stop and start, and the table row."""
    t, users = hearts_table(make_user)
    rng = random.Random(5)
    seen = []
    for _ in range(12):
        statements, ordinary = costed_move(t, users, rng)
        if ordinary:
            seen.append(statements)
    assert seen
    for statements in seen:
        counts = {shape: statements.count(shape) for shape in set(statements)}
        seats = counts.pop("UPDATE games_seat", 0)
        assert counts == {"BEGIN": 1, "SELECT games_table": 1, "SELECT games_seat": 1, "COMMIT": 1,
                          "UPDATE games_deal": 1, "UPDATE games_table": 1}, statements
        assert 1 <= seats <= 2, statements
