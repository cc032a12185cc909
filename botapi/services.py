"""The bot API's writers and readers (docs/BOTS.md): bot accounts, challenges, open tables.

Who may become a bot account: a registered account (not a guest, not a house bot) that has played
no rated match against people and sits at no unfinished table. As on Lichess, a bot account
cannot go back to being a person's account from the site (an admin can), so its rating never
mixes with people's leaderboard.

Challenges: a person challenges a bot account (game, variant, clock, rated); the bot hears of it on
its event socket (``/ws/bot/``, botapi/consumers.py) or by polling ``GET /api/bot/challenges/``,
and accepts (a started table, the challenger in seat 0, the bot in seat 1, house bots of
``FILL_LEVEL`` in the other seats of a four-player game) or declines. A challenge expires after
``BOT_CHALLENGE_SECONDS`` unanswered.
"""
from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from games import limits, services as games
from realtime import broadcast
from games.engine import core
from realtime.errors import ServiceError
from games.models import Seat, Table
from ratings.models import MatchPlayer

from .models import Challenge

Status = Challenge.Status
FILL_LEVEL = "basic"        # house bots filling the other seats of a four-player challenge
MAX_PENDING = 3             # open challenges one person may have at a time


def bot_group(user_id: int) -> str:
    """The event sockets of one bot account (``/ws/bot/``), on every process."""
    return f"bot.{user_id}"


# --- bot accounts -----------------------------------------------------------------------------------
def bot_account_refusal(user) -> str | None:
    """Why ``user`` cannot become a bot account now (None: he can)."""
    if user is None or not user.is_authenticated:
        return _("Log in first.")
    if user.is_guest:
        return _("A guest account cannot become a bot account: register an account for your bot.")
    if user.is_bot:
        return _("House bots are not bot accounts.")
    if user.is_bot_account:
        return _("This is already a bot account.")
    people = MatchPlayer.objects.filter(match_id=OuterRef("match_id"), user__isnull=False,
                                        user__is_bot=False).exclude(user_id=user.pk)
    if MatchPlayer.objects.filter(user=user, rated=True).filter(Exists(people)).exists():
        return _("This account has played rated matches against people, so its rating is theirs to "
                 "compare with: register a new account for your bot.")
    if Seat.objects.filter(user=user).exclude(table__status=Table.Status.FINISHED).exists():
        return _("Finish or leave your open tables first.")
    return None


def make_bot_account(user) -> None:
    """Turn ``user``'s account into a bot account, for good (ServiceError with the reason)."""
    with transaction.atomic():
        locked = User.objects.select_for_update().get(pk=user.pk)
        refusal = bot_account_refusal(locked)
        if refusal is not None:
            raise ServiceError("not_allowed", refusal)
        locked.is_bot_account = True
        locked.save(update_fields=["is_bot_account"])
    user.is_bot_account = True


# --- challenges -------------------------------------------------------------------------------------
def challenge_json(c: Challenge) -> dict:
    """A challenge as the bot API shows it."""
    return {"id": c.pk, "from": c.challenger.username, "game": c.game, "variant": c.variant,
            "time_control": {"bank_seconds": c.bank_seconds, "increment_seconds": c.increment_seconds},
            "rated": c.rated, "status": c.state, "reason": c.decline_reason or None,
            "table": c.table_id, "expires_at": int(c.expires_at.timestamp() * 1000)}


def _tell_bot(c: Challenge, event: dict) -> None:
    """After the commit, tell the bot's event sockets."""
    group = bot_group(c.bot_id)
    broadcast.send_on_commit(lambda: [(group, {"type": "bot.event", "event": event})])


def challenge(challenger, bot_name: str, game: str, variant: str | None, *, bank_seconds: int,
              increment_seconds: int, rated: bool = False) -> Challenge:
    if challenger is None or not challenger.is_authenticated:
        raise ServiceError("forbidden", _("Log in or play as a guest to challenge a bot."))
    if challenger.is_bot_account or challenger.is_bot:
        raise ServiceError("forbidden", _("Bot accounts do not challenge: they accept challenges."))
    bot = User.objects.filter(username=bot_name, is_bot_account=True, is_active=True).first()
    if bot is None:
        raise ServiceError("not_found", _("There is no bot account of that name."))
    try:
        rules = core.get_rules(game)
        variant = rules.check_variant(variant)
    except ValueError as exc:
        raise ServiceError("bad_request", str(exc)) from None
    if rated and challenger.is_guest:
        raise ServiceError("forbidden", _("Guests play on unrated tables only."))
    if rated and _house_bots(game):     # never rated (ratings/house_bots.py)
        raise ServiceError("rated_house_bot", _("Tables with house bots are never rated: untick "
                                                "\"Rated\" or leave the seats open for people."),
                           category="forbidden")
    if not (10 <= bank_seconds <= 3600 and 0 <= increment_seconds <= 120):
        raise ServiceError("bad_request", _("That time control is not offered."))
    # The table it may become counts against the challenger's TABLE_CREATE_RATE when accepted:
    # over the limit, it is refused now rather than left for the bot to find refused.
    limits.check_tables(challenger)
    now = timezone.now()
    with transaction.atomic():
        User.objects.select_for_update().filter(pk=challenger.pk).first()   # one at a time per person
        if Challenge.objects.filter(challenger=challenger, status=Status.PENDING, expires_at__gt=now).count() >= MAX_PENDING:
            raise ServiceError("too_many_challenges", _(
                "You have %(n)d challenges waiting for an answer: wait for them or cancel one.") % {"n": MAX_PENDING})
        c = Challenge.objects.create(challenger=challenger, bot=bot, game=game, variant=variant,
                                     bank_seconds=bank_seconds, increment_seconds=increment_seconds,
                                     rated=rated, expires_at=now + timedelta(seconds=settings.BOT_CHALLENGE_SECONDS))
        _tell_bot(c, {"type": "challenge", "challenge": challenge_json(c)})
    return c


def _house_bots(game: str) -> list[str]:
    """The house bots (FILL_LEVEL) that take a challenge's seats besides the challenger's and the bot's."""
    return [FILL_LEVEL] * (core.get_rules(game).seats - 2)


def _locked_challenge(challenge_id) -> Challenge:
    if not isinstance(challenge_id, int) or isinstance(challenge_id, bool):
        raise ServiceError("bad_request", _("A challenge is named by its id (a number)."))
    c = Challenge.objects.select_for_update().select_related("challenger", "bot").filter(pk=challenge_id).first()
    if c is None:
        raise ServiceError("not_found", _("There is no such challenge."))
    return c


def _still_open(c: Challenge) -> None:
    state = c.state
    if state == Status.PENDING:
        return
    reasons = {Status.EXPIRED: _("That challenge has expired."),
               Status.CANCELLED: _("That challenge was cancelled."),
               Status.ACCEPTED: _("That challenge was already accepted."),
               Status.DECLINED: _("That challenge was declined.")}
    raise ServiceError("challenge_" + state, reasons[state])


def accept(bot, challenge_id) -> Table:
    """The bot accepts: a started table with the challenger and the bot seated."""
    with transaction.atomic():
        c = _locked_challenge(challenge_id)
        if c.bot_id != getattr(bot, "pk", None):
            raise ServiceError("forbidden", _("That challenge is for another bot."))
        _still_open(c)
        seats: list = [c.challenger, c.bot] + _house_bots(c.game)
        try:
            table = games.create_table(c.challenger, c.game, c.variant, rated=c.rated,
                                       bank_seconds=c.bank_seconds, increment_seconds=c.increment_seconds,
                                       seats=seats, start=True, bots_allowed=True, counted=True)
        except ServiceError as err:
            if err.code == limits.TOO_MANY_TABLES:      # the challenger's count, told to the bot
                raise limits.tables_refusal(err.params["retry_after"], _(
                    "The challenger has created many tables lately, so this challenge cannot start yet.")) from None
            # the challenger became a guest-only case, say: refuse cleanly
            raise ServiceError(err.code, err.reason) from None
        c.status, c.table = Status.ACCEPTED, table
        c.save(update_fields=["status", "table"])
        _tell_bot(c, {"type": "challenge_gone", "id": c.pk, "status": c.status, "table": table.pk})
    return table


def decline(bot, challenge_id, reason: str = "") -> Challenge:
    if reason is not None and not isinstance(reason, str):
        raise ServiceError("bad_request", _("A reason is a text."))
    with transaction.atomic():
        c = _locked_challenge(challenge_id)
        if c.bot_id != getattr(bot, "pk", None):
            raise ServiceError("forbidden", _("That challenge is for another bot."))
        _still_open(c)
        c.status, c.decline_reason = Status.DECLINED, (reason or "").strip()[:200]
        c.save(update_fields=["status", "decline_reason"])
        _tell_bot(c, {"type": "challenge_gone", "id": c.pk, "status": c.status})
    return c


def cancel(challenger, challenge_id) -> Challenge:
    with transaction.atomic():
        c = _locked_challenge(challenge_id)
        if c.challenger_id != getattr(challenger, "pk", None):
            raise ServiceError("forbidden", _("Only its challenger can cancel a challenge."))
        _still_open(c)
        c.status = Status.CANCELLED
        c.save(update_fields=["status"])
        _tell_bot(c, {"type": "challenge_gone", "id": c.pk, "status": c.status})
    return c


def pending_for(bot) -> list[Challenge]:
    """The bot's challenges still waiting for an answer, oldest first."""
    return list(Challenge.objects.filter(bot=bot, status=Status.PENDING, expires_at__gt=timezone.now())
                .select_related("challenger").order_by("created_at", "pk"))


# --- tables a bot may join, and those it plays ---------------------------------------------------------
def playing_tables(bot) -> list[int]:
    """The unfinished tables where the bot has a seat (a challenge it accepted, a table it sat at,
    a tournament's pairing): its program opens a table socket for each."""
    return list(Seat.objects.filter(user=bot, replaced_by_bot="").exclude(table__status=Table.Status.FINISHED)
                .order_by("table_id").values_list("table_id", flat=True))


def open_tournaments(game: str | None = None) -> list[dict]:
    """Tournaments a bot account may still register for."""
    from tournaments.models import Tournament
    from tournaments.services import registration_open

    qs = Tournament.objects.filter(bots_allowed=True, status=Tournament.Status.SCHEDULED).order_by("starts_at")
    if game:
        qs = qs.filter(game=game)
    return [{"id": t.pk, "name": t.name, "game": t.game, "variant": t.variant, "format": t.format,
             "rated": t.rated, "starts_at": int(t.starts_at.timestamp() * 1000)}
            for t in qs[:50] if registration_open(t)]



def open_tables(game: str | None = None, limit: int = 50) -> list[dict]:
    """Public tables waiting for players that allow bot accounts and have a free seat."""
    qs = (Table.objects.filter(bots_allowed=True, private=False, status=Table.Status.WAITING)
          .filter(Exists(Seat.objects.filter(table_id=OuterRef("pk"), user__isnull=True))))
    if game:
        qs = qs.filter(game=game)
    out = []
    for t in qs.order_by("-pk").select_related("owner")[:limit]:
        seats = list(Seat.objects.filter(table=t).select_related("user").order_by("index"))
        out.append({"id": t.pk, "game": t.game, "variant": t.variant, "rated": t.rated,
                    "time_control": {"bank_seconds": t.bank_seconds, "increment_seconds": t.increment_seconds},
                    "owner": t.owner.username if t.owner_id else None,
                    "seats": [{"seat": s.index, "name": s.player_name} for s in seats],
                    "free_seats": [s.index for s in seats if s.user_id is None]})
    return out
