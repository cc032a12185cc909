"""Guests: an account made on demand, logged in at once, for unrated tables only."""
from django.contrib.auth import login

from . import limits
from .models import guest_user


def login_as_guest(request):
    """The visitor's user: a new guest, logged in, when he is anonymous; else who he is.
    Raises accounts.limits.Limited when his address made GUEST_RATE guests lately."""
    if not request.user.is_authenticated:
        limits.take(request, "guest")
        login(request, guest_user(), backend="django.contrib.auth.backends.ModelBackend")
    return request.user
