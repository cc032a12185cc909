"""The site's gauges read at scrape time, from the database and the broker (one scrape: a handful
of small queries): live tables by game, pool waiters, the analysis backlog, the Celery queues'
depth, readiness, live web processes, the last backup and the free disk under it.

Each part fails alone: a database that does not answer leaves its gauges out and says so in
``cards_ready``, and the scrape still answers within the readiness timeout.
"""
from __future__ import annotations

import logging
import shutil
from pathlib import Path

from django.conf import settings
from django.db import close_old_connections
from django.db.models import Count
from django.utils import timezone
from prometheus_client.core import GaugeMetricFamily

from games.engine.core import GAME_NAMES

from . import health

log = logging.getLogger(__name__)
QUEUES = ("celery", "analysis")


def live_tables() -> dict[str, int]:
    from games.models import Table

    live = (Table.objects.filter(status__in=[Table.Status.PLAYING, Table.Status.BETWEEN_DEALS])
            .values_list("game").annotate(n=Count("id")))
    counts = dict.fromkeys(GAME_NAMES, 0)
    counts.update(dict(live))
    return counts


def pool_waiters() -> int:
    from pool.models import PoolEntry

    return PoolEntry.objects.filter(lease_until__gt=timezone.now()).count()


def analysis_backlog() -> dict[str, int]:
    from analysis.models import Analysis

    waiting = [Analysis.Status.PENDING, Analysis.Status.RUNNING]
    counts = dict.fromkeys(waiting, 0)
    counts.update(dict(Analysis.objects.filter(status__in=waiting).values_list("status").annotate(n=Count("id"))))
    return {str(k): v for k, v in counts.items()}


def web_processes() -> int:
    from games.models import WebProcess

    return WebProcess.objects.filter(expires_at__gt=timezone.now()).count()


def queue_depths() -> dict[str, int]:
    """Messages waiting in each Celery queue (the broker's count: Redis, or this process's memory)."""
    from celery import current_app
    from kombu.exceptions import ChannelError

    out = {}
    with current_app.connection_for_read() as conn:
        channel = conn.default_channel
        for queue in QUEUES:
            try:
                out[queue] = channel.queue_declare(queue=queue, passive=True).message_count
            except ChannelError:        # never declared, or emptied and gone: nothing waits
                out[queue] = 0
    return out


def last_backup() -> tuple[float | None, int | None]:
    """(modification time of the newest file in BACKUP_DIR, free bytes on its disk), None unknown."""
    if not settings.BACKUP_DIR:
        return None, None
    folder = Path(settings.BACKUP_DIR)
    if not folder.is_dir():
        return None, None
    newest = max((p.stat().st_mtime for p in folder.iterdir() if p.is_file()), default=None)
    return newest, shutil.disk_usage(folder).free


def _database_figures() -> dict:
    close_old_connections()     # the check's thread keeps its connection, as a request would
    return {"tables": live_tables(), "waiters": pool_waiters(), "backlog": analysis_backlog(),
            "web": web_processes()}


def figures() -> dict:
    """Everything this module reads, each part None when it could not be read in time."""
    ready = health.readiness()
    db_ok = all(r.ok for r in ready if r.name.startswith("database"))
    found = health.within("scrape-database", _database_figures) if db_ok else None
    queues = health.within("scrape-queues", queue_depths)
    if queues is not None and not queues.ok:
        log.warning("ops: the Celery queues could not be read: %s", queues.detail)
    backup_at, disk_free = last_backup()
    db = found.value if found is not None and found.ok else {}
    return {"ready": ready, "tables": db.get("tables"), "waiters": db.get("waiters"),
            "backlog": db.get("backlog"), "web": db.get("web"),
            "queues": queues.value if queues.ok else None, "backup_at": backup_at, "disk_free": disk_free}


class SiteCollector:
    """prometheus-client's custom collector: the figures above as gauges."""

    def collect(self):
        f = figures()
        ready = GaugeMetricFamily("cards_ready", "Whether a readiness check passes (1) or not (0).",
                                  labels=["check"])
        for r in f["ready"]:
            ready.add_metric([r.name], 1.0 if r.ok else 0.0)
        yield ready
        if f["tables"] is not None:
            tables = GaugeMetricFamily("cards_tables_live", "Tables with a match in play, by game.",
                                       labels=["game"])
            for game, n in sorted(f["tables"].items()):
                tables.add_metric([game], n)
            yield tables
            yield GaugeMetricFamily("cards_pool_waiters", "Players waiting in the pools.", value=f["waiters"])
            backlog = GaugeMetricFamily("cards_analysis_backlog", "Post-match analyses not done yet, "
                                        "by status.", labels=["status"])
            for status, n in sorted(f["backlog"].items()):
                backlog.add_metric([status], n)
            yield backlog
            yield GaugeMetricFamily("cards_web_processes_alive", "Web processes whose heartbeat row "
                                    "has not expired.", value=f["web"])
        if f["queues"] is not None:
            queues = GaugeMetricFamily("cards_queue_depth", "Celery messages waiting, by queue.",
                                       labels=["queue"])
            for queue, n in sorted(f["queues"].items()):
                queues.add_metric([queue], n)
            yield queues
        if f["backup_at"] is not None:
            yield GaugeMetricFamily("cards_backup_last_timestamp_seconds", "When the newest file in "
                                    "BACKUP_DIR was written (epoch seconds).", value=f["backup_at"])
        if f["disk_free"] is not None:
            yield GaugeMetricFamily("cards_backup_disk_free_bytes", "Free bytes on BACKUP_DIR's disk.",
                                    value=f["disk_free"])
