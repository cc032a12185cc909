"""Tournaments, their entries, rounds and games. Written by tournaments/services.py only.

Duplicate work is made impossible by the schema, not only by the code: a round is unique per
(tournament, number), a game per (round, board) and per table, an entry per (tournament, user).
"""
from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models import GAME_CHOICES, Table


class Tournament(models.Model):
    class Status(models.TextChoices):
        SCHEDULED = "scheduled", _("scheduled")
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")
        CANCELLED = "cancelled", _("cancelled")

    name = models.CharField(_("name"), max_length=120)
    game = models.CharField(_("game"), max_length=16, choices=GAME_CHOICES)
    variant = models.CharField(_("variant"), max_length=32, blank=True,
                               help_text=_("Empty: the game's default variant."))
    # The name of one of tournaments/formats/ (its registry: the admin's form offers them).
    format = models.CharField(_("format"), max_length=16, default="swiss")
    rounds = models.PositiveSmallIntegerField(
        _("rounds"), default=5,
        help_text=_("Swiss and duplicate only; a round robin and an elimination have as many rounds as they need."))
    starts_at = models.DateTimeField(_("start time"), db_index=True)
    registration_opens_at = models.DateTimeField(_("registration opens"), null=True, blank=True,
                                                 help_text=_("Empty: open from now until the start."))
    bank_seconds = models.PositiveIntegerField(_("time per player (s)"), default=300)
    increment_seconds = models.PositiveIntegerField(_("increment per move (s)"), default=5)
    min_entries = models.PositiveSmallIntegerField(_("minimum entries"), default=4)
    max_entries = models.PositiveSmallIntegerField(_("maximum entries"), default=64)
    rated = models.BooleanField(_("rated"), default=False)
    # Bot accounts (the bot API, docs/BOTS.md) may register; off by default.
    bots_allowed = models.BooleanField(_("bots may enter"), default=False, db_default=False)
    break_seconds = models.PositiveIntegerField(_("break between rounds (s)"), default=30)
    bot_level = models.CharField(_("bot level of bot seats"), max_length=16, default="basic")
    arena_minutes = models.PositiveSmallIntegerField(
        _("arena length (minutes)"), default=45,
        help_text=_("Arena only: how long pairing goes on; matches running at the end still count."))
    boards = models.PositiveSmallIntegerField(
        _("boards per round"), default=4, db_default=4,
        help_text=_("Duplicate only: how many deals every table of a round plays, the same at every table."))

    status = models.CharField(_("status"), max_length=16, choices=Status.choices, default=Status.SCHEDULED)
    cancel_reason = models.CharField(_("cancel reason"), max_length=200, blank=True)
    # Formats played in rounds: the round being played or the last one (0: none yet; an arena: always).
    current_round = models.PositiveSmallIntegerField(_("current round"), default=0)
    # Set when a round has ended: the next one starts then (the break).
    next_round_at = models.DateTimeField(null=True, blank=True)
    # Arena: when the window closes (no new pairing after it); moved on by the length of a pause.
    ends_at = models.DateTimeField(_("ends"), null=True, blank=True)
    # Set while an admin or staff member has paused it: running matches go on, nothing new starts.
    paused_at = models.DateTimeField(_("paused since"), null=True, blank=True)
    # Bumped by every committed change; live pages show it.
    version = models.PositiveIntegerField(default=0)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                   on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["starts_at", "pk"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")

    @property
    def one_on_one(self) -> bool:
        """Two players alone against each other (the engine knows; pages ask this)."""
        from games.engine.core import get_rules
        return get_rules(self.game).one_on_one(self.variant or None)

    @property
    def seats(self) -> int:
        """Players per table of its game (the engine knows; pages ask this, not the game's name)."""
        from games.engine.core import get_rules
        return get_rules(self.game).seats

    def __str__(self):
        return self.name


class Entry(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="tournament_entries")
    withdrawn = models.BooleanField(_("withdrawn"), default=False)
    seed_rating = models.IntegerField(_("seed rating"), null=True, blank=True)
    final_rank = models.PositiveIntegerField(_("final rank"), null=True, blank=True)
    # Arena: a paused player is not paired (his own button, or a match lost by leaving or on time).
    paused = models.BooleanField(_("paused"), default=False)
    # Arena: since when he has been waiting for a match (his bots-fill wait counts from it).
    free_since = models.DateTimeField(null=True, blank=True)
    registered_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["pk"]
        constraints = [models.UniqueConstraint(fields=["tournament", "user"], name="one_entry_per_user")]
        verbose_name = _("entry")
        verbose_name_plural = _("entries")

    def __str__(self):
        return f"{self.user} @ {self.tournament}"


class Round(models.Model):
    """A round of the formats played in rounds; an arena's games hang off one Round, its time
    window (tournaments/formats/arena.py)."""

    class Status(models.TextChoices):
        PLAYING = "playing", _("playing")
        FINISHED = "finished", _("finished")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PLAYING)
    started_at = models.DateTimeField()
    finished_at = models.DateTimeField(null=True, blank=True)
    # Duplicate: the round's SECRET server seed (hex), from which every table derives its boards,
    # and its SHA-256, shown from the start; the seed is shown once the round is over.
    seed = models.CharField(max_length=64, blank=True, default="", db_default="")
    commitment = models.CharField(max_length=64, blank=True, default="", db_default="")

    class Meta:
        ordering = ["number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="one_round_per_number")]

    def __str__(self):
        return f"{self.tournament} R{self.number}"


class Game(models.Model):
    """One table of a round, or a bye. ``players``: entry ids per seat (null: a bot seat).
    ``result`` is filled in the transaction that finishes the table's match (and, should that
    ever be missed, from the finished match by the next tournament step)."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="games")
    board = models.PositiveSmallIntegerField()
    table = models.OneToOneField(Table, null=True, blank=True, on_delete=models.SET_NULL,
                                 related_name="tournament_game")
    players = models.JSONField()
    bye = models.BooleanField(default=False)
    # {"points": [...], "game_points": [...], "ranks": [...], "timed_out": [...]} per seat.
    result = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["round__number", "board"]
        constraints = [models.UniqueConstraint(fields=["round", "board"], name="one_game_per_board")]

    @property
    def finished(self) -> bool:
        return self.result is not None
