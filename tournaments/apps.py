from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    """Tournaments: pure pairing and standings, a service layer, Celery steps, a live page."""

    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self):
        from games.signals import match_finished

        from . import services
        match_finished.connect(services.record_result, dispatch_uid="tournaments.record_result")
