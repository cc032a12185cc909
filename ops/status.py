"""The staff status page's numbers (``/staff/status/``): the same as ``/metrics``, read back
(ops/registry.py) for an administrator who runs no Prometheus.

Rates (moves a second, errors) and the bot lag are over the interval since the previous reading of
the page (any viewer's, kept in the cache), as a monitor would take them between two scrapes; the
first reading has none yet.
"""
from __future__ import annotations

import time

from django.core.cache import cache

from . import registry

PREVIOUS_KEY = "ops:status:previous"
PREVIOUS_SECONDS = 120          # an older reading is no base for a rate
MIN_INTERVAL = 1.0              # readings closer than this reuse the last rates


def _total(samples: dict, name: str, **match) -> float:
    return sum(v for labels, v in samples.get(name, ()) if all(labels.get(k) == m for k, m in match.items()))


def _counters(samples: dict) -> dict[str, float]:
    return {"person_moves": _total(samples, "cards_moves_total", by="person"),
            "bot_moves": _total(samples, "cards_moves_total", by="bot"),
            "errors": _total(samples, "cards_errors_total"),
            "late_sum": _total(samples, "cards_bot_late_seconds_sum"),
            "late_count": _total(samples, "cards_bot_late_seconds_count")}


def _rates(counters: dict[str, float], now: float) -> dict | None:
    previous = cache.get(PREVIOUS_KEY)
    if previous is not None and now - previous["at"] < MIN_INTERVAL:
        return previous.get("rates")
    rates = None
    if previous is not None and now - previous["at"] <= PREVIOUS_SECONDS:
        span = now - previous["at"]
        old = previous["counters"]
        late = counters["late_count"] - old["late_count"]
        rates = {"seconds": round(span, 1),
                 "person_moves": max(0.0, counters["person_moves"] - old["person_moves"]) / span,
                 "bot_moves": max(0.0, counters["bot_moves"] - old["bot_moves"]) / span,
                 "errors": max(0.0, counters["errors"] - old["errors"]),
                 "bot_lag": (counters["late_sum"] - old["late_sum"]) / late if late > 0 else None}
    cache.set(PREVIOUS_KEY, {"at": now, "counters": counters, "rates": rates}, PREVIOUS_SECONDS)
    return rates


def _processes(samples: dict, now: float) -> list[dict]:
    rows: dict[tuple, dict] = {}
    for name, field in (("cards_process_heartbeat_timestamp_seconds", "heartbeat"),
                        ("cards_process_resident_bytes", "memory"),
                        ("cards_event_loop_lag_seconds", "lag")):
        for labels, value in samples.get(name, ()):
            key = (labels.get("kind", ""), labels.get("pid", ""))
            rows.setdefault(key, {"kind": key[0], "pid": key[1]})[field] = value
    out = []
    for row in rows.values():
        if "heartbeat" in row:
            row["age"] = max(0.0, now - row.pop("heartbeat"))
        out.append(row)
    return sorted(out, key=lambda r: (r["kind"], str(r["pid"])))


def reading() -> dict:
    """Everything the page shows, JSON-ready."""
    samples = registry.readings()
    now = time.time()
    counters = _counters(samples)
    backup = samples.get("cards_backup_last_timestamp_seconds")
    disk = samples.get("cards_backup_disk_free_bytes")
    return {
        "at": now,
        "ready": {labels["check"]: bool(v) for labels, v in samples.get("cards_ready", ())},
        "processes": _processes(samples, now),
        "web_alive": int(_total(samples, "cards_web_processes_alive")) if "cards_web_processes_alive" in samples else None,
        "tables": {labels["game"]: int(v) for labels, v in samples.get("cards_tables_live", ())},
        "sockets": int(_total(samples, "cards_sockets_open")),
        "moves": {"person": int(counters["person_moves"]), "bot": int(counters["bot_moves"])},
        "rates": _rates(counters, now),
        "queues": {labels["queue"]: int(v) for labels, v in samples.get("cards_queue_depth", ())},
        "backlog": int(_total(samples, "cards_analysis_backlog")) if "cards_analysis_backlog" in samples else None,
        "waiters": int(_total(samples, "cards_pool_waiters")) if "cards_pool_waiters" in samples else None,
        "errors": int(counters["errors"]),
        "backup_at": backup[0][1] if backup else None,
        "backup_age": now - backup[0][1] if backup else None,
        "disk_free": disk[0][1] if disk else None,
    }
