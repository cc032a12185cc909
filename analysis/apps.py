from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AnalysisConfig(AppConfig):
    name = "analysis"
    verbose_name = _("Post-match analysis")

    def ready(self):
        from games.signals import match_finished, seat_taken_over

        from . import receivers, throttle

        match_finished.connect(receivers.on_match_finished, dispatch_uid="analysis.on_match_finished")
        seat_taken_over.connect(receivers.on_seat_taken_over, dispatch_uid="analysis.on_seat_taken_over")
        throttle.connect()
