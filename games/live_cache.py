"""The loaded match of each busy table, kept between its moves in this process.

Rebuilding a table's engine state from its stored deal record took three queries and a replay
of the deal on every move. The database stays the only truth: an entry is used whole only when
the table row, read under its lock, still has the version the entry was stored at (every
committed change bumps it, in whichever process); otherwise its deal state is only a start,
brought up to date from the stored deal record (games/services.py). It is stored only after its
transaction committed.
An entry is taken out while a transaction works on it, so no two threads ever share one; a
transaction that rolls back simply does not put it back.
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Generic, TypeVar

T = TypeVar("T")


class LiveCache(Generic[T]):
    def __init__(self, size: int = 5000):
        self.size = size
        self._items: OrderedDict[int, tuple[int, T]] = OrderedDict()
        self._lock = threading.Lock()

    def take(self, table_id: int) -> T | None:
        """The table's entry, removed from the cache (the caller checks its version)."""
        with self._lock:
            item = self._items.pop(table_id, None)
        return None if item is None else item[1]

    def put(self, table_id: int, version: int, value: T) -> None:
        with self._lock:
            held = self._items.get(table_id)
            if held is not None and held[0] > version:
                return      # a later commit got here first
            self._items[table_id] = (version, value)
            self._items.move_to_end(table_id)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def forget(self, table_id: int | None = None) -> None:
        """Drop one table's entry (or all): for changes made outside games/services.py."""
        with self._lock:
            if table_id is None:
                self._items.clear()
            else:
                self._items.pop(table_id, None)
