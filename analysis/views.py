"""The analysis of a finished match as JSON, polled by static/js/analysis.js on the match and
replay pages. Who may see it: as the match page (archive.visibility.can_see_match), and only once
the match is over (a duplicate tournament's match: once its round is over)."""
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404

from games.fair_deals import round_secret
from games.labels import player_labels
from games.models import Match
from archive.visibility import can_see_match

from . import services


def visible_finished_match(request, match_id) -> Match:
    match = get_object_or_404(Match.objects.select_related("table"), pk=match_id)
    if not match.finished or not can_see_match(match, request.user) or round_secret(match.table):
        raise Http404("no such finished match")
    return match


def status(request, match_id):
    match = visible_finished_match(request, match_id)
    data = services.status_of(match)
    names = [s.player_name or "" for s in match.table.seats.select_related("user").order_by("index")]
    data["seats"] = player_labels(names)
    resp = JsonResponse(data)
    resp["Cache-Control"] = "no-store"
    return resp
