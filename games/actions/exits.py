"""The ways out of a match: resign, abort, and claiming the remaining tricks.

Each writer checks, then changes the table through the engine under its lock, and sends on commit,
like every writer of live games (games/actions/steps.py supplies the shared steps). What each does,
and why, is in docs/PROTOCOL.md, "Resign, abort, claim":

* ``resign``: the resigning seat loses at once. In a match of one against one the match ends; in
  a match of more players a bot takes the seat as for a leaver (he ranks last, his side loses),
  unless every other seat is a bot already: then the match ends. Before every seat has moved a
  resignation is an abort (a match nobody played in is never won or lost).
* ``abort``: until every seat has made its first move of the match, any of its players may end
  it: unrated, no winner, "aborted" in the history. Not at tournament tables (a tournament needs
  each table's result; a no-show loses there by the clock).
* ``claim_rest``: the engine proves (games/engine/claims.py) that every remaining trick of the
  deal goes to the claimer whatever the others play; the claim is then played out at once, the
  claimer's remaining cards shown to everyone, and the deal ends as claimed.
"""
from __future__ import annotations

from django.utils import timezone
from django.utils.translation import gettext as _

from games import clocks, first_moves, loading
from games.engine import claims
from games.engine.core import IllegalAction

from realtime.errors import ServiceError
from games.loading import Live, locked, seat_of
from games.models import Table

from . import forfeits, steps

Status = Table.Status


def _player(live: Live, user, spectator_reason: str) -> int:
    """The user's seat in a match in progress; refused otherwise."""
    t = live.table
    me = seat_of(live, user)
    if me is None:
        raise ServiceError("spectator", spectator_reason, t.version)
    if not clocks.running(live):
        raise ServiceError("bad_request", _("No match is in progress."), t.version)
    return me


def _version(live: Live, version) -> None:
    t = live.table
    if not isinstance(version, int) or isinstance(version, bool) or version > t.version:
        raise ServiceError("bad_request", _("Send the table's version with this message."), t.version)


def resign(table_id: int, user, version) -> None:
    """The player resigns the match. A resignation stands whatever moved since the version sent."""
    now = timezone.now()
    with locked(table_id) as live:
        me = _player(live, user, _("Only a player of this match can resign it."))
        _version(live, version)
        if first_moves.may_abort(live):
            _abort(live, me, now)
            return
        m = live.match
        m.resigned = sorted(set(m.resigned or []) | {me})
        event = {"kind": "resigned", "seat": me}
        others_bots = all(s.is_bot for s in live.seats if s.index != me)
        if not clocks.bot_takes_over(live) or others_bots:
            m.save()
            steps.commit_change(live, [event, steps.finish_match(live, now, "resigned")], now, lobby=True)
            return
        forfeits.bot_takes_seat(live, me, event, now)


def abort(table_id: int, user, version) -> None:
    """The player aborts the match before every seat has moved (refused after, with the reason)."""
    now = timezone.now()
    with locked(table_id) as live:
        me = _player(live, user, _("Only a player of this match can abort it."))
        _version(live, version)
        t = live.table
        if t.tournament_table:
            raise ServiceError("abort_refused", _("A tournament match cannot be aborted: resign it instead."),
                               t.version)
        if not first_moves.may_abort(live):
            raise ServiceError("abort_refused", _("Every player has moved: the match can no longer be "
                                                  "aborted. You may resign it."), t.version)
        _abort(live, me, now)


def _abort(live: Live, seat: int, now) -> None:
    events = [{"kind": "aborted", "seat": seat}, steps.finish_match(live, now, "aborted")]
    steps.commit_change(live, events, now, lobby=True)


def claim_rest(table_id: int, user, version) -> None:
    """The player claims every remaining trick of the deal: applied at once when the engine proves
    it, refused with the engine's reason otherwise. The proof runs with no lock held, on the table
    as read at ``version`` (a search of up to a few hundred milliseconds must not hold the table,
    nor the embedded database's one write lock); the line it found is applied under the lock only
    if the table is still at that version (else ``stale``)."""
    me, proved_at, state = loading.peek(table_id, lambda live: _claim_position(live, user, version))
    try:
        line = claims.claim_line(state, me)
    except IllegalAction as exc:
        raise steps.refused(exc, proved_at) from None
    # The others "see the hands": the claimer's remaining cards go to everyone with the claim.
    event = {"kind": "claim", "seat": me, "cards": list(state.view(me)["hand"]), "tricks": _tricks_left(line)}
    now = timezone.now()
    with locked(table_id) as live:
        if _claim_position(live, user, proved_at, copy=False)[0] != me:
            raise ServiceError("stale", _("The table has moved on; here is its current state."), live.table.version)
        state, record = live.state, live.deal.record["actions"]
        for seat, move in line[:-1]:
            state.apply_move(move, seat)
            record.append(state.action_of(seat, move))
        seat, move = line[-1]
        steps.commit_action(live, seat, state.action_of(seat, move), now, extra_events=[event])


def _claim_position(live: Live, user, version, copy: bool = True):
    """The claimer's seat, the version and the deal's state (a copy, to search with no lock held);
    refused unless a player claims at the current version of a deal in progress."""
    me = _player(live, user, _("Only a player of this match can claim the remaining tricks."))
    t = live.table
    if not isinstance(version, int) or isinstance(version, bool) or version != t.version:
        raise ServiceError("stale", _("The table has moved on; here is its current state."), t.version)
    if t.status != Status.PLAYING or live.state is None:
        raise ServiceError("bad_request", _("No deal is in progress."), t.version)
    return me, t.version, live.state.clone() if copy else live.state


def _tricks_left(line: list[tuple[int, int]]) -> int:
    return (len(line) + 3) // 4
