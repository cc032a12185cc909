"""The only writer of the pools (docs/PROTOCOL.md, "Pool").

Joining writes a ``PoolEntry``; pairing takes a pool's live entries under ``select_for_update(
skip_locked=True)`` (PostgreSQL; the embedded SQLite serialises writers anyway), groups them
(pool/pairing.py), deletes the grouped entries and makes each group's table through
``games.services.create_table``, all in one transaction: an entry another pairer holds is skipped,
one already taken is gone, so nobody is ever paired twice. Pairing runs right after each join and
every second in beat (``sweep``: windows widen with the wait, leases expire), on whichever process.
What a change tells sockets is sent on commit: the players' own group (``user_group``: waiting,
paired, left) and everyone's pool counts (``COUNTS_GROUP``).
"""
from __future__ import annotations

import logging
import random
from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Count
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import BOT_LEVELS
from games import services as games
from realtime import broadcast
from realtime.errors import ServiceError
from games.labels import BOT_LEVEL_LABELS
from games.models import Seat, Table
from moderation import linked

from . import catalogue, pace, pairing
from .models import PoolEntry

log = logging.getLogger(__name__)
COUNTS_GROUP = "pool.counts"
BUSY = (Table.Status.WAITING, Table.Status.PLAYING, Table.Status.BETWEEN_DEALS)
_shuffle = random.SystemRandom().shuffle      # who sits where at a paired table


def user_group(user_id: int) -> str:
    """Every pool socket of one user, on every process."""
    return f"pool.user.{user_id}"


def _event(group: str, message: dict) -> tuple[str, dict]:
    return group, {"type": "pool.event", "message": message}


def _tell(user_id: int, message: dict) -> None:
    broadcast.send_on_commit(lambda: [_event(user_group(user_id), message)])


def _counts_changed() -> None:
    # At most once a second; the rest are sent by beat's round (pool/pace.py).
    broadcast.send_on_commit(lambda: [_event(COUNTS_GROUP, counts_message())] if pace.send_now() else [])


def send_held_counts() -> None:
    """The counts of changes held back by pool/pace.py, when their time has come."""
    if pace.held_due():
        broadcast.send_on_commit(lambda: [_event(COUNTS_GROUP, counts_message())])


def counts(now: datetime | None = None) -> dict[str, int]:
    """People waiting per pool key (every pool, zeros included)."""
    now = now or timezone.now()
    found = dict(PoolEntry.objects.filter(lease_until__gt=now).values_list("pool")
                 .annotate(n=Count("id")).values_list("pool", "n"))
    return {p.key: found.get(p.key, 0) for p in catalogue.all_pools()}


def counts_message() -> dict:
    return {"type": "pools", "counts": counts()}


def _rating(user, pool: catalogue.Pool) -> int:
    from ratings.services import current_rating     # the ratings app reads; games never imports it
    return current_rating(user, pool.game, pool.variant)


def seated_at(user) -> int | None:
    """The table ``user`` sits at, waiting to start or playing (not one a bot took over), if any."""
    return (Seat.objects.filter(user=user, table__status__in=BUSY, replaced_by_bot="")
            .values_list("table_id", flat=True).first())


def _check_may_join(user, pool: catalogue.Pool | None) -> None:
    if user is None or not user.is_authenticated:
        raise ServiceError("forbidden", _("Log in to play people from the pool."))
    if getattr(user, "is_bot_account", False) or user.is_bot:
        raise ServiceError("bot_account", _("A bot account plays through the bot API, not the pool."),
                           category="forbidden")
    if user.is_guest:
        # The pool pairs for rated tables, and guests play unrated tables only (games/services.py).
        raise ServiceError("guest", _("Guests play on unrated tables only: sign up to play people from the pool."),
                           category="forbidden")
    if pool is None:
        raise ServiceError("unknown_pool", _("There is no such pool."), category="bad_request")
    table_id = seated_at(user)
    if table_id is not None:
        raise ServiceError("at_table", _("You already sit at a table: leave it, or finish, resign or abort its match, first."),
                           params={"table": table_id, "url": reverse("table", args=[table_id])},
                           category="bad_request")


def join(user, key, channel: str, now: datetime | None = None) -> PoolEntry:
    """``user`` waits in pool ``key``, his place held by the socket ``channel``. Refused (with a
    reason) when he may not, or already waits in a pool. Pair the pool afterwards (``pair``)."""
    now = now or timezone.now()
    pool = catalogue.find(key)
    _check_may_join(user, pool)
    waiting = PoolEntry.objects.filter(user=user).values_list("pool", flat=True).first()
    if waiting is not None:
        raise _in_pool(waiting)
    try:
        with transaction.atomic():
            entry = PoolEntry.objects.create(
                user=user, pool=pool.key, rating=_rating(user, pool), joined_at=now, channel=channel,
                lease_until=now + timedelta(seconds=settings.POOL_LEASE_SECONDS))
            _tell(user.pk, waiting_message(entry, now))
            _counts_changed()
    except IntegrityError:      # joined meanwhile from another socket
        raise _in_pool(PoolEntry.objects.filter(user=user).values_list("pool", flat=True).first()) from None
    return entry


def _in_pool(key: str | None) -> ServiceError:
    pool = catalogue.find(key)
    return ServiceError("in_pool", _("You are already waiting in a pool (%(pool)s).") % {
        "pool": pool.label if pool else key}, params={"pool": key}, category="bad_request")


def waiting_message(entry: PoolEntry, now: datetime | None = None) -> dict:
    now = now or timezone.now()
    waited = max(0.0, (now - entry.joined_at).total_seconds())
    return {"type": "waiting", "pool": entry.pool, "rating": entry.rating, "waited": round(waited, 1),
            "bot_offer_in": round(max(0.0, settings.POOL_BOT_OFFER_SECONDS - waited), 1)}


def leave(user, reason: str = "left") -> bool:
    """``user`` leaves his pool; False when he was in none (perhaps just paired)."""
    with transaction.atomic():
        deleted, _rows = PoolEntry.objects.filter(user=user).delete()
        if deleted:
            _tell(user.pk, {"type": "left", "reason": reason})
            _counts_changed()
    return bool(deleted)


def drop_socket(channel: str) -> bool:
    """The socket ``channel`` closed: the place it held goes with it."""
    with transaction.atomic():
        entry = PoolEntry.objects.select_for_update().filter(channel=channel).first()
        if entry is None:
            return False
        entry.delete()
        _tell(entry.user_id, {"type": "left", "reason": "closed"})
        _counts_changed()
    return True


def renew(channel: str, now: datetime | None = None) -> bool:
    """Extend the lease of the place the socket ``channel`` holds; False when it holds none."""
    now = now or timezone.now()
    return bool(PoolEntry.objects.filter(channel=channel, lease_until__gt=now).update(
        lease_until=now + timedelta(seconds=settings.POOL_LEASE_SECONDS)))


def entry_of(user) -> PoolEntry | None:
    return PoolEntry.objects.filter(user=user).first() if getattr(user, "is_authenticated", False) else None


def pair(key: str, now: datetime | None = None) -> list[int]:
    """Pair pool ``key`` now: the ids of the tables made (one per group)."""
    pool = catalogue.find(key)
    if pool is None:
        return []
    now = now or timezone.now()
    made: list[int] = []
    with transaction.atomic():
        entries = list(PoolEntry.objects.select_for_update(skip_locked=True)
                       .filter(pool=key, lease_until__gt=now).select_related("user").order_by("joined_at", "pk"))
        if len(entries) < pool.seats:
            return []
        entries = _without_the_seated(entries)
        waiters = [pairing.Waiter(e.pk, e.rating, (now - e.joined_at).total_seconds()) for e in entries]
        by_id = {e.pk: e for e in entries}
        for group in pairing.groups(waiters, pool.seats, settings.POOL_WINDOW_START,
                                    settings.POOL_WINDOW_GROWTH, _apart(entries)):
            chosen = [by_id[w.id] for w in group]
            try:
                with transaction.atomic():      # a group the games refuse must not block the pool
                    made.append(_seat(pool, chosen))
            except ServiceError as err:
                log.warning("pool %s: no table for %s: %s", key, [e.user_id for e in chosen], err.reason)
                for e in chosen:
                    e.delete()
                    _tell(e.user_id, {"type": "left", "reason": err.code})
                _counts_changed()
        if made:
            _counts_changed()
    return made


def _apart(entries: list[PoolEntry]) -> set[frozenset]:
    """Pairs of entries whose accounts were seen on one address: never paired (moderation/linked.py)."""
    entry_of = {e.user_id: e.pk for e in entries}
    return {frozenset(entry_of[u] for u in pair) for pair in linked.apart(entry_of)}


def _without_the_seated(entries: list[PoolEntry]) -> list[PoolEntry]:
    """Drop the waiters who sat down at a table since they joined (the lobby, a rematch): one
    table at a time."""
    seated = set(Seat.objects.filter(user_id__in=[e.user_id for e in entries], table__status__in=BUSY,
                                     replaced_by_bot="").values_list("user_id", flat=True))
    for e in entries:
        if e.user_id in seated:
            e.delete()
            _tell(e.user_id, {"type": "left", "reason": "at_table"})
            _counts_changed()
    return [e for e in entries if e.user_id not in seated]


def _seat(pool: catalogue.Pool, chosen: list[PoolEntry]) -> int:
    """The table of one group, rated as the lobby's rated table of that pool would be; the group's
    entries are deleted in the same transaction."""
    PoolEntry.objects.filter(pk__in=[e.pk for e in chosen]).delete()
    users = [e.user for e in chosen]
    _shuffle(users)
    table = games.create_table(users[0], pool.game, pool.variant, rated=True, seats=users,
                               bank_seconds=pool.bank_seconds, increment_seconds=pool.increment_seconds,
                               start=True)
    url = reverse("table", args=[table.pk])
    for e in chosen:
        _tell(e.user_id, {"type": "paired", "pool": pool.key, "table": table.pk, "url": url, "bots": False})
    log.info("pool %s: table %s for %s", pool.key, table.pk, [e.user_id for e in chosen])
    return table.pk


def sweep(now: datetime | None = None) -> int:
    """Beat's round: drop expired places, then pair every pool with waiters. Tables made."""
    now = now or timezone.now()
    with transaction.atomic():
        expired = list(PoolEntry.objects.select_for_update(skip_locked=True).filter(lease_until__lte=now))
        for e in expired:
            e.delete()
            _tell(e.user_id, {"type": "left", "reason": "expired"})
        if expired:
            _counts_changed()
    keys = set(PoolEntry.objects.values_list("pool", flat=True).distinct())
    return sum(len(pair(key, now)) for key in sorted(keys))


def play_bot(user, level, now: datetime | None = None) -> int:
    """The waiter takes the bot he was offered: out of the pool, into a started unrated table of
    the pool's game, variant and clock against bots of ``level``. Counted against his
    TABLE_CREATE_RATE like "Play now". Refused before the offer (POOL_BOT_OFFER_SECONDS)."""
    now = now or timezone.now()
    if level not in BOT_LEVELS:
        raise ServiceError("bad_request", _("Choose a bot level: %(levels)s.") % {
            "levels": ", ".join(str(BOT_LEVEL_LABELS[lv]) for lv in BOT_LEVELS)})
    entry = entry_of(user)
    if entry is None:
        raise ServiceError("not_in_pool", _("You are not waiting in a pool."), category="bad_request")
    if (now - entry.joined_at).total_seconds() < settings.POOL_BOT_OFFER_SECONDS:
        raise ServiceError("no_bot_offer", _("Wait a little: a bot is offered if nobody comes."),
                           category="bad_request")
    pool = catalogue.find(entry.pool)
    with transaction.atomic():
        deleted, _rows = PoolEntry.objects.filter(pk=entry.pk).delete()
        if not deleted:         # paired meanwhile: the table of people stands
            raise ServiceError("not_in_pool", _("You were just paired with a person."), category="bad_request")
        table = games.create_table(user, pool.game, pool.variant, seats=["me"] + [level] * (pool.seats - 1),
                                   bank_seconds=pool.bank_seconds, increment_seconds=pool.increment_seconds,
                                   start=True, counted=True)
        _tell(user.pk, {"type": "paired", "pool": pool.key, "table": table.pk,
                        "url": reverse("table", args=[table.pk]), "bots": True})
        _counts_changed()
    return table.pk
