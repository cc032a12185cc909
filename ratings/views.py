"""Pages: the leaderboards, how ratings work, a profile's ratings. A match's history, page,
replays and downloads are the archive's (archive/views.py)."""
from django.conf import settings
from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import redirect, render

from games.labels import game_label
from games.engine.core import GAME_NAMES, get_rules

from . import rating as R
from . import services

PAGE_SIZE = 50


def game_variants() -> list[dict]:
    return [{"game": g, "label": game_label(g), "variants": list(get_rules(g).variants)} for g in GAME_NAMES]


# --- charts ----------------------------------------------------------------------------------------
def chart(values: list[int], width: int = 320, height: int = 90, pad: int = 6) -> dict:
    """An inline SVG polyline of a rating history (no chart library)."""
    lo, hi = min(values), max(values)
    span = max(hi - lo, 20)
    mid = (hi + lo) / 2
    lo, hi = mid - span / 2, mid + span / 2
    n = len(values)
    step = (width - 2 * pad) / max(n - 1, 1)
    pts = [(pad + i * step, pad + (hi - v) * (height - 2 * pad) / span) for i, v in enumerate(values)]
    return {"width": width, "height": height, "points": " ".join(f"{x:.1f},{y:.1f}" for x, y in pts),
            "last": pts[-1], "min": min(values), "max": max(values),
            "base_y": pad + (hi - R.DEFAULT_DISPLAY) * (height - 2 * pad) / span
            if lo <= R.DEFAULT_DISPLAY <= hi else None}


def profile_context(person) -> dict:
    """What the profile page (accounts.views.profile, via receivers.on_profile) shows of ratings."""
    ratings = services.ratings_of(person)
    for r in ratings:
        r.chart = chart(r.history)
    return {"ratings": ratings, "provisional_games": R.PROVISIONAL_GAMES}


# --- leaderboard -------------------------------------------------------------------------------------
def leaderboard(request, game=None, variant=None, bots=False):
    """People's leaderboard, or (``bots``) the bot accounts' one (the bot API)."""
    if game is None:
        return redirect("bot_leaderboard" if bots else "leaderboard", game=GAME_NAMES[0],
                        variant=get_rules(GAME_NAMES[0]).variants[0])
    if game not in GAME_NAMES or variant not in get_rules(game).variants:
        raise Http404("no such game")
    page = Paginator(services.leaderboard(game, variant, bot_accounts=bots), PAGE_SIZE).get_page(request.GET.get("page"))
    return render(request, "ratings/leaderboard.html", {
        "game": game, "variant": variant, "game_label": game_label(game), "page": page,
        "first_rank": page.start_index(), "games": game_variants(),
        "provisional_games": R.PROVISIONAL_GAMES, "bots": bots,
    })


# --- how ratings work --------------------------------------------------------------------------------
def rules_help(request):
    """The ratings' rules for players: the scale, house bots, puzzles, accounts seen together,
    duplicate boards (docs/PROTOCOL.md "Ratings and fair play" says the same)."""
    return render(request, "ratings/help.html", {
        "provisional_games": R.PROVISIONAL_GAMES, "puzzle_max": settings.PUZZLE_MAX_CHANGE,
        "flag_matches": settings.LINKED_FLAG_MATCHES, "days": settings.ADDRESS_KEY_DAYS,
    })
