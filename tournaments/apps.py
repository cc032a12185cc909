from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    """Tournaments: pure pairing and standings, formats behind one interface, a service layer,
    Celery steps, a live page."""

    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self):
        from games.signals import match_finished

        from . import page, services
        from .signals import tournament_changed
        match_finished.connect(services.record_result, dispatch_uid="tournaments.record_result")
        tournament_changed.connect(page.on_changed, dispatch_uid="tournaments.page")
