import secrets

from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils.translation import gettext_lazy as _

BOT_LEVELS = ("random", "basic", "strong")


class User(AbstractUser):
    """Players, guests and bots are all users: a seat always points at a user."""

    is_guest = models.BooleanField(_("guest"), default=False)
    is_bot = models.BooleanField(_("bot"), default=False)
    bot_level = models.CharField(_("bot level"), max_length=16, blank=True)

    @property
    def display_name(self) -> str:
        return f"bot:{self.bot_level}" if self.is_bot else self.username


class UserManagerHelpers:
    """Creation of the special users (kept out of the model so the model stays plain)."""

    @staticmethod
    def bot(level: str) -> User:
        if level not in BOT_LEVELS:
            raise ValueError(f"unknown bot level {level!r}")
        user, _created = User.objects.get_or_create(
            username=f"bot-{level}",
            defaults={"is_bot": True, "bot_level": level, "first_name": f"Bot ({level})"},
        )
        if _created:
            user.set_unusable_password()
            user.save(update_fields=["password"])
        return user

    @staticmethod
    def guest() -> User:
        while True:
            name = f"guest-{secrets.token_hex(3)}"
            if not User.objects.filter(username=name).exists():
                break
        user = User(username=name, is_guest=True)
        user.set_unusable_password()
        user.save()
        return user


bot_user = UserManagerHelpers.bot
guest_user = UserManagerHelpers.guest
