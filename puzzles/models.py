"""Puzzles taken from finished deals (games/bots/puzzle_solver.py), players' attempts at them and
their puzzle ratings. Written by puzzles/services.py only."""
from django.conf import settings
from django.db import models

from games.models import GAME_CHOICES
from ratings import rating as R


class Puzzle(models.Model):
    """A position of a finished deal where one play is the only best (all hands known)."""
    deal = models.ForeignKey("games.Deal", null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="puzzles")
    match = models.ForeignKey("games.Match", null=True, blank=True, on_delete=models.SET_NULL,
                              related_name="puzzles")
    deal_number = models.PositiveIntegerField(default=0)
    game = models.CharField(max_length=16, choices=GAME_CHOICES)
    variant = models.CharField(max_length=32)
    # The deal record up to the position: its header (every hand as dealt) and the actions before it.
    record = models.JSONField()
    step = models.PositiveIntegerField()        # actions of the deal before the position
    seat = models.PositiveSmallIntegerField()   # who plays the puzzle
    answer = models.JSONField()                 # the one best play
    line = models.JSONField()                   # the solution: the answer, the replies, the best plays after
    values = models.JSONField()                 # every option at the position with its exact value
    mu = models.FloatField(default=R.MU)
    sigma = models.FloatField(default=R.SIGMA)
    rating = models.IntegerField(default=R.DEFAULT_DISPLAY)     # R.display(mu), kept for sorting
    attempts = models.PositiveIntegerField(default=0)           # finished first attempts
    solves = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        constraints = [models.UniqueConstraint(fields=["deal", "step"], name="one_puzzle_per_position")]

    def __str__(self):
        return f"puzzle #{self.pk} ({self.game}, deal {self.deal_id} step {self.step})"


class Attempt(models.Model):
    """One player's try at a puzzle; ``moves``: the actions played since the position (his and
    the solver's replies), checked one by one. Only a registered player's first try is rated."""

    class Status(models.TextChoices):
        PLAYING = "playing"
        SOLVED = "solved"
        FAILED = "failed"

    puzzle = models.ForeignKey(Puzzle, on_delete=models.CASCADE, related_name="tries")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="puzzle_attempts")
    moves = models.JSONField(default=list)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PLAYING)
    rated = models.BooleanField(default=False)
    rating_before = models.IntegerField(null=True, blank=True)
    rating_after = models.IntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]
        indexes = [models.Index(fields=["user", "puzzle"])]


class DailyPuzzle(models.Model):
    """The puzzle of one day, picked the first time that day asks and kept all day, whatever
    puzzles are added meanwhile."""
    date = models.DateField(unique=True)
    puzzle = models.ForeignKey(Puzzle, on_delete=models.CASCADE, related_name="+")

    class Meta:
        ordering = ["-date"]


class PuzzleRating(models.Model):
    """A player's puzzle rating (one for all games: openskill, ratings/rating.py's scale)."""
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="puzzle_rating")
    mu = models.FloatField(default=R.MU)
    sigma = models.FloatField(default=R.SIGMA)
    rating = models.IntegerField(default=R.DEFAULT_DISPLAY)
    attempts = models.PositiveIntegerField(default=0)
    solved = models.PositiveIntegerField(default=0)
    updated = models.DateTimeField(auto_now=True)


class SolutionShown(models.Model):
    """A puzzle's solution was shown from an address (a keyed hash: accounts/address_keys.py): a
    first attempt from there in the following days is not rated (puzzles/sightings.py)."""
    puzzle = models.ForeignKey(Puzzle, on_delete=models.CASCADE, related_name="shown")
    address = models.CharField(max_length=64)
    shown_at = models.DateTimeField(db_index=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["puzzle", "address"], name="solution_shown_once")]
