"""A name is one account whatever its case: registration refuses `alice_t3` beside `Alice_T3`, so
logging in takes it in any case (site and admin), and failed logins count against the account
whatever the case they were typed in (django-axes)."""
import pytest
from django.urls import reverse

from tests.accounts.test_limits import axes_on, locked_out, log_in  # noqa: F401  (fixture)

pytestmark = pytest.mark.django_db


def logged_in_as(client) -> str | None:
    user_id = client.session.get("_auth_user_id")
    from accounts.models import User
    return User.objects.get(pk=user_id).username if user_id else None


@pytest.mark.parametrize("typed", ["alice_t3", "ALICE_T3", "Alice_T3"])
def test_a_player_logs_in_with_his_name_in_any_case(client, make_user, typed):
    make_user("Alice_T3")
    r = log_in(client, typed, "a-Secret-123", "10.0.0.1")
    assert r.status_code == 302 and logged_in_as(client) == "Alice_T3"


def test_a_wrong_password_is_still_refused_in_any_case(client, make_user):
    make_user("Alice_T3")
    r = log_in(client, "alice_t3", "wrong", "10.0.0.1")
    assert r.status_code == 200 and "correct username and password" in r.content.decode()
    assert logged_in_as(client) is None


def test_the_admin_login_takes_a_name_in_any_case(client, make_user):
    make_user("Boss", is_staff=True, is_superuser=True)
    r = log_in(client, "boss", "a-Secret-123", "10.0.0.1", reverse("admin:login"))
    assert r.status_code == 302 and logged_in_as(client) == "Boss"


def test_an_account_created_before_the_case_check_is_named_exactly(client, make_user):
    """Two old accounts that differ only in case: each logs in by its exact name."""
    make_user("Ala", password="first-Secret-1")
    make_user("ala", password="second-Secret-2")
    assert log_in(client, "Ala", "first-Secret-1", "10.0.0.1").status_code == 302
    assert logged_in_as(client) == "Ala"


def test_failures_count_against_the_account_whatever_the_case(client, make_user, axes_on):
    make_user("Alice_T3")
    assert log_in(client, "alice_t3", "wrong", "10.0.0.1").status_code == 200
    assert log_in(client, "ALICE_T3", "wrong", "10.0.0.2").status_code == 200
    assert locked_out(log_in(client, "Alice_t3", "wrong", "10.0.0.3"))      # the third failure
    # Locked, in every spelling, from an address that never failed; on the admin's login too.
    assert locked_out(log_in(client, "Alice_T3", "a-Secret-123", "10.0.0.9"))
    assert locked_out(log_in(client, "alice_T3", "a-Secret-123", "10.0.0.9", reverse("admin:login")))
    from axes.models import AccessAttempt
    assert set(AccessAttempt.objects.values_list("username", flat=True)) == {"Alice_T3"}
