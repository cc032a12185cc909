"""What a new user meets on the register page: a taken or over-long name, weak passwords."""
import re

import pytest
from django.urls import reverse

from accounts.forms import NAME_MAX_LENGTH
from accounts.models import User

pytestmark = pytest.mark.django_db


def register(client, name, password="a-Secret-123", **extra):
    return client.post(reverse("register"), {"username": name, "password1": password,
                                             "password2": password, **extra})


def field_errors(html: str, field: str) -> list[str]:
    """The error list items shown under ``field`` (templates/_form.html)."""
    block = re.search(rf'<ul class="errorlist" id="{field}-errors">(.*?)</ul>', html, re.S)
    return [re.sub(r"\s+", " ", li).strip() for li in re.findall(r"<li>(.*?)</li>", block.group(1), re.S)] \
        if block else []


@pytest.mark.parametrize("name", ["demo", "Demo", "DEMO"])
def test_it_tells_a_taken_name_whatever_its_case(client, make_user, name):
    make_user("demo")
    r = register(client, name)
    assert r.status_code == 200
    assert field_errors(r.content.decode(), "username") == ["A user with that username already exists."]
    assert User.objects.filter(username__iexact="demo").count() == 1


def test_it_tells_a_taken_name_in_polish_bulgarian_and_german(client, make_user):
    make_user("demo")
    for lang, words in (("pl", "już istnieje"), ("bg", "вече съществува"), ("de", "bereits vergeben")):
        client.cookies["django_language"] = lang
        errors = field_errors(register(client, "Demo").content.decode(), "username")
        assert len(errors) == 1 and words in errors[0], errors


def test_it_still_refuses_reserved_names_whatever_their_case(client):
    r = register(client, "Guest-abc")
    assert r.status_code == 200 and field_errors(r.content.decode(), "username") == ["This name is reserved."]


def test_it_keeps_new_names_short_enough_to_show(client):
    r = register(client, "x" * 150)
    assert r.status_code == 200 and not User.objects.exists()
    assert len(field_errors(r.content.decode(), "username")) == 1
    assert f'maxlength="{NAME_MAX_LENGTH}"' in r.content.decode()
    assert register(client, "y" * NAME_MAX_LENGTH).status_code == 302


def test_it_lists_each_password_problem_on_its_own_line(client):
    r = register(client, "ala", password="123")
    assert r.status_code == 200
    form_errors = r.context["form"].errors["password2"]
    assert len(form_errors) >= 2
    assert field_errors(r.content.decode(), "password2") == list(form_errors)
