"""Losing by the clock or by leaving: a seat's time running out, a leaver's grace ending, and the
win claimed over an opponent who left (as on Lichess).

Where a bot takes a leaver's seat (games/clocks.py says when) the match goes on; else it ends.
"""
from __future__ import annotations

from datetime import datetime

from django.utils import timezone
from django.utils.translation import gettext as _, ngettext

from games import clocks, signals
from realtime.errors import ServiceError
from games.loading import Live, locked, seat_of
from games.models import Match

from . import bot_seats, steps


def time_out(live: Live, seat_index: int, now: datetime, *, abandoned: bool = False) -> None:
    """A seat's clock ran out, or (``abandoned``) its player left and did not come back within
    the grace: the same loss (Match.timed_out; the leaver is also in Match.abandoned)."""
    seat = live.seats[seat_index]
    clocks.stop(live, seat, now)
    m = live.match
    m.timed_out = sorted(set(m.timed_out) | {seat_index})
    event = {"kind": "timeout", "seat": seat_index}
    if abandoned:
        m.abandoned = sorted(set(m.abandoned or []) | {seat_index})
        event = {"kind": "abandoned", "seat": seat_index}
    if not clocks.bot_takes_over(live) or (abandoned and clocks.alone_among_bots(live)):
        m.save()
        events = [event, steps.finish_match(live, now, "abandoned" if abandoned else "timeout")]
        steps.commit_change(live, events, now, lobby=True)
        return
    bot_takes_seat(live, seat_index, event, now)


def bot_takes_seat(live: Live, index: int, event: dict, now: datetime) -> None:
    """The replacement bot plays the seat ``index`` from now on (its player timed out, left or
    resigned in a match that goes on); ``event`` says why, and the bot's name is added to it."""
    seat = live.seats[index]
    level = bot_seats.replacement_bot()
    seat.replaced_by_bot = level
    seat.away_since = None
    seat.save(update_fields=["replaced_by_bot", "away_since"])
    live.match.save()
    signals.seat_taken_over.send(sender=Match, match=live.match, seat=index, deal=live.deal)
    event["replaced_by"] = f"bot:{level}"
    # The player's socket becomes a spectator's: every socket rebuilds its snapshot.
    steps.commit_change(live, [event], now, resync=True)



def claim_win(table_id: int, user, version) -> None:
    """In a two-player match, the player whose opponent left and did not come back within
    LEAVER_GRACE_SECONDS wins at once (as on Lichess); the leaver loses as on time."""
    now = timezone.now()
    with locked(table_id) as live:
        t = live.table
        me = seat_of(live, user)
        if me is None:
            raise ServiceError("spectator", _("Only a player of this match can claim the win."), t.version)
        if clocks.bot_takes_over(live):
            raise ServiceError("bad_request", _("At this table a bot takes the place of a player who left: "
                                                "there is no win to claim."), t.version)
        if not clocks.running(live):
            raise ServiceError("bad_request", _("No match is in progress."), t.version)
        other = live.seats[1 - me]
        end = clocks.grace_end(live, other)
        if end is None:
            raise ServiceError("opponent_here", _("Your opponent is at the table."), t.version)
        if end > now:
            wait = max(1, int((end - now).total_seconds() + 0.999))
            raise ServiceError("claim_too_early", ngettext(
                "Your opponent may still come back: you can claim the win in %(n)d second.",
                "Your opponent may still come back: you can claim the win in %(n)d seconds.", wait) % {"n": wait},
                t.version, params={"retry_after": wait})
        if not isinstance(version, int) or isinstance(version, bool) or version != t.version:
            raise ServiceError("stale", _("The table has moved on; here is its current state."), t.version)
        time_out(live, other.index, now, abandoned=True)
