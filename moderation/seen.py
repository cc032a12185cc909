"""Where moderation hears of accounts and matches for fair play (moderation/linked.py): a login
notes the account's address, and a finished rated match is looked at once it commits."""
from django.db import transaction

from accounts import address_keys

from . import linked


def on_login(sender, request, user, **kwargs):
    linked.note(user, address_keys.of_request(request))


def on_match_finished(sender, match, table, **kwargs):
    if not table.rated:
        return
    match_id = match.pk

    def enqueue():
        from . import tasks
        tasks.enqueue_check(match_id)
    transaction.on_commit(enqueue)
