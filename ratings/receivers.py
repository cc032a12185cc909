"""Reacting to games.signals.match_finished (sent inside the finishing transaction)."""
from django.db import transaction

from . import services


def on_match_finished(sender, match, table, **kwargs):
    # The history rows commit (or roll back) with the match itself.
    players = services.record_players(match, table)
    if players and players[0].rated:       # rated, not aborted, no house bot (house_bots.py)
        match_id = match.pk

        def enqueue():
            from . import tasks
            tasks.enqueue_rating(match_id)
        transaction.on_commit(enqueue)


def on_snapshot(sender, live, **kwargs):
    return services.snapshot_ratings(live)


def on_profile(sender, person, viewer, **kwargs):
    """A profile page's ratings (accounts.signals.profile_shown; its history: archive/receivers.py)."""
    from .views import profile_context     # the pages' module, loaded once the apps are

    return profile_context(person)
