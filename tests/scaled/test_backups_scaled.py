"""PostgreSQL backups as docs/OPERATIONS.md tells: ``manage.py backup`` (pg_dump, custom format) of
the scaled database, ``manage.py restore --verify`` (pg_restore) into a fresh, empty database, where
a finished match replays and verifies."""
import json
import subprocess

import psycopg
import pytest

from tests.services import per_worker

from .test_scaled import BIN, ROOT, manage_shell, scaled_env

pytestmark = pytest.mark.scaled

DB = "cards_backup_test"

MATCH = """
import json
from accounts.models import User
from games import services, tasks
from games.models import Match, Table
owner = User.objects.create_user(username="bk", password="x-Secret-123")
t = services.create_table(owner, "sixtysix", seats=["random", "random"], start=True)
for _ in range(500):
    if Table.objects.get(pk=t.pk).status == Table.Status.FINISHED:
        break
    services.advance(t.pk)
m = Match.objects.get(table=t)
print(json.dumps({"match": m.pk, "finished": m.finished, "deals": m.deals.filter(finished=True).count()}))
"""


def test_it_dumps_the_live_database_and_a_fresh_one_restored_from_it_replays_and_verifies(tmp_path):
    env = scaled_env(DB, BOT_DELAY_MS="0", DEAL_PAUSE_MS="0", FAIR_SEED_WAIT_MS="0")
    made = manage_shell(env, MATCH)
    assert made["finished"] and made["deals"] >= 1, made
    path = tmp_path / "cards.dump"
    subprocess.run([BIN / "python", "manage.py", "backup", str(path)], cwd=ROOT, env=env, check=True)
    fresh = per_worker("cards_restored_test")
    with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {fresh} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {fresh}")
    restored = dict(env, DATABASE_URL=f"postgres://postgres@127.0.0.1:5432/{fresh}")
    done = subprocess.run([BIN / "python", "manage.py", "restore", str(path), "--verify"], cwd=ROOT,
                          env=restored, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["matches"] == 1 and report["deals"] == made["deals"] == report["fair"], report
    assert report["failures"] == []
