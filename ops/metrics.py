"""The site's Prometheus metrics, and the receivers that count them from games' signals.

prometheus-client keeps every value in this process; with ``PROMETHEUS_MULTIPROC_DIR`` set (scaled
mode: several web processes and Celery workers) each process writes its values to files there and
``/metrics`` adds them up (ops/registry.py), so one scrape sees the whole site. A gauge says how
processes combine: a sum (sockets), the most recent value (event-loop lag per process), or every
process on its own (memory, labelled by pid).
"""
from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram

MOVES = Counter("cards_moves", "Moves committed, by game and by who moved (person or bot).", ["game", "by"])
MOVE_SECONDS = Histogram(
    "cards_move_seconds", "A person's move over a table socket: from the frame's receipt until its "
    "commit's messages were handed on.",
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0))
BOT_THINK_SECONDS = Histogram(
    "cards_bot_think_seconds", "A searching bot's thinking time, by level.", ["level"],
    buckets=(0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0))
BOT_LATE_SECONDS = Histogram(
    "cards_bot_late_seconds", "How late a searching bot's search started after its move was due "
    "(bot lag), by level.", ["level"], buckets=(0.0, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0))
REFUSALS = Counter("cards_refusals", "Requests refused over a table socket, by code.", ["code"])
ERRORS = Counter("cards_errors", "Log records at ERROR or above, by logger.", ["logger"])
SOCKETS_OPEN = Gauge("cards_sockets_open", "Websockets open (all kinds), summed over web processes.",
                     multiprocess_mode="livesum")
LOOP_LAG = Gauge("cards_event_loop_lag_seconds", "How late a web process's event loop last came round.",
                 ["kind"], multiprocess_mode="liveall")
MEMORY = Gauge("cards_process_resident_bytes", "A process's resident memory.", ["kind"],
               multiprocess_mode="liveall")
STARTS = Counter("cards_process_starts", "Processes started, by kind (a restart loop shows here).", ["kind"])
HEARTBEAT = Gauge("cards_process_heartbeat_timestamp_seconds",
                  "When a process last reported itself (epoch seconds): a process killed outright "
                  "stops moving it.", ["kind"], multiprocess_mode="liveall")


_moves_by: dict[tuple[str, str], Counter] = {}     # labels() looked up once per (game, by): a move's path


def count_move(sender, game: str, by: str, **kwargs) -> None:
    counter = _moves_by.get((game, by))
    if counter is None:
        counter = _moves_by[(game, by)] = MOVES.labels(game, by)
    counter.inc()


def time_move(sender, seconds: float, **kwargs) -> None:
    MOVE_SECONDS.observe(seconds)


def count_refusal(sender, code: str, **kwargs) -> None:
    REFUSALS.labels(code).inc()


def time_bot(sender, level: str, seconds: float, late: float, **kwargs) -> None:
    BOT_THINK_SECONDS.labels(level).observe(seconds)
    BOT_LATE_SECONDS.labels(level).observe(late)


def connect() -> None:
    """Count what games signals (ops/apps.py, once per process)."""
    from games import signals

    signals.move_committed.connect(count_move, dispatch_uid="ops.moves")
    signals.move_answered.connect(time_move, dispatch_uid="ops.move_seconds")
    signals.refused.connect(count_refusal, dispatch_uid="ops.refusals")
    signals.bot_thought.connect(time_bot, dispatch_uid="ops.bot_think")
