"""Writers of finished tables: a match played outside any table stored as a finished one (the demo
puzzles' matches), and a duplicate round's tables opened once the round is over.
"""
from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from games.engine.core import Match as EngineMatch
from games.loading import locked
from games.models import Deal, Match, Seat, Table

from . import steps


def store_finished_match(game: str, engine_match: EngineMatch, records: list[dict], players: list) -> Match:
    """A finished, unrated table whose seats are ``players`` (users, one a seat; the first owns it),
    holding ``engine_match`` at its end and its deal records, as the site stores a match that
    ended. Nobody can be listening at a table made finished: there is nothing to send."""
    now = timezone.now()
    with transaction.atomic():
        table = Table.objects.create(game=game, variant=engine_match.variant, owner=players[0],
                                     status=Table.Status.FINISHED)
        for i, user in enumerate(players):
            Seat.objects.create(table=table, index=i, user=user, bank_ms=table.bank_seconds * 1000)
        stored = Match.objects.create(table=table, state=engine_match.to_dict(), finished=True,
                                      winners=engine_match.winners(), ranks=engine_match.ranks(),
                                      ended_by="score", finished_at=now)
        for number, record in enumerate(records):
            Deal.objects.create(match=stored, number=number, record=record, result=record.get("result"),
                                finished=True)
    return stored


def reveal_deals(table_id: int) -> None:
    """A finished duplicate table whose round is over at every table: its deals may be shown (the
    records carry the round's seed from then on) and spectators may watch it. A versioned change:
    the table's sockets get the update (event ``revealed``)."""
    now = timezone.now()
    with locked(table_id) as live:
        t = live.table
        if not t.duplicate or t.duplicate.get("revealed"):
            return
        t.duplicate = dict(t.duplicate, revealed=True)
        t.private = False
        live.writes.append((t, ("duplicate", "private")))
        steps.bump(live, now)
        steps.send(live, [{"kind": "revealed"}], now)
