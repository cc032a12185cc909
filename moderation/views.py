"""The profile page's Mute/Unmute and Report buttons (plain POST forms) and the page of muted
players. The work is moderation/services.py's; a refusal comes back as a message on the page."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from realtime.errors import ServiceError

from . import services
from .forms import ReportForm
from .models import Mute


def _back(request, username):
    nxt = request.POST.get("next")
    if nxt and url_has_allowed_host_and_scheme(nxt, allowed_hosts={request.get_host()},
                                               require_https=request.is_secure()):
        return redirect(nxt)
    return redirect("profile", username=username)


@login_required
@require_POST
def mute(request, username):
    try:
        services.mute(request.user, username)
    except ServiceError as err:
        messages.error(request, err.reason)
    else:
        messages.success(request, _("%(name)s is muted: you will not see their chat at any table.") % {"name": username})
    return _back(request, username)


@login_required
@require_POST
def unmute(request, username):
    try:
        services.unmute(request.user, username)
    except ServiceError as err:
        messages.error(request, err.reason)
    else:
        messages.success(request, _("%(name)s is no longer muted.") % {"name": username})
    return _back(request, username)


@login_required
@require_POST
def report(request, username):
    form = ReportForm(request.POST)
    if not form.is_valid():
        messages.error(request, " ".join(e for errors in form.errors.values() for e in errors))
        return _back(request, username)
    try:
        services.report(request.user, username, form.cleaned_data["reason"], form.cleaned_data["text"])
    except ServiceError as err:
        messages.error(request, err.reason)
    else:
        messages.success(request, _("Report sent. Thank you: a moderator will look at it."))
    return _back(request, username)


@login_required
def muted(request):
    mutes = Mute.objects.filter(muter=request.user).select_related("muted").order_by("muted__username")
    return render(request, "moderation/muted.html", {"mutes": mutes})
