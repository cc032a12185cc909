import json

from django.db.models import Q
from django.http import Http404, HttpResponseForbidden
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games import limits, loading, messages, services
from games.engine.core import GAME_NAMES, get_rules
from games.forms import CreateTableForm
from games.labels import bot_level_choices, game_label
from games.models import Seat, Table
from realtime.errors import ServiceError
from .rules_views import rules_link_label



def profile_tables(sender, person, viewer, **kwargs) -> dict:
    """A profile page's tables still open or being played (accounts.signals.profile_shown);
    finished matches are in the history (ratings). Only those the viewer may watch by their link
    alone: no private table (it needs its invite) and no duplicate round's table (it takes no
    spectators while the round's boards are secret), unless the viewer owns it or sits there."""
    shown = Q(table__private=False, table__duplicate__isnull=True)
    if viewer is not None and viewer.is_authenticated:
        shown |= Q(table__owner=viewer) | Q(table__in=Seat.objects.filter(user=viewer).values("table"))
    seats = (Seat.objects.filter(user=person).filter(shown).exclude(table__status="finished")
             .select_related("table").order_by("-table__created_at")[:30])
    return {"seats": seats}


def _rules_or_404(game):
    if game not in GAME_NAMES:
        raise Http404("no such game")
    return get_rules(game)


def lobby(request, game):
    rules = _rules_or_404(game)
    return render(request, "lobby/lobby.html", {
        "game": game,
        "game_label": game_label(game),
        "variants": list(rules.variants),
        "seats": rules.seats,
        "tables": messages.lobby_tables(game),
        "form": CreateTableForm(rules=rules),
        "bot_levels": bot_level_choices(game),
        "create_url": reverse("create_table", args=[game]),
        "ws_url": f"/ws/lobby/{game}/",
        "rules_label": rules_link_label(request.LANGUAGE_CODE),
    })


@require_POST
def create_table(request, game):
    rules = _rules_or_404(game)
    form = CreateTableForm(request.POST, rules=rules)
    if not request.user.is_authenticated:
        return redirect(f"{reverse('login')}?next={reverse('lobby', args=[game])}")
    refused = None
    if form.is_valid():
        d = form.cleaned_data
        try:
            table = services.create_table(      # counted: TABLE_CREATE_RATE per user (games/limits.py)
                request.user, game, d["variant"], rated=d["rated"], private=d["private"],
                bank_seconds=d["bank_seconds"], increment_seconds=d["increment_seconds"],
                seats=form.seats(), bots_allowed=d["bots_allowed"], counted=True)
        except ServiceError as err:
            form.add_error(None, err.reason)
            refused = err
        else:
            url = reverse("table", args=[table.pk])
            if table.private:
                url += f"?invite={table.invite_token}"
            return redirect(url)
    page = render(request, "lobby/lobby.html", {
        "game": game, "game_label": game_label(game), "variants": list(rules.variants),
        "seats": rules.seats, "tables": messages.lobby_tables(game), "form": form,
        "create_url": reverse("create_table", args=[game]), "ws_url": f"/ws/lobby/{game}/",
        "rules_label": rules_link_label(request.LANGUAGE_CODE),
    }, status=400)
    return limits.answer(page, refused)


def table(request, table_id):
    t = get_object_or_404(Table, pk=table_id)
    invite = request.GET.get("invite")
    if not loading.can_watch(t, request.user, invite):
        return HttpResponseForbidden(_("This table is private: you need its invite link."))
    loaded = loading.load(t.pk)
    seat = loading.seat_of(loaded, request.user)
    show_invite = t.private and (seat is not None or t.owner_id == request.user.id)
    ws_url = f"/ws/table/{t.pk}/" + (f"?invite={invite}" if invite else "")
    boot = {
        "table_id": t.pk, "game": t.game, "variant": t.variant, "seats": len(loaded.seats),
        "ws_url": ws_url, "you": seat,
        "user": request.user.username if request.user.is_authenticated else None,
        "is_guest": bool(getattr(request.user, "is_guest", False)),
        "is_owner": request.user.is_authenticated and t.owner_id == request.user.id,
        "invite": t.invite_token if show_invite else None,
        "invite_url": (request.build_absolute_uri(reverse("table", args=[t.pk])) + f"?invite={t.invite_token}")
        if show_invite else None,
        "lobby_url": reverse("lobby", args=[t.game]),
        "language": request.LANGUAGE_CODE,
    }
    return render(request, "lobby/table.html", {
        "table": t, "table_id": t.pk, "game": t.game, "ws_url": ws_url, "user_seat": seat,
        "invite_token": boot["invite"], "table_boot": boot, "table_boot_json": json.dumps(boot),
    })
