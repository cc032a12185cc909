"""What a log line is about: the table, the user and the request (or socket) being served, as
context variables, so every line written meanwhile can name them (ops/logs.py puts them in the
JSON logs). They follow a request onto the threads asgiref hands it to, and each is reset when its
work ends."""
from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from typing import Iterator

table_id: ContextVar[int | None] = ContextVar("log_table_id", default=None)
user_id: ContextVar[int | None] = ContextVar("log_user_id", default=None)
request_id: ContextVar[str | None] = ContextVar("log_request_id", default=None)


@contextmanager
def about_table(table: int | None) -> Iterator[None]:
    token = table_id.set(table)
    try:
        yield
    finally:
        table_id.reset(token)


def current() -> dict:
    return {"table_id": table_id.get(), "user_id": user_id.get(), "request_id": request_id.get()}
