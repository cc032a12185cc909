from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LobbyConfig(AppConfig):
    name = "lobby"
    verbose_name = _("Lobby")

    def ready(self):
        from accounts.signals import profile_shown

        from . import views

        profile_shown.connect(views.profile_tables, dispatch_uid="games.profile_tables")
