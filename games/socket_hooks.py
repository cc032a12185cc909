"""What other apps add to the table socket (games/consumers.py), without games importing them.

An app registers, in its ``AppConfig.ready``:

* **commands**: message types a client may send besides the game's own (moderation: ``mute``,
  ``unmute``, ``report``). A command runs on a worker thread, in the socket's language, and its
  commit's messages are sent as a move's are; it returns the reply to send (or None), or raises a
  ``realtime.errors.ServiceError``, answered as an ``error`` like any refusal;
* **companions**: a class of which each table socket keeps one instance, told when the socket
  opens, closes and may have lost layer messages, that may take layer messages of its own (to
  the socket's channel, by type) and hide unversioned lines (chat) from the socket (moderation:
  the user's mutes, reloaded when they change).

What a snapshot says is extended through games/signals.py (``snapshot_extras``, ``chat_hidden``).
"""
from __future__ import annotations

from typing import Any, Callable, NamedTuple


class Asker(NamedTuple):
    """Who sent a command: the socket's user (maybe anonymous) and its table."""
    user: Any
    table_id: int


Command = Callable[[Asker, dict], "dict | None"]

_commands: dict[str, Command] = {}
_companions: list[type["Companion"]] = []


class Companion:
    """One app's part of one table socket. ``socket`` offers ``user``, ``table_id``,
    ``channel_layer``, ``channel_name`` and ``send_json``."""

    events: tuple[str, ...] = ()    # layer message types (to the socket's channel) it handles

    def __init__(self, socket):
        self.socket = socket

    async def opened(self) -> None:
        """The socket was accepted; its first snapshot is read after this returns."""

    async def closed(self) -> None:
        """The socket closed."""

    async def lost(self) -> None:
        """Layer messages may have been lost (Redis came back): a snapshot is read after this."""

    async def handle(self, event: dict) -> None:
        """A layer message of one of ``events``."""

    def hides(self, event: dict) -> bool:
        """Whether the socket must not pass on this unversioned line (a chat line)."""
        return False


def add_command(kind: str, handler: Command) -> None:
    if kind in _commands and _commands[kind] is not handler:
        raise ValueError(f"the table socket command {kind!r} is registered twice")
    _commands[kind] = handler


def command(kind) -> Command | None:
    return _commands.get(kind) if isinstance(kind, str) else None


def add_companion(companion: type[Companion]) -> None:
    if companion not in _companions:
        _companions.append(companion)


def companions_of(socket) -> list[Companion]:
    """A new socket's companions, one per registered class."""
    return [make(socket) for make in _companions]
