"""JSON for the sockets and the move's stored records, by orjson.

orjson encodes a move's messages about fifteen times faster than the standard library, on the
committing thread (docs/SCALING.md, "What the move path keeps and why"). Same output as
``json.dumps(obj, separators=(",", ":"))`` for what we send: str keys (others are converted),
no NaN.
"""
from __future__ import annotations

import orjson

_OPTIONS = orjson.OPT_NON_STR_KEYS


def dumps(obj) -> str:
    return orjson.dumps(obj, option=_OPTIONS).decode()


def loads(text: str | bytes):
    """Raises ValueError (orjson.JSONDecodeError) on bad JSON, TypeError on None."""
    return orjson.loads(text)
