"""The table where a player has a match in progress (he sits there, no bot took his seat): every
page links to it ("Your game in progress"), and "Play now" takes him back to it rather than open
a second table (docs/PROTOCOL.md, "Resign, abort, claim")."""
from __future__ import annotations

from django.urls import reverse

from .models import Seat, Table

IN_PROGRESS = (Table.Status.PLAYING, Table.Status.BETWEEN_DEALS)


def table_in_progress(user) -> int | None:
    """The newest table where ``user`` plays a match that has not ended, if any."""
    if user is None or not user.is_authenticated:
        return None
    return (Seat.objects.filter(user=user, replaced_by_bot="", table__status__in=IN_PROGRESS)
            .order_by("-table_id").values_list("table_id", flat=True).first())


def link(user) -> str | None:
    table_id = table_in_progress(user)
    return None if table_id is None else reverse("table", args=[table_id])
