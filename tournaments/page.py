"""The tournament page's state: what the page shows, as plain data (its socket sends it; its
template renders the same), and the broadcast that tells the page's sockets of every committed
change. The part each format adds (standings, a leaderboard, a duplicate round's boards) is the
format's ``page_state`` (tournaments/formats/)."""
from __future__ import annotations

from django.utils.translation import gettext as _

from realtime.broadcast import send_on_commit
from games.labels import player_labels
from games.messages import tournament_group
from games.models import Table

from . import formats, results
from .formats.base import PageData
from .models import Game, Tournament

Status = Tournament.Status


def group_name(tournament_id: int) -> str:
    return tournament_group(tournament_id)


def cancel_reason_text(t: Tournament) -> str:
    if not t.cancel_reason:
        return ""
    try:
        return _(t.cancel_reason) % {"min": t.min_entries}
    except (KeyError, ValueError, TypeError):
        return t.cancel_reason


def playing_entries(t: Tournament) -> set[int]:
    """The entries whose match is being played now (the page marks them in its ranking)."""
    if t.status != Status.RUNNING:
        return set()
    return {p for g in Game.objects.filter(round__tournament=t, result__isnull=True, bye=False)
            for p in g.players if p is not None}


def state(t: Tournament) -> dict:
    """Everything the tournament page shows, as plain data."""
    fmt = formats.of(t)
    entries = list(t.entries.select_related("user").order_by("pk"))
    active = [e for e in entries if not e.withdrawn]
    names = {e.pk: e.user.username for e in entries}
    total = fmt.total_rounds(t, len(active))     # None: a format without rounds
    started = t.status in (Status.RUNNING, Status.FINISHED)
    table_ids = [g.table_id for g in Game.objects.filter(round__tournament=t) if g.table_id]
    table_status = dict(Table.objects.filter(pk__in=table_ids).values_list("pk", "status"))
    rounds = []
    for rnd in t.round_set.prefetch_related("games"):
        rounds.append({
            "number": rnd.number, "status": rnd.status,
            "games": [{
                "board": g.board, "table": g.table_id, "bye": g.bye,
                "players": player_labels([names.get(p) if p is not None else f"bot:{t.bot_level}"
                                          for p in g.players]),
                "points": (g.result or {}).get("points"),
                "status": "finished" if g.result is not None else table_status.get(g.table_id, "playing"),
            } for g in fmt.games_shown(list(rnd.games.all()))],
        })
    page = PageData(names=names, active=active, final={e.pk: e.final_rank for e in active},
                    playing=playing_entries(t), started=started, rounds=rounds)
    return {
        "id": t.pk, "version": t.version, "name": t.name, "game": t.game, "variant": t.variant,
        "format": t.format, "status": t.status, "cancel_reason": cancel_reason_text(t),
        "starts_at": t.starts_at.isoformat(), "current_round": t.current_round,
        "rounds_total": total if active or total is None else t.rounds,
        "next_round_at": t.next_round_at.isoformat() if t.next_round_at else None,
        "paused": t.paused_at is not None,
        "ends_at": t.ends_at.isoformat() if t.ends_at else None,
        "entries": [{"id": e.pk, "name": e.user.username, "rating": e.seed_rating if started else
                     results.current_rating(e.user, t.game, results.seeding_variant(t))}
                    for e in active],
        "rounds": rounds,
        **fmt.page_state(t, page),
    }


def broadcast(tid: int) -> None:
    """Tell the tournament's page sockets that something changed: called after a commit, it sends
    the page's state through the one sending path (realtime/broadcast.py), which reaches the layer
    from whichever thread committed (in embedded mode, often the worker's)."""
    send_on_commit(lambda: page_messages(tid))


def on_changed(sender, tournament_id: int, **kwargs) -> None:
    """``tournament_changed`` receiver (tournaments/signals.py)."""
    broadcast(tournament_id)


def page_messages(tid: int) -> list:
    t = Tournament.objects.filter(pk=tid).first()
    if t is None:
        return []
    return [(group_name(tid), {"type": "tournament.send", "state": state(t)})]
