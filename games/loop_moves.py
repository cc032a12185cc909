"""A player's move applied on the web process's event loop (PostgreSQL, scaled mode).

On worker threads, the service's Python competed with the event loop for the GIL: each time the
loop made a system call (every socket read and write, every wait for events) a busy service
thread could take the GIL and keep it for up to the switch interval (5 ms), and each of the
service's own database waits gave it away again. At 200 tables a move's service took 17 ms for
3 ms of CPU and every update waited about 10 ms on its way out of the receiving process
(bench/live.py, instrumented). Here the move runs on the loop itself: its database round trips
are awaited on an asynchronous psycopg connection, so the process has one busy thread and
nothing to hand the GIL to.

It is the same change as ``services.act``, made of the same parts: the same compiled selects
(``services.reads_for_update``), the same ``services.act_on``, the same row updates with the
COMMIT in their round trip (games/prepared.py), the same cache of loaded tables. Only the rare
move whose work would block (reading users this process has not seen, a finished match's
receivers) raises ``services.NeedsThread`` before anything is written, and the consumer makes
it on a worker thread instead.
"""
from __future__ import annotations

import asyncio
import logging
from typing import Callable

import psycopg
from django.conf import settings
from django.db import connections
from django.utils import timezone
from psycopg_pool import AsyncConnectionPool

from . import broadcast, prepared, services
from .models import Table

log = logging.getLogger(__name__)

_pools: dict[asyncio.AbstractEventLoop, asyncio.Task] = {}
_compiled: list | None = None


def enabled() -> bool:
    return settings.GAMES_LOOP_MOVES and connections["default"].vendor == "postgresql"


async def act(table_id: int, user, version, action: dict) -> tuple[list, list[Callable]]:
    """``services.act`` on this event loop: the committed change's messages (to send) and its
    blocking after-commit work (to run on a worker thread). Raises ServiceError (nothing
    changed) or NeedsThread (nothing changed; make the move on a worker thread)."""
    # Once the COMMIT is sent the change must reach its sockets even if this socket's task is
    # cancelled (its client went away): the change runs in a task of its own.
    return await asyncio.shield(asyncio.ensure_future(_act(table_id, user, version, action)))


async def _act(table_id: int, user, version, action: dict) -> tuple[list, list[Callable]]:
    now = timezone.now()
    queries = await _reads()
    kept = services._live.take(table_id)
    pool = await _pool()
    live = None
    async with pool.connection() as conn:
        try:
            rows = await _pipeline(conn, [(q.sql, q.with_param(table_id)) for q in queries])
            found = [q.instances(r) for q, r in zip(queries, rows)]
            live = services.assemble(table_id, found, kept, may_block=False)
            services.act_on(live, user, version, action, now)
            _connection, statements = prepared.update_statements(live.writes)
            await _pipeline(conn, statements, commit=True)
        except BaseException as exc:
            try:
                await conn.rollback()
            except psycopg.Error:
                log.exception("rolling back a refused or failed move")
            if isinstance(exc, services.ServiceError) and live is not None:
                # A refusal comes before anything is applied: what was read still holds.
                live.writes.clear()
                live.after_commit.clear()
                live.may_block = True
                services._live.put(table_id, live.table.version, live)
            raise
    live.writes.clear()
    on_loop = [hook for hook, runs_on_loop in live.after_commit if runs_on_loop]
    blocking = [hook for hook, runs_on_loop in live.after_commit if not runs_on_loop]
    live.after_commit.clear()
    live.may_block = True
    with broadcast.collecting() as sent:
        for hook in on_loop:
            hook()
    services._live.put(table_id, live.table.version, live)
    return sent, blocking


async def _pipeline(conn: psycopg.AsyncConnection, statements: list[tuple[str, list]],
                    commit: bool = False) -> list[list]:
    """The statements (and the COMMIT) in one round trip, as games/prepared.py does on threads."""
    cursors = [conn.cursor() for _ in statements]
    prepare = conn.prepare_threshold is not None
    async with conn.pipeline():
        for cursor, (sql, params) in zip(cursors, statements):
            await cursor.execute(sql, params, prepare=prepare)
        if commit:
            await conn.commit()
    if commit:
        return []
    return [await cursor.fetchall() for cursor in cursors]


async def _reads() -> list:
    """The compiled selects, compiled once on a worker thread: Django may read the server's
    version while compiling, which it refuses to do on an event loop. What it compiles is plain
    SQL and converters, used here without that thread's connection."""
    global _compiled
    if _compiled is None:
        _compiled = await asyncio.to_thread(_compile_reads)
    return _compiled


def _compile_reads() -> list:
    from django.db import transaction
    with transaction.atomic():        # Django compiles FOR UPDATE only inside a transaction
        return services.reads_for_update()


async def _pool() -> AsyncConnectionPool:
    """This loop's connections, opened by the first move (the others wait for that)."""
    loop = asyncio.get_running_loop()
    opening = _pools.get(loop)
    if opening is None:
        opening = _pools[loop] = loop.create_task(_open_pool())
    return await asyncio.shield(opening)


async def _open_pool() -> AsyncConnectionPool:
    params = connections[Table.objects.db].get_connection_params()
    params.pop("cursor_factory", None)        # Django's is a sync cursor
    pool = AsyncConnectionPool(kwargs=params, min_size=1, max_size=settings.GAMES_LOOP_DB_CONNECTIONS,
                               open=False, name="games-loop-moves")
    await pool.open(wait=True)
    return pool
