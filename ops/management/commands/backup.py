"""manage.py backup PATH: a consistent copy of the database while the site runs (ops/backups.py)."""
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from ops import backups


class Command(BaseCommand):
    help = "Back up the database while the site runs: SQLite's online backup, or pg_dump (custom format)."

    def add_arguments(self, parser):
        parser.add_argument("path", help="the backup file to write (must not exist)")

    def handle(self, *args, path, **options):
        try:
            kind = backups.backup(Path(path))
        except (FileExistsError, NotImplementedError) as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(f"backed up ({kind}) to {path}")
