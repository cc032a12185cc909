"""Take puzzles from finished matches already played (new ones get theirs after their analysis)."""
from django.core.management.base import BaseCommand

from games.models import Match
from puzzles import services


class Command(BaseCommand):
    help = "Search finished matches' deals for puzzles (games/bots/puzzle_solver.py) and store them."

    def add_arguments(self, parser):
        parser.add_argument("--match", type=int, action="append", help="only this match (repeatable)")
        parser.add_argument("--limit", type=int, default=200, help="the most recent N finished matches")

    def handle(self, *args, match=None, limit=200, **options):
        ids = match or list(Match.objects.filter(finished=True).order_by("-pk").values_list("pk", flat=True)[:limit])
        made = sum(services.extract_match(m) for m in ids)
        self.stdout.write(self.style.SUCCESS(f"{made} new puzzles from {len(ids)} matches"))
