"""/tournaments/new/: staff create a tournament on a page of the site (the admin stays for
repairs). ``new`` shows and submits the form; ``check`` answers the page's script with the same
form's errors, so every check is made before submitting, in the words of the server's refusal."""
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import JsonResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from . import controls, services
from .new_form import NewTournamentForm, time_zone_of


def _staff_only(request):
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not controls.is_staff(request.user):
        raise PermissionDenied
    return None


def new(request):
    refused = _staff_only(request)
    if refused:
        return refused
    zone = time_zone_of(request.POST if request.method == "POST" else request.GET)
    with timezone.override(zone):     # the form's times are the staff member's local times
        form = NewTournamentForm(request.POST if request.method == "POST" else None,
                                 initial={"time_zone": zone})
        if request.method == "POST" and form.is_valid():
            t = services.create(form.tournament_fields(), request.user)
            return redirect("tournament", t.pk)
        return render(request, "tournaments/new.html", {
            "form": form, "zone": zone, "variant_games": form.variant_games(),
            "format_settings": form.format_settings()})


@require_POST
def check(request):
    refused = _staff_only(request)
    if refused:
        return refused
    with timezone.override(time_zone_of(request.POST)):
        form = NewTournamentForm(request.POST)
        form.is_valid()
        return JsonResponse({"errors": form.errors_by_field()})
