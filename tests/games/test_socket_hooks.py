"""games/socket_hooks.py: what other apps add to the table socket. Moderation registers its
commands and its per-socket mutes there (moderation/apps.py); games never imports moderation."""
import pytest

from games import socket_hooks
from moderation import sockets as moderation_sockets


def test_moderation_registers_its_commands_and_its_mutes_when_the_apps_are_ready():
    for kind in ("mute", "unmute", "report"):
        assert socket_hooks.command(kind) is moderation_sockets.COMMANDS[kind]
    assert socket_hooks.command("action") is None and socket_hooks.command(None) is None
    assert moderation_sockets.Mutes in socket_hooks._companions


def test_a_command_name_is_taken_once():
    def other(asker, data):
        return None
    with pytest.raises(ValueError):
        socket_hooks.add_command("mute", other)
    socket_hooks.add_command("mute", moderation_sockets.mute)      # the same handler again: harmless


def test_each_socket_gets_its_own_companions():
    class Socket:
        user = None

    one, two = Socket(), Socket()
    mine, theirs = socket_hooks.companions_of(one), socket_hooks.companions_of(two)
    assert [type(c) for c in mine] == [type(c) for c in theirs] == socket_hooks._companions
    assert all(c.socket is one for c in mine) and all(c.socket is two for c in theirs)
    assert not any(c.hides({"type": "table.send", "text": "{}", "author": 3}) for c in mine)
