import secrets

from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.bots import levels

from . import names

BOT_LEVELS = levels.NAMES      # the ladder of bot levels, weakest first


class User(AbstractUser):
    """Players, guests and bots are all users: a seat always points at a user."""

    is_guest = models.BooleanField(_("guest"), default=False)
    is_bot = models.BooleanField(_("bot"), default=False)
    bot_level = models.CharField(_("bot level"), max_length=16, blank=True)
    # A person's account driven by its owner's program through the bot API (docs/BOTS.md), not a
    # house bot (``is_bot``: the server plays those seats itself). Irreversible from the site.
    is_bot_account = models.BooleanField(_("bot account"), default=False, db_default=False)
    # What names that look alike share (accounts/names.py): a new name whose key is taken is
    # refused. Kept with the name on every save; not unique, since older look-alikes may exist.
    name_key = models.TextField(editable=False, db_index=True, default="", db_default="")

    def save(self, *args, **kwargs):
        self.name_key = names.name_key(self.username)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "username" in update_fields:
            kwargs["update_fields"] = {*update_fields, "name_key"}
        super().save(*args, **kwargs)

    @property
    def display_name(self) -> str:
        return f"bot:{self.bot_level}" if self.is_bot else self.username


def confusable_with_existing(name: str, exclude_pk: int | None = None) -> bool:
    """Whether a user's name looks like ``name`` (one indexed lookup; accounts/names.py's key)."""
    others = User.objects.filter(name_key=names.name_key(name))
    if exclude_pk is not None:
        others = others.exclude(pk=exclude_pk)
    return others.exists()


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
            code = secrets.token_hex(3)
            # A code of letters only ("bcafed") would read as a word: the avatar's initials "GB"
            # instead of every guest's "GU" (static/js/table/render/seats.js, initials).
            if not any(ch.isdigit() for ch in code):
                continue
            name = f"guest-{code}"
            if not confusable_with_existing(name):       # covers the same name
                break
        user = User(username=name, is_guest=True)
        user.set_unusable_password()
        user.save()
        return user


bot_user = UserManagerHelpers.bot
guest_user = UserManagerHelpers.guest


class ApiToken(models.Model):
    """A bot account's API token (docs/BOTS.md). Only its SHA-256 is stored, with a short prefix
    that lets its owner tell his tokens apart: the token itself is shown once, when created."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(_("name"), max_length=60)
    prefix = models.CharField(max_length=12)
    digest = models.CharField(max_length=64, unique=True)      # sha256 hex of the whole token
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")

    def __str__(self):
        return f"{self.prefix}… ({self.name})"

    @property
    def revoked(self) -> bool:
        return self.revoked_at is not None
