"""Provably fair deals at a table (docs/FAIRNESS.md): the server commits to the next deal's seed
before any client seed for it is accepted, the players' clients add theirs, and the deal is drawn
from all of them (games/engine/fair.py).

The order that makes it sound: a deal's commitment is made when the match starts (for its first
deal) and when a deal ends (for the next), and is sent to everyone at once; a client seed is
accepted only for the pending commitment it names, so a client chooses it after seeing the
commitment, and the server cannot choose its seed after seeing the clients'. The draw waits, up
to GAMES_FAIR_SEED_WAIT_MS after the commitment, for the seeds of the human seats it awaits
(``awaiting``): those with a socket open then, and at a match's first deal every human seat (the
players of a table that starts at its creation, "Play now", are still opening the page). A seat
without a seed at the draw adds none (null).

A duplicate tournament's table (``Table.duplicate``) takes no client seeds: every board of its
round is derived from the round's one seed, committed on the tournament page before the round's
first deal (tournaments/formats/duplicate.py), so there is nothing to commit or wait for per deal;
its deals stay hidden (``round_secret``) until the round is over at every table.

Called by games/services.py under the table's lock; the Table row's ``fair_pending`` holds the
pending commitment with its SECRET server seed, which never leaves the server before the deal
may be shown (``public`` builds what clients see; archive.visibility.public_record reveals).
"""
from __future__ import annotations

import hashlib
from datetime import datetime, timedelta, timezone as dt_timezone

from django.conf import settings
from django.db import connection
from django.utils.translation import gettext as _

from games.engine import fair

from realtime.errors import ServiceError
from .loading import Live
from .models import Deal, Seat

HOLD_RECHECK = timedelta(seconds=1)

PENDING_FIELDS = ("fair_pending",)


def _human(seat: Seat) -> bool:
    return seat.user_id is not None and not seat.is_bot


def _ms(when: datetime) -> int:
    return int(when.timestamp() * 1000)


def commit_next(live: Live, now: datetime, *, first: bool) -> None:
    """Commit to the seed of the match's next deal and set when it is drawn at the latest
    (``Table.next_deal_at``): after the pause between deals, and, while a seat it awaits has not
    seeded, not before the seed window is over."""
    t = live.table
    pause_until = now if first else now + timedelta(milliseconds=settings.GAMES_DEAL_PAUSE_MS)
    if t.duplicate:         # the round's seed is committed already: only the pause between deals
        t.next_deal_at = pause_until
        return
    seed = fair.new_server_seed()
    wait = settings.GAMES_FAIR_SEED_WAIT_MS
    awaiting = [s.index for s in live.seats if _human(s) and (first or s.connections > 0)] if wait > 0 else []
    t.fair_pending = {
        "deal_number": live.engine.deal_number, "seed": seed.hex(), "commitment": fair.commitment(seed),
        "client_seeds": [None] * len(live.seats), "awaiting": awaiting, "pause_until": _ms(pause_until),
    }
    t.next_deal_at = max(pause_until, now + timedelta(milliseconds=wait)) if awaiting else pause_until
    live.writes.append((t, PENDING_FIELDS))


def ready(live: Live, now: datetime) -> bool:
    """Whether the pending deal may be drawn now: its pause is over and every seat it awaits
    has seeded (else it waits for ``Table.next_deal_at``)."""
    pending = live.table.fair_pending
    if not pending:
        return True
    seeds = pending["client_seeds"]
    return pending["pause_until"] <= _ms(now) and all(seeds[s] is not None for s in pending["awaiting"])


def add_seed(live: Live, seat: int, commitment, client_seed) -> None:
    """Take ``seat``'s client seed for the pending commitment it names; refusals say why."""
    t = live.table
    pending = t.fair_pending
    if not fair.is_client_seed(client_seed):
        raise ServiceError("bad_seed", _("A client seed is 32 to 128 lowercase hexadecimal digits."), t.version,
                           category="bad_request")
    if not pending or commitment != pending["commitment"]:
        raise ServiceError("seed_too_late", _("That deal has already been drawn: your seed was not used."),
                           t.version, category="bad_request")
    if pending["client_seeds"][seat] is not None:
        raise ServiceError("already_seeded", _("Your seat has already added its seed to this deal."), t.version,
                           category="bad_request")
    seeds = list(pending["client_seeds"])
    seeds[seat] = client_seed
    t.fair_pending = dict(pending, client_seeds=seeds)
    if all(seeds[s] is not None for s in pending["awaiting"]):
        # Nobody left to wait for: the deal is drawn when its pause is over.
        t.next_deal_at = datetime.fromtimestamp(pending["pause_until"] / 1000, tz=dt_timezone.utc)
    live.writes.append((t, PENDING_FIELDS))


def take(live: Live) -> fair.DealSeeds:
    """The seeds the next deal is drawn from, taking the pending commitment off the table (a
    table without one, such as a match started before this existed, gets a fresh seed: its
    commitment is then only sent with the deal)."""
    t = live.table
    if t.duplicate:         # the deal's board of the round: the round's seed, no client seeds
        return fair.DealSeeds(bytes.fromhex(t.duplicate["seed"]), (None,) * len(live.seats),
                              t.duplicate["label"], board_order(t.duplicate)[live.engine.deal_number])
    pending = t.fair_pending
    label = fair.match_label(live.match.pk)
    if pending and pending["deal_number"] == live.engine.deal_number:
        seeds = fair.DealSeeds(bytes.fromhex(pending["seed"]), tuple(pending["client_seeds"]), label)
    else:
        seeds = fair.DealSeeds(fair.new_server_seed(), (None,) * len(live.seats), label)
    clear(live)
    return seeds


def round_secret(table) -> bool:
    """Whether a duplicate table's deals must stay hidden: other tables of its round may still
    have to play the same boards, so even a finished match shows them only once the round is over."""
    return bool(table.duplicate) and not table.duplicate.get("revealed")


def duplicate_source(label: str, seed: bytes, dealers: list[int], boards: list[int] | None = None) -> dict:
    """``Table.duplicate`` for a table of a duplicate round: ``dealers`` per deal of the match, and
    ``boards``, the round's board each deal plays (by default the boards in order)."""
    boards = list(range(len(dealers))) if boards is None else list(boards)
    return {"label": label, "seed": seed.hex(), "dealers": list(dealers), "boards": boards, "revealed": False}


def board_order(source: dict) -> list[int]:
    """The board each deal of a duplicate table plays (tables made before the order: in order)."""
    return list(source.get("boards") or range(len(source.get("dealers") or [])))


def held(live: Live, now: datetime) -> bool:
    """Whether a duplicate table's next deal must wait: its board is being played at another
    table of the round (nobody may hold the same cards at two tables at once). Then it looks again
    after HOLD_RECHECK (``next_deal_at``); the other table's deal ends within its clocks."""
    t = live.table
    if not t.duplicate or live.engine is None or live.engine.is_over():
        return False
    board = board_order(t.duplicate)[live.engine.deal_number]
    _lock_round(t.duplicate["label"])
    playing = (Deal.objects.filter(finished=False, match__finished=False,
                                   match__table__duplicate__label=t.duplicate["label"])
               .exclude(match__table_id=t.pk).values_list("number", "match__table__duplicate"))
    if not any(board_order(source)[number] == board for number, source in playing):
        return False
    t.next_deal_at = now + HOLD_RECHECK
    live.writes.append((t, ("next_deal_at",)))
    return True


def _lock_round(label: str) -> None:
    """Serialise the round's tables' deal starts until the caller's commit (PostgreSQL: an advisory
    lock named by the round; SQLite: its write transactions are serialised already), so two
    tables cannot both see a board free and deal it."""
    if connection.vendor != "postgresql":
        return
    key = int.from_bytes(hashlib.sha256(label.encode()).digest()[:8], "big", signed=True)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", [key])


def clear(live: Live) -> None:
    if live.table.fair_pending is not None:
        live.table.fair_pending = None
        live.writes.append((live.table, PENDING_FIELDS))


def public(live: Live) -> dict:
    """What every seat and spectator is shown: the current deal's ``fair`` object as its record
    has it (commitment, client seeds; never the server seed), and the next deal's commitment with
    the seats that have seeded it."""
    deal = live.deal
    current = None
    if deal is not None and isinstance(deal.record.get("fair"), dict):
        current = {k: v for k, v in deal.record["fair"].items() if k != "server_seed"}
        current["deal_number"] = deal.number
    pending = live.table.fair_pending
    upcoming = None
    if pending:
        upcoming = {"deal_number": pending["deal_number"], "commitment": pending["commitment"],
                    "seeded": [s for s, v in enumerate(pending["client_seeds"]) if v is not None],
                    "awaiting": list(pending["awaiting"])}
    return {"deal": current, "next": upcoming}
