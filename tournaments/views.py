from django.contrib import messages
from django.db.models import Count
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from games.engine.core import GAME_NAMES, get_rules
from games.models import GAME_CHOICES

from . import controls, follow, formats, services
from .models import Entry, Tournament

GAME_LABELS = dict(GAME_CHOICES)


def tournament_list(request):
    groups = services.visible()
    upcoming = groups["upcoming"]
    entries = dict(Entry.objects.filter(tournament__in=upcoming, withdrawn=False).values_list("tournament")
                   .annotate(n=Count("id")).values_list("tournament", "n"))
    now = timezone.now()
    for t in [t for items in groups.values() for t in items]:
        t.format_label = formats.of(t).label
    for t in upcoming:      # what the list says of each: entries, and whether one can register
        t.entry_count = entries.get(t.pk, 0)
        t.shown_variant = t.variant or get_rules(t.game).variants[0]
        if services.registration_open(t, now):
            t.registration = "full" if t.entry_count >= t.max_entries else "open"
        elif t.registration_opens_at is not None and now < t.registration_opens_at:
            t.registration = "soon"
        else:
            t.registration = "closed"
    return render(request, "tournaments/list.html", {
        "groups": groups, "game_labels": GAME_LABELS, "formats": formats.FORMATS.values(),
        "lobbies": [(g, GAME_LABELS[g]) for g in GAME_NAMES], "can_create": controls.is_staff(request.user)})


def _context(request, t: Tournament) -> dict:
    state = services.state(t)
    fmt = formats.of(t)
    now = timezone.now()
    mine = None
    if request.user.is_authenticated:
        mine = Entry.objects.filter(tournament=t, user=request.user, withdrawn=False).first()
    return {
        "t": t, "fmt": fmt, "state": state, "mine": mine, "game_label": GAME_LABELS.get(t.game, t.game),
        "my_table": follow.current_table(t, mine), "is_admin": controls.is_admin(request.user),
        "is_staff": controls.is_staff(request.user), "now": now,
        "registration_open": services.registration_open(t),
        "can_register": (services.registration_open(t) and request.user.is_authenticated
                         and not request.user.is_guest and mine is None),
        "full": len(state["entries"]) >= t.max_entries,
        "pause_why": follow.paused_why(t, mine) if mine is not None and mine.paused else None,
        **fmt.page_context(t, now),
    }


def me(request, tournament_id):
    """The viewer's table now and, paused, why and the way back (tournaments/follow.py), as JSON:
    what his open table page asks whenever the tournament's socket says it changed."""
    t = get_object_or_404(Tournament, pk=tournament_id)
    return JsonResponse(follow.for_player(t, request.user))


def detail(request, tournament_id):
    t = get_object_or_404(Tournament, pk=tournament_id)
    ctx = _context(request, t)
    ctx["ws_url"] = f"/ws/tournament/{t.pk}/"
    ctx["live_url"] = reverse("tournament_live", args=[t.pk])
    # A finished or cancelled tournament changes no more: no socket, no "Live" dot.
    ctx["over"] = t.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED)
    return render(request, "tournaments/detail.html", ctx)


def live(request, tournament_id):
    """The live part of the page, re-rendered when the socket says something changed."""
    t = get_object_or_404(Tournament, pk=tournament_id)
    return render(request, formats.of(t).template, _context(request, t))


def _entry_change(request, tournament_id, change):
    """Register or withdraw (``change``), then back to the tournament page with any refusal."""
    url = reverse("tournament", args=[tournament_id])
    if not request.user.is_authenticated:
        return redirect(f"{reverse('login')}?next={url}")
    get_object_or_404(Tournament, pk=tournament_id)
    try:
        change(tournament_id, request.user)
    except services.TournamentError as err:
        messages.error(request, str(err))
    return redirect(url)


@require_POST
def control(request, tournament_id, action):
    """The page's buttons: the staff's (start now, add a round, pause, resume) and an arena
    player's own pause; each refusal comes back as a message."""
    if action not in CONTROLS:
        raise Http404
    return _entry_change(request, tournament_id, CONTROLS[action])


CONTROLS = {"start-now": controls.start_now, "add-round": controls.add_round, "pause": controls.pause,
            "resume": controls.resume, "pause-me": controls.pause_me, "come-back": controls.come_back}


@require_POST
def register(request, tournament_id):
    return _entry_change(request, tournament_id, services.register)


@require_POST
def withdraw(request, tournament_id):
    return _entry_change(request, tournament_id, services.withdraw)
