"""A player's move, and a hint asked for at his turn."""
from __future__ import annotations

from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from games import hints
from games.engine.core import IllegalAction
from realtime.errors import ServiceError
from games.loading import Live, locked, seat_of
from games.models import Seat, Table

from . import steps

Status = Table.Status


def act(table_id: int, user, version, action) -> None:
    """A player's action. Refusals raise ServiceError and change nothing."""
    if not isinstance(action, dict):
        raise ServiceError("bad_request", _("An action must be an object with a type."))
    now = timezone.now()
    with locked(table_id) as live:
        t = live.table
        mine = [s.index for s in live.seats
                if user is not None and user.is_authenticated and s.user_id == user.id and not s.replaced_by_bot]
        if not mine:
            raise ServiceError("spectator", _("Spectators cannot act."), t.version)
        seat = action.get("seat", mine[0])
        if seat not in mine:
            raise ServiceError("not_your_seat", _("You can act only for your own seat."), t.version)
        action = dict(action, seat=seat)
        if not _current(live, version, action):
            raise ServiceError("stale", _("The table has moved on; here is its current state."), t.version)
        if t.status != Status.PLAYING or live.state is None:
            raise ServiceError("bad_request", _("No deal is in progress."), t.version)
        if seat not in live.state.seats_to_act():
            raise ServiceError("not_your_turn", _("It is not your turn."), t.version)
        try:
            steps.commit_action(live, seat, action, now)
        except IllegalAction as exc:
            raise steps.refused(exc, t.version) from None


def take_hint(table_id: int, user) -> dict:
    """A player asks for a hint (games/hints.py): refused, or counted on his seat and answered with
    what the search needs, ``{"version", "view", "options"}`` (his own view only). The hint's
    count is not a versioned change: nobody else is told of it until the result shows it."""
    with locked(table_id) as live:
        t = live.table
        seat = seat_of(live, user)
        refusal = hints.table_refusal(live, seat)
        if refusal is not None:
            raise refusal
        if user.is_bot_account:     # a program plays the seat: the house bot does not play it for him
            raise ServiceError("bot_account", _("A bot account gets no hints."), t.version, category="forbidden")
        if t.status != Status.PLAYING or live.state is None or seat not in live.state.seats_to_act():
            raise ServiceError(hints.NOT_YOUR_TURN, _("A hint is for your own turn."), t.version)
        view = live.state.view(seat)
        options = hints.options_of(view)
        hints.check_choice(view, options, t.version)
        mine = live.seats[seat]
        hints.take_allowance(user, mine, t.version)
        Seat.objects.filter(pk=mine.pk).update(hints_used=F("hints_used") + 1, hint_version=t.version)
        mine.hints_used += 1
        mine.hint_version = t.version
        return {"version": t.version, "view": view, "options": options}


def _current(live: Live, version, action: dict) -> bool:
    """Whether an action acted on what the table shows now. An action that commutes with what
    others did since (a Hearts pass: passes are simultaneous) still counts while it is from this
    deal: each change of a deal in progress is one of its actions, so a version at most that many
    changes old was shown in this deal."""
    if not isinstance(version, int) or isinstance(version, bool):
        return False
    behind = live.table.version - version
    if behind == 0:
        return True
    state = live.state
    return (state is not None and live.table.status == Status.PLAYING
            and 0 < behind <= len(state.log) and state.commutes(action))
