"""Logs a machine can read, and the errors they count.

``LOG_FORMAT=json`` (config/settings.py) writes one JSON object a line (python-json-logger): the
time, level, logger, message, the process's name (host, pid) and, where known, the table, the user
and the request id (games/log_context.py; set by ops/context.py and games/loading.py). The default
stays the human-readable line, with the same context appended when there is any.
Every record at ERROR or above is counted in ``cards_errors_total`` (``ErrorCounter``).
"""
from __future__ import annotations

import logging

from pythonjsonlogger.core import RESERVED_ATTRS
from pythonjsonlogger.json import JsonFormatter

from games import log_context
from games.process_name import PROCESS

from . import metrics

JSON_FIELDS = "{asctime}{levelname}{name}{message}"


class ContextFilter(logging.Filter):
    """Adds ``table_id``, ``user_id``, ``request_id`` and ``process_name`` to every record."""

    def filter(self, record: logging.LogRecord) -> bool:
        for key, value in log_context.current().items():
            if not hasattr(record, key):
                setattr(record, key, value)
        record.process_name = PROCESS
        about = " ".join(f"{k.removesuffix('_id')}={v}" for k, v in log_context.current().items()
                         if v is not None)
        record.context = f" [{about}]" if about else ""
        return True


def json_formatter() -> JsonFormatter:
    """For LOGGING's ``()`` factory: the JSON lines, with the context's fields and without Nones."""
    return JsonFormatter(
        JSON_FIELDS, style="{", rename_fields={"asctime": "time", "levelname": "level", "name": "logger"},
        reserved_attrs=[*RESERVED_ATTRS, "context", "color_message"], json_ensure_ascii=False)


class ErrorCounter(logging.Handler):
    """Counts records at ERROR and above by logger; writes nothing."""

    def __init__(self, level=logging.ERROR):
        super().__init__(level)

    def emit(self, record: logging.LogRecord) -> None:
        metrics.ERRORS.labels(record.name).inc()


def logging_config(fmt: str, level: str) -> dict:
    """The site's LOGGING (config/settings.py): ``fmt`` ``text`` or ``json`` on the console."""
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"context": {"()": "ops.logs.ContextFilter"}},
        "formatters": {"text": {"format": "%(message)s%(context)s"}, "json": {"()": "ops.logs.json_formatter"}},
        "handlers": {"console": {"class": "logging.StreamHandler", "formatter": fmt, "filters": ["context"]},
                     "errors": {"class": "ops.logs.ErrorCounter"}},
        "root": {"handlers": ["console", "errors"], "level": level},
        "loggers": {"celery": {"level": "WARNING"}, "axes": {"level": "WARNING"}},
    }
