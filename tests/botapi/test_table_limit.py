"""The table-creation limit (TABLE_CREATE_RATE, games/limits.py) holds however a table is asked
for: a challenge to a bot account and its acceptance through the bot API, and a rematch, count
with the lobby's form, per user, in the shared cache."""
import pytest
from django.test import Client
from django.urls import reverse

from botapi import tokens
from botapi import services
from botapi.models import Challenge
from games import services as games
from realtime.errors import ServiceError
from games.models import Table
from tests.botapi.test_services import robo  # noqa: F401  (fixture)
from tests.botapi.test_views import _logged_in
from tests.games.test_rematch import finished_table, offer_of
from tests.limits import clock  # noqa: F401  (fixture)

pytestmark = pytest.mark.django_db(transaction=True)

SIXTYSIX = {"variant": "kurnik", "bank_seconds": 300, "increment_seconds": 5, "seat_0": "me", "seat_1": ""}
CHALLENGE = {"game": "sixtysix", "variant": "", "bank_seconds": "180"}


def _challenge(who):
    return services.challenge(who, "robo", "sixtysix", None, bank_seconds=300, increment_seconds=5)


def test_a_user_refused_by_the_lobby_cannot_challenge_a_bot_instead(make_user, robo, settings, clock, task_queue):
    settings.TABLE_CREATE_RATE = "2/h"
    ala = make_user("ala")
    client = _logged_in(ala)
    new = reverse("create_table", args=["sixtysix"])
    assert [client.post(new, SIXTYSIX).status_code for _ in range(3)] == [302, 302, 429]
    answer = client.post(reverse("bot_challenge_create", args=["robo"]), CHALLENGE)
    assert answer.status_code == 429 and int(answer["Retry-After"]) > 0
    page = answer.content.decode()
    assert "You have created many tables lately." in page and "Please try again in" in page
    assert not Challenge.objects.exists()
    with pytest.raises(ServiceError) as refused:
        _challenge(ala)
    assert refused.value.code == "too_many_tables" and refused.value.category == "rate_limited"
    assert refused.value.params["retry_after"] > 0
    clock.advance(3600)
    assert client.post(reverse("bot_challenge_create", args=["robo"]), CHALLENGE).status_code == 302


def test_each_accepted_challenge_counts_against_its_challenger_and_the_bot_is_told_why(
        make_user, robo, settings, clock, task_queue):
    settings.TABLE_CREATE_RATE = "2/h"
    ala = make_user("ala")
    bot = Client(HTTP_AUTHORIZATION=f"Bearer {tokens.create(robo, 't')[1]}")
    waiting = [_challenge(ala) for _ in range(3)]       # under the limit: nothing created yet
    accepted = [bot.post(f"/api/bot/challenges/{c.pk}/accept/") for c in waiting]
    assert [a.status_code for a in accepted] == [200, 200, 429]
    refused = accepted[2]
    assert refused.json()["code"] == "too_many_tables" and int(refused["Retry-After"]) > 0
    assert refused.json()["reason"].startswith("The challenger has created many tables lately")
    assert Table.objects.filter(owner=ala).count() == 2
    assert Challenge.objects.get(pk=waiting[2].pk).state == "pending"     # nothing half-applied
    # The lobby counts the same tables: she is at her limit there too.
    assert _logged_in(ala).post(reverse("create_table", args=["sixtysix"]), SIXTYSIX).status_code == 429
    # So does the event socket's accept (the same service): and another challenger is not affected.
    ola = make_user("ola")
    assert bot.post(f"/api/bot/challenges/{_challenge(ola).pk}/accept/").status_code == 200


def test_the_lobby_counts_tables_made_through_challenges(make_user, robo, settings, clock, task_queue):
    settings.TABLE_CREATE_RATE = "2/h"
    ala = make_user("ala")
    for _ in range(2):
        services.accept(robo, _challenge(ala).pk)
    answer = _logged_in(ala).post(reverse("create_table", args=["sixtysix"]), SIXTYSIX)
    assert answer.status_code == 429 and "You have created many tables lately." in answer.content.decode()


def test_a_rematch_counts_against_its_offerer(make_user, settings, clock, task_queue):
    settings.TABLE_CREATE_RATE = "2/h"
    ala, ola = make_user("ala"), make_user("ola")
    t = finished_table(ala, ["me", "basic"])            # the system's table (a test's): not counted
    games.rematch(t.pk, ala, t.version, "offer")         # a bot accepts at once: the new table starts
    again = finished_table(ala, ["me", "basic"])
    games.rematch(again.pk, ala, again.version, "offer")
    third = finished_table(ala, [ala, ola])
    with pytest.raises(ServiceError) as refused:
        games.rematch(third.pk, ala, third.version, "offer")
    assert refused.value.code == "too_many_tables" and "You have created many tables lately." in refused.value.reason
    assert offer_of(third.pk) is None                   # nothing offered
    games.rematch(third.pk, ola, third.version, "offer")   # the other player may still ask
    assert offer_of(third.pk)["by"] == 1
    # and the lobby refuses her too
    assert _logged_in(ala).post(reverse("create_table", args=["sixtysix"]), SIXTYSIX).status_code == 429


async def test_an_accept_on_the_event_socket_over_the_limit_is_refused_with_its_reason(make_user, settings, clock):
    from channels.db import database_sync_to_async as db

    from tests.botapi.test_sockets import _bot_with_token, token_socket

    settings.TABLE_CREATE_RATE = "1/h"
    ala = await db(make_user)("ala")
    robo, token = await db(_bot_with_token)(make_user)
    first, second = [await db(_challenge)(ala) for _ in range(2)]
    sock = await token_socket("/ws/bot/", token)
    await sock.recv(), await sock.recv()                # challenges, playing
    await sock.send({"type": "accept", "id": first.pk})
    assert any(m["type"] == "accepted" for m in [await sock.recv(), await sock.recv()])
    await sock.drain()
    refused = await sock.request({"type": "accept", "id": second.pk})
    assert refused["type"] == "error" and refused["code"] == "too_many_tables"
    assert refused["category"] == "rate_limited" and refused["params"]["retry_after"] > 0
    assert refused["reason"].startswith("The challenger has created many tables lately")
    assert await db(Table.objects.filter(owner=ala).count)() == 1
    await sock.comm.disconnect()
