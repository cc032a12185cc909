from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PoolConfig(AppConfig):
    """Quick pairing with people: a pool per game, variant and time control (docs/PROTOCOL.md, "Pool")."""

    name = "pool"
    verbose_name = _("Pairing pools")
