from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = _("Ratings and history")

    def ready(self):
        from accounts.signals import profile_shown
        from games.signals import match_finished, snapshot_extras

        from . import receivers

        match_finished.connect(receivers.on_match_finished, dispatch_uid="ratings.on_match_finished")
        snapshot_extras.connect(receivers.on_snapshot, dispatch_uid="ratings.on_snapshot")
        profile_shown.connect(receivers.on_profile, dispatch_uid="ratings.on_profile")
