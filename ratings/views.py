"""Pages: leaderboard, match history, match page, replay viewer, downloads, record upload.

Card information leaves the server only through ``_public_deal``: a finished deal of a finished
match the viewer may see (services.deal_is_public, services.can_see_match).
"""
import json
import threading

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _, ngettext

from accounts import limits

from games import fair_deals
from games.engine import fair, records
from games.labels import game_label, player_labels
from games.engine.core import GAME_NAMES, get_rules
from games.models import GAME_CHOICES, Deal, Match

from . import rating as R
from . import services
from .forms import UploadForm, too_large
from .models import MatchPlayer

PAGE_SIZE = 50
HISTORY_PAGE = 25
MAX_REPLAYS = 30            # of the deals of an upload, shown in the viewer (each carries every step)
FORM_OVERHEAD = 16 * 1024   # an upload's bytes besides its records: multipart boundaries, the CSRF token
BUSY_SECONDS = 5            # the Retry-After of an upload refused while another is checked
# One upload is checked at a time in a web process: replaying deals is CPU work, and several
# uploads at once would take the interpreter's lock from the server's event loop (every socket
# and page of the process) for as long as they run.
_checking = threading.Lock()


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


def profile_context(person, viewer) -> dict:
    """What the profile page (accounts.views.profile, via receivers.on_profile) shows of ratings and history."""
    ratings = services.ratings_of(person)
    for r in ratings:
        r.chart = chart(r.history)
    recent = services.with_context(list(services.history(person, viewer)[:10]), person)
    return {"ratings": ratings, "totals": services.totals(person), "recent": recent,
            "provisional_games": R.PROVISIONAL_GAMES}


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


# --- history -----------------------------------------------------------------------------------------
@login_required
def my_history(request):
    return redirect("history", username=request.user.username)


def history(request, username):
    person = get_object_or_404(get_user_model(), username=username)
    game = request.GET.get("game") or None
    result = request.GET.get("result") or None
    if game not in (None, *GAME_NAMES):
        game = None
    if result not in (None, *MatchPlayer.Result.values):
        result = None
    qs = services.history(person, request.user, game=game, result=result)
    page = Paginator(qs, HISTORY_PAGE).get_page(request.GET.get("page"))
    rows = services.with_context(list(page.object_list), person)
    return render(request, "ratings/history.html", {
        "person": person, "page": page, "rows": rows, "game": game or "", "result": result or "",
        "game_choices": GAME_CHOICES, "result_choices": MatchPlayer.Result.choices,
        "query": "&".join(f"{k}={v}" for k, v in (("game", game), ("result", result)) if v),
    })


# --- a match -----------------------------------------------------------------------------------------
def _match_or_404(request, match_id) -> Match:
    match = get_object_or_404(Match.objects.select_related("table"), pk=match_id)
    if not services.can_see_match(match, request.user):
        raise Http404("no such match")
    return match


def match(request, match_id):
    m = _match_or_404(request, match_id)
    deals = list(Deal.objects.filter(match=m).defer("record").order_by("number"))
    players = list(MatchPlayer.objects.filter(match=m).select_related("user").order_by("seat"))
    if not players:     # not finished yet: the seats as they are
        players = [{"seat": s.index, "name": s.user.display_name if s.user_id else "", "user": s.user}
                   for s in m.table.seats.select_related("user").order_by("index")]
    changes = {c.user_id: c for c in m.rating_changes.all()}
    game = m.table.game
    names = {p["seat"] if isinstance(p, dict) else p.seat: p["name"] if isinstance(p, dict) else p.name
             for p in players}
    names = dict(zip(sorted(names), player_labels([names[s] for s in sorted(names)])))
    # One score column per team, named after its seats ("A & C" for a partnership).
    columns = [" & ".join(names.get(s, "") for s in team)
               for team in get_rules(game).teams(m.table.variant)]
    hints = dict(m.table.seats.values_list("index", "hints_used"))     # games/hints.py
    for p in players:
        if isinstance(p, dict):
            p["label"] = names[p["seat"]]
            p["hints"] = hints.get(p["seat"], 0)
        else:
            p.change = changes.get(p.user_id)
            p.label = names[p.seat]
            p.hints = hints.get(p.seat, 0)
    table = services.score_table(m, deals)
    for row in table["rows"]:
        row["public"] = services.deal_is_public(m, row["deal"])
    return render(request, "ratings/match.html", {
        "match": m, "table": m.table, "game_label": game_label(game), "players": players,
        "columns": columns, "score": table, "finished": m.finished,
        "last_deal": _last_public_hands(m, table["rows"], names),
    })


SUIT_ORDER = "SHCD"         # alternating colours, as the table's hand shows them (static/js/lib/cards.js)


def _last_public_hands(m: Match, rows: list[dict], names: dict) -> dict | None:
    """The hands dealt in the match's last deal that may be shown (services.deal_is_public), each
    sorted by suit and rank, for the match page's look at the cards."""
    public = [row for row in rows if row["public"]]
    if not public:
        return None
    row = public[-1]
    record = Deal.objects.only("record").get(pk=row["deal"].pk).record
    order = get_rules(record["game"]).rank_order
    key = lambda code: (SUIT_ORDER.index(code[1]), order.index(code[0]))      # noqa: E731
    return {"number": row["number"], "trump": record.get("trump_card"), "dealer": names.get(record["dealer"]),
            "hands": [{"seat": seat, "name": names.get(seat, ""), "cards": sorted(hand, key=key)}
                      for seat, hand in enumerate(record["hands"])]}


def _public_deal(request, match_id, number) -> tuple[Match, Deal]:
    m = _match_or_404(request, match_id)
    deal = Deal.objects.filter(match=m, number=number - 1).first()
    if deal is None or not services.deal_is_public(m, deal):
        raise Http404("no such finished deal")
    return m, deal


def replay(request, match_id, number):
    m, deal = _public_deal(request, match_id, number)
    rep = services.replay(deal.record)
    title = _("%(game)s, match #%(match)s, deal %(deal)s") % {
        "game": game_label(m.table.game), "match": m.pk, "deal": number}
    numbers = list(Deal.objects.filter(match=m, finished=True).values_list("number", flat=True))
    return render(request, "ratings/replay.html", {
        "match": m, "number": number, "title": title, "boot": {"deals": [rep.as_json(title)]},
        "prev": number - 1 if number - 2 in numbers else None,
        "next": number + 1 if number in numbers else None,
    })


def _json_download(text: str, filename: str, content_type: str) -> HttpResponse:
    resp = HttpResponse(text, content_type=content_type)
    resp["Content-Disposition"] = f'attachment; filename="{filename}"'
    return resp


def download_deal(request, match_id, number):
    m, deal = _public_deal(request, match_id, number)
    return _json_download(json.dumps(services.public_record(m, deal), indent=1) + "\n",
                          f"{m.table.game}-match{m.pk}-deal{number}.json", "application/json")


def download_match(request, match_id):
    m = _match_or_404(request, match_id)
    if not m.finished:
        raise Http404("the match is not over")
    lines = [json.dumps(services.public_record(m, d), separators=(",", ":"))
             for d in Deal.objects.filter(match=m).order_by("number") if services.deal_is_public(m, d)]
    return _json_download("\n".join(lines) + "\n", f"{m.table.game}-match{m.pk}.jsonl",
                          "application/jsonl")


def verify_match(request, match_id):
    """The page that checks every deal of a finished match in the browser (static/js/verify.js,
    Web Crypto) from the match's downloaded records: no server-side check is involved."""
    m = _match_or_404(request, match_id)
    duplicate = m.table.duplicate       # a duplicate tournament's table: its round's seed and label
    return render(request, "ratings/verify.html", {
        "match": m, "table": m.table, "game_label": game_label(m.table.game),
        "finished": m.finished and not fair_deals.round_secret(m.table), "match_over": m.finished,
        "duplicate": bool(duplicate),
        "label": duplicate["label"] if duplicate else fair.match_label(m.pk),
    })


# --- upload --------------------------------------------------------------------------------------
def parse_records(payload: str) -> list[tuple[int, object, str | None]]:
    """(line number, record or None, error) for a JSON document or JSON lines."""
    text = payload.strip()
    try:
        doc = json.loads(text)
    except ValueError:
        doc = None
    else:
        if isinstance(doc, list):
            return [(i + 1, rec, None) for i, rec in enumerate(doc)]
        return [(1, doc, None)]
    out = []
    for i, line in enumerate(payload.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            out.append((i, json.loads(line), None))
        except ValueError as exc:
            out.append((i, None, _("not valid JSON (%(error)s)") % {"error": exc}))
    return out


def upload(request):
    """Check deal records through the engine. A sync view: under ASGI, Django runs it on a thread
    of its own, off the event loop; what it may cost is bounded by RECORD_UPLOAD_BYTES,
    RECORD_UPLOAD_DEALS, RECORD_UPLOAD_RATE per address and one upload at a time per process."""
    if request.method != "POST":
        return _upload_page(request, UploadForm())
    if int(request.META.get("CONTENT_LENGTH") or 0) > settings.RECORD_UPLOAD_BYTES + FORM_OVERHEAD:
        return _upload_page(request, UploadForm(), refusal=too_large(), status=413)
    try:
        limits.take(request, "upload")              # RECORD_UPLOAD_RATE per address
    except limits.Limited as over:
        return over.answer(_upload_page(request, UploadForm(), refusal=over.message))
    form = UploadForm(request.POST, request.FILES)
    if not form.is_valid():
        return _upload_page(request, form)
    parsed = parse_records(form.cleaned_data["payload"])
    if len(parsed) > settings.RECORD_UPLOAD_DEALS:
        form.add_error(None, ngettext(
            "At most %(limit)d deal can be checked at a time; these records hold %(count)d.",
            "At most %(limit)d deals can be checked at a time; these records hold %(count)d.",
            settings.RECORD_UPLOAD_DEALS) % {"limit": settings.RECORD_UPLOAD_DEALS, "count": len(parsed)})
        return _upload_page(request, form, status=413)
    if not _checking.acquire(blocking=False):
        form.add_error(None, _("The server is checking other records just now. Please try again in a few seconds."))
        busy = _upload_page(request, form, status=503)
        busy["Retry-After"] = str(BUSY_SECONDS)
        return busy
    try:
        results, boot = _check_records(parsed)
    finally:
        _checking.release()
    return _upload_page(request, form, results, boot)


def _upload_page(request, form, results=(), boot=None, *, refusal: str | None = None, status=200):
    """The upload page; ``refusal``: why records were refused before the form was read."""
    return render(request, "ratings/upload.html", {"form": form, "results": results, "boot": boot,
                                                   "refusal": refusal}, status=status)


def _check_records(parsed) -> tuple[list[dict], dict | None]:
    """Each record's verdict, and the replays of the first MAX_REPLAYS valid ones."""
    results, deals = [], []
    for line, rec, error in parsed:
        entry = {"line": line, "ok": False, "error": error, "step": None, "action": None}
        if rec is not None:
            try:
                rep = services.replay(rec)
            except records.RecordError as exc:
                entry.update(error=exc.reason, step=exc.step,
                             action=None if exc.action is None else json.dumps(exc.action))
            else:
                entry.update(ok=rep.matches, finished=rep.finished, result=json.dumps(rep.result),
                             stated=json.dumps(rep.stated), game=game_label(rep.game),
                             variant=rep.variant, players=", ".join(player_labels(rep.players)))
                if not rep.matches:
                    entry["error"] = _("the stated result differs from the engine's")
                if len(deals) < MAX_REPLAYS:
                    deals.append(rep.as_json(_("Record %(n)s") % {"n": line}))
        results.append(entry)
    return results, ({"deals": deals} if deals else None)
