"""Players' clocks and a table's next due time.

Each seat has a bank; when its turn starts the increment is added and the deadline is bank +
increment from then. Clocks run only for human seats that must act; bots answer after a
human-like delay instead. ``due_at`` is when a table next needs a task: a bot's move, the
earliest deadline, the next deal, or (4 players) the end of a leaver's grace.

Leavers: a player whose last socket closed during the match is away (``Seat.away_since``, set when
games/presence.py counts his seat's last socket off). After LEAVER_GRACE_SECONDS he has abandoned it: in a two-player match his
opponent may claim the win (services.claim_win), in a four-player match a bot takes his seat (the
due work, services.advance), in both he loses as on time. A player alone among bots who leaves
ends the match when his grace is over (``alone_among_bots``): nobody would be left to play or claim,
and the table would show as playing for as long as his clock or the bots' match lasted.
"""
from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings

from .loading import Live
from .models import Seat, Table

Status = Table.Status
CLOCK_FIELDS = ("bank_ms", "turn_started_at")


def deadline(seat: Seat) -> datetime | None:
    if seat.turn_started_at is None:
        return None
    return seat.turn_started_at + timedelta(milliseconds=seat.bank_ms)


def acting(live: Live) -> set[int]:
    """The seats that must act now (none between deals)."""
    if live.state is None or live.table.status != Status.PLAYING:
        return set()
    return set(live.state.seats_to_act())


def timed(table: Table) -> bool:
    """An untimed table (bank and increment 0: "Play now" against bots may choose it) runs no clock."""
    return table.bank_seconds > 0 or table.increment_seconds > 0


def run(live: Live, now: datetime) -> None:
    """Start the clock of every human seat that must act and is not running yet (adding the
    increment: a turn's deadline is bank + increment); stop every other clock. An untimed table
    starts none."""
    to_act = acting(live) if timed(live.table) else set()
    inc = live.table.increment_seconds * 1000
    for seat in live.seats:
        running = seat.turn_started_at is not None
        if seat.index in to_act and not seat.is_bot:
            if not running:
                seat.bank_ms += inc
                seat.turn_started_at = now
                live.writes.append((seat, CLOCK_FIELDS))
        elif running:
            stop(live, seat, now)


def stop(live: Live, seat: Seat, now: datetime) -> None:
    if seat.turn_started_at is not None:
        used = int((now - seat.turn_started_at).total_seconds() * 1000)
        seat.bank_ms = max(0, seat.bank_ms - used)
        seat.turn_started_at = None
        live.writes.append((seat, CLOCK_FIELDS))


def reset(live: Live) -> None:
    """Full banks, no clock running: a match starts."""
    for s in live.seats:
        s.bank_ms = live.table.bank_seconds * 1000
        s.turn_started_at = None
        live.writes.append((s, CLOCK_FIELDS))


def due_at(live: Live, now: datetime) -> datetime | None:
    t = live.table
    graces = [end for s in live.seats if (end := grace_end(live, s)) is not None] if grace_is_due_work(live) else []
    if t.status == Status.BETWEEN_DEALS:
        return min([d for d in (t.next_deal_at,) if d is not None] + graces, default=None)
    times = graces
    for i in sorted(acting(live)):
        seat = live.seats[i]
        if seat.is_bot:
            times.append(now + timedelta(milliseconds=settings.GAMES_BOT_DELAY_MS))
        elif (d := deadline(seat)) is not None:
            times.append(d)
    return min(times, default=None)


def expired(live: Live, now: datetime) -> int | None:
    """A human seat to act whose time has run out."""
    for i in sorted(acting(live)):
        seat = live.seats[i]
        d = deadline(seat)
        if not seat.is_bot and d is not None and d <= now:
            return i
    return None


# --- leavers ------------------------------------------------------------------------------------
def running(live: Live) -> bool:
    """A match is on (in a deal or between two): the time when leaving abandons it."""
    return (live.table.status in (Status.PLAYING, Status.BETWEEN_DEALS) and live.match is not None
            and not live.match.finished)


def bot_takes_over(live: Live) -> bool:
    """What a player's abandoning (or running out of time) does: in a match of one against one
    (as the engine describes the game) the opponent wins; otherwise a bot plays on in his place."""
    return not live.game_rules.one_on_one(live.table.variant or None)


def alone_among_bots(live: Live) -> bool:
    """At most one person is seated: his leaving ends the match at his grace's end."""
    return sum(1 for s in live.seats if s.user_id is not None and not s.is_bot) <= 1


def grace_is_due_work(live: Live) -> bool:
    """Whether a leaver's grace ending is the table's own work (else his opponent claims)."""
    return bot_takes_over(live) or alone_among_bots(live)


def grace_end(live: Live, seat: Seat) -> datetime | None:
    """When an away player's grace ends (None: he is not away, or no match is on). A player with
    a socket open at his seat is never away, whatever ``away_since`` says: no claim against him,
    no bot in his place."""
    if seat.away_since is None or seat.connections > 0 or seat.is_bot or not running(live):
        return None
    return seat.away_since + timedelta(seconds=settings.GAMES_LEAVER_GRACE_SECONDS)


def abandoned(live: Live, now: datetime) -> int | None:
    """A seat whose player left and whose grace is over."""
    for seat in live.seats:
        end = grace_end(live, seat)
        if end is not None and end <= now:
            return seat.index
    return None
