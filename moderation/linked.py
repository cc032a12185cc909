"""Accounts seen together: what the site does about two accounts on one address.

A household, a club or a campus shares an address, so the site never refuses one (as Lichess and
other rating sites, it detects and flags boosting instead). What it does:

* It notes each account's address, as a keyed hash, when he logs in and when he joins a pool
  (``note``), and forgets it ADDRESS_KEY_DAYS days after the last sighting (``forget_old``).
* The pool never pairs two accounts seen on the same address (``apart``): a stranger's pairing is
  what the pool is for, and pairing one's own second account there was the way to farm it. Such
  accounts may still play each other at a lobby table they set up. An address more than
  CROWD accounts were seen on (a campus, a mobile carrier's gateway, a proxy that hides its
  clients' addresses) tells nothing about who is who and keeps nobody apart.
* Rated matches between accounts seen together are counted (``check_match``): at LINKED_FLAG_MATCHES (3)
  within the retention, the moderators get a report (reason "cheating", no reporter) naming the
  account that won more of them, with every such match's result. Staff decide; nothing is undone
  automatically. The same pair is reported again only for LINKED_FLAG_MATCHES more matches played
  after its last report was closed (staff who cleared a household are not asked again each match).
"""
from __future__ import annotations

from datetime import timedelta
from itertools import combinations

from django.apps import apps
from django.conf import settings
from django.db import transaction
from django.db.models import Count
from django.utils import timezone

from accounts import address_keys

from .models import Report, SeenAddress

FLAG_TEXT = "Seen together:"
CROWD = 6               # accounts on one address beyond which it is a crowd's, not a household's


def _since():
    return timezone.now() - timedelta(days=address_keys.retention_days())


def note(user, address: str | None) -> None:
    """``user`` is on ``address`` now (people only: guests play unrated, bots have no address)."""
    if not address or user is None or not getattr(user, "is_authenticated", False):
        return
    if user.is_guest or user.is_bot:
        return
    SeenAddress.objects.update_or_create(user=user, address=address, defaults={"last_seen": timezone.now()})


def apart(user_ids) -> set[frozenset]:
    """The pairs of these users seen on one address within the retention."""
    ids = set(user_ids)
    by_address: dict[str, set[int]] = {}
    for user_id, address in (SeenAddress.objects.filter(user_id__in=ids, last_seen__gte=_since())
                             .values_list("user_id", "address")):
        by_address.setdefault(address, set()).add(user_id)
    shared = [a for a, users in by_address.items() if len(users) > 1]
    crowds = set(SeenAddress.objects.filter(address__in=shared, last_seen__gte=_since()).values("address")
                 .annotate(n=Count("user_id", distinct=True)).filter(n__gt=CROWD).values_list("address", flat=True))
    return {frozenset(p) for address in shared if address not in crowds
            for p in combinations(sorted(by_address[address]), 2)}


def check_match(match_id: int) -> list[Report]:
    """After a rated match: a report for each pair of its players seen together who have played
    LINKED_FLAG_MATCHES rated matches together within the retention (none while one is open, and
    after a closed one only the matches since count)."""
    players = apps.get_model("ratings", "MatchPlayer")     # the history index (same layer: no import)
    people = list(players.objects.filter(match_id=match_id, rated=True, user__isnull=False)
                  .values_list("user_id", flat=True))
    made = []
    for pair in apart(people):
        a, b = sorted(pair)
        marker = f"{FLAG_TEXT} #{a}-#{b} "
        last = (Report.objects.filter(reporter=None, text__startswith=marker).order_by("-created")
                .values_list("status", "created", "closed_at").first())
        if last is not None and last[0] == Report.Status.OPEN:
            continue
        since = _since() if last is None else max(_since(), last[2] or last[1])
        shared = (players.objects.filter(user_id=a, rated=True, finished_at__gt=since)
                  .filter(match__players__user_id=b).values_list("match_id", flat=True))
        rows = list(players.objects.filter(match_id__in=list(shared), user_id__in=[a, b])
                    .select_related("user").order_by("finished_at", "match_id", "seat"))
        matches = sorted({r.match_id for r in rows})
        if len(matches) < settings.LINKED_FLAG_MATCHES:
            continue
        wins = {a: 0, b: 0}
        for r in rows:
            wins[r.user_id] += r.result == "win"
        gainer = max((a, b), key=lambda u: (wins[u], -u))
        other = b if gainer == a else a
        names = {r.user_id: r.user.username for r in rows}
        with transaction.atomic():
            if Report.objects.select_for_update().filter(reporter=None, status=Report.Status.OPEN,
                                                         text__startswith=marker).exists():
                continue
            lines = [f"match {r.match_id}: {names[r.user_id]} {r.result}" for r in rows]
            made.append(Report.objects.create(
                reporter=None, reported_id=gainer, reason=Report.Reason.CHEATING,
                text=(f"{marker}{names[gainer]} and {names[other]} were seen on one address and played "
                      f"{len(matches)} rated matches together within {address_keys.retention_days()} days; "
                      f"wins {wins[gainer]} to {wins[other]}.\n" + "\n".join(lines))[:1000]))
    return made


def forget_old() -> int:
    """Delete the sightings past their retention; how many."""
    return SeenAddress.objects.filter(last_seen__lt=_since()).delete()[0]
