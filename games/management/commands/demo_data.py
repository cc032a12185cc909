"""Demo data: the bot users, a demo player and the showcase tables (idempotent)."""
from django.core.management.base import BaseCommand

from accounts.models import BOT_LEVELS, User, bot_user
from games import showcase


class Command(BaseCommand):
    help = ("Create bot users, a demo user (demo / demo-pass-123) and, per game, a table of bots to "
            "watch and a table waiting for a player (games/showcase.py; SHOWCASE setting).")

    def handle(self, *args, **options):
        for level in BOT_LEVELS:
            bot_user(level)
        demo, created = User.objects.get_or_create(username="demo", defaults={"email": "demo@localhost"})
        if created:
            demo.set_password("demo-pass-123")
            demo.save()
        made = showcase.ensure()
        self.stdout.write(self.style.SUCCESS(
            f"demo data ready ({len(made)} new showcase tables): log in as demo / demo-pass-123"))
