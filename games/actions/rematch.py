"""Rematch: a finished match's players offer, accept or decline a new one (docs/PROTOCOL.md).

A finished table's match is over for good (a Match is one-to-one with its Table, and the match
history, replays and ratings point at it), so a rematch is a new table with the same seats and
settings. The offer lives on the finished table (Table.rematch), written under its lock and
versioned like every change there: everyone at the table sees who accepted.
"""
from __future__ import annotations

from datetime import datetime

from django.utils import timezone
from django.utils.translation import gettext as _

from games import limits
from realtime.errors import ServiceError
from games.loading import Live, locked
from games.models import Seat, Table

from . import steps
from .tables import create_table

Status = Table.Status
REMATCH_ANSWERS = ("offer", "accept", "decline")


def rematch(table_id: int, user, version, answer) -> None:
    """A player of a finished match offers a rematch ("offer") or answers the open offer ("accept",
    "decline"). Bots accept at once; when every seat has accepted, the new table starts and the
    old table's clients are told where it is. Accepting twice changes nothing."""
    if answer not in REMATCH_ANSWERS:
        raise ServiceError("bad_request", _("A rematch answer is offer, accept or decline."))
    now = timezone.now()
    with locked(table_id) as live:
        t = live.table
        seat = _rematch_seat(live, user)
        offer = _open_offer(t)
        if offer is None and answer != "offer":
            raise ServiceError("no_rematch_offer", _("No rematch is on offer."), t.version)
        if offer is not None and (not isinstance(version, int) or version < offer["since"]):
            raise ServiceError("stale", _("The table has moved on; here is its current state."), t.version)
        if answer == "decline":
            _cancel_rematch(live, "declined", seat, now)
            return
        if offer is None:
            # A new table asked for: counted against the offerer's TABLE_CREATE_RATE now (the
            # others' yes, a bot's at once, must not find it refused).
            limits.take_table(user)
            offer = {"status": "open", "by": seat, "since": t.version + 1,
                     "accepted": [s.index for s in live.seats if _bot_seat(s)]}
        if seat in offer["accepted"]:
            return
        offer = dict(offer, accepted=sorted(offer["accepted"] + [seat]))
        if len(offer["accepted"]) == len(live.seats):
            offer = dict(offer, status="started", table=_start_rematch(live, offer).pk)
        _store_rematch(live, offer, now)


def rematch_left(table_id: int, seat: int | None) -> None:
    """A player's last socket at a finished table closed: his seat's open rematch offer is
    cancelled (he is no longer there to play it)."""
    if seat is None or not Table.objects.filter(pk=table_id, status=Status.FINISHED,
                                                rematch__status="open").exists():
        return      # the usual case, without taking the table's lock
    now = timezone.now()
    with locked(table_id) as live:
        s = live.seats[seat]
        if _open_offer(live.table) is not None and s.connections <= 0 and not _bot_seat(s):
            _cancel_rematch(live, "left", seat, now)


def _rematch_seat(live: Live, user) -> int:
    t = live.table
    if t.status != Status.FINISHED:
        raise ServiceError("match_not_over", _("A rematch can be offered once the match is over."), t.version)
    if t.rematch and t.rematch.get("status") == "started":
        raise ServiceError("rematch_started", _("The rematch has already started."), t.version)
    mine = [s.index for s in live.seats
            if user is not None and user.is_authenticated and s.user_id == user.id and not user.is_bot]
    if not mine:
        raise ServiceError("spectator", _("Only the match's players can offer or answer a rematch."), t.version)
    if t.tournament_table:
        raise ServiceError("tournament_table", _("A tournament's match has no rematch: the tournament "
                                                 "pairs your next match."), t.version)
    if any(s.user_id is None for s in live.seats):
        raise ServiceError("seat_gone", _("A player of this match no longer has an account."), t.version)
    return mine[0]


def _bot_seat(seat: Seat) -> bool:
    """A bot user's seat (a bot that took over from a player still needs that player's yes)."""
    return bool(seat.user_id and seat.user.is_bot)


def _open_offer(t: Table) -> dict | None:
    return t.rematch if t.rematch and t.rematch.get("status") == "open" else None


def _start_rematch(live: Live, offer: dict) -> Table:
    """The new table: same game, variant, time control, rating and privacy, each player in his
    seat, already started. Its owner is the old owner when he played, else whoever offered."""
    t = live.table
    players = {s.user_id for s in live.seats}
    owner = t.owner if t.owner_id in players and not t.owner.is_bot else live.seats[offer["by"]].user
    seats = [s.user.bot_level if _bot_seat(s) else s.user for s in live.seats]
    return create_table(owner, t.game, t.variant, rated=t.rated, bank_seconds=t.bank_seconds,
                        increment_seconds=t.increment_seconds, private=t.private, seats=seats, start=True,
                        bots_allowed=t.bots_allowed)


def _cancel_rematch(live: Live, reason: str, seat: int, now: datetime) -> None:
    offer = dict(_open_offer(live.table), status="cancelled", reason=reason, seat=seat)
    _store_rematch(live, offer, now)


def _store_rematch(live: Live, offer: dict, now: datetime) -> None:
    t = live.table
    t.rematch = offer
    live.writes.append((t, ("rematch",)))
    steps.bump(live, now)
    steps.send(live, [dict(offer, kind="rematch")], now)
