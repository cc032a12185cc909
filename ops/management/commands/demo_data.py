"""Demo data: the bot users, a demo player and the showcase tables (idempotent)."""
from django.core.management.base import BaseCommand

from accounts.models import BOT_LEVELS, User, bot_user
from games import showcase
from puzzles import demo as puzzles_demo


class Command(BaseCommand):
    help = ("Create bot users, a demo user (demo / demo-pass-123) and, per game, a table of bots to "
            "watch and a table waiting for a player (games/showcase.py; SHOWCASE setting), and a few "
            "puzzles from bots' matches (puzzles/demo.py).")

    def handle(self, *args, **options):
        for level in BOT_LEVELS:
            bot_user(level)
        demo, created = User.objects.get_or_create(username="demo", defaults={"email": "demo@localhost"})
        if created:
            demo.set_password("demo-pass-123")
            demo.save()
        made = showcase.ensure()
        puzzles = puzzles_demo.ensure()
        self.stdout.write(self.style.SUCCESS(
            f"demo data ready ({len(made)} new showcase tables, {puzzles} new puzzles): "
            "log in as demo / demo-pass-123"))
