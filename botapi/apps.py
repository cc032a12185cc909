from django.apps import AppConfig


class BotApiConfig(AppConfig):
    name = "botapi"
    verbose_name = "Bot API"
    default_auto_field = "django.db.models.BigAutoField"
