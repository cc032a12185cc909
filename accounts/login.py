"""Logging in by a name typed in any case, on the site and in the admin.

Registration refuses a name that differs from a taken one only in case (UserCreationForm compares
case-insensitively), so a name in any case names at most one account: the login forms look it up
as the account's own spelling before the password is checked, and django-axes counts a failure
against that spelling (``AXES_USERNAME_CALLABLE``), so ``alice``, ``ALICE`` and ``Alice`` share
one count of failures.
"""
from __future__ import annotations

from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm

from .models import User


def account_name(typed: str) -> str:
    """The stored spelling of the account ``typed`` names in any case; the name as typed when it
    names none (or, for accounts older than the case-insensitive check, several but this one)."""
    if not typed:
        return typed
    names = list(User.objects.filter(username__iexact=typed).values_list("username", flat=True)[:2])
    return names[0] if len(names) == 1 else typed


def axes_username(request, credentials: dict | None) -> str:
    """The account a login attempt counts against (django-axes' AXES_USERNAME_CALLABLE)."""
    typed = (credentials or {}).get("username")
    if typed is None and request is not None:
        typed = request.POST.get("username")
    return account_name(typed or "")


class AnyCaseName:
    """For an authentication form: the username field cleaned to the account's own spelling."""

    def clean_username(self):
        return account_name(self.cleaned_data.get("username") or "")


class LoginForm(AnyCaseName, AuthenticationForm):
    pass


class AdminLoginForm(AnyCaseName, AdminAuthenticationForm):
    pass
