from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    """Reserved for tournaments (pairing, standings, rounds); empty for now."""

    name = "tournaments"
