"""Challenges of bot accounts (docs/BOTS.md). Written by botapi/services.py only.

A person challenges a bot account from its profile; the bot accepts (a table is made with both
seated, and it starts) or declines. A challenge nobody answered expires at ``expires_at``: it is
never swept, an expired one is simply one whose time has passed (``state``).
"""
from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.models import GAME_CHOICES, Table


class Challenge(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", _("waiting for an answer")
        ACCEPTED = "accepted", _("accepted")
        DECLINED = "declined", _("declined")
        CANCELLED = "cancelled", _("cancelled")
        EXPIRED = "expired", _("expired")        # never stored: a pending one past expires_at

    challenger = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                   related_name="challenges_made")
    bot = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                            related_name="challenges_received")
    game = models.CharField(max_length=16, choices=GAME_CHOICES)
    variant = models.CharField(max_length=32)
    bank_seconds = models.PositiveIntegerField()
    increment_seconds = models.PositiveIntegerField()
    rated = models.BooleanField(default=False)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    decline_reason = models.CharField(max_length=200, blank=True)
    table = models.ForeignKey(Table, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["bot", "status"]), models.Index(fields=["challenger", "status"])]

    def __str__(self):
        return f"{self.challenger_id} -> {self.bot_id} {self.game} ({self.status})"

    @property
    def state(self) -> str:
        """The status as it is now: a pending challenge past its time has expired."""
        if self.status == self.Status.PENDING and self.expires_at <= timezone.now():
            return self.Status.EXPIRED
        return self.status

    def state_label(self) -> str:
        return str(self.Status(self.state).label)
