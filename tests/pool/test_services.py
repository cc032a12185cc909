"""Pool services (pool/services.py): joining and its refusals, pairing order, the window widening
with the test's clock, leaving, leases, no double pairing, the bot offer."""
from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import User
from realtime.errors import ServiceError
from games.models import Table
from pool import services
from pool.models import PoolEntry
from ratings.models import Rating

pytestmark = pytest.mark.django_db(transaction=True)
POOL = "sixtysix/kurnik/300+5"
HEARTS = "hearts/standard/180+3"


def rated(name, rating=1500, game="sixtysix", variant="kurnik"):
    user = User.objects.create_user(username=name, password="a-Secret-123")
    Rating.objects.create(user=user, game=game, variant=variant, display=rating)
    return user


def join(user, at, key=POOL):
    return services.join(user, key, f"chan-{user.username}", now=at)


def refusal(call) -> ServiceError:
    with pytest.raises(ServiceError) as refused:
        call()
    return refused.value


def test_it_pairs_two_waiters_into_a_started_rated_table_of_the_pool(task_queue):
    now = timezone.now()
    ala, bob = rated("ala"), rated("bob")
    join(ala, now)
    assert services.pair(POOL, now) == []
    join(bob, now)
    [table_id] = services.pair(POOL, now)
    t = Table.objects.get(pk=table_id)
    assert (t.game, t.variant, t.rated, t.bank_seconds, t.increment_seconds) == ("sixtysix", "kurnik", True, 300, 5)
    assert t.status in (Table.Status.PLAYING, Table.Status.BETWEEN_DEALS)
    assert {s.user_id for s in t.seats.all()} == {ala.pk, bob.pk}
    assert not PoolEntry.objects.exists()


def test_it_tells_both_players_their_table_and_everyone_the_counts(task_queue, sent):
    now = timezone.now()
    ala, bob = rated("ala"), rated("bob")
    join(ala, now)
    join(bob, now)
    [table_id] = services.pair(POOL, now)
    paired = [(g, p["message"]) for g, p in sent if p.get("type") == "pool.event" and p["message"]["type"] == "paired"]
    assert sorted(g for g, _m in paired) == sorted([services.user_group(ala.pk), services.user_group(bob.pk)])
    assert all(m["table"] == table_id and m["url"] == f"/table/{table_id}/" and not m["bots"] for _g, m in paired)
    counts = [p["message"]["counts"] for g, p in sent if g == services.COUNTS_GROUP]
    assert counts[0][POOL] == 1 and counts[1][POOL] == 2 and counts[-1][POOL] == 0


def test_it_pairs_the_longest_waiter_first_with_the_closest_rating(task_queue):
    now = timezone.now()
    first, near, far, fresh = rated("first", 1500), rated("near", 1530), rated("far", 1590), rated("fresh", 1560)
    join(first, now - timedelta(seconds=3))
    join(far, now - timedelta(seconds=2))
    join(near, now - timedelta(seconds=1))
    join(fresh, now)
    made = services.pair(POOL, now)
    pairs = [{s.user.username for s in Table.objects.get(pk=t).seats.all()} for t in made]
    # first (window 130) takes near (30 away); then far (window 120) takes fresh (30 away).
    assert pairs == [{"first", "near"}, {"far", "fresh"}]


def test_it_widens_the_window_as_the_clock_the_test_drives_moves_on(task_queue):
    start = timezone.now()
    low, high = rated("low", 1400), rated("high", 1700)
    join(low, start)
    join(high, start)
    for seconds in (0, 10, 19):         # windows 100, 200, 290: 300 apart is too far
        assert services.pair(POOL, start + timedelta(seconds=seconds)) == []
    for name in ("chan-low", "chan-high"):      # their sockets renew their leases meanwhile
        assert services.renew(name, start + timedelta(seconds=10))
    later = start + timedelta(seconds=20)
    assert len(services.pair(POOL, later)) == 1     # 100 + 10 x 20 = 300


def test_it_fills_a_table_of_four_in_a_four_seat_game(task_queue):
    now = timezone.now()
    users = [rated(f"p{i}", 1500 + 10 * i, "hearts", "standard") for i in range(5)]
    for i, u in enumerate(users):
        join(u, now - timedelta(seconds=5 - i), HEARTS)
    [table_id] = services.pair(HEARTS, now)
    seated = {s.user.username for s in Table.objects.get(pk=table_id).seats.all()}
    assert seated == {"p0", "p1", "p2", "p3"}
    assert list(PoolEntry.objects.values_list("user__username", flat=True)) == ["p4"]


def test_it_refuses_a_second_place_and_a_player_at_a_table(task_queue):
    now = timezone.now()
    ala, bob = rated("ala"), rated("bob")
    join(ala, now)
    again = refusal(lambda: join(ala, now, HEARTS))
    assert again.code == "in_pool" and "already waiting" in again.reason
    from games import services as games
    t = games.create_table(bob, "sixtysix", "kurnik")      # waiting for an opponent: he sits there
    busy = refusal(lambda: join(bob, now))
    assert busy.code == "at_table" and busy.params["table"] == t.pk and "already sit at a table" in busy.reason


def test_it_refuses_an_unknown_pool_guests_visitors_and_bots(task_queue):
    from django.contrib.auth.models import AnonymousUser
    ala = rated("ala")
    assert refusal(lambda: join(ala, timezone.now(), "sixtysix/kurnik/7+7")).code == "unknown_pool"
    assert refusal(lambda: join(ala, timezone.now(), None)).code == "unknown_pool"
    guest = User.objects.create_user(username="g1", is_guest=True)
    assert refusal(lambda: join(guest, timezone.now())).code == "guest"
    assert refusal(lambda: services.join(AnonymousUser(), POOL, "c")).code == "forbidden"
    bot = User.objects.create(username="botty", is_bot=True, bot_level="random")
    assert refusal(lambda: join(bot, timezone.now())).code == "bot_account"


def test_a_player_who_leaves_or_whose_socket_closes_is_out_of_the_pool(task_queue):
    now = timezone.now()
    ala, bob, cat = rated("ala"), rated("bob"), rated("cat")
    join(ala, now)
    assert services.leave(ala) is True and services.leave(ala) is False
    join(bob, now)
    assert services.drop_socket("chan-bob") is True
    join(cat, now)
    assert services.pair(POOL, now) == []
    assert list(PoolEntry.objects.values_list("user__username", flat=True)) == ["cat"]


def test_a_place_whose_lease_ran_out_is_never_paired_and_the_sweep_drops_it(task_queue, sent):
    start = timezone.now()
    ala, bob = rated("ala"), rated("bob")
    join(ala, start)            # her web process dies: nobody renews her lease
    later = start + timedelta(seconds=16)
    join(bob, later)
    assert services.pair(POOL, later) == []
    assert services.counts(later)[POOL] == 1
    services.sweep(later)
    assert list(PoolEntry.objects.values_list("user__username", flat=True)) == ["bob"]
    assert any(p.get("message", {}).get("reason") == "expired" and g == services.user_group(ala.pk) for g, p in sent)


def test_a_renewed_lease_keeps_the_place(task_queue):
    start = timezone.now()
    ala, bob = rated("ala"), rated("bob")
    join(ala, start)
    assert services.renew("chan-ala", start + timedelta(seconds=10)) is True
    later = start + timedelta(seconds=20)
    join(bob, later)
    assert len(services.pair(POOL, later)) == 1
    assert services.renew("chan-ala", later) is False      # paired: no place to renew


def test_a_paired_player_is_never_paired_twice(task_queue):
    now = timezone.now()
    users = [rated(f"u{i}") for i in range(4)]
    for u in users:
        join(u, now)
    made = services.pair(POOL, now) + services.pair(POOL, now) + services.sweep(now) * [0]
    assert len(made) == 2
    from games.models import Seat
    seated = list(Seat.objects.filter(table_id__in=made).values_list("user_id", flat=True))
    assert sorted(seated) == sorted(u.pk for u in users)


def test_a_waiter_who_sat_down_elsewhere_is_dropped_not_paired(task_queue):
    now = timezone.now()
    ala, bob = rated("ala"), rated("bob")
    join(ala, now)
    from games import services as games
    games.create_table(ala, "hearts", "standard")       # she sits at a lobby table meanwhile
    join(bob, now)
    assert services.pair(POOL, now) == []
    assert list(PoolEntry.objects.values_list("user__username", flat=True)) == ["bob"]


def test_the_bot_is_offered_only_after_the_wait_and_taken_by_choice(task_queue):
    start = timezone.now()
    ala = rated("ala")
    join(ala, start, HEARTS)
    early = refusal(lambda: services.play_bot(ala, "basic", start + timedelta(seconds=5)))
    assert early.code == "no_bot_offer"
    assert refusal(lambda: services.play_bot(ala, "genius", start + timedelta(seconds=25))).code == "bad_request"
    table_id = services.play_bot(ala, "basic", start + timedelta(seconds=20))
    t = Table.objects.get(pk=table_id)
    assert (t.game, t.variant, t.rated, t.bank_seconds) == ("hearts", "standard", False, 180)
    assert [s.user.username if not s.user.is_bot else "bot" for s in t.seats.order_by("index")] == ["ala", "bot", "bot", "bot"]
    assert not PoolEntry.objects.exists()
    assert refusal(lambda: services.play_bot(ala, "basic")).code == "not_in_pool"
