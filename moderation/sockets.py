"""What moderation adds to the table socket (games/socket_hooks.py, games/signals.py), registered
in moderation/apps.py; docs/PROTOCOL.md "Mute and report".

* The commands ``mute``, ``unmute`` (answered through the user's group: ``Mutes.handle``) and
  ``report`` (answered ``reported``).
* A muted player's chat never reaches the muter's sockets: each socket of a user keeps the set of
  players he muted (``Mutes``: its lines are hidden; the snapshot leaves them out and names them,
  ``muted``) and is in his own group (``mutes.user_group``), where moderation/services.py
  announces a change of his mutes from whichever process made it (a socket, his profile page):
  each socket reloads the set and tells its client (``muted``).
"""
from __future__ import annotations

from realtime.socket_base import in_thread
from games.socket_hooks import Asker, Companion

from . import mutes, services


# --- commands (on a worker thread, in the socket's language) ----------------------------------------
def mute(asker: Asker, data: dict) -> None:
    services.mute(asker.user, data.get("name"))


def unmute(asker: Asker, data: dict) -> None:
    services.unmute(asker.user, data.get("name"))


def report(asker: Asker, data: dict) -> dict:
    services.report(asker.user, data.get("name"), data.get("reason"), data.get("text"), table_id=asker.table_id)
    return {"type": "reported", "name": data.get("name")}


COMMANDS = {"mute": mute, "unmute": unmute, "report": report}


# --- each table socket's mutes ------------------------------------------------------------------------
def _signed_in(user) -> bool:
    return getattr(user, "is_authenticated", False)


class Mutes(Companion):
    """The players this socket's user muted, kept current from his group."""

    events = ("user.mutes",)
    muted: frozenset = frozenset()
    group: str | None = None

    async def opened(self) -> None:
        user = self.socket.user
        if not _signed_in(user):
            return
        self.group = mutes.user_group(user.pk)
        await self.socket.channel_layer.group_add(self.group, self.socket.channel_name)
        self.muted = await in_thread(mutes.muted_ids)(user.pk)     # after joining: no change missed

    async def closed(self) -> None:
        if self.group:
            await self.socket.channel_layer.group_discard(self.group, self.socket.channel_name)

    async def lost(self) -> None:
        if self.group:          # a change of his mutes may have been lost too
            self.muted = await in_thread(mutes.muted_ids)(self.socket.user.pk)

    async def handle(self, event: dict) -> None:
        """This user's mutes changed: reload them; the client hides the lines of those now muted."""
        self.muted, names = await in_thread(mutes.muted)(self.socket.user.pk)
        await self.socket.send_json({"type": "muted", "muted": names})

    def hides(self, event: dict) -> bool:
        return event.get("author") in self.muted


# --- the snapshot (games.signals) -----------------------------------------------------------------------
def hidden_chat(sender, user=None, **kwargs) -> frozenset[int] | None:
    """The snapshot's chat leaves out the lines of the players ``user`` muted."""
    return mutes.muted_ids(user.pk) if _signed_in(user) else None


def snapshot_mutes(sender, user=None, **kwargs) -> dict:
    """The snapshot names them (``muted``: empty for a visitor)."""
    return {"muted": mutes.muted(user.pk)[1] if _signed_in(user) else []}
