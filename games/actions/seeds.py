"""A player's client seed for the next deal (provably fair deals, docs/FAIRNESS.md)."""
from __future__ import annotations

from django.utils import timezone
from django.utils.translation import gettext as _

from games import fair_deals
from realtime.errors import ServiceError
from games.loading import locked, seat_of
from games.models import Table

from . import steps

Status = Table.Status


def seed(table_id: int, user, commitment, client_seed) -> None:
    """A player's client adds its seed to the next deal, named by its commitment (docs/FAIRNESS.md).
    When no awaited seat is left without one and the pause is over, the deal is drawn at once."""
    now = timezone.now()
    with locked(table_id) as live:
        me = seat_of(live, user)
        if me is None or live.seats[me].is_bot:
            raise ServiceError("spectator", _("Only a player of this match can add a seed to its deals."),
                               live.table.version)
        fair_deals.add_seed(live, me, commitment, client_seed)
        events = [{"kind": "seeded", "seat": me}]
        if live.table.status == Status.BETWEEN_DEALS and fair_deals.ready(live, now):
            steps.new_deal(live, now)
            events.append({"kind": "deal_start", "deal_number": live.deal.number})
        steps.bump(live, now)
        steps.send(live, events, now)
