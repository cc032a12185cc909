"""Who is at a table: one record per open table socket, and the counts that follow from them.

Each table socket has a record (``TableSocket``), named by its channel, that says where it listens:
a seat, or the spectators. Opening a socket or moving it to another seat sets its record
(``place``); closing it removes the record (``remove``). Both are idempotent, so a socket placed
twice, a close that comes before a pending move, or a close told twice cannot miscount anything.
After each, under the table's lock, the counts the move path reads (``Seat.connections``,
``Table.spectators``: games/messages.py ``listeners`` sends a change to the groups someone listens
to) are recounted from the records, never moved by +1/-1: they are never below zero and always
the number of records there.

Recounted under the table's lock: a change in progress has read them already, and a socket
counted meanwhile would get neither that change's update nor, in the snapshot it reads next, its
result (the socket joins its group before it is placed, and reads its snapshot after).

Each record names the web process holding its socket: a process that dies never removes its
records, and games/web_process/liveness.py removes them for it once its heartbeat stops.

A seat's count crossing zero is what leavers are (services.seat_presence_changed: away, back;
before the match, shown to the others at once).
"""
from __future__ import annotations

from django.db import transaction

from . import services
from .process_name import PROCESS
from .loading import select_table
from .models import Seat, Table, TableSocket

SPECTATORS = None       # the seat of a socket that watches


def place(table_id: int, channel: str, seat: int | None) -> None:
    """The socket ``channel`` listens at ``seat`` (None: with the spectators) from now on."""
    _settle(table_id, channel, seat, is_open=True)


def remove(table_id: int, channel: str) -> None:
    """The socket ``channel`` closed: it listens nowhere (nothing, if it had no record)."""
    _settle(table_id, channel, None, is_open=False)


def _settle(table_id: int, channel: str, seat: int | None, *, is_open: bool) -> None:
    changed: list[tuple[int, int, int]] = []
    with transaction.atomic():
        if not select_table(True).fetch(table_id):
            return      # the table is gone (its records with it)
        record = TableSocket.objects.filter(table_id=table_id, channel=channel).first()
        if record is None and not is_open:
            return
        if record is not None and is_open and record.seat == seat:
            return
        touched = set() if record is None else {record.seat}
        if not is_open:
            record.delete()
        elif record is None:
            TableSocket.objects.create(table_id=table_id, channel=channel, seat=seat, process=PROCESS)
            touched.add(seat)
        else:
            TableSocket.objects.filter(pk=record.pk).update(seat=seat)
            touched.add(seat)
        for where in touched:
            if where is SPECTATORS:
                _recount_spectators(table_id)
            else:
                changed.extend(_recount_seat(table_id, where))
        for index, before, after in changed:
            services.seat_presence_changed(table_id, index, before, after)


def _listening(table_id: int, seat: int | None) -> int:
    return TableSocket.objects.filter(table_id=table_id, seat=seat).count()


def _recount_spectators(table_id: int) -> None:
    Table.objects.filter(pk=table_id).update(spectators=_listening(table_id, SPECTATORS))


def _recount_seat(table_id: int, index: int) -> list[tuple[int, int, int]]:
    """Recount one seat: [(seat, count before, count after)] (empty: no such seat)."""
    before = Seat.objects.filter(table_id=table_id, index=index).values_list("connections", flat=True).first()
    if before is None:
        return []
    after = _listening(table_id, index)
    if after != before:
        Seat.objects.filter(table_id=table_id, index=index).update(connections=after)
    return [(index, before, after)]

