"""The home page as a game picker, and "Play now": one click from it to a started table against
bots of the chosen level (a visitor without an account becomes a guest on the way)."""
from __future__ import annotations

from django.contrib import messages
from django.db.models import Count
from django.shortcuts import redirect, render
from django.template import TemplateDoesNotExist
from django.template.loader import select_template
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts import limits as accounts_limits
from accounts.guests import login_as_guest
from accounts.models import BOT_LEVELS

from games.bots import levels

from games import in_progress, limits, services, time_controls
from games.engine import core
from games.engine.core import GAME_NAMES
from realtime.errors import ServiceError
from games.labels import BOT_LEVEL_LABELS, bot_label, bot_level_choices, game_label, variant_label
from games.models import Seat, Table

Status = Table.Status
LIVE = (Status.PLAYING, Status.BETWEEN_DEALS)
DEFAULT_LEVEL = "basic"
SESSION_KEY = "play_now"        # {"level": ..., "variants": {game: variant}}: the last choices
OPEN_TABLES = 12                # how many tables waiting for a player the page lists


def _summary_template(game: str, language: str) -> str | None:
    """The name of the game's short how-to-play in the reader's language (English otherwise);
    None while there is none."""
    lang = (language or "en").split("-")[0]
    names = [f"rules/{game}.summary.{lang}.html", f"rules/{game}.summary.en.html"]
    try:
        return select_template(names).template.name
    except TemplateDoesNotExist:
        return None


def _remembered(request) -> dict:
    saved = request.session.get(SESSION_KEY)
    return saved if isinstance(saved, dict) else {}


def _counts() -> tuple[dict, dict]:
    """Per game: tables being played now, and the people (not bots) playing at them."""
    tables = dict(Table.objects.filter(status__in=LIVE).values_list("game").annotate(n=Count("id"))
                  .values_list("game", "n"))
    players = dict(Seat.objects.filter(table__status__in=LIVE, user__is_bot=False, replaced_by_bot="")
                   .values_list("table__game").annotate(n=Count("user", distinct=True))
                   .values_list("table__game", "n"))
    return tables, players


def _watch_url(game: str) -> str | None:
    """A public match being played now, to watch (the newest)."""
    pk = (Table.objects.filter(game=game, private=False, status__in=LIVE).order_by("-id")
          .values_list("pk", flat=True).first())
    return reverse("table", args=[pk]) if pk else None


def _games(request, errors: dict | None = None) -> list[dict]:
    saved = _remembered(request)
    level = saved.get("level") if saved.get("level") in BOT_LEVELS else DEFAULT_LEVEL
    variants_saved = saved.get("variants") if isinstance(saved.get("variants"), dict) else {}
    tables, players = _counts()
    out = []
    for game in GAME_NAMES:
        rules = core.get_rules(game)
        chosen = variants_saved.get(game)
        out.append({
            "name": game, "label": game_label(game), "seats": rules.seats,
            "variants": [{"value": v, "label": variant_label(v)} for v in rules.variants],
            "variant": chosen if chosen in rules.variants else rules.variants[0],
            "level": levels.offered(game, level),      # a level merged in this game: the one it joins
            "levels": bot_level_choices(game),
            "clocks": time_controls.choices(saved.get("clock")),
            "summary": _summary_template(game, request.LANGUAGE_CODE),
            "lobby_url": reverse("lobby", args=[game]),
            "watch_url": _watch_url(game),
            "tables": tables.get(game, 0), "players": players.get(game, 0),
            "error": (errors or {}).get(game),
        })
    return out


def _open_tables(user) -> list[dict]:
    """Public tables waiting for a player, newest first, with who sits there (``mine``: ``user``
    sits at it himself, so it offers the way back, not a seat)."""
    tables = list(Table.objects.filter(private=False, status=Status.WAITING, seats__user=None)
                  .distinct().order_by("-id")[:OPEN_TABLES])
    seats: dict[int, list[Seat]] = {}
    for s in Seat.objects.filter(table__in=tables).select_related("user").order_by("index"):
        seats.setdefault(s.table_id, []).append(s)
    out = []
    for t in tables:
        names = []
        for s in seats.get(t.pk, []):
            if s.user is None:
                names.append({"open": True, "name": _("open seat")})
            elif s.user.is_bot:
                names.append({"bot": True, "name": bot_label(s.user.bot_level)})
            else:
                names.append({"name": s.user.username})
        mine = user.is_authenticated and any(s.user_id == user.pk for s in seats.get(t.pk, []))
        out.append({"id": t.pk, "game": game_label(t.game), "variant": variant_label(t.variant),
                    "rated": t.rated, "seats": names, "mine": mine,
                    "open": sum(1 for n in names if n.get("open")),
                    "clock": f"{t.bank_seconds // 60}+{t.increment_seconds}" if t.bank_seconds % 60 == 0
                    else f"{t.bank_seconds}s+{t.increment_seconds}",
                    "url": reverse("table", args=[t.pk]) + ("" if mine else "?sit=1")})
    return out


def _page(request, errors: dict | None = None, status: int = 200):
    return render(request, "lobby/home.html", {
        "games": _games(request, errors),
        "open_tables": _open_tables(request.user),
        "page_error": (errors or {}).get(""),
    }, status=status)


def home(request):
    return _page(request)


@require_POST
def play_now(request):
    """A started, unrated table: the player in seat 0, bots of the chosen level in the others. A player
    with a match in progress is taken back to its table instead (games/in_progress.py)."""
    game = request.POST.get("game")
    if game not in GAME_NAMES:
        return _bad(request, None, _("There is no such game."))
    rules = core.get_rules(game)
    variant = request.POST.get("variant") or rules.variants[0]
    if variant not in rules.variants:
        return _bad(request, game, _("Choose one of this game's variants."))
    level = request.POST.get("level") or DEFAULT_LEVEL
    if level not in BOT_LEVELS:
        return _bad(request, game, _("Choose a bot level: %(levels)s.") % {
            "levels": ", ".join(str(BOT_LEVEL_LABELS[lv]) for lv in BOT_LEVELS)})
    clock = request.POST.get("clock") or time_controls.DEFAULT
    bank_increment = time_controls.parse(clock)
    if bank_increment is None:
        return _bad(request, game, _("Choose one of the offered clocks."))
    try:
        user = login_as_guest(request)          # GUEST_RATE per address
    except accounts_limits.Limited as over:
        return over.answer(_page(request, {game: over.message}, status=429))
    playing = in_progress.table_in_progress(user)
    if playing is not None:         # one live table at a time: back to it, not a second one
        messages.info(request, _("You have a game in progress: finish it, or resign or abort it, "
                                 "before you start another."))
        return redirect(reverse("table", args=[playing]))
    try:
        table = services.create_table(user, game, variant, seats=["me"] + [level] * (rules.seats - 1),
                                      bank_seconds=bank_increment[0], increment_seconds=bank_increment[1],
                                      start=True, counted=True)     # TABLE_CREATE_RATE, with the lobby's form
    except ServiceError as err:
        return limits.answer(_bad(request, game, err.reason), err)
    saved = _remembered(request)
    variants = saved.get("variants") if isinstance(saved.get("variants"), dict) else {}
    request.session[SESSION_KEY] = {"level": level, "variants": {**variants, game: variant}, "clock": clock}
    return redirect(reverse("table", args=[table.pk]))


def _bad(request, game: str | None, reason: str):
    """The home page again (400), the reason shown at the game's card (or atop the page)."""
    return _page(request, {game or "": reason}, status=400)
