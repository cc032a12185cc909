"""Backups (ops/backups.py, manage.py backup / restore): SQLite's online backup of the embedded
database, restored into a fresh one, where a finished match replays and verifies. PostgreSQL's
pg_dump / pg_restore: tests/scaled/test_backups_scaled.py."""
import json
import os
import sqlite3
import subprocess
import sys

import pytest
from django.db import connection

from games import services
from ops import backups
from games.models import Match, Table
from tests.embedded import ROOT

pytestmark = pytest.mark.django_db(transaction=True)


def bots_match(make_user, task_queue) -> Match:
    owner = make_user("owner")
    table = services.create_table(owner, "sixtysix", seats=["random", "random"], start=True)
    for _round in range(200):
        if not task_queue.run_due():
            break
    assert Table.objects.get(pk=table.pk).status == Table.Status.FINISHED
    return Match.objects.get(table=table)


def test_it_backs_up_the_live_database_and_a_fresh_copy_replays_and_verifies_the_match(make_user, task_queue,
                                                                                       tmp_path):
    match = bots_match(make_user, task_queue)
    writer = sqlite3.connect(connection.settings_dict["NAME"], timeout=30)
    writer.execute("BEGIN IMMEDIATE")        # the site writing meanwhile: the online backup waits its turn
    writer.execute("UPDATE games_table SET version = version WHERE id = ?", (match.table_id,))
    writer.commit()
    writer.close()
    path = tmp_path / "backup.sqlite3"
    assert backups.backup(path) == "sqlite"
    with pytest.raises(FileExistsError):
        backups.backup(path)            # a backup never overwrites one
    fresh = tmp_path / "restored.sqlite3"
    env = {k: v for k, v in os.environ.items() if k not in ("DJANGO_SETTINGS_MODULE", "DATABASE_URL", "REDIS_URL")}
    env.update(SQLITE_PATH=str(fresh), EMBEDDED_WORKER="0")
    done = subprocess.run([sys.executable, "manage.py", "restore", str(path), "--verify"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    deals = match.deals.filter(finished=True).count()
    assert report["matches"] == 1 and report["deals"] == deals and report["fair"] == deals, report
    assert report["failures"] == []
    # A restore never overwrites a database.
    again = subprocess.run([sys.executable, "manage.py", "restore", str(path)], cwd=ROOT, env=env,
                           capture_output=True, text=True, timeout=300)
    assert again.returncode != 0 and "fresh database" in again.stderr


def test_a_tampered_copy_does_not_check_out(make_user, task_queue):
    match = bots_match(make_user, task_queue)
    deal = match.deals.filter(finished=True).first()
    deal.result = dict(deal.result, points=[99, 99]) if "points" in deal.result else {"tampered": True}
    deal.save()
    report = backups.verify_matches()
    assert report["matches"] == 1 and len(report["failures"]) == 1, report
