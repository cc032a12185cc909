"""Committed changes whose publication was lost, found and told to their tables' sockets.

A change is published right after its commit (realtime/broadcast.py). A process killed between the
two (a worker's SIGKILL, the OOM killer), or one that could not reach Redis, leaves a stored
version nobody was sent. A socket notices a lost update only when a later one arrives
(realtime/ordering.py), and none comes when the table now waits on a person whose screen still shows
someone else to act: the table would look stalled until his clock ran out.

The scaled layer records each table's highest published version in the pipeline of its PUBLISH
(realtime/layers.py). ``sweep`` (beat, every REPUBLISH_SECONDS) compares it with the stored version
of every table someone listens at that changed within the window and has been quiet since:
for each one behind, the table's group is sent a ``table.behind`` with the stored version, and
each socket shown less resyncs from a fresh snapshot (games/consumers.py). That notice is recorded
like any publication, so a lost version is told once.

The embedded mode's layer keeps no record: its one process publishes in memory, and a process
that dies takes its sockets with it.
"""
from __future__ import annotations

import logging
from datetime import timedelta

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from realtime import broadcast
from realtime.hub import BEHIND, table_group
from .models import Table

log = logging.getLogger(__name__)


def sweep() -> int:
    """Tell the sockets of every table whose stored version was not published; how many."""
    behind = tables_behind()
    for table_id, version in behind:
        log.warning("table %s: version %s was stored and never published; its sockets resync", table_id, version)
        broadcast.deliver([(table_group(table_id), {"type": BEHIND, "table": table_id, "version": version})])
    return len(behind)


def tables_behind() -> list[tuple[int, int]]:
    """(table, stored version) for the quiet, listened-to tables published below that version."""
    layer = get_channel_layer()
    published_versions = getattr(layer, "published_versions", None)
    if published_versions is None:
        return []
    stored = dict(_quiet_tables())
    if not stored:
        return []
    published = _published(layer, published_versions, list(stored))
    return [(table_id, version) for table_id, version in stored.items() if published.get(table_id, -1) < version]


def _quiet_tables() -> list[tuple[int, int]]:
    """(table, version) of the tables someone listens at, changed within the window but not in
    the last REPUBLISH_QUIET_SECONDS (a publication still on its way is not lost)."""
    now = timezone.now()
    since = now - timedelta(seconds=settings.GAMES_REPUBLISH_WINDOW_SECONDS)
    until = now - timedelta(seconds=settings.GAMES_REPUBLISH_QUIET_SECONDS)
    return list(Table.objects.filter(updated_at__gte=since, updated_at__lte=until)
                .filter(Q(spectators__gt=0) | Q(seats__connections__gt=0))
                .values_list("pk", "version").distinct()[:2000])


def _published(layer, published_versions, table_ids: list[int]) -> dict[int, int]:
    """The layer's records, read on the loop that keeps its connections (realtime/broadcast.py)."""
    loop = broadcast.home_or_process_loop()
    if loop is None:
        return async_to_sync(published_versions)(table_ids)
    return broadcast.run_on(loop, published_versions(table_ids))
