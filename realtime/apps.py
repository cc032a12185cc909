from django.apps import AppConfig


class RealtimeConfig(AppConfig):
    """No models, no pages: an app so that the layers and the import checks see it like the others."""

    name = "realtime"
    verbose_name = "Realtime"
