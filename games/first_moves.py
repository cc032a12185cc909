"""Whether a match has begun in earnest (every seat has made its first move), and the ways out it offers.

Until then a player may abort it (games/actions/exits.py), and a match that ends before it (a leaver's
claim, a clock that ran out, a resignation) is aborted rather than won and lost: unrated, with
no winner (docs/PROTOCOL.md, "Resign, abort, claim"). Tournament tables are the exception: a
tournament needs every table's result, so a no-show there loses as before.
"""
from __future__ import annotations

from .loading import Live


def every_seat_moved(live: Live) -> bool:
    """Every seat has acted at least once in this match (a finished deal means all of them did)."""
    if live.match is None or live.engine is None:
        return False
    if live.engine.results:
        return True
    if live.state is None:
        return False
    return len({seat for seat, _move in live.state.log}) == len(live.seats)


def may_abort(live: Live) -> bool:
    """Whether ending the match now makes it aborted: no tournament table, not every seat moved."""
    return not live.table.tournament_table and not every_seat_moved(live)


def exit_options(live: Live) -> dict:
    """For the table's JSON, the ways out a client may offer now: ``abortable`` (abort instead of
    resign) and ``claims`` (the deal is in a play of tricks where the rest may be claimed)."""
    on = live.match is not None and not live.match.finished
    state = live.state
    return {"abortable": on and may_abort(live),
            "claims": on and state is not None and state.CLAIMS and state.claimable()}
