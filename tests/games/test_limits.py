"""Limits on abuse at the tables: tables created per user (the lobby's form and "Play now") and chat
per user (a rate and repeated words, in the shared cache). Messages per socket:
tests/realtime/test_socket_limit.py."""
import time

import pytest
from channels.db import database_sync_to_async as db
from django.test import Client
from django.urls import reverse

from games import services
from games.actions import exits
from realtime.errors import ServiceError
from games.models import ChatMessage, Table
from tests.limits import clock  # noqa: F401  (fixture)

from .sockets import connect

pytestmark = pytest.mark.django_db(transaction=True)

SIXTYSIX = {"variant": "kurnik", "bank_seconds": 300, "increment_seconds": 5, "seat_0": "me", "seat_1": ""}


def logged_in(user) -> Client:
    c = Client()
    c.force_login(user)
    return c


# --- tables per user ------------------------------------------------------------------------------
def test_it_limits_the_tables_a_user_creates_from_the_lobby(make_user, settings, clock, task_queue):
    settings.TABLE_CREATE_RATE = "2/h"
    ala = logged_in(make_user("ala"))
    new = reverse("create_table", args=["sixtysix"])
    assert [ala.post(new, SIXTYSIX).status_code for _ in range(2)] == [302, 302]
    r = ala.post(new, SIXTYSIX)
    assert r.status_code == 429 and int(r["Retry-After"]) > 0
    page = r.content.decode()
    assert "You have created many tables lately." in page and "Please try again in" in page
    assert 'class="form-errors"' in page                     # on the lobby's form
    assert Table.objects.count() == 2
    assert logged_in(make_user("ola")).post(new, SIXTYSIX).status_code == 302   # per user
    clock.advance(3600)
    assert ala.post(new, SIXTYSIX).status_code == 302


def test_it_counts_play_now_with_the_lobby_and_not_system_tables(make_user, settings, clock, task_queue):
    settings.TABLE_CREATE_RATE = "2/h"
    user = make_user("ala")
    for _ in range(3):                      # tables the system makes (tournaments, showcase) are free
        services.create_table(user, "sixtysix", seats=["random", "random"], start=True)
    ala = logged_in(user)
    assert ala.post(reverse("create_table", args=["sixtysix"]), SIXTYSIX).status_code == 302
    play = {"game": "sixtysix", "level": "random"}
    assert ala.post(reverse("play_now"), play).status_code == 302
    mine = Table.objects.filter(owner=user).latest("pk")
    exits.abort(mine.pk, user, mine.version)        # else "Play now" takes him back to that table
    r = ala.post(reverse("play_now"), play)
    assert r.status_code == 429 and "You have created many tables lately." in r.content.decode()
    assert Table.objects.filter(owner=user).count() == 5


def test_a_bad_form_is_not_counted(make_user, settings, clock, task_queue):
    settings.TABLE_CREATE_RATE = "1/h"
    ala = logged_in(make_user("ala"))
    new = reverse("create_table", args=["sixtysix"])
    assert ala.post(new, dict(SIXTYSIX, bank_seconds=1)).status_code == 400
    assert ala.post(new, SIXTYSIX).status_code == 302
    assert ala.post(new, SIXTYSIX).status_code == 429


# --- chat per user --------------------------------------------------------------------------------
@pytest.fixture
def chat_limits(settings, clock):
    settings.CHAT_RATE = "5/10s"
    settings.CHAT_REPEAT_SECONDS = 30
    return clock


def test_it_limits_the_chat_rate_per_user(make_user, chat_limits, task_queue):
    ala, ola = make_user("ala"), make_user("ola")
    t = services.create_table(ala, "sixtysix")
    for n in range(5):
        services.chat(t.pk, ala, f"message {n}")
    with pytest.raises(ServiceError) as refused:
        services.chat(t.pk, ala, "one too many")
    assert refused.value.code == refused.value.category == "rate_limited"
    assert refused.value.reason.startswith("You are sending chat messages too fast. Please try again in")
    assert 1 <= refused.value.params["retry_after"] <= 10
    assert ChatMessage.objects.filter(user=ala).count() == 5      # the refused one is not kept
    services.chat(t.pk, ola, "me too")                             # per user
    other = services.create_table(ola, "hearts")
    with pytest.raises(ServiceError):                              # the user's, at every table
        services.chat(other.pk, ala, "elsewhere")
    chat_limits.advance(10)
    services.chat(t.pk, ala, "later")


def test_it_refuses_the_same_words_again_within_30_seconds(make_user, chat_limits, task_queue):
    ala, ola = make_user("ala"), make_user("ola")
    t = services.create_table(ala, "sixtysix")
    services.chat(t.pk, ala, "buy cheap chips")
    with pytest.raises(ServiceError) as refused:
        services.chat(t.pk, ala, "  Buy cheap  CHIPS ")
    assert refused.value.code == "rate_limited"
    assert refused.value.reason == "You have just said that. Please try again in 30 seconds."
    services.chat(t.pk, ala, "something new")
    services.chat(t.pk, ola, "buy cheap chips")                    # another user may
    assert [m.text for m in ChatMessage.objects.order_by("id")] == \
        ["buy cheap chips", "something new", "buy cheap chips"]


def test_the_same_words_may_come_again_later(make_user, settings, task_queue):
    from django.core.cache import cache

    cache.clear()
    settings.CHAT_REPEAT_SECONDS = 1
    ala = make_user("ala")
    t = services.create_table(ala, "sixtysix")
    services.chat(t.pk, ala, "gg")
    with pytest.raises(ServiceError):
        services.chat(t.pk, ala, "gg")
    time.sleep(1.1)
    services.chat(t.pk, ala, "gg")


async def test_a_chat_over_the_limit_is_refused_on_the_socket(make_user, chat_limits, task_queue):
    ala = await db(make_user)("ala")
    t = await db(services.create_table)(ala, "sixtysix")
    sock, _ = await connect(t.pk, ala)
    assert (await sock.request({"type": "chat", "text": "hi"}))["type"] == "chat"
    err = await sock.request({"type": "chat", "text": "hi"})
    assert err["type"] == "error" and err["category"] == err["code"] == "rate_limited"
    assert err["reason"].startswith("You have just said that.") and err["params"]["retry_after"] == 30
    await sock.comm.disconnect()
