"""API tokens: made only for bot accounts, stored as a hash, checked, revoked (botapi/tokens.py)."""
import hashlib

import pytest

from botapi import tokens
from accounts.models import ApiToken
from botapi import services
from realtime.errors import ServiceError

pytestmark = pytest.mark.django_db


@pytest.fixture
def bot_account(make_user):
    user = make_user("robo")
    services.make_bot_account(user)
    return user


def test_a_token_is_shown_once_and_only_its_hash_and_prefix_are_stored(bot_account):
    row, token = tokens.create(bot_account, "laptop")
    assert token.startswith("cr_") and len(token) > 40
    stored = ApiToken.objects.get(pk=row.pk)
    assert stored.digest == hashlib.sha256(token.encode()).hexdigest()
    assert stored.prefix == token[:10] and token not in str(stored.__dict__.values())
    user, used = tokens.authenticate(token)
    assert user == bot_account and used.pk == row.pk
    assert ApiToken.objects.get(pk=row.pk).last_used_at is not None


def test_a_wrong_token_a_revoked_one_and_a_non_bot_accounts_are_refused_with_their_reason(bot_account, make_user):
    row, token = tokens.create(bot_account, "laptop")
    for wrong in ("", "cr_nope", token + "x", "Bearer " + token, None):
        with pytest.raises(tokens.TokenError) as err:
            tokens.authenticate(wrong)
        assert err.value.code == "bad_token"
    tokens.revoke(bot_account, row.pk)
    with pytest.raises(tokens.TokenError) as err:
        tokens.authenticate(token)
    assert err.value.code == "revoked_token" and "revoked" in err.value.reason
    # An account that is no longer a bot account (an admin's doing): its tokens stop working.
    _row2, token2 = tokens.create(bot_account, "second")
    bot_account.is_bot_account = False
    bot_account.save()
    with pytest.raises(tokens.TokenError) as err:
        tokens.authenticate(token2)
    assert err.value.code == "not_bot_account"


def test_only_bot_accounts_get_tokens_and_at_most_a_few(bot_account, make_user):
    person = make_user("person")
    with pytest.raises(tokens.TokenError) as err:
        tokens.create(person, "mine")
    assert err.value.code == "not_bot_account"
    for i in range(tokens.MAX_ACTIVE_TOKENS):
        tokens.create(bot_account, f"t{i}")
    with pytest.raises(tokens.TokenError) as err:
        tokens.create(bot_account, "one more")
    assert err.value.code == "too_many_tokens"
    with pytest.raises(tokens.TokenError):
        tokens.create(bot_account, " ")
    # Revoking one frees a place; revoking someone else's token is "no such token".
    first = ApiToken.objects.filter(user=bot_account).last()
    with pytest.raises(tokens.TokenError):
        tokens.revoke(person, first.pk)
    tokens.revoke(bot_account, first.pk)
    tokens.create(bot_account, "replacement")


def test_the_bearer_header_is_read_strictly():
    assert tokens.bearer("Bearer cr_abc") == "cr_abc"
    assert tokens.bearer("bearer  cr_abc ") == "cr_abc"
    assert tokens.bearer("Basic dXNlcg==") is None
    assert tokens.bearer("Bearer") == ""
    assert tokens.bearer(None) is None


def test_bot_account_rules(make_user, django_user_model):
    from accounts.models import bot_user, guest_user

    with pytest.raises(ServiceError) as err:
        services.make_bot_account(guest_user())
    assert "guest" in err.value.reason.lower()
    with pytest.raises(ServiceError):
        services.make_bot_account(bot_user("basic"))
    already = make_user("already")
    services.make_bot_account(already)
    with pytest.raises(ServiceError) as err:
        services.make_bot_account(already)
    assert "already" in err.value.reason
