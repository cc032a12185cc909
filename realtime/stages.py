"""Where a table move waits inside a web process, hop by hop: opt-in timings for
``bench/live.py --stages``. Off, they cost nothing: the table socket's step is the plain one,
and ``timed`` replaces it only in a process started with ``STAGES_FILE`` (games/consumers.py).

py-spy shows where a process's CPU goes; these show where one move's *time* goes between the
socket's frame and its Redis publish:

* ``queued``: the frame read, until a pool thread starts the service call;
* ``thread``: the service call on that thread (lock, engine, views, commit), wall time, and
  ``cpu``, that thread's CPU time during it: the difference is waiting, for the database and for
  the GIL, which the event loop and the other pool threads hold meanwhile;
* ``back``: the call's result, until the event loop takes it up again;
* ``publish``: the commit's messages handed to the channel layer, until Redis has them.

With ``STAGES_FILE`` set, each web process appends one line per move to ``<STAGES_FILE>.<pid>``:
the epoch second the frame arrived, then the five figures in milliseconds.
"""
from __future__ import annotations

import glob
import os
import time
from contextlib import contextmanager
from typing import Awaitable, Callable, Iterator

_PATH = os.environ.get("STAGES_FILE")
ENABLED = bool(_PATH)
FLUSH_SECONDS = 0.25

_lines: list[str] = []
_flushed_at = 0.0


class Move:
    """One move's timestamps (perf_counter seconds), stamped as it passes each hop."""

    __slots__ = ("arrived_epoch", "received", "entered", "left", "cpu", "resumed")

    def __init__(self) -> None:
        self.arrived_epoch = time.time()
        self.received = time.perf_counter()
        self.entered = self.left = self.resumed = self.received
        self.cpu = 0.0

    @contextmanager
    def in_thread(self) -> Iterator[None]:
        self.entered = time.perf_counter()
        cpu = time.thread_time()
        try:
            yield
        finally:
            self.cpu = time.thread_time() - cpu
            self.left = time.perf_counter()

    def back_on_loop(self) -> None:
        self.resumed = time.perf_counter()


def record(move: Move) -> None:
    """The move's line, once its messages are published (called on the event loop)."""
    global _flushed_at
    published = time.perf_counter()
    ms = [move.entered - move.received, move.left - move.entered, move.cpu,
          move.resumed - move.left, published - move.resumed]
    _lines.append(f"{move.arrived_epoch:.4f} " + " ".join(f"{1000 * v:.3f}" for v in ms) + "\n")
    if published - _flushed_at >= FLUSH_SECONDS:
        _flushed_at = published
        with open(f"{_PATH}.{os.getpid()}", "a") as fh:
            fh.writelines(_lines)
        _lines.clear()


def timed(apply: Callable, in_thread: Callable, publish: Callable[..., Awaitable[None]]):
    """A table socket's step (``TableConsumer.apply_and_publish``) with each hop timed: ``apply``
    (socket, data) -> (messages, error) run on a pool thread through ``in_thread``, then the
    messages handed to ``publish`` (layer, messages); the move's line recorded once they are out."""
    def apply_timed(socket, data, move: Move):
        with move.in_thread():
            return apply(socket, data)

    apply_in_thread = in_thread(apply_timed)

    async def step(socket, data):
        move = Move()
        sent, error = await apply_in_thread(socket, data, move)
        move.back_on_loop()
        await publish(socket.channel_layer, sent)
        record(move)
        return sent, error

    return step


STAGES = ("queued", "thread", "cpu", "back", "publish")


def read(path_prefix: str, start_epoch: float, end_epoch: float) -> dict[str, list[float]]:
    """Every process's figures (ms) for moves that arrived within the window, by stage."""
    out: dict[str, list[float]] = {name: [] for name in STAGES}
    for path in glob.glob(f"{path_prefix}.*"):
        with open(path) as fh:
            for line in fh:
                arrived, *figures = line.split()
                if start_epoch <= float(arrived) < end_epoch:
                    for name, value in zip(STAGES, figures):
                        out[name].append(float(value))
    return out
