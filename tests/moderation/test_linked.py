"""Accounts seen together (moderation/linked.py): addresses noted as keyed hashes at login and on
joining a pool, the pool never pairing two of them, repeated rated matches between them flagged
to the moderators once, and the sightings forgotten after their retention."""
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from accounts import address_keys
from moderation import linked, tasks
from moderation.models import Report, SeenAddress
from pool import pairing, services as pool
from pool.models import PoolEntry

from ..ratings.factories import finished_match

pytestmark = pytest.mark.django_db(transaction=True)
HOME, AWAY = "203.0.113.5", "198.51.100.8"
POOL = "sixtysix/kurnik/300+5"


def test_a_login_notes_the_address_as_a_keyed_hash_only(make_user):
    ala = make_user("ala", password="a-Secret-123")
    assert Client(REMOTE_ADDR=HOME).post("/accounts/login/", {"username": "ala", "password": "a-Secret-123"}).status_code == 302
    seen = SeenAddress.objects.get(user=ala)
    assert seen.address == address_keys.key_of(HOME) and HOME not in seen.address
    assert address_keys.key_of("2001:db8:1:2::5") == address_keys.key_of("2001:db8:1:2::77")   # one /64
    assert address_keys.key_of(HOME) != address_keys.key_of(AWAY)


def test_the_pool_never_pairs_two_accounts_seen_on_one_address(make_user, task_queue):
    now = timezone.now()
    ala, ola, bob = make_user("ala"), make_user("ola"), make_user("bob")
    linked.note(ala, address_keys.key_of(HOME))
    linked.note(ola, address_keys.key_of(HOME))
    linked.note(bob, address_keys.key_of(AWAY))
    pool.join(ala, POOL, "chan-ala", now=now)
    pool.join(ola, POOL, "chan-ola", now=now)
    assert pool.pair(POOL, now) == []                    # the household waits for strangers
    pool.join(bob, POOL, "chan-bob", now=now)
    [table_id] = pool.pair(POOL, now)
    waiting = {e.user_id for e in PoolEntry.objects.all()}
    assert len(waiting) == 1 and waiting <= {ala.pk, ola.pk}  # one of them plays bob, the other waits on


def test_pairing_keeps_the_pairs_apart_in_four_seat_groups_too():
    waiters = [pairing.Waiter(i, 1500, 10.0 - i) for i in range(5)]
    made = pairing.groups(waiters, 4, 100, 10, {frozenset((0, 1))})
    assert len(made) == 1 and not {0, 1} <= {w.id for w in made[0]}
    assert pairing.groups(waiters[:2], 2, 100, 10, {frozenset((0, 1))}) == []


def test_repeated_rated_matches_between_accounts_seen_together_are_flagged_once(make_user):
    ala, ola, bob = make_user("ala"), make_user("ola"), make_user("bob")
    for user in (ala, ola):
        linked.note(user, address_keys.key_of(HOME))
    linked.note(bob, address_keys.key_of(AWAY))
    matches = [finished_match(ala, "sixtysix", [ala, ola], ranks=[1, 2], seed=s) for s in (1, 2)]
    matches.append(finished_match(ala, "sixtysix", [ala, bob], ranks=[1, 2], seed=3))
    assert all(tasks.check_linked(m.pk) == 0 for m in matches)          # two together: nothing yet
    third = finished_match(ala, "sixtysix", [ola, ala], ranks=[2, 1], seed=4)
    assert tasks.check_linked(third.pk) == 1
    report = Report.objects.get()
    assert report.reporter is None and report.reported == ala and report.reason == Report.Reason.CHEATING
    assert "3 rated matches" in report.text and "wins 3 to 0" in report.text and f"match {third.pk}" in report.text
    fourth = finished_match(ala, "sixtysix", [ala, ola], ranks=[1, 2], seed=5)
    assert tasks.check_linked(fourth.pk) == 0 and Report.objects.count() == 1      # one open report a pair
    unrated = finished_match(ala, "sixtysix", [ala, ola], ranks=[1, 2], seed=6, rated=False)
    Report.objects.update(status=Report.Status.CLOSED, closed_at=timezone.now())
    assert tasks.check_linked(unrated.pk) == 0                      # unrated matches are not looked at
    # Staff closed it (a household, say): only as many matches again make a new report.
    made = [tasks.check_linked(finished_match(ala, "sixtysix", [ala, ola], ranks=[2, 1], seed=s).pk)
            for s in (7, 8, 9)]
    assert made == [0, 0, 1]
    assert Report.objects.filter(status=Report.Status.OPEN).get().reported == ola


def test_a_rated_match_is_looked_at_once_it_commits(make_user, monkeypatch):
    looked = []
    monkeypatch.setattr(tasks, "_enqueue", looked.append)
    ala, ola = make_user("ala"), make_user("ola")
    m = finished_match(ala, "sixtysix", [ala, ola], ranks=[1, 2])
    finished_match(ala, "sixtysix", [ala, ola], ranks=[1, 2], rated=False)
    assert looked == [m.pk]


def test_sightings_are_forgotten_after_their_retention(make_user, settings):
    ala, ola = make_user("ala"), make_user("ola")
    for user in (ala, ola):
        linked.note(user, address_keys.key_of(HOME))
    assert linked.apart([ala.pk, ola.pk]) == {frozenset((ala.pk, ola.pk))}
    SeenAddress.objects.filter(user=ola).update(last_seen=timezone.now() - timedelta(days=settings.ADDRESS_KEY_DAYS + 1))
    assert linked.apart([ala.pk, ola.pk]) == set()
    assert tasks.forget_addresses() == 1 and SeenAddress.objects.get().user == ala
    guest = make_user("guest-1", is_guest=True)
    linked.note(guest, address_keys.key_of(HOME))
    assert not SeenAddress.objects.filter(user=guest).exists()


def test_a_crowds_address_or_the_machine_itself_keeps_nobody_apart(make_user):
    """A campus or a carrier's gateway puts many strangers on one address, and a proxy that does
    not pass on the client's address (or a local test) shows everyone as loopback: neither may
    stop the pool pairing people."""
    assert address_keys.key_of("127.0.0.1") is None and address_keys.key_of("::1") is None
    users = [make_user(f"u{i}") for i in range(linked.CROWD + 1)]
    for u in users[:2]:
        linked.note(u, address_keys.key_of(HOME))
    assert linked.apart([u.pk for u in users[:2]]) == {frozenset(u.pk for u in users[:2])}
    for u in users[2:]:
        linked.note(u, address_keys.key_of(HOME))
    assert linked.apart([u.pk for u in users[:2]]) == set()
