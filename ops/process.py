"""Each process reports itself every ``OPS_SAMPLE_SECONDS`` from a thread of its own: its memory,
a heartbeat, and for a web process its open sockets and its event loop's lag (games/web_process/loop_watch.py).

Started by the process's entry point (config/asgi.py for web processes, config/celery.py's
signals for workers and beat), once; in a multiprocess setup its live gauges are marked dead when
it exits, so a stopped process no longer adds to the sums.
"""
from __future__ import annotations

import atexit
import logging
import os
import re
import resource
import threading
import time
from pathlib import Path

from django.conf import settings

from games.web_process import loop_watch, shutdown

from . import metrics, registry

log = logging.getLogger(__name__)
_started: set[int] = set()
_lock = threading.Lock()


def resident_bytes() -> int:
    """This process's resident memory now (Linux: /proc), else its peak."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


_LIVE_FILE = re.compile(r"^gauge_live\w*_(\d+)\.db$")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:         # another user's: alive
        return True
    return True


def sweep_dead() -> list[int]:
    """Multiprocess mode: the per-process gauges of processes of this machine that are gone (killed
    outright, so nothing marked them dead) stop counting. Their last heartbeat stays until then:
    ``CardsProcessSilent`` fires for a process frozen or killed until the next sweep. The pids swept."""
    folder = registry.multiprocess_dir()
    if not folder:
        return []
    pids = {int(m.group(1)) for p in Path(folder).iterdir() if (m := _LIVE_FILE.match(p.name))}
    dead = sorted(pid for pid in pids if not _alive(pid))
    for pid in dead:
        registry.mark_dead(pid)
    return dead


def sample(kind: str) -> None:
    """Write this process's figures once."""
    metrics.MEMORY.labels(kind).set(resident_bytes())
    metrics.HEARTBEAT.labels(kind).set(time.time())
    if kind == "web":
        metrics.SOCKETS_OPEN.set(shutdown.open_sockets())
        watch = loop_watch.LOOP_WATCH
        watching = watch.loop is not None and not watch.loop.is_closed()
        # Beyond the last beat, a loop stuck right now is as late as its silence.
        stuck = time.monotonic() - watch.beat_at - loop_watch.BEAT_SECONDS if watching else 0.0
        metrics.LOOP_LAG.labels(kind).set(max(watch.lag, stuck, 0.0))


def start(kind: str) -> None:
    """Report this process (``web``, ``worker``, ``analysis`` or ``beat``) from now on."""
    pid = os.getpid()
    with _lock:
        if pid in _started or settings.OPS_SAMPLE_SECONDS <= 0:
            return
        _started.add(pid)
    metrics.STARTS.labels(kind).inc()
    sample(kind)
    atexit.register(registry.mark_dead, pid)
    threading.Thread(target=_keep_sampling, args=(kind, pid), name="ops-sample", daemon=True).start()


def _keep_sampling(kind: str, pid: int) -> None:
    while os.getpid() == pid:
        time.sleep(settings.OPS_SAMPLE_SECONDS)
        try:
            sample(kind)
            if kind == "web":       # one kind sweeps, so the sweeps are few
                sweep_dead()
        except Exception:
            log.warning("ops: could not sample this process", exc_info=True)
