"""Running a tournament by hand, and a player's own pause where his format lets him pause: part of
the service layer (each locks the tournament row as tournaments/services.py does, bumps its version
and tells the page on commit). Every refusal is a ``TournamentError`` with a reason for the person.
*Admins* are superusers and those allowed to change tournaments in the admin; *staff* are users
with ``is_staff``. What a format allows is its own to say (tournaments/formats/base.py).

* ``start_now`` (admins): a scheduled tournament starts at once, when enough players entered.
* ``add_round`` (admins): one more round (also after the last round has been paired), where the
  format does not fix its rounds (``Format.add_round_refused``).
* ``pause`` / ``resume`` (admins and staff): while paused, running matches go on and count, but no
  round starts, nobody is paired in an arena and the final ranking waits; an arena's window is
  moved on by the length of the pause, so its players lose no time.
* ``pause_me`` / ``come_back`` (entrants of a format whose ``players_pause_themselves``: the
  arena): a paused player is not paired; a match he is playing goes on.
"""
from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from . import formats, services, steps
from .models import Entry, Tournament
from .services import TournamentError

Status = Tournament.Status


def is_admin(user) -> bool:
    return bool(user and user.is_authenticated and user.is_active
                and (user.is_superuser or user.has_perm("tournaments.change_tournament")))


def is_staff(user) -> bool:
    return bool(user and user.is_authenticated and user.is_active and (user.is_staff or is_admin(user)))


def _locked(tournament_id: int) -> Tournament:
    t = steps.lock(tournament_id)
    if t is None:
        raise TournamentError(_("There is no such tournament."))
    return t


def start_now(tournament_id: int, user) -> None:
    if not is_admin(user):
        raise TournamentError(_("Only an admin can start a tournament early."))
    with transaction.atomic():
        t = _locked(tournament_id)
        if t.status != Status.SCHEDULED:
            raise TournamentError(_("The tournament has already started or ended."))
        n = t.entries.filter(withdrawn=False).count()
        if n < max(2, t.min_entries):
            raise TournamentError(_("Too few players have entered to start: %(n)s of at least %(min)s.")
                                  % {"n": n, "min": max(2, t.min_entries)})
        now = timezone.now()
        t.starts_at = now
        services.begin(t, now)


def add_round(tournament_id: int, user) -> None:
    if not is_admin(user):
        raise TournamentError(_("Only an admin can add a round."))
    with transaction.atomic():
        t = _locked(tournament_id)
        if t.status not in (Status.SCHEDULED, Status.RUNNING):
            raise TournamentError(_("The tournament has ended."))
        refused = formats.of(t).add_round_refused
        if refused:
            raise TournamentError(str(refused))
        if t.rounds >= 99:
            raise TournamentError(_("A tournament has at most 99 rounds."))
        t.rounds += 1
        steps.bump(t)
        steps.enqueue_advance_at(t.pk)


def pause(tournament_id: int, user) -> None:
    if not is_staff(user):
        raise TournamentError(_("Only admins and staff can pause a tournament."))
    with transaction.atomic():
        t = _locked(tournament_id)
        if t.status != Status.RUNNING:
            raise TournamentError(_("Only a running tournament can be paused."))
        if t.paused_at is not None:
            raise TournamentError(_("The tournament is already paused."))
        t.paused_at = timezone.now()
        steps.bump(t)


def resume(tournament_id: int, user) -> None:
    if not is_staff(user):
        raise TournamentError(_("Only admins and staff can resume a tournament."))
    with transaction.atomic():
        t = _locked(tournament_id)
        if t.status != Status.RUNNING or t.paused_at is None:
            raise TournamentError(_("The tournament is not paused."))
        now = timezone.now()
        if t.ends_at is not None:
            t.ends_at += now - t.paused_at
        t.paused_at = None
        steps.bump(t)
        steps.enqueue_advance_at(t.pk)
        if t.ends_at is not None:
            steps.enqueue_advance_at(t.pk, t.ends_at)


def _own_entry(t: Tournament, user) -> Entry:
    if not formats.of(t).players_pause_themselves:
        raise TournamentError(_("Only arena players pause themselves."))
    if t.status != Status.RUNNING:
        raise TournamentError(_("The arena is not running."))
    entry = None
    if user is not None and user.is_authenticated:
        entry = Entry.objects.filter(tournament=t, user=user, withdrawn=False).first()
    if entry is None:
        raise TournamentError(_("You are not playing in this arena."))
    return entry


def pause_me(tournament_id: int, user) -> None:
    """No new match for him until he comes back; the match he is playing goes on."""
    with transaction.atomic():
        t = _locked(tournament_id)
        entry = _own_entry(t, user)
        if not entry.paused:
            entry.paused = True
            entry.save(update_fields=["paused"])
            steps.bump(t)


def come_back(tournament_id: int, user) -> None:
    """Paired again from now (at once when someone is free)."""
    with transaction.atomic():
        t = _locked(tournament_id)
        entry = _own_entry(t, user)
        if entry.paused:
            entry.paused = False
            entry.free_since = timezone.now()
            entry.save(update_fields=["paused", "free_since"])
            steps.bump(t)
            steps.enqueue_advance_at(t.pk)

