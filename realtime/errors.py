"""The one kind of refusal the platform answers with."""
from __future__ import annotations


class ServiceError(Exception):
    """A refused request: ``code`` is the protocol's error code (for an action the rules refuse,
    the engine's refusal code, e.g. ``must_follow``), ``reason`` is for the player, ``params``
    are the refusal's parameters (a card, a suit) for clients that word it themselves."""

    def __init__(self, code: str, reason: str, version: int | None = None, *,
                 params: dict | None = None, category: str | None = None):
        super().__init__(reason)
        self.code = code
        self.reason = reason
        self.version = version
        self.params = params or {}
        self.category = category or code

    def as_json(self, version: int | None) -> dict:
        """The socket's ``error`` message (docs/PROTOCOL.md)."""
        out = {"type": "error", "code": self.code, "category": self.category, "reason": self.reason,
               "version": self.version if self.version is not None else version}
        if self.params:
            out["params"] = self.params
        return out
