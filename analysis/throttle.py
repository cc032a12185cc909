"""Analyses give way to table work in the same process (embedded mode: one web process runs both).

Every Celery task but an analysis counts as table work while it runs (task_prerun/postrun); an
analysis calls ``pause`` between batches of draws and waits while any runs, so a bot's reply never
shares the interpreter with more than one batch (games/bots/analyse.py BATCH). In scaled mode the
analysis worker is its own process (Procfile, under ``nice``) and nothing here ever waits.
"""
from __future__ import annotations

import threading

from celery.signals import task_postrun, task_prerun

from .scheduling import ANALYSE_MATCH as ANALYSIS_TASK

_busy = 0
_idle = threading.Condition()


def _started(task=None, **kwargs):
    global _busy
    if task is not None and task.name != ANALYSIS_TASK:
        with _idle:
            _busy += 1


def _finished(task=None, **kwargs):
    global _busy
    if task is not None and task.name != ANALYSIS_TASK:
        with _idle:
            _busy = max(0, _busy - 1)
            if not _busy:
                _idle.notify_all()


def busy() -> int:
    return _busy


def pause(timeout: float = 30.0) -> None:
    """Wait while table work runs in this process (at most ``timeout`` seconds at a time, so a
    stuck count cannot stop analyses for good)."""
    with _idle:
        _idle.wait_for(lambda: _busy == 0, timeout=timeout)


def connect() -> None:
    task_prerun.connect(_started, dispatch_uid="analysis.throttle.started", weak=False)
    task_postrun.connect(_finished, dispatch_uid="analysis.throttle.finished", weak=False)
