"""The shared steps of every tournament format: what a step does inside the tournament's lock.

A step (tournaments/services.py calls it, a format carries it out) follows the games' pattern
(docs/ARCHITECTURE.md): lock the tournament row (``lock``), do the one thing that is due, then
``bump`` its version; the page hears of it and queued work is enqueued only once the transaction
has committed. Formats (tournaments/formats/) build on these; this module knows no format.
"""
from __future__ import annotations

from datetime import datetime

from django.db import transaction

from accounts.models import BOT_LEVELS, bot_user
from games import services as game_services
from games.engine import core
from games.models import Match

from . import scheduling
from .models import Entry, Game, Round, Tournament
from .results import BYE_RESULT, active_entries, result_of_match
from .signals import tournament_changed


def lock(tournament_id: int) -> Tournament | None:
    """The tournament row under ``select_for_update`` (SQLite: IMMEDIATE transactions)."""
    return Tournament.objects.select_for_update().filter(pk=tournament_id).first()


def bump(t: Tournament) -> None:
    """Save a change and move the version on; its page is told once the change has committed."""
    t.version += 1
    t.save()
    tid = t.pk
    transaction.on_commit(lambda: tournament_changed.send(sender=Tournament, tournament_id=tid))


def enqueue_advance_at(tid: int, when: datetime | None = None) -> None:
    """A step of the tournament at ``when`` (now: None), enqueued on commit."""
    transaction.on_commit(lambda: scheduling.enqueue_advance(tid, eta=when))


def seats_of(t: Tournament) -> int:
    return core.get_rules(t.game).seats


def bot_level(t: Tournament) -> str:
    return t.bot_level if t.bot_level in BOT_LEVELS else "basic"


def create_game(t: Tournament, rnd: Round, board: int, players: list, users: dict, *,
                private: bool = False, duplicate: dict | None = None) -> Game:
    """A started table with the entrants (None: a bot of the tournament's level) in their seats;
    ``duplicate``: the round's deal source (tournaments/formats/duplicate.py)."""
    has_bot = any(p is None for p in players)
    owner = t.created_by or bot_user(bot_level(t))
    table = game_services.create_table(
        owner, t.game, t.variant or None, rated=t.rated and not has_bot,
        bank_seconds=t.bank_seconds, increment_seconds=t.increment_seconds, private=private,
        seats=[users[p] if p is not None else bot_level(t) for p in players], start=True,
        duplicate=duplicate, tournament=True)
    return Game.objects.create(round=rnd, board=board, table=table, players=players)


def create_bye(rnd: Round, board: int, players: list) -> Game:
    """A player who sits the round out: a game without a table, already scored as a win."""
    return Game.objects.create(round=rnd, board=board, players=players, bye=True, result=dict(BYE_RESULT))


def fill_missing_results(t: Tournament, games: list[Game]) -> list[Game]:
    """Belt and braces: the finished matches whose result the receiver did not store get it now.
    Returns the games given a result (their format's ``after_result`` is the caller's to run)."""
    filled = []
    for g in games:
        if g.result is None and g.table_id is not None:
            m = Match.objects.filter(table_id=g.table_id, finished=True).first()
            if m is not None:
                g.result = result_of_match(t.game, t.variant or None, g.players, m)
                g.save(update_fields=["result"])
                filled.append(g)
    return filled


def finish(t: Tournament, now: datetime, ranks: dict[int, int], entries: list[Entry] | None = None) -> None:
    """The final ranking (entry id → rank) is published and the tournament is over."""
    for e in active_entries(t) if entries is None else entries:
        e.final_rank = ranks.get(e.pk)
        e.save(update_fields=["final_rank"])
    t.status = Tournament.Status.FINISHED
    t.finished_at = now
    t.next_round_at = None
    bump(t)
