"""API tokens of bot accounts (docs/BOTS.md): made, checked and revoked here only.

A token is ``cr_`` + 43 random URL-safe characters (256 bits). The database keeps its SHA-256 and
its first characters (``prefix``, for the owner's list); the token itself exists only in the
answer to its creation. A plain hash is enough here (no salt, no slow hash): the token is random
and long, so there is nothing to guess from its digest, and checking it costs one indexed lookup.
Tokens are never logged: callers log the prefix at most.
"""
from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import ApiToken, User
from realtime import broadcast

TOKEN_PREFIX = "cr_"
SHOWN_PREFIX = 10           # "cr_" and seven characters: enough to tell one's tokens apart
MAX_ACTIVE_TOKENS = 5       # per account: a leaked one is revoked, not piled up
LAST_USED_EVERY = timedelta(minutes=1)      # last_used_at is written at most this often
REVOKED = "token.revoked"   # the message to a token's open sockets (botapi/auth.py closes them)


def socket_group(token_id: int) -> str:
    """The open sockets of one token, on every process (botapi/auth.py)."""
    return f"bot.token.{token_id}"


class TokenError(Exception):
    """A token that cannot be used (``code``: ``bad_token``, ``revoked_token``, ``not_bot_account``,
    ``inactive``), or a refused creation or revocation; ``reason`` is readable."""

    def __init__(self, code: str, reason: str):
        super().__init__(reason)
        self.code = code
        self.reason = reason


def digest_of(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def create(user: User, name: str) -> tuple[ApiToken, str]:
    """A new token of a bot account: the stored row and the token (shown once)."""
    name = (name or "").strip()
    if not getattr(user, "is_bot_account", False):
        raise TokenError("not_bot_account", _("Only bot accounts have API tokens: make this a bot account first."))
    if not name or len(name) > 60:
        raise TokenError("bad_request", _("Give the token a name of 1 to 60 characters."))
    with transaction.atomic():
        User.objects.select_for_update().filter(pk=user.pk).first()     # one creation at a time per account
        if ApiToken.objects.filter(user=user, revoked_at__isnull=True).count() >= MAX_ACTIVE_TOKENS:
            raise TokenError("too_many_tokens", _("An account has at most %(n)d tokens: revoke one first.")
                             % {"n": MAX_ACTIVE_TOKENS})
        token = TOKEN_PREFIX + secrets.token_urlsafe(32)
        row = ApiToken.objects.create(user=user, name=name, prefix=token[:SHOWN_PREFIX], digest=digest_of(token))
    return row, token


def revoke(user: User, token_id) -> ApiToken:
    """Revoke one of ``user``'s tokens (revoking it again changes nothing); once committed, the
    sockets open with it are closed."""
    row = ApiToken.objects.filter(user=user, pk=token_id).first() if str(token_id).isdigit() else None
    if row is None:
        raise TokenError("not_found", _("You have no such token."))
    if row.revoked_at is None:
        with transaction.atomic():
            row.revoked_at = timezone.now()
            row.save(update_fields=["revoked_at"])
            group = socket_group(row.pk)
            broadcast.send_on_commit(lambda: [(group, {"type": REVOKED})])
    return row


def authenticate(raw: str | None) -> tuple[User, ApiToken]:
    """The bot account a token stands for, or TokenError saying why it does not."""
    if not isinstance(raw, str) or not raw.startswith(TOKEN_PREFIX) or len(raw) > 100:
        raise TokenError("bad_token", _("That API token is not valid."))
    row = ApiToken.objects.select_related("user").filter(digest=digest_of(raw)).first()
    if row is None:
        raise TokenError("bad_token", _("That API token is not valid."))
    if row.revoked_at is not None:
        raise TokenError("revoked_token", _("That API token has been revoked."))
    user = row.user
    if not user.is_active:
        raise TokenError("inactive", _("This account is disabled."))
    if not user.is_bot_account:
        raise TokenError("not_bot_account", _("API tokens work for bot accounts only."))
    now = timezone.now()
    if row.last_used_at is None or now - row.last_used_at > LAST_USED_EVERY:
        ApiToken.objects.filter(pk=row.pk).update(last_used_at=now)
        row.last_used_at = now
    return user, row


def bearer(value: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header value (None: no bearer token)."""
    if not value:
        return None
    scheme, _sep, token = value.strip().partition(" ")
    if scheme.lower() != "bearer":
        return None
    return token.strip() or ""
