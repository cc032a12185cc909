from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ArchiveConfig(AppConfig):
    name = "archive"
    verbose_name = _("Match archive")

    def ready(self):
        from accounts.signals import profile_shown

        from . import receivers

        profile_shown.connect(receivers.on_profile, dispatch_uid="archive.on_profile")
