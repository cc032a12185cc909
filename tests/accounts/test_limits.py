"""Limits on abuse over HTTP: failed logins per address and per account (django-axes, in the
database), registrations and guests per address (django-ratelimit, in the cache)."""
from datetime import timedelta

import pytest
from django.urls import reverse

from accounts.models import User
from tests.limits import clock  # noqa: F401  (fixture)

pytestmark = pytest.mark.django_db


@pytest.fixture
def axes_on(settings):
    """The real login limits (the test settings turn django-axes off)."""
    settings.AXES_ENABLED = True
    settings.AXES_FAILURE_LIMIT = 3
    settings.AXES_COOLOFF_TIME = timedelta(minutes=15)
    return settings


def log_in(client, name, password, ip, path=None):
    return client.post(path or reverse("login"), {"username": name, "password": password}, REMOTE_ADDR=ip)


def locked_out(r) -> bool:
    return r.status_code == 429 and "Too many failed logins" in r.content.decode()


def test_it_locks_an_account_out_after_failures_from_several_addresses(client, make_user, axes_on):
    make_user("ala")
    for n in range(2):
        r = log_in(client, "ala", "wrong", f"10.0.0.{n}")
        assert r.status_code == 200 and "correct username and password" in r.content.decode()
    assert locked_out(log_in(client, "ala", "wrong", "10.0.0.2"))       # the third failure
    # Locked: even the right password, from an address that never failed, is refused.
    assert locked_out(log_in(client, "ala", "a-Secret-123", "10.0.0.9"))
    # Another account from those addresses is not locked.
    make_user("ola")
    assert log_in(client, "ola", "a-Secret-123", "10.0.0.1").status_code == 302


def test_it_locks_an_address_out_after_failures_for_several_accounts(client, make_user, axes_on):
    for name in ("ala", "ola", "ela"):
        make_user(name)
    assert log_in(client, "ala", "wrong", "10.0.0.1").status_code == 200
    assert log_in(client, "ola", "wrong", "10.0.0.1").status_code == 200
    assert locked_out(log_in(client, "ela", "wrong", "10.0.0.1"))
    # That address may not log in at all now, whoever it names...
    assert locked_out(log_in(client, "ala", "a-Secret-123", "10.0.0.1"))
    # ...while the accounts, each with fewer failures, log in from elsewhere.
    assert log_in(client, "ala", "a-Secret-123", "10.0.0.2").status_code == 302
    # The address is let in again when its oldest failure is 15 minutes old: under the limit then.
    from axes.models import AccessAttempt

    for name, minutes in (("ala", 10), ("ola", 5)):
        row = AccessAttempt.objects.get(username=name)
        AccessAttempt.objects.filter(pk=row.pk).update(attempt_time=row.attempt_time - timedelta(minutes=minutes))
    r = log_in(client, "ela", "a-Secret-123", "10.0.0.1")
    assert r.status_code == 429 and "Please try again in 5 minutes." in r.content.decode()


def test_it_counts_an_ipv6_address_by_its_64_bit_prefix(client, make_user, axes_on):
    for name in ("ala", "ola", "ela"):
        make_user(name)
    for n, name in enumerate(("ala", "ola", "ela")):
        r = log_in(client, name, "wrong", f"2001:db8:1:2::{n + 1}")
    assert locked_out(r)
    assert locked_out(log_in(client, "ala", "a-Secret-123", "2001:db8:1:2:ffff::9"))     # same /64
    assert log_in(client, "ala", "a-Secret-123", "2001:db8:1:3::1").status_code == 302    # another


def test_it_says_when_to_try_again_and_lets_in_after_the_cool_off(client, make_user, axes_on):
    from axes.models import AccessAttempt

    make_user("ala")
    for _ in range(3):
        r = log_in(client, "ala", "wrong", "10.0.0.1")
    page = r.content.decode()
    assert r.status_code == 429 and r["Retry-After"] == "900"
    assert "Please wait" in page and "Please try again in 15 minutes." in page
    assert reverse("password_reset") in page                # a way out: the password reset
    assert '<html lang="en">' in page                       # the site's page, not a bare text
    # 5 minutes later: 10 to go; trying meanwhile is refused, and neither counts nor pushes the end back.
    AccessAttempt.objects.update(attempt_time=AccessAttempt.objects.get().attempt_time - timedelta(minutes=5))
    r = log_in(client, "ala", "a-Secret-123", "10.0.0.1")
    assert r.status_code == 429 and "Please try again in 10 minutes." in r.content.decode()
    assert 590 <= int(r["Retry-After"]) <= 600
    assert AccessAttempt.objects.get().failures_since_start == 3
    # 15 minutes after the last failure the form works again.
    AccessAttempt.objects.update(attempt_time=AccessAttempt.objects.get().attempt_time - timedelta(minutes=10, seconds=1))
    r = log_in(client, "ala", "a-Secret-123", "10.0.0.1")
    assert r.status_code == 302
    assert client.get(reverse("home")).context["user"].username == "ala"


def test_it_answers_a_locked_out_login_in_the_visitors_language(client, make_user, axes_on):
    make_user("ala")
    client.cookies["django_language"] = "pl"
    for _ in range(3):
        r = log_in(client, "ala", "wrong", "10.0.0.1")
    assert r.status_code == 429 and '<html lang="pl">' in r.content.decode()


def test_it_limits_the_admin_login_too(client, make_user, axes_on):
    make_user("boss", is_staff=True, is_superuser=True)
    admin_login = reverse("admin:login")
    for _ in range(2):
        assert log_in(client, "boss", "wrong", "10.0.0.1", admin_login).status_code == 200
    assert locked_out(log_in(client, "boss", "wrong", "10.0.0.1", admin_login))
    assert locked_out(log_in(client, "boss", "a-Secret-123", "10.0.0.7", admin_login))


def register(client, name, ip, password="a-Secret-123"):
    return client.post(reverse("register"), {"username": name, "password1": password, "password2": password},
                       REMOTE_ADDR=ip)


def test_it_limits_registrations_per_address(client, settings, clock):
    settings.REGISTER_RATE = "2/h"
    assert register(client, "typo", "10.0.0.1", password="a").status_code == 200   # refused by the form: not counted
    assert register(client, "ala", "10.0.0.1").status_code == 302
    assert register(client, "ola", "10.0.0.1").status_code == 302
    r = register(client, "ela", "10.0.0.1")
    assert r.status_code == 429 and int(r["Retry-After"]) > 0
    page = r.content.decode()
    assert "Too many accounts were registered from your address lately." in page and "Please try again in" in page
    assert 'class="errorlist form-errors"' in page          # on the form, which keeps what was typed
    assert not User.objects.filter(username="ela").exists()
    assert register(client, "ela", "10.0.0.2").status_code == 302                  # another address
    clock.advance(3600)                                                            # the next hour
    assert register(client, "ewa", "10.0.0.1").status_code == 302


def guest(ip):
    from django.test import Client

    return Client().post(reverse("guest"), {"next": "/"}, REMOTE_ADDR=ip)


def test_it_limits_guests_per_address(settings, clock):
    settings.GUEST_RATE = "2/h"
    assert [guest("10.0.0.1").status_code for _ in range(2)] == [302, 302]
    r = guest("10.0.0.1")
    assert r.status_code == 429 and int(r["Retry-After"]) > 0
    page = r.content.decode()
    assert "Too many guest accounts were made from your address lately." in page and "Please wait" in page
    assert User.objects.filter(is_guest=True).count() == 2
    assert guest("10.0.0.2").status_code == 302
    clock.advance(3600)
    assert guest("10.0.0.1").status_code == 302


def test_it_does_not_count_a_guest_who_is_one_already(client, settings, clock):
    settings.GUEST_RATE = "1/h"
    assert client.post(reverse("guest"), {"next": "/"}).status_code == 302
    assert client.post(reverse("guest"), {"next": "/"}).status_code == 302       # the same guest
    assert User.objects.filter(is_guest=True).count() == 1


def test_it_limits_guests_made_by_play_now(settings, clock):
    from django.test import Client

    settings.GUEST_RATE = "1/h"
    play = {"game": "sixtysix", "level": "random"}
    assert Client().post(reverse("play_now"), play, REMOTE_ADDR="10.0.0.1").status_code == 302
    r = Client().post(reverse("play_now"), play, REMOTE_ADDR="10.0.0.1")
    assert r.status_code == 429 and "Too many guest accounts" in r.content.decode()
    assert User.objects.filter(is_guest=True).count() == 1


@pytest.mark.django_db(transaction=True)
def test_simultaneous_registrations_cannot_all_slip_under_the_limit(settings, clock, monkeypatch):
    """Fourteen sign-ups from one address at once, under 10/h: exactly ten accounts. Each request
    is held just before its account is saved until all fourteen are there (or, once fewer can
    come, a few seconds): the moment a check-then-count let all of them through."""
    import threading

    from django.db import connection
    from django.test import Client

    from accounts.forms import RegisterForm

    settings.REGISTER_RATE = "10/h"
    senders = 14
    arrived = threading.Condition()
    waiting = []
    save = RegisterForm.save

    def held_save(form, *args, **kwargs):
        with arrived:
            waiting.append(form)
            arrived.notify_all()
            arrived.wait_for(lambda: len(waiting) == senders, timeout=3)
        return save(form, *args, **kwargs)

    monkeypatch.setattr(RegisterForm, "save", held_save)
    answers = []

    def sign_up(n):
        try:
            answers.append(register(Client(), f"player{n}", "10.0.0.1").status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=sign_up, args=(n,)) for n in range(senders)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert sorted(answers) == [302] * 10 + [429] * 4
    assert User.objects.count() == 10
