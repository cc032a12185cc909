"""Demo data: the bot users, a demo player and a few tables (idempotent)."""
from django.core.management.base import BaseCommand

from accounts.models import BOT_LEVELS, User, bot_user
from games import services
from games.models import Table


class Command(BaseCommand):
    help = "Create bot users, a demo user (demo / demo-pass-123) and a few demo tables."

    def handle(self, *args, **options):
        for level in BOT_LEVELS:
            bot_user(level)
        demo, created = User.objects.get_or_create(username="demo", defaults={"email": "demo@localhost"})
        if created:
            demo.set_password("demo-pass-123")
            demo.save()
        if not Table.objects.filter(owner=demo).exists():
            services.create_table(demo, "sixtysix", "kurnik", seats=["", "random"])
            services.create_table(demo, "sixtysix", "santase", seats=["", "basic"])
            services.create_table(demo, "hearts", "standard", seats=["", "basic", "basic", "basic"])
            services.create_table(demo, "spades", "standard", seats=["", "", "random", "random"])
            # One table that bots play on their own, to watch.
            services.create_table(demo, "hearts", "jack_of_diamonds", seats=["strong", "basic", "strong", "basic"], start=True)
        self.stdout.write(self.style.SUCCESS("demo data ready: log in as demo / demo-pass-123"))
