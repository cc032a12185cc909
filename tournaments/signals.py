"""``tournament_changed(tournament_id)``: sent after a transaction that changed a tournament has
committed (tournaments/steps.py ``bump``). Its page listens (tournaments/page.py), so the steps and
the formats need not know how the page is built."""
from django.dispatch import Signal

tournament_changed = Signal()
