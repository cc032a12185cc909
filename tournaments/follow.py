"""What a tournament's player needs on whatever page he has open, his finished table's included:
the table of his match being played now (his page goes there: static/js/table/tournament_follow.js
and static/js/tournament.js), and where his format pauses players, whether he is paused and why,
with the way back. Read again on every change the tournament socket announces."""
from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext as _

from . import formats
from .models import Entry, Game, Round, Tournament

RECENT_GAMES = 200      # how far back his last finished match is looked for


def entry_of(t: Tournament, user) -> Entry | None:
    if user is None or not user.is_authenticated:
        return None
    return Entry.objects.filter(tournament=t, user=user, withdrawn=False).first()


def current_table(t: Tournament, entry: Entry | None) -> int | None:
    """The table of the entrant's match now being played, if any."""
    if entry is None or t.status != Tournament.Status.RUNNING:
        return None
    running = Game.objects.filter(round__tournament=t, round__status=Round.Status.PLAYING, result__isnull=True,
                                  table__isnull=False).values_list("table_id", "players")
    return next((table for table, players in running if entry.pk in players), None)


def missed_last_match(t: Tournament, entry: Entry) -> bool:
    """Whether the entrant's last finished match was lost on time or by leaving (what pauses an
    arena player without his asking)."""
    games = (Game.objects.filter(round__tournament=t, result__isnull=False).order_by("-pk")
             .values_list("players", "result")[:RECENT_GAMES])
    for players, result in games:
        if entry.pk in players:
            return players.index(entry.pk) in set((result or {}).get("timed_out") or [])
    return False


def paused_why(t: Tournament, entry: Entry) -> str:
    """Why a paused entrant gets no new match, in his words."""
    if missed_last_match(t, entry):
        return _("You are paused: your clock ran out or you left your last match, so you get no new "
                 "match until you come back.")
    return _("You are paused: you get no new match.")


def for_player(t: Tournament, user) -> dict:
    """The page's answer: ``table`` and ``url`` of his running match (null: none), ``paused`` with
    ``why`` and ``come_back`` (the one button's address, a POST), the tournament's ``status``."""
    entry = entry_of(t, user)
    table = current_table(t, entry)
    paused = bool(entry and entry.paused and t.status == Tournament.Status.RUNNING
                  and formats.of(t).players_pause_themselves)
    return {
        "status": t.status, "entrant": entry is not None,
        "table": table, "url": reverse("table", args=[table]) if table else None,
        "paused": paused, "why": paused_why(t, entry) if paused else None,
        "come_back": reverse("tournament_control", args=[t.pk, "come-back"]) if paused else None,
        "tournament_url": reverse("tournament", args=[t.pk]),
    }
