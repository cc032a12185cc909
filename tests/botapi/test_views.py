"""The bot API's HTTP side: a person's pages (bot account, tokens, challenging a bot) and the
token endpoints a bot uses; and the BOT badge on the pages that name players."""
import re

import pytest
from django.test import Client
from django.urls import reverse

from botapi import tokens
from accounts.models import ApiToken
from botapi import services
from botapi.models import Challenge
from games import services as games
from ratings.models import Rating

pytestmark = pytest.mark.django_db


def _logged_in(user) -> Client:
    c = Client()
    c.force_login(user)
    return c


def test_a_person_makes_a_bot_account_and_a_token_shown_once_then_revokes_it(make_user):
    robo = make_user("robo")
    client = _logged_in(robo)
    page = client.get(reverse("bot_account"))
    assert b'data-action="become-bot"' in page.content
    assert client.post(reverse("bot_become")).status_code == 400        # not confirmed
    assert client.post(reverse("bot_become"), {"confirm": "1"}).status_code == 302
    robo.refresh_from_db()
    assert robo.is_bot_account
    answer = client.post(reverse("bot_token_create"), {"name": "laptop"})
    token = re.search(rb'id="new-token">(cr_[^<]+)<', answer.content).group(1).decode()
    assert answer["Cache-Control"] == "no-store"
    assert tokens.authenticate(token)[0] == robo
    again = client.get(reverse("bot_account"))
    assert token.encode() not in again.content and token[:10].encode() in again.content
    row = ApiToken.objects.get(user=robo)
    assert client.post(reverse("bot_token_revoke", args=[row.pk])).status_code == 302
    with pytest.raises(tokens.TokenError):
        tokens.authenticate(token)


def test_the_bot_account_page_explains_a_refusal(make_user):
    ala = make_user("ala")
    games.create_table(ala, "sixtysix")
    page = _logged_in(ala).get(reverse("bot_account"))
    assert b"data-refusal" in page.content and b"become-bot" not in page.content
    assert _logged_in(ala).post(reverse("bot_become"), {"confirm": "1"}).status_code == 400


def test_the_token_endpoints(make_user):
    robo = make_user("robo")
    services.make_bot_account(robo)
    _row, token = tokens.create(robo, "t")
    bot = Client(HTTP_AUTHORIZATION=f"Bearer {token}")
    assert bot.get("/api/bot/account/").json()["username"] == "robo"
    for headers, code in (({}, "no_token"), ({"HTTP_AUTHORIZATION": "Bearer cr_bad"}, "bad_token")):
        answer = Client(**headers).get("/api/bot/account/")
        assert answer.status_code == 401 and answer.json()["code"] == code and answer.json()["reason"]
    owner = make_user("owner")
    table = games.create_table(owner, "sixtysix", bots_allowed=True)
    assert [t["id"] for t in bot.get("/api/bot/tables/?game=sixtysix").json()["tables"]] == [table.pk]
    ala = make_user("ala")
    c = services.challenge(ala, "robo", "sixtysix", None, bank_seconds=300, increment_seconds=5)
    assert [x["id"] for x in bot.get("/api/bot/challenges/").json()["challenges"]] == [c.pk]
    accepted = bot.post(f"/api/bot/challenges/{c.pk}/accept/")        # no CSRF token needed
    assert accepted.status_code == 200
    assert bot.get("/api/bot/playing/").json()["tables"] == [accepted.json()["table"]]
    again = bot.post(f"/api/bot/challenges/{c.pk}/accept/")
    assert again.status_code == 409 and again.json()["code"] == "challenge_accepted"
    c2 = services.challenge(ala, "robo", "sixtysix", None, bank_seconds=300, increment_seconds=5)
    assert bot.post(f"/api/bot/challenges/{c2.pk}/decline/", '{"reason": "busy"}',
                    content_type="application/json").status_code == 200
    assert Challenge.objects.get(pk=c2.pk).decline_reason == "busy"
    assert bot.get("/api/bot/nothing/").status_code == 404


def test_the_bot_api_rate_is_per_account(make_user, settings):
    from django.core.cache import cache

    cache.clear()
    settings.BOT_API_RATE = "3/m"
    robo = make_user("robo")
    services.make_bot_account(robo)
    bot = Client(HTTP_AUTHORIZATION=f"Bearer {tokens.create(robo, 't')[1]}")
    assert [bot.get("/api/bot/account/").status_code for _ in range(4)] == [200, 200, 200, 429]
    answer = bot.get("/api/bot/account/")
    assert answer.json()["code"] == "rate_limited" and int(answer["Retry-After"]) >= 1


def test_a_person_challenges_a_bot_from_its_profile_and_follows_the_answer(make_user):
    robo = make_user("robo")
    services.make_bot_account(robo)
    ala = make_user("ala")
    client = _logged_in(ala)
    profile = client.get(reverse("profile", args=["robo"]))
    assert b'class="badge bot-account"' in profile.content and b'data-action="challenge"' in profile.content
    answer = client.post(reverse("bot_challenge_create", args=["robo"]),
                         {"game": "sixtysix", "variant": "", "bank_seconds": "180", "rated": "1"})
    c = Challenge.objects.get()
    assert answer.url == reverse("bot_challenge", args=[c.pk])
    assert (c.game, c.bank_seconds, c.increment_seconds, c.rated) == ("sixtysix", 180, 3, True)
    assert client.get(answer.url).status_code == 200
    assert client.get(reverse("bot_challenge_status", args=[c.pk])).json()["status"] == "pending"
    table = services.accept(robo, c.pk)
    status = client.get(reverse("bot_challenge_status", args=[c.pk])).json()
    assert status["status"] == "accepted" and status["table_url"] == reverse("table", args=[table.pk])
    # Nobody else follows it.
    assert _logged_in(make_user("eve")).get(reverse("bot_challenge_status", args=[c.pk])).status_code == 404
    # A refused challenge says why on the profile.
    bad = client.post(reverse("bot_challenge_create", args=["robo"]),
                      {"game": "sixtysix", "variant": "spades-ish", "bank_seconds": "180"}, follow=True)
    assert b"messages" in bad.content and Challenge.objects.count() == 1


def test_bot_accounts_are_marked_and_listed_on_the_bot_leaderboard(make_user):
    robo, ala = make_user("robo"), make_user("ala")
    services.make_bot_account(robo)
    for user in (robo, ala):
        Rating.objects.create(user=user, game="sixtysix", variant="kurnik", display=1500, games=1)
    people = Client().get(reverse("leaderboard", args=["sixtysix", "kurnik"])).content.decode()
    bots = Client().get(reverse("bot_leaderboard", args=["sixtysix", "kurnik"])).content.decode()
    assert ">ala<" in people and ">robo<" not in people
    assert ">robo<" in bots and ">ala<" not in bots and 'class="badge bot-account"' in bots


def test_the_lobby_row_and_table_json_mark_bots_allowed_and_bot_accounts(make_user):
    from games import messages

    robo, owner = make_user("robo"), make_user("owner")
    services.make_bot_account(robo)
    table = games.create_table(owner, "hearts", seats=["me", "", "basic", "basic"], bots_allowed=True)
    games.sit(table.pk, robo, 1)
    row = next(r for r in messages.lobby_tables("hearts") if r["id"] == table.pk)
    assert row["bots_allowed"] is True
    assert [s["bot_account"] for s in row["seats"]] == [False, True, False, False]
    lobby = _logged_in(owner).get(reverse("lobby", args=["hearts"])).content
    assert b'name="bots_allowed"' in lobby
    made = _logged_in(owner).post(reverse("create_table", args=["hearts"]),
                                  {"variant": "standard", "bank_seconds": 300, "increment_seconds": 5,
                                   "seat_0": "me", "bots_allowed": "1"})
    assert made.status_code == 302
    from games.models import Table
    assert Table.objects.order_by("-pk").first().bots_allowed
