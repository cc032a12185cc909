"""Who a user has muted: what the table sockets and snapshots read (no writes here; the writer is
moderation/services.py), and the group his table sockets listen on for a change of it."""
from __future__ import annotations

from .models import Mute


def user_group(user_id: int) -> str:
    """All the table sockets of one user, on every process: told when his mutes change."""
    return f"user.{user_id}"


def muted(user_id: int | None) -> tuple[frozenset[int], list[str]]:
    """The ids and the names of the players ``user_id`` has muted (none for an anonymous visitor)."""
    if user_id is None:
        return frozenset(), []
    rows = list(Mute.objects.filter(muter_id=user_id).order_by("muted__username")
                .values_list("muted_id", "muted__username"))
    return frozenset(pk for pk, _name in rows), [name for _pk, name in rows]


def muted_ids(user_id: int | None) -> frozenset[int]:
    return muted(user_id)[0]
