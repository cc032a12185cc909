"""Finished matches built straight from the engine (random playouts), then announced with the same
signal games.services sends: much faster than driving every move through the live services."""
from __future__ import annotations

import random

from django.db import transaction
from django.utils import timezone

from games import signals
from games.engine.core import Match as EngineMatch, deal
from games.models import Deal, Match, Seat, Table
from games.services import final_ranks


def play_engine_match(game: str, players: list[str], rng: random.Random, max_deals: int = 200):
    """A whole match of random moves: (engine match, finished deal records)."""
    engine = EngineMatch.start(game, None, players, first_dealer=0)
    deals = []
    while not engine.is_over() and len(deals) < max_deals:
        state = engine.new_deal(rng)
        while not state.is_over():
            seat = state.seats_to_act()[0]
            state.apply_move(rng.choice(state.legal_moves(seat)), seat)
        deals.append(state.record())
        engine.finish_deal(state)
    return engine, deals


def finished_match(owner, game: str, users: list, *, rated: bool = True, private: bool = False,
                   timed_out: list[int] = (), ranks: list[int] | None = None, seed: int = 1,
                   unfinished_deal: bool = False) -> Match:
    """A finished match of ``users`` (one per seat) at a new table, announced through
    games.signals.match_finished inside a transaction, as games.services does."""
    rng = random.Random(seed)
    names = [u.display_name for u in users]
    engine, records = play_engine_match(game, names, rng)
    timed_out = list(timed_out)
    now = timezone.now()
    with transaction.atomic():
        table = Table.objects.create(game=game, variant=engine.variant, rated=rated, private=private,
                                     owner=owner, status=Table.Status.FINISHED)
        for i, u in enumerate(users):
            Seat.objects.create(table=table, index=i, user=u)
        ranks = ranks or final_ranks(engine.ranks(), timed_out)
        m = Match.objects.create(table=table, state=engine.to_dict(), finished=True, ranks=ranks,
                                 winners=[s for s, r in enumerate(ranks) if r == 1], timed_out=timed_out,
                                 ended_by="timeout" if timed_out and len(users) == 2 else "score",
                                 finished_at=now)
        for n, rec in enumerate(records):
            Deal.objects.create(match=m, number=n, record=rec, result=rec["result"], finished=True)
        if unfinished_deal:   # a deal cut short (as by a forfeit on time)
            state = deal(game, players=names, rng=rng)
            Deal.objects.create(match=m, number=len(records), record=state.record())
        signals.match_finished.send(sender=Match, match=m, table=table)
    return m
