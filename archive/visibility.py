"""Who may see a finished match and its cards: the match page, replays, downloads and the analysis
all ask here before anything of a match leaves the server."""
from __future__ import annotations

from games import fair_deals
from games.models import Deal, Match, Seat


def can_see_match(match: Match, user) -> bool:
    """Public tables' matches are public; a private table's only to those who sat or own it."""
    table = match.table
    if not table.private:
        return True
    if user is None or not user.is_authenticated:
        return False
    return (user.is_staff or table.owner_id == user.pk
            or Seat.objects.filter(table_id=table.pk, user=user).exists())


def deal_is_public(match: Match, deal: Deal) -> bool:
    """A deal's cards are revealed (replay, download) only when the deal is finished AND its match
    is over: nobody at a table can use them any more. A deal cut short (a forfeit on time) is never
    revealed. A duplicate tournament's deal waits for the end of its round, when no table can
    still be playing the same cards (games.fair_deals.round_secret)."""
    return bool(match.finished and deal.finished) and not fair_deals.round_secret(match.table)


def public_record(match: Match, deal: Deal) -> dict:
    """A deal's record as anyone may download it: once the deal may be revealed, its ``fair``
    object carries the server seed it was drawn from (docs/FAIRNESS.md); before, no seed."""
    record = dict(deal.record)
    fair = record.get("fair")
    if isinstance(fair, dict):
        fair = {k: v for k, v in fair.items() if k != "server_seed"}
        if deal.server_seed and deal_is_public(match, deal):
            fair["server_seed"] = deal.server_seed
        record["fair"] = fair
    return record
