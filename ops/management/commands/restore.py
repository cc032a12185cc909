"""manage.py restore PATH [--verify]: a backup into a fresh database, then optionally the check that
its finished matches replay and verify (ops/backups.py)."""
import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from ops import backups


class Command(BaseCommand):
    help = ("Restore a backup into a fresh database (SQLite: SQLITE_PATH must not exist; PostgreSQL: "
            "an empty database), then, with --verify, replay and verify its finished matches.")

    def add_arguments(self, parser):
        parser.add_argument("path", nargs="?", help="the backup file (omit with --verify-only)")
        parser.add_argument("--verify", action="store_true", help="replay and verify the finished matches after")
        parser.add_argument("--verify-only", action="store_true", help="only check the database as it is")
        parser.add_argument("--matches", type=int, default=None, help="check only the newest N finished matches")

    def handle(self, *args, path=None, verify=False, verify_only=False, matches=None, **options):
        if not verify_only:
            if not path:
                raise CommandError("name the backup file")
            try:
                kind = backups.restore(Path(path))
            except (FileExistsError, NotImplementedError) as exc:
                raise CommandError(str(exc)) from exc
            self.stdout.write(f"restored ({kind}) from {path}")
        if verify or verify_only:
            report = backups.verify_matches(matches)
            self.stdout.write(json.dumps(report))
            if report["failures"] or not report["matches"]:
                raise CommandError("the restored database does not check out" if report["failures"]
                                   else "no finished match to check")
