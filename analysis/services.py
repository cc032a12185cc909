"""The only writer of analyses: create one when a match ends, run it once, read it for the pages.

A run claims the row with a conditional update (pending -> running, or a running row whose worker
stopped beating), writes progress and the result only while its claim holds, so a task delivered
twice, or two workers at once, store one result and do nothing else.
"""
from __future__ import annotations

import logging
import secrets
import time
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from games import thinking
from games.bots import analyse as A
from games.models import Deal, Match

from . import scheduling, signals
from .models import Analysis, Takeover

log = logging.getLogger(__name__)
STALE_SECONDS = 300          # a running analysis without a heartbeat this long is taken over
PROGRESS_EVERY = 0.5         # seconds between two progress writes


def human_seats(match: Match) -> list[int]:
    """Seats a person sat in (house bots' seats and bot accounts' are not analysed)."""
    return [s.index for s in match.table.seats.select_related("user")
            if s.user_id is not None and not s.user.is_bot and not s.user.is_bot_account]


def create_for(match: Match) -> Analysis | None:
    """Called in the transaction that finishes ``match``: the analysis row, and its task on commit.
    Nothing when no person played."""
    if not human_seats(match):
        return None
    analysis, _created = Analysis.objects.get_or_create(match=match)
    match_id = match.pk
    transaction.on_commit(lambda: scheduling.enqueue_analysis(match_id))
    return analysis


def record_takeover(match: Match, seat: int, deal: Deal | None) -> None:
    if deal is None:
        return
    Takeover.objects.get_or_create(match=match, seat=seat, defaults={
        "deal_number": deal.number, "step": len(deal.record.get("actions", []))})


def _skipper(takeovers: dict[int, tuple[int, int]], deal_number: int):
    """Whether a decision (step, seat) of this deal was a bot's, after it took the seat over."""
    def skip(step: int, seat: int) -> bool:
        since = takeovers.get(seat)
        return since is not None and (deal_number, step) >= since
    return skip


def _claim(analysis_id: int) -> str | None:
    token = secrets.token_hex(8)
    now = timezone.now()
    stale = now - timedelta(seconds=STALE_SECONDS)
    taken = Analysis.objects.filter(
        Q(status=Analysis.Status.PENDING) | Q(status=Analysis.Status.RUNNING, heartbeat_at__lt=stale),
        pk=analysis_id,
    ).update(status=Analysis.Status.RUNNING, claim=token, started_at=now, heartbeat_at=now, done=0)
    return token if taken else None


def run(match_id: int, pause=None) -> bool:
    """Analyse a finished match once. False when there is nothing to do (no row, already done or
    being done by another run)."""
    analysis = Analysis.objects.filter(match_id=match_id).select_related("match__table").first()
    if analysis is None or not analysis.match.finished:
        return False
    token = _claim(analysis.pk)
    if token is None:
        return False
    mine = Analysis.objects.filter(pk=analysis.pk, claim=token, status=Analysis.Status.RUNNING)
    try:
        match = analysis.match
        deals = list(Deal.objects.filter(match=match, finished=True).order_by("number"))
        records = [d.record for d in deals]
        seats = human_seats(match)
        takeovers = {t.seat: (t.deal_number, t.step) for t in Takeover.objects.filter(match=match)}
        planned = A.plan(records, lambda i, r: seats,
                         lambda i, r: _skipper(takeovers, deals[i].number))
        total = sum(len(p) for p in planned)
        mine.update(total=total)
        last = [0.0]

        def progress(done: int, total_: int) -> None:
            now = time.monotonic()
            if done == total_ or now - last[0] >= PROGRESS_EVERY:
                last[0] = now
                if not mine.update(done=done, heartbeat_at=timezone.now()):
                    raise _ClaimLost
        if records:
            # The searches run where the bots' do: in embedded mode the bot processes, never
            # the web process (games/thinking.py).
            result = A.analyse(records, planned, iterations=settings.ANALYSIS_ITERATIONS or None,
                               seed=match.pk, pause=pause, progress=progress,
                               evaluate=thinking.evaluate, cpu_clock=thinking.cpu_clock)
        else:       # the match ended before any deal did (a forfeit on time)
            result = {"format": A.FORMAT, "game": match.table.game, "deals": [], "summary": [],
                      "cpu_seconds": 0.0}
    except _ClaimLost:
        log.info("analysis of match %s was taken over by another run", match_id)
        return False
    except Exception as exc:  # a bad record must not retry forever: the row says what happened
        log.exception("analysis of match %s failed", match_id)
        mine.update(status=Analysis.Status.FAILED, error=str(exc)[:2000], finished_at=timezone.now())
        return False
    stored = mine.update(status=Analysis.Status.DONE, result=result, done=total, total=total,
                         cpu_seconds=result["cpu_seconds"],
                         finished_at=timezone.now())
    if stored:
        signals.analysed.send(sender=Analysis, match_id=match_id)
    return bool(stored)


class _ClaimLost(Exception):
    pass


def lost(limit: int = 50, older_than: int = 60) -> list[int]:
    """Matches whose analysis waits without a task (embedded mode's in-memory broker dies with its
    process) or whose worker died mid-run."""
    now = timezone.now()
    return list(Analysis.objects.filter(
        Q(status=Analysis.Status.PENDING, created_at__lt=now - timedelta(seconds=older_than))
        | Q(status=Analysis.Status.RUNNING, heartbeat_at__lt=now - timedelta(seconds=STALE_SECONDS)),
    ).order_by("created_at").values_list("match_id", flat=True)[:limit])


# --- readers ---------------------------------------------------------------------------------------
def status_of(match: Match) -> dict:
    """What the page's poll receives: status and progress, and the result once done."""
    analysis = Analysis.objects.filter(match=match).first()
    if analysis is None:
        return {"status": "none"}
    out = {"status": analysis.status, "done": analysis.done, "total": analysis.total}
    if analysis.status == Analysis.Status.DONE:
        out["result"] = analysis.result
        out["cpu_seconds"] = analysis.cpu_seconds
    return out
