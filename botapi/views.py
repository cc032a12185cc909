"""Pages (a person's: the bot account page, challenging a bot) and the bot API's HTTP endpoints
(a bot's, with its token: botapi/auth.py). Thin: botapi/services.py and botapi/tokens.py decide."""
from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from botapi import tokens
from accounts.models import ApiToken
from accounts.views import profile
from games import limits
from realtime.errors import ServiceError

from . import services
from .auth import error_json, token_required
from .forms import ChallengeForm
from .models import Challenge


# --- the bot account page ----------------------------------------------------------------------------
def _account_page(request, *, new_token: str | None = None, error: str | None = None, status: int = 200):
    user = request.user
    return render(request, "botapi/account.html", {
        "refusal": None if user.is_bot_account else services.bot_account_refusal(user),
        "tokens": ApiToken.objects.filter(user=user) if user.is_bot_account else [],
        "new_token": new_token, "error": error,
        "site": request.build_absolute_uri("/").rstrip("/"),
    }, status=status)


@login_required
def account(request):
    return _account_page(request)


@login_required
@require_POST
def become_bot(request):
    if request.POST.get("confirm") != "1":
        return _account_page(request, error=_("Tick the box to confirm: this cannot be undone."), status=400)
    try:
        services.make_bot_account(request.user)
    except ServiceError as err:
        return _account_page(request, error=err.reason, status=400)
    messages.success(request, _("This is now a bot account. Create a token for your program."))
    return redirect("bot_account")


@login_required
@require_POST
def create_token(request):
    try:
        _row, token = tokens.create(request.user, request.POST.get("name", ""))
    except tokens.TokenError as err:
        return _account_page(request, error=err.reason, status=400)
    # Shown once, in this answer only: never stored, never redirected through a URL.
    answer = _account_page(request, new_token=token)
    answer["Cache-Control"] = "no-store"
    return answer


@login_required
@require_POST
def revoke_token(request, token_id):
    try:
        row = tokens.revoke(request.user, token_id)
    except tokens.TokenError as err:
        return _account_page(request, error=err.reason, status=400)
    messages.success(request, _("Token %(prefix)s… revoked.") % {"prefix": row.prefix})
    return redirect("bot_account")


# --- challenging a bot (a person) -----------------------------------------------------------------------
@require_POST
def challenge(request, username):
    if not request.user.is_authenticated:
        return redirect(f"{reverse('login')}?next={reverse('profile', args=[username])}")
    form = ChallengeForm(request.POST)
    if not form.is_valid():
        messages.error(request, " ".join(e for errs in form.errors.values() for e in errs))
        return redirect("profile", username=username)
    d = form.cleaned_data
    try:
        c = services.challenge(request.user, username, d["game"], d["variant"] or None,
                               bank_seconds=d["bank_seconds"], increment_seconds=d["increment_seconds"],
                               rated=d["rated"])
    except ServiceError as err:
        messages.error(request, err.reason)
        if err.category == limits.RATE_LIMITED:     # the profile again, as 429 with Retry-After
            return limits.answer(profile(request, username), err)
        return redirect("profile", username=username)
    return redirect("bot_challenge", challenge_id=c.pk)


def _own_challenge(request, challenge_id) -> Challenge:
    c = get_object_or_404(Challenge.objects.select_related("bot", "challenger"), pk=challenge_id)
    if not request.user.is_authenticated or c.challenger_id != request.user.pk:
        raise Http404("not your challenge")
    return c


def challenge_page(request, challenge_id):
    c = _own_challenge(request, challenge_id)
    return render(request, "botapi/challenge.html", {
        "challenge": c, "status_url": reverse("bot_challenge_status", args=[c.pk]),
        "table_url": reverse("table", args=[c.table_id]) if c.table_id else None})


def challenge_status(request, challenge_id):
    """What the challenge page polls (static/js/challenge.js)."""
    c = _own_challenge(request, challenge_id)
    return JsonResponse({"status": c.state, "label": c.state_label(), "reason": c.decline_reason,
                         "table_url": reverse("table", args=[c.table_id]) if c.table_id else None})


@require_POST
def challenge_cancel(request, challenge_id):
    c = _own_challenge(request, challenge_id)
    try:
        services.cancel(request.user, c.pk)
    except ServiceError as err:
        messages.error(request, err.reason)
    return redirect("bot_challenge", challenge_id=c.pk)


# --- the bot API (a bot, with its token) ------------------------------------------------------------------
def _refused(err: ServiceError, status: int = 400) -> JsonResponse:
    out = err.as_json(None)
    answer = JsonResponse(out, status={"not_found": 404, "forbidden": 403}.get(err.category, status))
    return limits.answer(answer, err)       # a limit's refusal: 429 with Retry-After


@require_GET
@token_required
def api_account(request):
    u = request.user
    return JsonResponse({"username": u.username, "bot_account": True,
                         "token": {"prefix": request.bot_token.prefix, "name": request.bot_token.name}})


@require_GET
@token_required
def api_tables(request):
    return JsonResponse({"tables": services.open_tables(request.GET.get("game") or None)})


@require_GET
@token_required
def api_challenges(request):
    return JsonResponse({"challenges": [services.challenge_json(c) for c in services.pending_for(request.user)]})


@require_GET
@token_required
def api_playing(request):
    return JsonResponse({"tables": services.playing_tables(request.user)})


@require_GET
@token_required
def api_tournaments(request):
    return JsonResponse({"tournaments": services.open_tournaments(request.GET.get("game") or None)})


@require_POST
@token_required
def api_tournament_register(request, tournament_id):
    from tournaments import services as tournaments

    try:
        entry = tournaments.register(tournament_id, request.user)
    except tournaments.TournamentError as err:
        return JsonResponse(error_json("refused", str(err)), status=409)
    except tournaments.Tournament.DoesNotExist:
        return JsonResponse(error_json("not_found", _("There is no such tournament.")), status=404)
    return JsonResponse({"type": "registered", "tournament": tournament_id, "entry": entry.pk})


def _body(request) -> dict:
    try:
        data = json.loads(request.body or b"{}")
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


@require_POST
@token_required
def api_accept(request, challenge_id):
    try:
        table = services.accept(request.user, challenge_id)
    except ServiceError as err:
        return _refused(err, 409 if err.code.startswith("challenge_") else 400)
    return JsonResponse({"type": "accepted", "id": challenge_id, "table": table.pk})


@require_POST
@token_required
def api_decline(request, challenge_id):
    try:
        services.decline(request.user, challenge_id, _body(request).get("reason") or "")
    except ServiceError as err:
        return _refused(err, 409 if err.code.startswith("challenge_") else 400)
    return JsonResponse({"type": "declined", "id": challenge_id})


def api_not_found(request, rest=""):
    return JsonResponse(error_json("not_found", _("There is no such endpoint of the bot API.")), status=404)
