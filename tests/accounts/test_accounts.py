import re

import pytest
from django.core import mail
from django.urls import reverse

from accounts.models import User, bot_user

pytestmark = pytest.mark.django_db


def test_it_registers_and_logs_the_new_user_in(client):
    r = client.post(reverse("register"), {"username": "ala", "email": "ala@example.com",
                                          "password1": "a-Secret-123", "password2": "a-Secret-123"})
    assert r.status_code == 302
    assert client.get(reverse("home")).context["user"].username == "ala"


def test_it_refuses_reserved_names(client):
    r = client.post(reverse("register"), {"username": "bot-strong", "password1": "a-Secret-123",
                                          "password2": "a-Secret-123"})
    assert r.status_code == 200 and not User.objects.filter(username="bot-strong").exists()


def test_it_logs_in_and_out(client, make_user):
    make_user("ala")
    r = client.post(reverse("login"), {"username": "ala", "password": "a-Secret-123"})
    assert r.status_code == 302
    assert client.get(reverse("me")).status_code == 302
    client.post(reverse("logout"))
    assert client.get(reverse("me")).status_code == 302
    assert "login" in client.get(reverse("me"))["Location"]


def test_it_changes_the_password(client, make_user):
    client.force_login(make_user("ala"))
    r = client.post(reverse("password_change"), {"old_password": "a-Secret-123",
                                                 "new_password1": "b-Secret-456", "new_password2": "b-Secret-456"})
    assert r.status_code == 302
    assert User.objects.get(username="ala").check_password("b-Secret-456")


def test_it_resets_a_forgotten_password_by_console_email(client, make_user):
    make_user("ala", email="ala@example.com")
    client.post(reverse("password_reset"), {"email": "ala@example.com"})
    assert len(mail.outbox) == 1
    link = re.search(r"https?://[^/]+(/\S+)", mail.outbox[0].body).group(1)
    r = client.get(link, follow=True)
    r = client.post(r.redirect_chain[-1][0], {"new_password1": "c-Secret-789", "new_password2": "c-Secret-789"})
    assert r.status_code == 302
    assert User.objects.get(username="ala").check_password("c-Secret-789")


def test_it_creates_a_guest_on_demand(client):
    r = client.post(reverse("guest"), {"next": "/play/hearts/"})
    assert r.status_code == 302 and r["Location"] == "/play/hearts/"
    guest = User.objects.get(is_guest=True)
    assert guest.username.startswith("guest-") and not guest.has_usable_password()


def test_it_has_one_bot_user_per_level():
    assert bot_user("strong") == bot_user("strong")
    assert bot_user("random").is_bot and bot_user("random").display_name == "bot:random"
    with pytest.raises(ValueError):
        bot_user("godlike")


def test_it_shows_a_profile(client, make_user):
    make_user("ala")
    assert client.get(reverse("profile", args=["ala"])).status_code == 200


def test_it_switches_the_language(client):
    r = client.post(reverse("set_language"), {"language": "pl", "next": "/"})
    assert r.status_code == 302
    assert "Zaloguj" in client.get("/").content.decode()
