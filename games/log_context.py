"""What a log line is about: the table, the user and the request (or socket) being served, as
context variables, so every line written meanwhile can name them (ops/logs.py puts them in the
JSON logs). They follow a request onto the threads asgiref hands it to, and each is reset when its
work ends."""
from __future__ import annotations

from contextvars import ContextVar

table_id: ContextVar[int | None] = ContextVar("log_table_id", default=None)
user_id: ContextVar[int | None] = ContextVar("log_user_id", default=None)
request_id: ContextVar[str | None] = ContextVar("log_request_id", default=None)


class about_table:      # noqa: N801  (used as a function: ``with about_table(7):``)
    """The lines logged inside are about ``table`` (a class, not a generator: it is on a move's path)."""

    __slots__ = ("table", "token")

    def __init__(self, table: int | None):
        self.table = table

    def __enter__(self) -> None:
        self.token = table_id.set(self.table)

    def __exit__(self, *exc) -> None:
        table_id.reset(self.token)


def current() -> dict:
    return {"table_id": table_id.get(), "user_id": user_id.get(), "request_id": request_id.get()}
