"""Live tables and what they keep. Writes go through games/services.py only.

A deal is stored as its deal record (header + actions), committed with every action, so no game
state lives only in memory; the engine state is rebuilt from it (and kept between a table's
changes only while Table.version vouches for it, games/loading.py).
"""
import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .engine.core import GAME_NAMES, get_rules

# The games the engine plays, named as it names them (translated when shown: the engine marks its
# words for translation, GameRules.title).
GAME_CHOICES = [(game, _(get_rules(game).title)) for game in GAME_NAMES]


def new_token() -> str:
    return secrets.token_urlsafe(12)


class Table(models.Model):
    class Status(models.TextChoices):
        WAITING = "waiting", _("waiting")
        PLAYING = "playing", _("playing")
        BETWEEN_DEALS = "between_deals", _("between deals")
        FINISHED = "finished", _("finished")

    game = models.CharField(max_length=16, choices=GAME_CHOICES)
    variant = models.CharField(max_length=32)
    rated = models.BooleanField(default=False)
    bank_seconds = models.PositiveIntegerField(default=300)
    increment_seconds = models.PositiveIntegerField(default=5)
    private = models.BooleanField(default=False)
    invite_token = models.CharField(max_length=32, default=new_token)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.WAITING)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL,
                              related_name="owned_tables")
    # Bumped by every committed change; clients act on a version, tasks are tied to one.
    version = models.PositiveIntegerField(default=0)
    # When the next thing is due without a player (bot move, clock deadline, next deal):
    # the task for it is scheduled at this time, and the sweeper looks here for lost tasks.
    due_at = models.DateTimeField(null=True, blank=True, db_index=True)
    next_deal_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # Indexed: the republisher looks every second for the tables changed lately (games/republish.py).
    updated_at = models.DateTimeField(auto_now=True, db_index=True)
    # Open spectator sockets (as Seat.connections counts a seat's; both recounted from the
    # TableSocket records, games/presence.py): a change is sent only to the groups someone listens to.
    spectators = models.IntegerField(default=0, db_default=0)
    # A rematch offered once the match is over (games/services.py offer_rematch): {"status":
    # "open"|"cancelled"|"started", "by": seat, "accepted": [seats], "since": version offered at,
    # "reason": why it was cancelled, "seat": who cancelled it, "table": the new table's id}.
    rematch = models.JSONField(null=True, blank=True)
    # The next deal's committed seeds (games/fair_deals.py): {"deal_number", "seed" (the SECRET
    # server seed, hex: never sent), "commitment", "client_seeds" (per seat, hex or null),
    # "awaiting" (human seats whose seed the draw waits for), "pause_until" (epoch ms)}.
    fair_pending = models.JSONField(null=True, blank=True)
    # Bot accounts (the bot API, docs/BOTS.md) may take a seat here; off by default.
    bots_allowed = models.BooleanField(default=False, db_default=False)
    # A duplicate tournament's table (games/fair_deals.py): {"label", "seed" (the round's SECRET
    # server seed, hex: never sent), "dealers" (per board), "revealed" (the round is over: its
    # deals may be shown)}. Null for every other table.
    duplicate = models.JSONField(null=True, blank=True)
    # A tournament's table (tournaments/services.py): no hints there (games/hints.py).
    tournament_table = models.BooleanField(default=False, db_default=False)

    class Meta:
        indexes = [models.Index(fields=["game", "status"])]

    def __str__(self):
        return f"{self.game}/{self.variant} #{self.pk}"


class Seat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="seats")
    # A bot took this seat after its player ran out of time (4-player games).
    replaced_by_bot = models.CharField(max_length=16, blank=True)
    bank_ms = models.IntegerField(default=0)
    # Set while this seat's clock runs (it is among the seats to act).
    turn_started_at = models.DateTimeField(null=True, blank=True)
    # How many of the table's open sockets listen at this seat: always recounted from their
    # records (TableSocket, games/presence.py), never moved by +1/-1.
    connections = models.IntegerField(default=0)
    # When the player's last socket closed during the match (games/presence.py,
    # services.seat_presence_changed); cleared when one opens again. After LEAVER_GRACE_SECONDS he
    # has abandoned the match (games/clocks.py).
    away_since = models.DateTimeField(null=True, blank=True)
    # Hints its player asked for during the match (games/hints.py): shown with the result.
    hints_used = models.PositiveIntegerField(default=0, db_default=0)
    # The table version of its last hint: one hint per move.
    hint_version = models.IntegerField(null=True, blank=True)

    class Meta:
        unique_together = [("table", "index")]
        ordering = ["index"]

    @property
    def is_bot(self) -> bool:
        """A bot plays this seat: a bot user, or a bot that took over from a player."""
        return bool(self.replaced_by_bot) or bool(self.user_id and self.user.is_bot)

    @property
    def player_name(self) -> str | None:
        return None if self.user_id is None else self.user.display_name

    @property
    def bot_level(self) -> str:
        if self.replaced_by_bot:
            return self.replaced_by_bot
        if self.user_id and self.user.is_bot:
            return self.user.bot_level
        return ""


class TableSocket(models.Model):
    """One open table socket (games/presence.py): where it listens, a seat or (None) the spectators.
    Named by its channel, so that opening, moving and closing it are idempotent, and the counts
    (Seat.connections, Table.spectators) are what these records say."""
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="sockets")
    channel = models.CharField(max_length=200)
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    opened_at = models.DateTimeField(auto_now_add=True)
    # The web process that holds the socket (games/web_process/liveness.py): its records go when it stops beating.
    process = models.CharField(max_length=80, blank=True, default="", db_index=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["table", "channel"], name="one_record_per_socket")]
        indexes = [models.Index(fields=["table", "seat"])]


class WebProcess(models.Model):
    """A web process's heartbeat (games/web_process/liveness.py): it pushes ``expires_at`` forward every few
    seconds; once it has passed, the process is taken for dead and its sockets' records are removed."""
    name = models.CharField(max_length=80, primary_key=True)
    started_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(db_index=True)


class Match(models.Model):
    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="match")
    state = models.JSONField()            # games.engine.core.Match.to_dict()
    finished = models.BooleanField(default=False)
    winners = models.JSONField(null=True, blank=True)
    ranks = models.JSONField(null=True, blank=True)
    # Seats that lost on time: a forfeit (2 players) or a bot took over (4 players).
    timed_out = models.JSONField(default=list, blank=True)
    # Of those, the seats that left the match and did not come back within the grace (the opponent
    # claimed the win, or a bot took the seat): they lose exactly as on time.
    abandoned = models.JSONField(default=list, db_default=[], blank=True)
    # Seats whose player resigned (games/actions/exits.py): they lose, ranked as if on time.
    resigned = models.JSONField(default=list, db_default=[], blank=True)
    # "" | "score" | "timeout" | "abandoned" | "resigned" | "aborted" (unrated, no winner)
    ended_by = models.CharField(max_length=16, blank=True)
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)


class Deal(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="deals")
    number = models.PositiveIntegerField()
    record = models.JSONField()           # the deal record (docs/RECORDS.md), actions appended
    result = models.JSONField(null=True, blank=True)
    finished = models.BooleanField(default=False)
    # The secret server seed (hex) the deal was drawn from; its commitment is in record["fair"].
    # Added to the record only where the deal may be shown (archive.visibility.public_record).
    server_seed = models.CharField(max_length=64, blank=True, default="", db_default="")

    class Meta:
        unique_together = [("match", "number")]
        ordering = ["number"]


class ChatMessage(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="chat")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL)
    name = models.CharField(max_length=150)
    text = models.CharField(max_length=500)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]

    def as_json(self):
        return {"from": self.name, "text": self.text, "at": self.created_at.isoformat()}
