"""The only writer of tournaments: registration, and the steps Celery runs, each dispatched to the
tournament's format (tournaments/formats/) through the registry.

Every step follows the games' pattern (docs/ARCHITECTURE.md): inside ``transaction.atomic`` lock the
tournament row (tournaments/steps.py ``lock``), check where it stands, let the format do the one
thing that is due, bump ``Tournament.version``; broadcast and enqueue only on commit. A step that
finds nothing due does nothing, so a task delivered twice, a late tick or a worker killed mid-step
(its transaction rolls back whole: a round and its tables are created together) never creates a
duplicate round or loses a result. The unique constraints on rounds and games make a duplicate
impossible even for code that forgot the lock.

Tables are ordinary tables made by ``games.services.create_table(..., start=True)``: the clocks,
bots and forfeits of the table machinery apply unchanged. A table's result is stored by the
``match_finished`` receiver (``record_result``) in the very transaction that finishes the match.
"""
from __future__ import annotations

import logging
from datetime import datetime

from django.db import DatabaseError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _, gettext_noop

from games.models import Match, Table

from . import formats, results, scheduling, steps
from .models import Entry, Game, Tournament
from .page import broadcast, state  # noqa: F401  (state: what the page shows, asked of services too)

log = logging.getLogger(__name__)
Status = Tournament.Status
TOO_FEW = gettext_noop("Too few players entered: the tournament needed at least %(min)s.")


class TournamentError(Exception):
    """A refused request, with a reason for the player."""


# --- creation ----------------------------------------------------------------------------------------
def create(fields: dict, user) -> Tournament:
    """A new scheduled tournament from checked ``fields`` (the staff's form, tournaments/new_form.py);
    beat's tick starts it when it is due. The view has checked that ``user`` is staff."""
    with transaction.atomic():
        t = Tournament.objects.create(created_by=user, **fields)
    log.info("tournament %s created by %s", t.pk, user.pk)
    return t


# --- registration ------------------------------------------------------------------------------------
def registration_open(t: Tournament, now: datetime | None = None) -> bool:
    now = now or timezone.now()
    return (t.status == Status.SCHEDULED and now < t.starts_at
            and (t.registration_opens_at is None or t.registration_opens_at <= now))


def register(tournament_id: int, user) -> Entry:
    if user is None or not user.is_authenticated or user.is_guest:
        raise TournamentError(_("Register an account to enter tournaments."))
    with transaction.atomic():
        t = Tournament.objects.select_for_update().get(pk=tournament_id)
        if not registration_open(t):
            raise TournamentError(_("Registration is closed."))
        if t.rated and user.is_bot:
            raise TournamentError(_("Rated tournaments are for people only."))
        if user.is_bot_account and not t.bots_allowed:
            raise TournamentError(_("This tournament does not allow bot accounts."))
        entry = Entry.objects.filter(tournament=t, user=user).first()
        if entry is not None and not entry.withdrawn:
            return entry
        if Entry.objects.filter(tournament=t, withdrawn=False).count() >= t.max_entries:
            raise TournamentError(_("The tournament is full."))
        if entry is None:
            entry = Entry.objects.create(tournament=t, user=user)
        else:
            entry.withdrawn = False
            entry.save(update_fields=["withdrawn"])
        steps.bump(t)
    return entry


def withdraw(tournament_id: int, user) -> None:
    with transaction.atomic():
        t = Tournament.objects.select_for_update().get(pk=tournament_id)
        if t.status != Status.SCHEDULED:
            raise TournamentError(_("The tournament has started: you can no longer withdraw."))
        updated = Entry.objects.filter(tournament=t, user=user, withdrawn=False).update(withdrawn=True)
        if not updated:
            raise TournamentError(_("You are not registered."))
        steps.bump(t)


# --- the steps Celery runs -------------------------------------------------------------------------
def start(tournament_id: int) -> bool:
    """Start a due tournament (or cancel it when too few entered) and let its format begin.
    Returns whether anything happened."""
    now = timezone.now()
    with transaction.atomic():
        t = steps.lock(tournament_id)
        if t is None or t.status != Status.SCHEDULED or t.starts_at > now:
            return False
        begin(t, now)
    return True


def begin(t: Tournament, now: datetime) -> None:
    """Start ``t`` now, in the caller's transaction with its row locked (``start``, and an
    admin's "start now"): seed the entrants and let the format pair or plan the first games."""
    entries = results.active_entries(t)
    if len(entries) < max(2, t.min_entries):
        t.status = Status.CANCELLED
        t.cancel_reason = TOO_FEW
        t.finished_at = now
        steps.bump(t)
        log.info("tournament %s cancelled: %s entries", t.pk, len(entries))
        return
    for e in entries:
        e.seed_rating = results.current_rating(e.user, t.game, results.seeding_variant(t))
        e.save(update_fields=["seed_rating"])
    t.status = Status.RUNNING
    t.started_at = now
    formats.of(t).begin(t, entries, now)


def advance(tournament_id: int) -> bool:
    """Whatever is due in a running tournament (its format says what: record finished tables,
    close a round, start the next, pair free players, or finish)."""
    with transaction.atomic():
        t = steps.lock(tournament_id)
        if t is None or t.status != Status.RUNNING:
            return False
        # The time is read once the lock is held: a step that waited for another's lock decides
        # (an arena's pairing just before its close, say) at the time it acts, not when it asked.
        return formats.of(t).advance(t, timezone.now())


def due_to_start(now: datetime | None = None) -> list[int]:
    now = now or timezone.now()
    return list(Tournament.objects.filter(status=Status.SCHEDULED, starts_at__lte=now)
                .values_list("pk", flat=True)[:100])


def running() -> list[int]:
    return list(Tournament.objects.filter(status=Status.RUNNING).values_list("pk", flat=True)[:500])


# --- results ----------------------------------------------------------------------------------------
def record_result(sender, match: Match, table: Table, **kwargs) -> None:
    """``games.signals.match_finished`` receiver: runs inside the transaction that finishes the
    match, so the result is stored exactly when the match is, or not at all."""
    g = Game.objects.select_related("round__tournament").filter(table_id=table.pk).first()
    if g is None:
        return
    fmt = formats.of(g.round.tournament)
    if g.result is None:
        g.result = results.result_of_match(table.game, table.variant, g.players, match)
        g.save(update_fields=["result"])
        fmt.after_result(g)
    tid = g.round.tournament_id
    at_once = fmt.step_right_after_a_match
    transaction.on_commit(lambda: _after_table(tid, at_once))


def _after_table(tid: int, at_once: bool) -> None:
    """After a tournament table's match has committed. A round closes here, at once, when this was
    its last table (a duplicate round's seed is revealed with it): a queued step waits behind a busy
    worker's table work, or for the next tick, and the page meanwhile showed the round as playing.
    A format that makes tables in its step (the arena pairs its free players) has it queued."""
    if at_once:
        try:
            if not advance(tid):          # done, its broadcast tells the page; else other tables play
                broadcast(tid)
            return
        except DatabaseError:             # the queued step below does it instead
            log.warning("tournament %s: could not close the round after a table ended", tid, exc_info=True)
    broadcast(tid)
    scheduling.enqueue_advance(tid)


def visible() -> dict[str, list[Tournament]]:
    """The list page: upcoming, running and recently finished or cancelled tournaments."""
    qs = Tournament.objects.all()
    return {
        "upcoming": list(qs.filter(status=Status.SCHEDULED).order_by("starts_at")[:50]),
        "running": list(qs.filter(status=Status.RUNNING).order_by("starts_at")[:50]),
        "finished": list(qs.filter(Q(status=Status.FINISHED) | Q(status=Status.CANCELLED))
                         .order_by("-starts_at")[:30]),
    }
