"""The staff status page and its JSON (polled by static/js/ops_status.js)."""
from __future__ import annotations

from django.contrib.auth.views import redirect_to_login
from django.http import Http404, JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse

from . import status


def _staff_only(request):
    """Anonymous: to the login page; logged in without staff rights: there is no such page."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not request.user.is_staff:
        raise Http404
    return None


def status_page(request):
    refused = _staff_only(request)
    if refused is not None:
        return refused
    return render(request, "ops/status.html", {"status": status.reading(),
                                               "status_url": reverse("ops_status_json")})


def status_json(request):
    refused = _staff_only(request)
    if refused is not None:
        return refused
    reading = status.reading()
    html = render_to_string("ops/_status_body.html", {"status": reading}, request=request)
    return JsonResponse({**reading, "html": html})
