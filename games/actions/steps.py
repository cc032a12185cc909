"""The steps every writer of live games shares (docs/ARCHITECTURE.md): bump the table's version,
send each seat its view only on commit and schedule the table's next due work; start a match and
its deals; apply one action through the engine; end the match.

A writer opens ``loading.locked`` (the table row's lock), checks, changes the table through these
steps and returns: nothing is sent before the transaction commits, and a refusal changes nothing.
"""
from __future__ import annotations

from datetime import datetime, timedelta
from functools import partial

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games import clocks, fair_deals, first_moves, messages, reasons, scheduling, signals
from realtime import broadcast
from games.engine.core import IllegalAction, Match as EngineMatch
from realtime.errors import ServiceError
from games.loading import Live
from games.models import Deal, Match, Table

from . import bot_seats

Status = Table.Status


# --- after a change: versions, messages, the next task -------------------------------------------------
def bump(live: Live, now: datetime) -> None:
    """The table's next version and due time, written with the change."""
    t = live.table
    t.version += 1
    t.due_at = clocks.due_at(live, now)
    live.writes.append((t, ("version", "due_at", "status", "next_deal_at", "updated_at")))


def send(live: Live, events: list[dict], now: datetime, *, resync: bool = False,
         lobby: bool = False) -> None:
    """Queue, for after the commit, the change's messages to the table's sockets (and the lobby's
    when a table opens, fills, starts or ends), and the table's next due work."""
    broadcast.send_on_commit(lambda: messages.commit_messages(live, events, now, resync=resync))
    if lobby:
        game = live.table.game
        broadcast.send_on_commit(lambda: [messages.lobby_message(game)])
    schedule(live)


def schedule(live: Live) -> None:
    """Enqueue the table's next due work after the commit, if it is due soon. A deadline further
    off (a player's clock) is left to the sweeper, which runs every second: otherwise every move
    would leave a long-delayed task behind in the broker, and most of them would find the version
    moved on."""
    t = live.table
    if t.due_at is None or t.due_at > timezone.now() + timedelta(seconds=settings.GAMES_TASK_HORIZON_SECONDS):
        return
    table_id, version, due = t.pk, t.version, t.due_at
    if bot_seats.bot_to_search(live) is not None:
        # A searching bot thinks during its human-like pause (``advance``): its task starts now.
        due = min(due, timezone.now())
    transaction.on_commit(lambda: scheduling.schedule_advance(table_id, version, due))


def commit_change(live: Live, events: list[dict], now: datetime, *, resync: bool = False,
                  lobby: bool = False) -> None:
    """Bump the version and send ``events`` with every seat's view on commit; schedule what is due."""
    clocks.run(live, now)
    bump(live, now)
    send(live, events, now, resync=resync, lobby=lobby)


# --- a match and its deals ---------------------------------------------------------------------------
def start_match(live: Live, now: datetime, events: tuple | list = (), *, resync: bool = False) -> None:
    """Start the match; ``events``: what else the same change did (the seat taken last), sent
    with it in one update. ``resync``: seats changed hands in this change."""
    t = live.table
    players = [s.player_name for s in live.seats]
    engine = EngineMatch.start(t.game, t.variant, players,
                               dealers=t.duplicate["dealers"] if t.duplicate else None)
    live.match = Match.objects.create(table=t, state=engine.to_dict())
    live.engine = engine
    clocks.reset(live)
    # The first deal's commitment goes out with the match's start; the deal is drawn at once
    # unless a player's client seed is awaited (games/fair_deals.py), then by the due work.
    fair_deals.commit_next(live, now, first=True)
    if fair_deals.ready(live, now) and not fair_deals.held(live, now):
        new_deal(live, now)
    else:
        t.status = Status.BETWEEN_DEALS
    bump(live, now)
    send(live, [*events, {"kind": "match_start"}], now, resync=resync, lobby=True)


def new_deal(live: Live, now: datetime) -> None:
    """The next deal, dealt from the committed seeds; the clocks run again."""
    seeds = fair_deals.take(live)           # the committed seeds: the deck is derived from them
    state = live.engine.new_deal(seeds=seeds)
    live.deal = Deal.objects.create(match=live.match, number=live.engine.deal_number,
                                    record=state.record(), server_seed=seeds.server_seed.hex())
    live.state = state
    live.table.status = Status.PLAYING
    live.table.next_deal_at = None
    clocks.run(live, now)


# --- one action --------------------------------------------------------------------------------------
def refused(exc: IllegalAction, version: int) -> ServiceError:
    """The engine's refusal as the socket's error: its code and parameters, and its text in the
    player's language."""
    return ServiceError(exc.code, reasons.translate(exc), version, params=exc.params, category="illegal")


def commit_action(live: Live, seat: int, action: dict, now: datetime, extra_events=()) -> None:
    """Apply one action through the engine and commit it (IllegalAction: nothing changed); the
    deal's and the match's end when it ends them."""
    state = live.state
    state.apply(action)                       # IllegalAction leaves everything untouched
    stored = state.action_of(*state.log[-1])
    deal = live.deal
    deal.record["actions"].append(stored)
    clocks.stop(live, live.seats[seat], now)
    events = list(extra_events) + [messages.action_event(live.table.game, seat, stored)]
    lobby = False
    if state.is_over():
        result = state.result()
        deal.record["result"] = result
        deal.result = result
        deal.finished = True
        live.engine.finish_deal(state)
        live.match.state = live.engine.to_dict()
        events.append({"kind": "deal_end", "deal_number": deal.number, "result": result,
                       "scores": live.engine.scores})
        if live.engine.is_over():
            events.append(finish_match(live, now, "score"))
            lobby = True
        else:
            live.table.status = Status.BETWEEN_DEALS
            fair_deals.commit_next(live, now, first=False)     # sets next_deal_at: the pause
        live.match.save()
    live.writes.append((deal, ("record", "result", "finished")))
    clocks.run(live, now)
    bump(live, now)
    send(live, events, now, lobby=lobby)
    transaction.on_commit(partial(signals.move_committed.send, sender=Table, game=live.table.game,
                                  by="bot" if live.seats[seat].is_bot else "person"))


# --- the match's end ---------------------------------------------------------------------------------
def final_ranks(engine_ranks: list[int], timed_out: list[int]) -> list[int]:
    """The engine's ranks, except that seats that ran out of time come last (sharing it)."""
    n = len(engine_ranks)
    ok = [s for s in range(n) if s not in timed_out]
    ranks = [0] * n
    for s in ok:
        ranks[s] = 1 + sum(1 for o in ok if engine_ranks[o] < engine_ranks[s])
    for s in timed_out:
        ranks[s] = len(ok) + 1
    return ranks


def finish_match(live: Live, now: datetime, ended_by: str) -> dict:
    """End the match (ranks, history, ratings, tournaments: ``match_finished``); its event."""
    m = live.match
    if ended_by in ("timeout", "abandoned", "resigned") and first_moves.may_abort(live):
        ended_by = "aborted"        # nobody won a match not every seat played in: unrated
    out = sorted(set(m.timed_out) | set(m.resigned or []))
    if ended_by == "aborted":
        ranks = [1] * len(live.seats)
    elif ended_by in ("score", "resigned"):
        ranks = final_ranks(live.engine.ranks(), out)
    else:  # a forfeit (two players, or one alone among bots): who timed out or left loses
        ranks = [2 if s in m.timed_out else 1 for s in range(len(live.seats))]
    m.ranks = ranks
    m.winners = [] if ended_by == "aborted" else [s for s, r in enumerate(ranks) if r == 1]
    m.finished = True
    m.ended_by = ended_by
    m.finished_at = now
    m.save()
    live.table.status = Status.FINISHED
    live.table.next_deal_at = None
    fair_deals.clear(live)          # a commitment no deal will use
    signals.match_finished.send(sender=Match, match=m, table=live.table)
    return {"kind": "match_end", "winners": m.winners, "ranks": ranks, "ended_by": ended_by,
            "scores": live.engine.scores}
