from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ModerationConfig(AppConfig):
    name = "moderation"
    verbose_name = _("Moderation")

    def ready(self):
        # Moderation plugs into the table socket; games never imports moderation.
        from games import signals, socket_hooks

        from . import sockets

        for kind, command in sockets.COMMANDS.items():
            socket_hooks.add_command(kind, command)
        socket_hooks.add_companion(sockets.Mutes)
        signals.chat_hidden.connect(sockets.hidden_chat, dispatch_uid="moderation.hidden_chat")
        signals.snapshot_extras.connect(sockets.snapshot_mutes, dispatch_uid="moderation.snapshot_mutes")
        # Accounts seen together (moderation/linked.py): addresses at login, rated matches' players.
        from django.contrib.auth.signals import user_logged_in

        from . import seen
        user_logged_in.connect(seen.on_login, dispatch_uid="moderation.seen_login")
        signals.match_finished.connect(seen.on_match_finished, dispatch_uid="moderation.seen_match")
