from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PuzzlesConfig(AppConfig):
    name = "puzzles"
    verbose_name = _("Puzzles")

    def ready(self):
        from analysis.signals import analysed

        from . import receivers

        analysed.connect(receivers.on_analysed, dispatch_uid="puzzles.on_analysed")
