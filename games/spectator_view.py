"""The spectators' part of a table's snapshot, built once per table version in each process.

Every spectator of a table gets the same public view of a version (``messages.message(live,
None)``): built once, kept while the version is current, and handed to each spectator's snapshot
as a copy with the time-bound fields brought to the moment it is sent: ``now`` (clients take their
clock offset from it) and the running clocks' ``banks_ms`` (what is left until their absolute
deadlines). A seat's view is never kept here: it is built for that seat alone, every time. What
differs per person (their name, the chat without the lines they muted, the invite) is added by
``messages.snapshot`` after this part, which also puts in the seats as read with the table (a
player's sockets open and close without a new version).
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from typing import TYPE_CHECKING

from django.utils import timezone, translation

if TYPE_CHECKING:
    from .loading import Live

KEPT = 512          # table versions kept (the latest of each watched table, in practice)

_kept: OrderedDict[tuple, dict] = OrderedDict()
_lock = threading.Lock()


def message(live: "Live", build) -> dict:
    """The public snapshot of ``live``'s version: ``build(live, None)`` once per version and
    language, then a fresh copy of it for each spectator."""
    key = (live.table.pk, live.table.version, translation.get_language())
    with _lock:
        found = _kept.get(key)
        if found is not None:
            _kept.move_to_end(key)
    if found is None:
        found = build(live, None)
        with _lock:
            for old in [k for k in _kept if k[0] == key[0] and k[1] < key[1]]:
                del _kept[old]          # an older version of the table is never sent again
            _kept[key] = found
            while len(_kept) > KEPT:
                _kept.popitem(last=False)
    return _now(found)


def _now(kept: dict) -> dict:
    """A copy of ``kept`` as it would be built now: the top level, the table and its clocks are
    copied (callers add their own fields there); the rest is shared and never changed."""
    now_ms = int(timezone.now().timestamp() * 1000)
    out = dict(kept, now=now_ms)
    table = out["table"] = dict(kept["table"])
    clocks = table.get("clocks")
    if clocks is not None:
        table["clocks"] = dict(clocks, banks_ms=[
            max(0, deadline - now_ms) if deadline else bank
            for bank, deadline in zip(clocks["banks_ms"], clocks["deadlines"])])
    return out


def forget(table_id: int | None = None) -> None:
    """Drop the kept views (of one table, or all): loading.forget's part."""
    with _lock:
        for key in [k for k in _kept if table_id is None or k[0] == table_id]:
            del _kept[key]
