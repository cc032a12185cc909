"""The puzzles' pages: the list (``/puzzles/``) and one puzzle, whose plays static/js/puzzle.js
posts as JSON (puzzles/services.py judges them)."""
import json

from django.http import JsonResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts import address_keys
from games.engine.core import get_rules
from realtime.errors import ServiceError
from games.labels import game_label

from . import services
from .models import Attempt, Puzzle, PuzzleRating

LISTED = 60


def index(request):
    puzzles = list(Puzzle.objects.order_by("-pk")[:LISTED])
    status = {}
    if request.user.is_authenticated:
        for puzzle_id, state in (Attempt.objects.filter(user=request.user, puzzle__in=puzzles)
                                 .order_by("id").values_list("puzzle_id", "status")):
            if status.get(puzzle_id) != Attempt.Status.SOLVED:
                status[puzzle_id] = state
    for p in puzzles:
        p.label = game_label(p.game)
        p.mine = status.get(p.pk)
    return render(request, "puzzles/index.html", {
        "daily": services.daily(), "puzzles": puzzles, "mine": services.rating_of(request.user),
        "rates": services.rates(request.user),
        "best": PuzzleRating.objects.filter(attempts__gt=0).select_related("user").order_by("-rating")[:10],
    })


def puzzle(request, puzzle_id):
    p = get_object_or_404(Puzzle, pk=puzzle_id)
    attempt = services.current_attempt(p, request.user)
    state = services.result_of(attempt) if attempt is not None else {
        "status": "new", "board": services.board(p, [], True), "moves": []}
    boot = {"id": p.pk, "game": p.game, "variant": p.variant, "seat": p.seat,
            "seats": len(p.record.get("hands") or []), "rating": p.rating,
            "teams": get_rules(p.game).teams(p.variant),      # who is whose partner (the engine says)
            "one_on_one": get_rules(p.game).one_on_one(p.variant),
            "can_play": request.user.is_authenticated, "rates": services.rates(request.user),
            "attempt": state}
    return render(request, "puzzles/puzzle.html", {
        "puzzle": p, "boot": boot, "game_label": game_label(p.game),
        "daily": services.daily() == p})


def _answer(call):
    try:
        return JsonResponse(call())
    except ServiceError as err:
        status = 403 if err.category == "forbidden" else 404 if err.code == "not_found" else 400
        return JsonResponse(err.as_json(None), status=status)


@require_POST
def start(request, puzzle_id):
    return _answer(lambda: services.result_of(
        services.start(puzzle_id, request.user, address_keys.of_request(request))))


@require_POST
def play(request, puzzle_id):
    def call():
        try:
            data = json.loads(request.body or b"null")
        except ValueError:
            raise ServiceError("bad_json", _("That message is not valid JSON.")) from None
        action = data.get("action") if isinstance(data, dict) else None
        return services.play(puzzle_id, request.user, action, address_keys.of_request(request))
    return _answer(call)
