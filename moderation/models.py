"""Mutes and reports. Writes go through moderation/services.py only; moderation/mutes.py reads
the mutes for the table sockets and snapshots (games/consumers.py, games/messages.py)."""
from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Mute(models.Model):
    """``muter`` no longer sees ``muted``'s chat, at any table."""

    muter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="mutes",
                              verbose_name=_("muted by"))
    muted = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="muted_by",
                              verbose_name=_("muted player"))
    created = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("mute")
        verbose_name_plural = _("mutes")
        ordering = ["-created"]
        constraints = [models.UniqueConstraint(fields=["muter", "muted"], name="moderation_unique_mute")]

    def __str__(self):
        return f"{self.muter} mutes {self.muted}"


class Report(models.Model):
    """A player's complaint about another, with the evidence as it was when he sent it: the
    table's recent chat and its deal records are copied (``chat``, ``records``), so deleting or
    finishing the table loses nothing the moderators need."""

    class Reason(models.TextChoices):
        ABUSE = "abuse", _("Abuse")
        CHEATING = "cheating", _("Cheating")
        SPAM = "spam", _("Spam")
        OTHER = "other", _("Other")

    class Status(models.TextChoices):
        OPEN = "open", _("open")
        CLOSED = "closed", _("closed")

    # SET_NULL: deleting an account (the abuser's, most likely) keeps the report and its evidence.
    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL,
                                 related_name="reports_made", verbose_name=_("reporter"))
    reported = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL,
                                 related_name="reports_received", verbose_name=_("reported player"))
    table = models.ForeignKey("games.Table", null=True, blank=True, on_delete=models.SET_NULL,
                              related_name="reports", verbose_name=_("table"))
    reason = models.CharField(_("reason"), max_length=16, choices=Reason.choices)
    text = models.TextField(_("what happened"), blank=True, max_length=1000)
    created = models.DateTimeField(_("created"), auto_now_add=True, db_index=True)
    status = models.CharField(_("status"), max_length=8, choices=Status.choices, default=Status.OPEN)
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)
    # [{"id", "user_id", "from", "text", "at", "table"}], oldest first: the table's last chat lines
    # (a report from a profile page, without a table: the reported player's last lines anywhere).
    chat = models.JSONField(_("chat"), default=list, blank=True)
    # [{"number", "finished", "result", "record"}]: the deal records of the table's match.
    records = models.JSONField(_("deal records"), default=list, blank=True)

    class Meta:
        verbose_name = _("report")
        verbose_name_plural = _("reports")
        ordering = ["-created"]
        indexes = [models.Index(fields=["reporter", "created"])]

    def __str__(self):
        return f"#{self.pk} {self.reported} ({self.reason})"


class SeenAddress(models.Model):
    """An account was seen on an address (a keyed hash, accounts/address_keys.py): logging in or
    joining a pool. Two accounts on one address are *seen together* (moderation/linked.py); kept
    ADDRESS_KEY_DAYS days after the last sighting."""
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="seen_addresses")
    address = models.CharField(max_length=64, db_index=True)
    last_seen = models.DateTimeField(db_index=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "address"], name="moderation_seen_once")]
