"""Pages of the archive: a player's match history, the match page, the replay viewer, downloads,
the fair-deal check page, record upload.

Card information leaves the server only through ``_public_deal``: a finished deal of a finished
match the viewer may see (visibility.deal_is_public, visibility.can_see_match).
"""
import json
import threading

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _, ngettext

from accounts import limits

from games import fair_deals
from games.engine import fair, records
from games.labels import game_label, player_labels
from games.engine.core import GAME_NAMES, get_rules
from games.models import GAME_CHOICES, Deal, Match
from ratings.models import MatchPlayer

from . import history as match_history
from .forms import UploadForm, too_large
from .replays import replay as replay_of
from .scores import score_table
from .visibility import can_see_match, deal_is_public, public_record

HISTORY_PAGE = 25
MAX_REPLAYS = 30            # of the deals of an upload, shown in the viewer (each carries every step)
FORM_OVERHEAD = 16 * 1024   # an upload's bytes besides its records: multipart boundaries, the CSRF token
BUSY_SECONDS = 5            # the Retry-After of an upload refused while another is checked
# One upload is checked at a time in a web process: replaying deals is CPU work, and several
# uploads at once would take the interpreter's lock from the server's event loop (every socket
# and page of the process) for as long as they run.
_checking = threading.Lock()


def profile_context(person, viewer) -> dict:
    """What the profile page (accounts.views.profile, via receivers.on_profile) shows of a player's
    history: his totals and his ten latest matches the viewer may see."""
    recent = match_history.with_context(list(match_history.history(person, viewer)[:10]), person)
    return {"totals": match_history.totals(person), "recent": recent}


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
    qs = match_history.history(person, request.user, game=game, result=result)
    page = Paginator(qs, HISTORY_PAGE).get_page(request.GET.get("page"))
    rows = match_history.with_context(list(page.object_list), person)
    return render(request, "archive/history.html", {
        "person": person, "page": page, "rows": rows, "game": game or "", "result": result or "",
        "game_choices": GAME_CHOICES, "result_choices": MatchPlayer.Result.choices,
        "query": "&".join(f"{k}={v}" for k, v in (("game", game), ("result", result)) if v),
    })


# --- a match -----------------------------------------------------------------------------------------
def _match_or_404(request, match_id) -> Match:
    match = get_object_or_404(Match.objects.select_related("table"), pk=match_id)
    if not can_see_match(match, request.user):
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
    table = score_table(m, deals)
    for row in table["rows"]:
        row["public"] = deal_is_public(m, row["deal"])
    return render(request, "archive/match.html", {
        "match": m, "table": m.table, "game_label": game_label(game), "players": players,
        "columns": columns, "score": table, "finished": m.finished,
        "last_deal": _last_public_hands(m, table["rows"], names),
    })


SUIT_ORDER = "SHCD"         # alternating colours, as the table's hand shows them (static/js/lib/cards.js)


def _last_public_hands(m: Match, rows: list[dict], names: dict) -> dict | None:
    """The hands dealt in the match's last deal that may be shown (visibility.deal_is_public), each
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
    if deal is None or not deal_is_public(m, deal):
        raise Http404("no such finished deal")
    return m, deal


def replay(request, match_id, number):
    m, deal = _public_deal(request, match_id, number)
    rep = replay_of(deal.record)
    title = _("%(game)s, match #%(match)s, deal %(deal)s") % {
        "game": game_label(m.table.game), "match": m.pk, "deal": number}
    numbers = list(Deal.objects.filter(match=m, finished=True).values_list("number", flat=True))
    return render(request, "archive/replay.html", {
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
    return _json_download(json.dumps(public_record(m, deal), indent=1) + "\n",
                          f"{m.table.game}-match{m.pk}-deal{number}.json", "application/json")


def download_match(request, match_id):
    m = _match_or_404(request, match_id)
    if not m.finished:
        raise Http404("the match is not over")
    lines = [json.dumps(public_record(m, d), separators=(",", ":"))
             for d in Deal.objects.filter(match=m).order_by("number") if deal_is_public(m, d)]
    return _json_download("\n".join(lines) + "\n", f"{m.table.game}-match{m.pk}.jsonl",
                          "application/jsonl")


def verify_match(request, match_id):
    """The page that checks every deal of a finished match in the browser (static/js/verify.js,
    Web Crypto) from the match's downloaded records: no server-side check is involved."""
    m = _match_or_404(request, match_id)
    duplicate = m.table.duplicate       # a duplicate tournament's table: its round's seed and label
    return render(request, "archive/verify.html", {
        "match": m, "table": m.table, "game_label": game_label(m.table.game),
        "finished": m.finished and not fair_deals.round_secret(m.table), "match_over": m.finished,
        "duplicate": bool(duplicate),
        "label": duplicate["label"] if duplicate else fair.match_label(m.pk),
    })


# --- upload --------------------------------------------------------------------------------------
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
    parsed = records.parse_records(form.cleaned_data["payload"])
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
    return render(request, "archive/upload.html", {"form": form, "results": results, "boot": boot,
                                                   "refusal": refusal}, status=status)


def _check_records(parsed) -> tuple[list[dict], dict | None]:
    """Each record's verdict, and the replays of the first MAX_REPLAYS valid ones."""
    results, deals = [], []
    for read in parsed:
        error = None if read.error is None else _("not valid JSON (%(error)s)") % {"error": read.error}
        entry = {"line": read.line, "ok": False, "error": error, "step": None, "action": None}
        if read.error is None:
            try:
                rep = replay_of(read.record)
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
                    deals.append(rep.as_json(_("Record %(n)s") % {"n": read.line}))
        results.append(entry)
    return results, ({"deals": deals} if deals else None)
