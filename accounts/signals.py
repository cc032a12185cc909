"""What other apps add to accounts' pages, so that accounts (below games and ratings) imports none
of them: they connect receivers in their ``AppConfig.ready``, as they do to games/signals.py."""
from django.dispatch import Signal

# Sent (person=, viewer=) as a profile page is built; each receiver returns a dict for its context.
profile_shown = Signal()
