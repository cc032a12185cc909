"""A table's life before its match: creating it, sitting down, leaving, the owner's start.

Each writer checks, changes the table under its lock and sends on commit (games/actions/steps.py);
the match starts in the same change as the last open seat is taken, or at the owner's word.
"""
from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import BOT_LEVELS, bot_user
from games import limits
from games.engine import core
from realtime.errors import ServiceError
from games.loading import locked
from games.models import Seat, Table

from . import steps

Status = Table.Status


def _only_bots_besides_owner(spec: list) -> bool:
    """Every seat but the owner's is a bot (a level or a bot user): nobody waits on his clock, so
    such an unrated table may be untimed (games/time_controls.py)."""
    return all(s == "me" or (isinstance(s, str) and s in BOT_LEVELS)
               or (not isinstance(s, str) and getattr(s, "is_bot", False)) for s in spec)


def create_table(owner, game: str, variant: str | None = None, *, rated: bool = False,
                 bank_seconds: int = 300, increment_seconds: int = 5, private: bool = False,
                 seats: list[str] | None = None, start: bool | None = None,
                 bots_allowed: bool = False, duplicate: dict | None = None, counted: bool = False,
                 tournament: bool = False) -> Table:
    """A new table. ``seats``: one entry per seat, ``"me"`` (the owner), ``""`` (open), a bot
    level, or a user (a player seated by the system, e.g. a tournament pairing). By default the
    owner takes seat 0 and the rest are open. ``start``: by default the match starts at once when
    no seat is left open (nobody else can come, so there is nothing to wait for); False keeps a
    full table waiting for its owner's ``start``. ``bots_allowed``: bot accounts (the bot API)
    may take its open seats. ``duplicate``: a duplicate tournament's deal source
    (``fair_deals.duplicate_source``): its match plays those boards from the round's seed.
    ``counted``: a table a person asked for (the lobby, "Play now", an accepted challenge), counted
    against its owner's TABLE_CREATE_RATE (games/limits.py) once it is known to be valid; over the
    limit it is refused (``too_many_tables``) and nothing is made. ``tournament``: a tournament's
    table (no hints there, games/hints.py)."""
    try:
        rules = core.get_rules(game)
        variant = rules.check_variant(variant)
    except ValueError as exc:
        raise ServiceError("bad_request", str(exc)) from None
    if owner is None or not owner.is_authenticated:
        raise ServiceError("forbidden", _("Log in or play as a guest to create a table."))
    if rated and owner.is_guest:
        raise ServiceError("forbidden", _("Guests play on unrated tables only."))
    spec = list(seats) if seats is not None else ["me"] + [""] * (rules.seats - 1)
    untimed = bank_seconds == 0 and increment_seconds == 0 and not rated and _only_bots_besides_owner(spec)
    if not (untimed or (10 <= bank_seconds <= 3600 and 0 <= increment_seconds <= 120)):
        raise ServiceError("bad_request", _("That time control is not offered."))
    if len(spec) != rules.seats or spec.count("me") > 1 or any(
            isinstance(s, str) and s not in ("me", "") and s not in BOT_LEVELS for s in spec):
        raise ServiceError("bad_request", _("Each seat must be you, open, or a bot level."))
    if rated and any(not isinstance(s, str) and s.is_guest for s in spec):
        raise ServiceError("forbidden", _("Guests play on unrated tables only."))
    if rated and any(_is_house_bot(s) for s in spec):
        # House bots are never rated (ratings/house_bots.py): a win against one is worth nothing.
        raise ServiceError("rated_house_bot", _("Tables with house bots are never rated: untick "
                                                "\"Rated\" or leave the seats open for people."),
                           category="forbidden")
    if "me" in spec:            # the owner seats himself: as if he sat down (players the system seats are its choice)
        _check_may_sit(owner, rated=rated, bots_allowed=bots_allowed)
    if counted:
        limits.take_table(owner)
    now = timezone.now()
    with transaction.atomic():
        table = Table.objects.create(game=game, variant=variant, rated=rated, bank_seconds=bank_seconds,
                                     increment_seconds=increment_seconds, private=private, owner=owner,
                                     bots_allowed=bots_allowed, duplicate=duplicate,
                                     tournament_table=tournament)
        for i, who in enumerate(spec):
            if not isinstance(who, str):
                user = who
            else:
                user = owner if who == "me" else (bot_user(who) if who else None)
            Seat.objects.create(table=table, index=i, user=user, bank_ms=bank_seconds * 1000)
        if start is None:
            start = "" not in spec
        with locked(table.pk) as live:
            if start:
                steps.start_match(live, now)
            else:
                steps.bump(live, now)
                steps.send(live, [{"kind": "created"}], now, resync=True, lobby=True)
    return table


def sit(table_id: int, user, seat: int) -> None:
    if user is None or not user.is_authenticated:
        raise ServiceError("forbidden", _("Log in or play as a guest to take a seat."))
    now = timezone.now()
    with locked(table_id) as live:
        t = live.table
        if t.status != Status.WAITING:
            raise ServiceError("bad_request", _("The match has already started."), t.version)
        _check_may_sit(user, rated=t.rated, bots_allowed=t.bots_allowed, version=t.version)
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(live.seats):
            raise ServiceError("bad_request", _("There is no such seat."), t.version)
        if any(s.user_id == user.id for s in live.seats):
            raise ServiceError("bad_request", _("You already sit at this table."), t.version)
        target = live.seats[seat]
        if target.user_id is not None:
            raise ServiceError("bad_request", _("That seat is taken."), t.version)
        target.user = user
        target.save(update_fields=["user"])
        event = {"kind": "seat", "seat": seat, "name": user.display_name}
        if all(s.user_id is not None for s in live.seats):
            # The last open seat: the match starts in the same change (as on Kurnik/PlayOK), so
            # nobody waits for an owner who may be gone.
            steps.start_match(live, now, [event], resync=True)
            return
        steps.bump(live, now)
        steps.send(live, [event], now, resync=True, lobby=True)


def _is_house_bot(who) -> bool:
    """A seat's entry of ``create_table`` that is a house bot: a level's name or a bot user."""
    return who in BOT_LEVELS if isinstance(who, str) else bool(who.is_bot)


def _check_may_sit(user, *, rated: bool, bots_allowed: bool, version: int | None = None) -> None:
    """Whether ``user`` may take a seat of a table so made: sitting down (``sit``) and seating
    oneself at one's new table (``create_table``) ask the same."""
    if rated and (user.is_guest or user.is_bot):
        raise ServiceError("forbidden", _("Guests play on unrated tables only."), version)
    if user.is_bot_account and not bots_allowed:
        raise ServiceError("bots_not_allowed", _("This table does not allow bot accounts: its owner "
                                                 "did not tick \"Bots may join\"."), version,
                           category="forbidden")


def leave(table_id: int, user) -> None:
    now = timezone.now()
    with locked(table_id) as live:
        t = live.table
        mine = [s for s in live.seats if user.is_authenticated and s.user_id == user.id]
        if not mine:
            raise ServiceError("spectator", _("You do not sit at this table."), t.version)
        if t.status != Status.WAITING:
            raise ServiceError("bad_request", _("You cannot leave a match in progress."), t.version)
        for s in mine:
            s.user = None
            s.save(update_fields=["user"])
        steps.bump(live, now)
        steps.send(live, [{"kind": "seat", "seat": mine[0].index, "name": None}], now,
                   resync=True, lobby=True)


def start(table_id: int, user) -> None:
    now = timezone.now()
    with locked(table_id) as live:
        t = live.table
        if t.owner_id != getattr(user, "id", None):
            raise ServiceError("forbidden", _("Only the table's owner can start the match."), t.version)
        if t.status != Status.WAITING:
            raise ServiceError("bad_request", _("The match has already started."), t.version)
        if any(s.user_id is None for s in live.seats):
            raise ServiceError("bad_request", _("Every seat must be taken first."), t.version)
        steps.start_match(live, now)
