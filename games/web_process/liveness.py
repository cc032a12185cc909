"""Which web processes are alive, so that a dead one's sockets stop counting (presence that heals).

Every table socket's record (``TableSocket``, games/presence.py) names the web process that holds it
(``PROCESS``). Each web process keeps a heartbeat row (``WebProcess``) whose ``expires_at`` it pushes
``PROCESS_EXPIRY_SECONDS`` ahead every ``PROCESS_HEARTBEAT_SECONDS``, from its event loop (a frozen
loop stops beating too). Beat's ``sweep_sockets`` (games/tasks.py, every ``PRESENCE_SWEEP_SECONDS``)
removes the records of processes whose row has expired (or that never beat at all), through
``presence.remove``, so their players turn away and the leaver rules apply as if they had closed.

After a kill -9, a player is away within expiry + one beat + one sweep: 15 + 5 + 5 = 25 s by
default, plus the sweep's own run.

A process that was frozen longer than its expiry may have been swept meanwhile: when its loop beats
again and finds its row expired and its records gone, it closes its sockets with the "reconnect"
code (shutdown.py here), so their clients come back and are counted again. (Silent because the
database was down, it was swept by nobody: nothing happens.) The embedded mode runs one web process: on start-up it forgets every
other process's records at once (``forget_others``): the previous run's.
"""
from __future__ import annotations

import asyncio
import logging
import time
from datetime import timedelta

from django.conf import settings
from django.db import close_old_connections
from django.utils import timezone

from games.models import TableSocket, WebProcess
from games.process_name import PROCESS

log = logging.getLogger(__name__)



def beat(seconds: float | None = None) -> bool:
    """This process is alive for ``seconds`` more (PROCESS_EXPIRY_SECONDS). Whether it was still
    alive before (False: its row had expired or was gone: it may have been swept)."""
    if seconds is None:
        seconds = settings.GAMES_PROCESS_EXPIRY_SECONDS
    now = timezone.now()
    expires = now + timedelta(seconds=seconds)
    if WebProcess.objects.filter(pk=PROCESS, expires_at__gt=now).update(expires_at=expires):
        return True
    WebProcess.objects.update_or_create(pk=PROCESS, defaults={"expires_at": expires})
    return False


def swept() -> bool:
    """Whether this process holds no socket record any more (the sweep took them)."""
    return not TableSocket.objects.filter(process=PROCESS).exists()


def dead_sockets(now=None) -> list[tuple[int, str]]:
    """(table, channel) of every socket record whose process is dead: its heartbeat expired, or it
    never beat and the record is older than an expiry (a process killed before its first beat)."""
    now = now or timezone.now()
    rows = dict(WebProcess.objects.values_list("name", "expires_at"))
    alive = [name for name, expires in rows.items() if expires > now]
    expired = {name for name, expires in rows.items() if expires <= now}
    old = now - timedelta(seconds=settings.GAMES_PROCESS_EXPIRY_SECONDS)
    out = []
    for table_id, channel, process, opened in (TableSocket.objects.exclude(process__in=alive)
                                               .values_list("table_id", "channel", "process", "opened_at")):
        if process in expired or opened < old:
            out.append((table_id, channel))
    return out


def sweep() -> int:
    """Remove the records of dead processes' sockets (their seats recounted, their players away),
    then the heartbeat rows of dead processes that hold none any more. The number removed."""
    from games import presence      # noqa: PLC0415  (presence imports services, which import much)

    dead = dead_sockets()
    for table_id, channel in dead:
        presence.remove(table_id, channel)
    if dead:
        log.info("presence: removed %d sockets of web processes that stopped beating", len(dead))
    holding = TableSocket.objects.values_list("process", flat=True).distinct()
    WebProcess.objects.filter(expires_at__lte=timezone.now()).exclude(name__in=holding).delete()
    return len(dead)


def forget_others() -> int:
    """Embedded mode, on start-up: this is the only web process, so every record of another (the
    previous run's) is dead now. The number removed."""
    from games import presence      # noqa: PLC0415

    gone = list(TableSocket.objects.exclude(process=PROCESS).values_list("table_id", "channel"))
    for table_id, channel in gone:
        presence.remove(table_id, channel)
    WebProcess.objects.exclude(name=PROCESS).delete()
    return len(gone)


def going_away(grace: float) -> None:
    """This process stops: its records stay ``grace`` seconds (for its clients to reconnect
    elsewhere), then the sweep removes them."""
    beat(grace)


class Heart:
    """This process's beating task, on the server's loop (started with its first socket)."""

    def __init__(self):
        self.when_swept = None      # async callable: what the socket side does if this process was swept
        self.task: asyncio.Task | None = None
        self.stopped = False
        self.last: float | None = None      # monotonic time of the last beat that was written

    def keep_beating(self, when_swept) -> None:
        """``when_swept``: awaited if this process finds it was taken for dead and its records swept."""
        self.when_swept = when_swept
        loop = asyncio.get_running_loop()
        if self.stopped:
            return
        if self.task is None or self.task.done() or self.task.get_loop() is not loop:
            self.task = loop.create_task(self._beat_forever())

    def stop(self) -> None:
        self.stopped = True
        if self.task is not None and not self.task.done() and self.task.get_loop() is asyncio.get_running_loop():
            self.task.cancel()

    async def _beat_forever(self) -> None:
        while not self.stopped:
            try:
                was_alive, records_gone = await asyncio.to_thread(_beat_in_thread)
            except Exception:
                log.warning("presence: this process's heartbeat failed", exc_info=True)
            else:
                if self.last is not None and not was_alive and records_gone:
                    # Taken for dead while silent (a frozen loop) and swept: its sockets reconnect
                    # and are counted again. Silent without being swept (the database was down
                    # too): nothing to do.
                    await self.when_swept()
                self.last = time.monotonic()
            await asyncio.sleep(settings.GAMES_PROCESS_HEARTBEAT_SECONDS)


def _beat_in_thread() -> tuple[bool, bool]:
    close_old_connections()
    was_alive = beat()
    return was_alive, (not was_alive and swept())


HEART = Heart()
