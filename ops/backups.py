"""Backups of the database while the site runs, restores into a fresh one, and the check that a
restored copy holds whole matches (docs/OPERATIONS.md, "Backups").

* SQLite (embedded mode): sqlite3's online backup API copies the live database page by page into a
  new file, a consistent snapshot even while the site writes (WAL); a restore copies it back the
  same way into a database that does not exist yet (the site stopped).
* PostgreSQL (scaled mode): ``pg_dump --format=custom`` (a consistent snapshot, the site running)
  and ``pg_restore`` into a fresh, empty database.
* ``verify_matches``: every finished match's deals replay through the engine to their stored results,
  and every deal drawn from committed seeds verifies against them (games.engine.replay, .verify).
"""
from __future__ import annotations

import io
import os
import sqlite3
import subprocess
from pathlib import Path

from django.db import connections

from games.engine import replay, verify as fair_verify

PAGES_PER_STEP = 1024       # SQLite: pages copied per step; the site's writers go on in between


def _pg_env(db: dict) -> tuple[list[str], dict]:
    args = []
    if db.get("HOST"):
        args += ["--host", str(db["HOST"])]
    if db.get("PORT"):
        args += ["--port", str(db["PORT"])]
    if db.get("USER"):
        args += ["--username", str(db["USER"])]
    env = dict(os.environ)
    if db.get("PASSWORD"):
        env["PGPASSWORD"] = str(db["PASSWORD"])
    return args, env


def backup(path: Path, alias: str = "default") -> str:
    """Write a backup of database ``alias`` to ``path`` (which must not exist). Its kind."""
    path = Path(path)
    if path.exists():
        raise FileExistsError(f"{path} exists already: a backup never overwrites one")
    conn = connections[alias]
    db = conn.settings_dict
    if conn.vendor == "sqlite":
        source = sqlite3.connect(str(db["NAME"]), timeout=30)
        target = sqlite3.connect(str(path))
        try:
            with target:
                source.backup(target, pages=PAGES_PER_STEP, sleep=0.005)
        finally:
            target.close()
            source.close()
        return "sqlite"
    if conn.vendor == "postgresql":
        args, env = _pg_env(db)
        subprocess.run(["pg_dump", "--format=custom", "--no-owner", "--file", str(path), *args, db["NAME"]],
                       env=env, check=True)
        return "pg_dump"
    raise NotImplementedError(f"no backup for {conn.vendor}")


def restore(path: Path, alias: str = "default") -> str:
    """Restore the backup at ``path`` into database ``alias``, which must be fresh: SQLite, a file
    that does not exist yet; PostgreSQL, an empty database (created beforehand, not migrated)."""
    conn = connections[alias]
    db = conn.settings_dict
    if conn.vendor == "sqlite":
        target_path = Path(db["NAME"])
        if target_path.exists() and target_path.stat().st_size > 0:
            raise FileExistsError(f"{target_path} exists: restore into a fresh database (stop the site, move it away)")
        conn.close()
        source = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        target = sqlite3.connect(str(target_path))
        try:
            with target:
                source.backup(target)
        finally:
            target.close()
            source.close()
        return "sqlite"
    if conn.vendor == "postgresql":
        args, env = _pg_env(db)
        conn.close()
        subprocess.run(["pg_restore", "--no-owner", "--exit-on-error", "--dbname", db["NAME"], *args, str(path)],
                       env=env, check=True)
        return "pg_restore"
    raise NotImplementedError(f"no restore for {conn.vendor}")


def _record_with_seed(deal) -> dict:
    """The deal's record with the server seed it was drawn from: a finished match's seeds are public
    (docs/FAIRNESS.md), and the check is the restorer's, of his own copy."""
    record = dict(deal.record)
    fair = record.get("fair")
    if isinstance(fair, dict) and deal.server_seed:
        record["fair"] = dict(fair, server_seed=deal.server_seed)
    return record


def verify_matches(limit: int | None = None) -> dict:
    """Replay every finished match's deals (the newest ``limit`` matches): each must replay to its
    stored result, and each drawn from seeds must verify against them. Counts and the failures."""
    from games.loading import rebuild_state
    from games.models import Deal, Match

    matches = Match.objects.filter(finished=True).order_by("-pk")
    if limit:
        matches = matches[:limit]
    out = {"matches": 0, "deals": 0, "fair": 0, "failures": []}
    for match in matches:
        out["matches"] += 1
        for deal in Deal.objects.filter(match=match, finished=True).order_by("number"):
            out["deals"] += 1
            record = _record_with_seed(deal)
            text = io.StringIO()
            if not replay.check(record, text):
                out["failures"].append(f"match {match.pk} deal {deal.number}: {text.getvalue().strip()}")
                continue
            if rebuild_state(deal.record).result() != deal.result:
                out["failures"].append(f"match {match.pk} deal {deal.number}: the stored result is not the replay's")
                continue
            if (record.get("fair") or {}).get("server_seed"):
                out["fair"] += 1
                if not fair_verify.check(record, 0, text):
                    out["failures"].append(f"match {match.pk} deal {deal.number}: {text.getvalue().strip()}")
    return out
