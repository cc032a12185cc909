"""Bot accounts, challenges, tables and tournaments that allow bots, and the separate leaderboard
(botapi/services.py and the small rules it adds to games/, tournaments/ and ratings/)."""
from datetime import timedelta

import pytest
from django.utils import timezone

from botapi import services
from botapi.models import Challenge
from games import services as games
from realtime.errors import ServiceError
from games.models import Match, Table
from ratings import services as ratings
from ratings.models import MatchPlayer, Rating

pytestmark = pytest.mark.django_db


@pytest.fixture
def robo(make_user):
    user = make_user("robo")
    services.make_bot_account(user)
    return user


def _finished_match(users, *, rated=True):
    """A finished rated sixty-six match between ``users`` (its history rows, as ratings writes them)."""
    table = games.create_table(users[0], "sixtysix", seats=[users[0], users[1]])
    match = Match.objects.get(table=table)
    # Marked rated afterwards: a house bot's table (never rated now) as one made before that rule.
    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED, rated=rated)
    for seat, u in enumerate(users):
        MatchPlayer.objects.create(match=match, seat=seat, user=u, name=u.display_name, rank=seat + 1,
                                   result="win" if seat == 0 else "loss", score=0, game="sixtysix",
                                   variant=table.variant, rated=rated, finished_at=timezone.now())
    return match


def test_an_account_that_played_people_in_a_rated_match_cannot_become_a_bot_account(make_user):
    from accounts.models import bot_user

    ala, ola, eve = make_user("ala"), make_user("ola"), make_user("eve")
    _finished_match([ala, bot_user("basic")])            # rated, but against a house bot: fine
    _finished_match([eve, ola], rated=False)             # against a person, but unrated: fine
    assert services.bot_account_refusal(ala) is None
    assert services.bot_account_refusal(eve) is None
    _finished_match([ola, ala])                          # rated against a person
    with pytest.raises(ServiceError) as err:
        services.make_bot_account(ala)
    assert "rated matches against people" in err.value.reason
    ala.refresh_from_db()
    assert not ala.is_bot_account


def test_an_account_seated_at_an_unfinished_table_must_finish_first(make_user):
    ala = make_user("ala")
    games.create_table(ala, "sixtysix")
    assert "open tables" in services.bot_account_refusal(ala)


def test_a_bot_account_sits_only_where_bots_may_join(make_user, robo):
    owner = make_user("owner")
    closed = games.create_table(owner, "sixtysix")
    with pytest.raises(ServiceError) as err:
        games.sit(closed.pk, robo, 1)
    assert err.value.code == "bots_not_allowed" and "Bots may join" in err.value.reason
    open_ = games.create_table(owner, "sixtysix", bots_allowed=True)
    assert [t["id"] for t in services.open_tables("sixtysix")] == [open_.pk]
    assert services.open_tables("hearts") == []
    games.sit(open_.pk, robo, 1)
    assert Table.objects.get(pk=open_.pk).status == Table.Status.PLAYING
    assert services.open_tables("sixtysix") == []       # full now
    assert services.playing_tables(robo) == [open_.pk]


def test_a_bot_account_cannot_seat_itself_at_a_new_table_where_bots_may_not_join(make_user, robo):
    """create_table asks what sit asks: the lobby's form of a bot account logged in in a browser
    cannot make a table that seats it without "Bots may join"."""
    from django.test import Client
    from django.urls import reverse

    for seats in (None, ["me", "basic"], ["", "me"]):
        with pytest.raises(ServiceError) as err:
            games.create_table(robo, "sixtysix", seats=seats)
        assert err.value.code == "bots_not_allowed" and "Bots may join" in err.value.reason
    browser = Client()
    browser.force_login(robo)
    answer = browser.post(reverse("create_table", args=["sixtysix"]),
                          {"variant": "kurnik", "bank_seconds": 300, "increment_seconds": 5,
                           "seat_0": "me", "seat_1": "basic"})
    assert answer.status_code == 400 and "Bots may join" in answer.content.decode()
    assert not Table.objects.exists()
    # Where bots may join it may; and a table it makes without sitting there is its owner's choice.
    seated = games.create_table(robo, "sixtysix", seats=["me", "basic"], bots_allowed=True)
    assert Table.objects.get(pk=seated.pk).status == Table.Status.PLAYING
    games.create_table(robo, "sixtysix", seats=["", "basic"])


def test_a_challenge_accepted_makes_a_started_table_with_both_seated(make_user, robo, sent,
                                                                     django_capture_on_commit_callbacks):
    ala = make_user("ala")
    with django_capture_on_commit_callbacks(execute=True):
        c = services.challenge(ala, "robo", "spades", None, bank_seconds=180, increment_seconds=3)
    told = [p["event"] for g, p in sent if g == services.bot_group(robo.pk)]
    assert told[-1]["type"] == "challenge" and told[-1]["challenge"]["from"] == "ala"
    assert [x.pk for x in services.pending_for(robo)] == [c.pk]
    table = services.accept(robo, c.pk)
    seats = list(table.seats.order_by("index").values_list("user__username", flat=True))
    assert seats == ["ala", "robo", "bot-basic", "bot-basic"]
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING and not table.rated and table.bots_allowed
    assert (table.bank_seconds, table.increment_seconds) == (180, 3)
    c.refresh_from_db()
    assert c.state == "accepted" and c.table_id == table.pk
    with pytest.raises(ServiceError) as err:           # answering twice
        services.accept(robo, c.pk)
    assert err.value.code == "challenge_accepted"


def test_challenges_are_declined_cancelled_expire_and_are_refused_with_reasons(make_user, robo):
    from accounts.models import guest_user

    ala, other = make_user("ala"), make_user("other")
    services.make_bot_account(other)
    c = services.challenge(ala, "robo", "sixtysix", "kurnik", bank_seconds=300, increment_seconds=5)
    with pytest.raises(ServiceError) as err:
        services.accept(other, c.pk)                    # another bot's challenge
    assert err.value.code == "forbidden"
    services.decline(robo, c.pk, "not now")
    c.refresh_from_db()
    assert c.state == "declined" and c.decline_reason == "not now"
    c2 = services.challenge(ala, "robo", "sixtysix", None, bank_seconds=300, increment_seconds=5)
    services.cancel(ala, c2.pk)
    with pytest.raises(ServiceError) as err:
        services.accept(robo, c2.pk)
    assert err.value.code == "challenge_cancelled"
    c3 = services.challenge(ala, "robo", "sixtysix", None, bank_seconds=300, increment_seconds=5)
    Challenge.objects.filter(pk=c3.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    assert services.pending_for(robo) == []
    with pytest.raises(ServiceError) as err:
        services.accept(robo, c3.pk)
    assert err.value.code == "challenge_expired"
    refusals = [
        lambda: services.challenge(ala, "nobody", "sixtysix", None, bank_seconds=300, increment_seconds=5),
        lambda: services.challenge(ala, "ala", "sixtysix", None, bank_seconds=300, increment_seconds=5),
        lambda: services.challenge(ala, "robo", "chess", None, bank_seconds=300, increment_seconds=5),
        lambda: services.challenge(ala, "robo", "sixtysix", "nope", bank_seconds=300, increment_seconds=5),
        lambda: services.challenge(ala, "robo", "sixtysix", None, bank_seconds=1, increment_seconds=5),
        lambda: services.challenge(guest_user(), "robo", "sixtysix", None, bank_seconds=300, increment_seconds=5, rated=True),
        lambda: services.challenge(other, "robo", "sixtysix", None, bank_seconds=300, increment_seconds=5),
    ]
    for refused in refusals:
        with pytest.raises(ServiceError) as err:
            refused()
        assert err.value.reason
    for _ in range(services.MAX_PENDING):
        services.challenge(ala, "robo", "sixtysix", None, bank_seconds=300, increment_seconds=5)
    with pytest.raises(ServiceError) as err:
        services.challenge(ala, "robo", "sixtysix", None, bank_seconds=300, increment_seconds=5)
    assert err.value.code == "too_many_challenges"


def test_bot_accounts_are_rated_but_listed_on_their_own_leaderboard(make_user, robo):
    ala = make_user("ala")
    for user, display in ((ala, 1600), (robo, 1700)):
        Rating.objects.create(user=user, game="sixtysix", variant="kurnik", display=display, games=3)
    people = [r.user.username for r in ratings.leaderboard("sixtysix", "kurnik")]
    bots = [r.user.username for r in ratings.leaderboard("sixtysix", "kurnik", bot_accounts=True)]
    assert people == ["ala"] and bots == ["robo"]


def test_bot_accounts_enter_only_tournaments_that_allow_bots(make_user, robo):
    from tournaments import services as tournaments
    from tournaments.models import Tournament

    t = Tournament.objects.create(name="Cup", game="sixtysix", starts_at=timezone.now() + timedelta(hours=1))
    with pytest.raises(tournaments.TournamentError) as err:
        tournaments.register(t.pk, robo)
    assert "bot accounts" in str(err.value)
    Tournament.objects.filter(pk=t.pk).update(bots_allowed=True)
    assert tournaments.register(t.pk, robo).user == robo
    assert [x["id"] for x in services.open_tournaments()] == [t.pk]


def test_a_rated_challenge_in_a_four_seat_game_is_refused_as_its_house_bots_are_never_rated(make_user, robo):
    ala = make_user("ala")
    with pytest.raises(ServiceError) as err:
        services.challenge(ala, "robo", "hearts", None, bank_seconds=180, increment_seconds=3, rated=True)
    assert err.value.code == "rated_house_bot" and "never rated" in err.value.reason
    assert services.challenge(ala, "robo", "sixtysix", None, bank_seconds=180, increment_seconds=3, rated=True).rated
