"""What ``/metrics`` serves, and the same numbers read back for the staff status page.

Multiprocess mode (``PROMETHEUS_MULTIPROC_DIR`` set before prometheus-client is imported: the
systemd units and the Procfile's environment do it): every process's files in that directory,
added up; a process that ends marks its live gauges dead (``mark_dead``). Otherwise this process's
own registry, with prometheus-client's process and GC collectors. Either way the site's gauges
computed at scrape time (ops/scrape.py) are added.
"""
from __future__ import annotations

import os

from prometheus_client import REGISTRY, CollectorRegistry, generate_latest, multiprocess

from .scrape import SiteCollector


def multiprocess_dir() -> str | None:
    return os.environ.get("PROMETHEUS_MULTIPROC_DIR") or None


class _ThisProcess:
    """The default registry's collectors, borrowed for one scrape."""

    def collect(self):
        yield from REGISTRY.collect()


def scrape_registry(site: bool = True) -> CollectorRegistry:
    registry = CollectorRegistry(auto_describe=False)
    if multiprocess_dir():
        multiprocess.MultiProcessCollector(registry)
    else:
        registry.register(_ThisProcess())
    if site:
        registry.register(SiteCollector())
    return registry


def exposition() -> bytes:
    """Prometheus's text format of every metric (runs the scrape-time queries: off the event loop)."""
    return generate_latest(scrape_registry())


def readings(site: bool = True) -> dict[str, list[tuple[dict, float]]]:
    """Every sample by its name: [(labels, value)], for pages that show the numbers themselves."""
    out: dict[str, list[tuple[dict, float]]] = {}
    for family in scrape_registry(site).collect():
        for sample in family.samples:
            out.setdefault(sample.name, []).append((dict(sample.labels), sample.value))
    return out


def mark_dead(pid: int | None = None) -> None:
    """This process ends: its live gauges stop counting (its counters stay in the sums)."""
    if multiprocess_dir():
        multiprocess.mark_process_dead(pid or os.getpid())
