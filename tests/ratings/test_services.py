"""Ratings are applied exactly once per finished rated match, with the arithmetic of rating.py."""
import threading
import time
from datetime import timedelta

import pytest
from django.db import IntegrityError, OperationalError, connection, transaction
from django.utils import timezone

from games import loading, services as games
from games.bots import levels
from games.models import Match, Table
from ratings import rating as R
from ratings import services, tasks
from ratings.models import MatchPlayer, Rating, RatingChange

from ..games.helpers import every_seat_moves, expire_clock
from .factories import finished_match

pytestmark = pytest.mark.django_db(transaction=True)


def skills_of(users, game, variant):
    out = []
    for u in users:
        r = Rating.objects.filter(user=u, game=game, variant=variant).first()
        out.append(R.Skill(r.mu, r.sigma) if r else R.Skill())
    return out


def test_it_rates_a_finished_rated_match_once_on_commit(make_user, make_bot, rating_queue):
    ala, bot = make_user("ala"), make_user("b1")
    m = finished_match(ala, "sixtysix", [ala, bot])
    assert rating_queue.pending == [m.pk]           # enqueued on commit, not run yet
    assert not RatingChange.objects.exists()
    rating_queue.run()
    expected = R.rate_match("sixtysix", [R.Skill(), R.Skill()], m.ranks)
    for seat, user in enumerate([ala, bot]):
        r = Rating.objects.get(user=user, game="sixtysix", variant="kurnik")
        assert (r.mu, r.sigma) == pytest.approx((expected[seat].mu, expected[seat].sigma))
        assert r.games == 1 and r.wins == (1 if m.ranks[seat] == 1 else 0)
        assert r.display == R.display(expected[seat].mu)
        c = RatingChange.objects.get(match=m, user=user)
        assert (c.display_before, c.display_after) == (1500, r.display)
    assert services.current_rating(ala, "sixtysix", "kurnik") == Rating.objects.get(user=ala).display


def test_running_the_finishing_task_twice_changes_nothing_the_second_time(make_user, make_bot, rating_queue):
    ala, bot = make_user("ala"), make_user("b1")
    m = finished_match(ala, "sixtysix", [ala, bot])
    rating_queue.pending.append(m.pk)                # the task duplicated (a redelivery)
    assert rating_queue.run() == 2
    tasks.rate_match(m.pk)                           # and once more, later
    assert RatingChange.objects.filter(match=m).count() == 2
    assert list(Rating.objects.values_list("games", flat=True)) == [1, 1]


def test_two_processes_racing_apply_the_match_once(make_user, make_bot, rating_queue):
    ala, bot = make_user("ala"), make_user("b1")
    m = finished_match(ala, "sixtysix", [ala, bot])
    barrier = threading.Barrier(2)
    results, errors = [], []

    def worker():
        # What the Celery task does: retry on OperationalError (SQLite's in-memory test database
        # answers "table is locked" where PostgreSQL would wait for the row lock).
        try:
            barrier.wait()
            for _attempt in range(50):
                try:
                    results.append(len(services.rate_match(m.pk)))
                    break
                except OperationalError:
                    time.sleep(0.02)
        except Exception as exc:  # pragma: no cover - shown in the assertion
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=worker) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert not errors, errors
    assert sorted(results) == [0, 2]
    assert RatingChange.objects.filter(match=m).count() == 2
    assert list(Rating.objects.values_list("games", flat=True)) == [1, 1]


def test_the_database_refuses_a_second_change_for_the_same_match_and_player(make_user, make_bot, rating_queue):
    ala, bot = make_user("ala"), make_user("b1")
    m = finished_match(ala, "sixtysix", [ala, bot])
    rating_queue.run()
    c = RatingChange.objects.get(match=m, user=ala)
    c.pk = None
    with pytest.raises(IntegrityError), transaction.atomic():
        c.save()


def test_it_rates_hearts_as_a_free_for_all_by_final_rank(make_user, make_bot, rating_queue):
    ala = make_user("ala")
    users = [ala] + [make_user(f"b{i}") for i in range(3)]
    first = finished_match(ala, "hearts", users, seed=3)
    rating_queue.run()
    before = skills_of(users, "hearts", "standard")
    m = finished_match(ala, "hearts", users, ranks=[2, 1, 2, 4], seed=4)
    rating_queue.run()
    expected = R.rate_match("hearts", before, [2, 1, 2, 4])
    after = skills_of(users, "hearts", "standard")
    assert [s.mu for s in after] == pytest.approx([s.mu for s in expected])
    assert [s.sigma for s in after] == pytest.approx([s.sigma for s in expected])
    results = dict(MatchPlayer.objects.filter(match=m).values_list("seat", "result"))
    assert results == {0: "loss", 1: "win", 2: "loss", 3: "loss"}
    assert first.pk != m.pk and Rating.objects.get(user=ala, game="hearts").games == 2


def test_it_rates_spades_as_two_teams_of_two(make_user, make_bot, rating_queue):
    ala = make_user("ala")
    users = [ala] + [make_user(f"b{i}") for i in range(3)]
    m = finished_match(ala, "spades", users, ranks=[1, 2, 1, 2], seed=5)
    rating_queue.run()
    expected = R.rate_match("spades", [R.Skill()] * 4, [1, 2, 1, 2])
    after = skills_of(users, "spades", "standard")
    assert [s.mu for s in after] == pytest.approx([s.mu for s in expected])
    assert after[0].mu == pytest.approx(after[2].mu)
    assert after[0].mu > R.MU > after[1].mu
    assert MatchPlayer.objects.get(match=m, seat=2).score == m.state["scores"][0]   # the team's score


def test_a_match_with_a_house_bot_is_recorded_but_never_rated(make_user, rating_queue):
    """Matches of tables made rated before the rule (or by hand) are not rated either: no rating
    moves, the bot's least of all, and the history row says unrated."""
    from accounts.models import bot_user

    ala, ola = make_user("ala"), make_user("ola")
    bot = bot_user("random")
    m = finished_match(ala, "hearts", [ala, bot, ola, bot], ranks=[1, 2, 3, 4])
    assert rating_queue.pending == []                 # not even enqueued: the history says unrated
    assert services.rate_match(m.pk) == []
    assert not RatingChange.objects.exists() and not Rating.objects.exists()
    assert not MatchPlayer.objects.filter(match=m, rated=True).exists()


def test_unrated_matches_enter_the_history_but_not_the_ratings(make_user, make_bot, rating_queue):
    ala = make_user("ala")
    m = finished_match(ala, "sixtysix", [ala, make_user("b1")], rated=False)
    assert rating_queue.pending == []
    assert services.rate_match(m.pk) == []
    assert MatchPlayer.objects.filter(match=m).count() == 2
    assert not Rating.objects.exists()
    assert services.current_rating(ala, "sixtysix", "kurnik") == 1500


def test_a_forfeit_on_time_counts_as_a_loss(make_user, task_queue, rating_queue):
    """Through the live services: a rated table of two people, one's clock runs out."""
    ala, ola = make_user("ala"), make_user("ola")
    t = games.create_table(ala, "sixtysix", rated=True, seats=["me", ola], start=True,
                           bank_seconds=10, increment_seconds=0)
    every_seat_moves(t.pk, [ala, ola])                    # else running out of time aborts the match
    late = loading.load(t.pk).state.to_act()              # whoever is to act
    expire_clock(t.pk, late)                              # runs out of time
    games.advance(t.pk)
    m = Match.objects.get(table=t)
    assert m.finished and m.ended_by == "timeout" and m.ranks[late] == 2
    assert rating_queue.pending == [m.pk]
    rating_queue.run()
    loser, winner = (ala, ola) if late == 0 else (ola, ala)
    assert RatingChange.objects.get(match=m, user=loser).display_after < 1500
    row = MatchPlayer.objects.get(match=m, user=loser)
    assert row.result == "loss" and row.timed_out
    assert RatingChange.objects.get(match=m, user=winner).display_after > 1500


def test_a_bot_match_finished_by_the_services_enters_the_history_unrated(make_user, make_bot, play_out,
                                                                          rating_queue):
    ala = make_user("ala")
    bots = [make_bot("b1"), make_bot("b2")]
    m = play_out(ala, "sixtysix", bots, rated=False)
    assert m.finished and rating_queue.pending == []
    assert MatchPlayer.objects.filter(match=m).count() == 2
    assert not Rating.objects.exists()


def test_guests_and_house_bots_never_sit_at_rated_tables(make_user, make_bot, task_queue):
    from accounts.models import User
    from games.services import ServiceError

    ala = make_user("ala")
    guest = User.objects.create(username="guest-x", is_guest=True)
    with pytest.raises(ServiceError):
        games.create_table(ala, "sixtysix", rated=True, seats=["me", guest])
    for seats in (["me", "basic", "", ""], ["me", "", "", "random"]):
        with pytest.raises(ServiceError) as refused:
            games.create_table(ala, "hearts", rated=True, seats=seats)
        assert refused.value.code == "rated_house_bot" and "never rated" in refused.value.reason
    with pytest.raises(ServiceError) as refused:      # a bot user seated by the system, too
        games.create_table(ala, "sixtysix", rated=True, seats=["me", make_bot("b1")])
    assert refused.value.code == "rated_house_bot"
    assert not Table.objects.exists()                 # nothing half-made
    assert games.create_table(ala, "hearts", rated=True, seats=["me", "", "", ""]).rated


def test_the_sweeper_rates_matches_whose_task_was_lost(make_user, make_bot, rating_queue):
    ala = make_user("ala")
    m = finished_match(ala, "sixtysix", [ala, make_user("b1")])
    rating_queue.pending.clear()                           # the task was lost
    MatchPlayer.objects.filter(match=m).update(finished_at=timezone.now() - timedelta(minutes=1))
    assert tasks.sweep() == 1
    assert RatingChange.objects.filter(match=m).count() == 2
    assert tasks.sweep() == 0


def test_current_ratings_answers_many_players_in_one_query(make_user, make_bot, rating_queue,
                                                            django_assert_num_queries):
    ala, bot = make_user("ala"), make_user("b1")
    finished_match(ala, "sixtysix", [ala, bot])
    rating_queue.run()
    ola = make_user("ola")
    with django_assert_num_queries(1):
        got = services.current_ratings([ala, bot, ola], "sixtysix", "kurnik")
    assert got[ola.pk] == 1500 and got[ala.pk] != 1500


def test_a_snapshot_says_each_seated_players_rating(make_user, make_bot, rating_queue):
    """The table shows each player's rating beside his name (his own among them)."""
    from games import messages
    ala, bot = make_user("ala"), make_user("b1")
    finished_match(ala, "sixtysix", [ala, bot])
    rating_queue.run()
    sixtysix = games.create_table(ala, "sixtysix", seats=["me", ""])
    hearts = games.create_table(ala, "hearts", seats=["me", "basic", "", ""])
    snap, seat = messages.snapshot(sixtysix.pk, ala)
    rated = Rating.objects.get(user=ala, game="sixtysix", variant=sixtysix.variant).display
    assert seat == 0 and rated != R.DEFAULT_DISPLAY
    assert snap["seat_ratings"] == [rated, None]
    snap, _seat = messages.snapshot(hearts.pk, ala)           # no hearts match yet: the default
    assert snap["seat_ratings"][0] == R.DEFAULT_DISPLAY and snap["seat_ratings"][2:] == [None, None]
    # A house bot's seat shows its level's measured ladder rating, never a rating that moves.
    assert snap["seat_ratings"][1] == levels.rating("hearts", "basic")


def test_five_wins_against_the_random_house_bot_are_worth_nothing(make_user, rating_queue):
    """The farm: five 'rated' wins against `random` (tables marked rated, as the lobby made them
    before the rule) move no rating, the player's nor the shared bot's."""
    from accounts.models import bot_user

    ala, bot = make_user("ala"), bot_user("random")
    for seed in range(5):
        finished_match(ala, "sixtysix", [ala, bot], ranks=[1, 2], seed=seed + 1)
    rating_queue.run()
    for seed in range(5):                              # and the sweeper finds nothing left to rate
        assert tasks.sweep() == 0
    assert services.current_rating(ala, "sixtysix", "kurnik") == R.DEFAULT_DISPLAY
    assert not Rating.objects.filter(user__in=[ala, bot]).exists()
    assert MatchPlayer.objects.filter(user=ala, result="win", rated=False).count() == 5


def test_the_leaderboard_never_lists_a_house_bot(make_user, rating_queue):
    """A house bot's rating left from before the rule is not a player's: it is not ranked."""
    from accounts.models import bot_user

    ala, ola = make_user("ala"), make_user("ola")
    finished_match(ala, "sixtysix", [ala, ola], ranks=[1, 2])
    rating_queue.run()
    Rating.objects.create(user=bot_user("random"), game="sixtysix", variant="kurnik", display=1245, games=5)
    assert [r.user for r in services.leaderboard("sixtysix", "kurnik")] == [ala, ola]


def test_a_house_bots_profile_shows_no_rating_left_from_before(make_user, client):
    """The shared `random` bot fell to 1245 while it was rated: its profile no longer shows it."""
    from accounts.models import bot_user
    from django.urls import reverse

    bot = bot_user("random")
    Rating.objects.create(user=bot, game="sixtysix", variant="kurnik", display=1245, games=5)
    assert services.ratings_of(bot) == []
    assert "1245" not in client.get(reverse("profile", args=[bot.username])).content.decode()
