"""Who is at the table: a seat's sockets opening and closing, as games/presence.py counts them.

During a match a player's last socket closing makes him away (the leaver's grace, games/clocks.py)
and his first coming back ends it; before it, the others see at once who is there.
"""
from __future__ import annotations

from datetime import datetime

from django.utils import timezone

from games import clocks, messages
from games.loading import Live, locked
from games.models import Table

from . import steps

Status = Table.Status


def seat_presence_changed(table_id: int, seat: int, before: int, after: int) -> None:
    """A seat's count of open sockets went from ``before`` to ``after`` (games/presence.py recounted
    it from the sockets' records, under the table's lock). Not a versioned change, except:

    * for leavers: a player's last socket closing during a match (he is away from then,
      ``Seat.away_since``), or his first opening again while he is away, is a versioned change
      that everyone at the table is sent (games/clocks.py: what his leaving leads to);
    * before the match, a seated player's first socket (he just sat down, or came back) or his
      last one closing is shown to the others at once, not with the next change.

    Counts are what the processes report: a web process killed without closing its sockets
    never removes their records itself; once its heartbeat stops, the socket sweep removes them
    (games/web_process/liveness.py), which lands here like any close."""
    if (before > 0) == (after > 0):
        return
    with locked(table_id) as live:
        now = timezone.now()
        s = live.seats[seat]
        if live.table.status != Status.WAITING:
            _presence(live, seat, now)
        elif s.user_id is not None and not s.is_bot:
            steps.bump(live, now)
            steps.send(live, [{"kind": "presence", "seat": seat, "connected": after > 0}], now)


def _presence(live: Live, index: int, now: datetime) -> None:
    """A player's last socket closed (away), or one opened while he was away (back)."""
    seat = live.seats[index]
    if seat.connections <= 0:
        if seat.away_since is not None or seat.user_id is None or seat.is_bot or not clocks.running(live):
            return
        seat.away_since = now
        event = {"kind": "away", "seat": index, "since": messages.epoch_ms(now)}
    else:
        if seat.away_since is None:
            return
        seat.away_since = None
        event = {"kind": "back", "seat": index}
    live.writes.append((seat, ("away_since",)))
    if not clocks.running(live):        # the match ended meanwhile: nothing to tell
        return
    steps.bump(live, now)
    steps.send(live, [event], now)
