"""Ratings, their changes, and who played which finished match (the history index).

``MatchPlayer`` rows are written in the transaction that finishes a match (games.signals), so the
history never misses or doubles a match. ``RatingChange`` rows are written once per rated match by
``ratings.services.rate_match``; the unique (match, user) constraint makes a second writer fail
instead of counting the match twice.
"""
from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models import GAME_CHOICES, Match

from . import rating as R


class Rating(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings")
    game = models.CharField(max_length=16, choices=GAME_CHOICES)
    variant = models.CharField(max_length=32)
    mu = models.FloatField(default=R.MU)
    sigma = models.FloatField(default=R.SIGMA)
    display = models.IntegerField(default=R.DEFAULT_DISPLAY)   # rating.display(mu), kept for sorting
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "game", "variant"], name="rating_once_per_game")]
        indexes = [models.Index(fields=["game", "variant", "-display"], name="rating_leaderboard")]

    def __str__(self):
        return f"{self.user_id} {self.game}/{self.variant} {self.display}"

    @property
    def provisional(self) -> bool:
        return R.provisional(self.games)

    @property
    def win_rate(self) -> int:
        return round(100 * self.wins / self.games) if self.games else 0


class RatingChange(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="rating_changes")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes")
    game = models.CharField(max_length=16, choices=GAME_CHOICES)
    variant = models.CharField(max_length=32)
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    display_before = models.IntegerField()
    display_after = models.IntegerField()
    games_after = models.PositiveIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["match", "user"], name="rating_change_once_per_match")]
        indexes = [models.Index(fields=["user", "game", "variant", "created_at"], name="rating_history")]

    @property
    def delta(self) -> int:
        return self.display_after - self.display_before


class MatchPlayer(models.Model):
    class Result(models.TextChoices):
        WIN = "win", _("win")
        LOSS = "loss", _("loss")
        DRAW = "draw", _("draw")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="players")
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL,
                             related_name="match_players")
    name = models.CharField(max_length=150)
    rank = models.PositiveSmallIntegerField()
    result = models.CharField(max_length=4, choices=Result.choices)
    score = models.IntegerField()
    game = models.CharField(max_length=16, choices=GAME_CHOICES)
    variant = models.CharField(max_length=32)
    rated = models.BooleanField(default=False)
    private = models.BooleanField(default=False)
    timed_out = models.BooleanField(default=False)
    # Left the match and did not come back in time (games Match.abandoned; also timed_out).
    abandoned = models.BooleanField(default=False, db_default=False)
    resigned = models.BooleanField(default=False, db_default=False)
    # The match was aborted before both sides moved: unrated, no result (games Match.ended_by).
    aborted = models.BooleanField(default=False, db_default=False)
    finished_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["match", "seat"], name="match_player_once_per_seat")]
        indexes = [
            models.Index(fields=["user", "-finished_at"], name="history_all"),
            models.Index(fields=["user", "game", "-finished_at"], name="history_game"),
            models.Index(fields=["user", "result", "-finished_at"], name="history_result"),
            models.Index(fields=["rated", "finished_at"], name="history_rated"),
        ]
        ordering = ["seat"]
