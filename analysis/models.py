"""The strong bot's verdict on a finished match (games/bots/analyse.py), stored once per match."""
from django.db import models


class Analysis(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending"
        RUNNING = "running"
        DONE = "done"
        FAILED = "failed"

    match = models.OneToOneField("games.Match", on_delete=models.CASCADE, related_name="analysis")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    done = models.PositiveIntegerField(default=0)          # decisions judged so far
    total = models.PositiveIntegerField(default=0)         # decisions to judge (0 until planned)
    result = models.JSONField(null=True, blank=True)       # analyse.analyse()'s output
    cpu_seconds = models.FloatField(default=0)
    # Which run holds the row: a task delivered twice finds it taken; a run whose worker died is
    # taken over once its heartbeat is older than services.STALE_SECONDS.
    claim = models.CharField(max_length=32, blank=True)
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name_plural = "analyses"

    def __str__(self):
        return f"analysis of match {self.match_id} ({self.status})"


class Takeover(models.Model):
    """A bot took a player's seat from this point on: those decisions are not the player's."""
    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="takeovers")
    seat = models.PositiveSmallIntegerField()
    deal_number = models.PositiveIntegerField()
    step = models.PositiveIntegerField()         # actions of that deal before the bot's first

    class Meta:
        unique_together = [("match", "seat")]
