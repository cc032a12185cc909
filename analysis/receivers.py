"""Reacting to games.signals (sent inside the games' transactions)."""
from . import services


def on_match_finished(sender, match, table, **kwargs):
    services.create_for(match)


def on_seat_taken_over(sender, match, seat, deal, **kwargs):
    services.record_takeover(match, seat, deal)
