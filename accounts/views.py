from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from . import limits
from .forms import RegisterForm
from .guests import login_as_guest
from .signals import profile_shown


def register(request):
    if request.method == "POST":
        form = RegisterForm(request.POST)
        try:
            limits.check(request, "register")       # REGISTER_RATE per address: over it, no form to read
            # Counted atomically before the account is made, so that simultaneous sign-ups cannot
            # all pass the check; a form sent back with a mistake is not counted.
            if form.is_valid():
                limits.take(request, "register")
        except limits.Limited as over:
            form.add_error(None, over.message)
            return over.answer(render(request, "accounts/register.html", {"form": form}))
        if form.is_valid():
            user = form.save()
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(request, _("Welcome, %(name)s!") % {"name": user.username})
            return redirect("home")
    else:
        form = RegisterForm()
    return render(request, "accounts/register.html", {"form": form})


@require_POST
def play_as_guest(request):
    """Create a guest account on demand (unrated tables only) and log it in."""
    try:
        login_as_guest(request)
    except limits.Limited as over:
        return limits.too_many(request, over.message, over.seconds)
    nxt = request.POST.get("next") or "/"
    if not url_has_allowed_host_and_scheme(nxt, allowed_hosts={request.get_host()}):
        nxt = "/"
    return redirect(nxt)


def profile(request, username):
    person = get_object_or_404(get_user_model(), username=username)
    context = {"person": person}
    # Open tables (games), ratings and history (ratings): each app adds its own part.
    for _receiver, part in profile_shown.send(sender=None, person=person, viewer=request.user):
        context.update(part)
    return render(request, "accounts/profile.html", context)


@login_required
def me(request):
    return redirect("profile", username=request.user.username)
