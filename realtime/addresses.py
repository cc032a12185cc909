"""Where a committed change's messages go: a table's sockets at one seat, addressed directly.

A message for the sockets of a seat (or of a table's spectators) is addressed ``ToSeat(table,
seat)``; realtime/hub.py folds a commit's such messages into one layer message per table, each
payload under its seat, without reading any name back. Every other message (the lobby, a
tournament page, a user's sockets) goes to a channel-layer group named by a string.
"""
from __future__ import annotations

from typing import NamedTuple, Union


class ToSeat(NamedTuple):
    """The sockets of ``table`` listening at ``seat`` (None: its spectators)."""
    table: int
    seat: int | None


Address = Union[ToSeat, str]        # a table seat, or a group's name
Message = tuple[Address, dict]      # (address, payload): what a writer's commit sends


def everyone(table_id: int, seats: int) -> list[ToSeat]:
    """Every seat of a table and its spectators: for what everyone there may see (chat)."""
    return [ToSeat(table_id, s) for s in range(seats)] + [ToSeat(table_id, None)]
