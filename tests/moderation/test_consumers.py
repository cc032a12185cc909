"""Mute and report through the table socket: a muted player's chat never reaches the muter's
sockets (at any table, after a reconnect too), a mute from one socket or from the profile page
takes effect on all of them, and reports keep the table's evidence."""
import pytest
from channels.db import database_sync_to_async as db
from django.test import Client
from django.urls import reverse

from games import services
from moderation.models import Mute, Report
from tests.games.sockets import connect

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def chat_until(sock, last: str) -> list[str]:
    """The chat lines ``sock`` receives up to ``last`` (a marker sent after the lines in question:
    a line that did not come before it never comes)."""
    lines = []
    while not lines or lines[-1] != last:
        msg = await sock.recv()
        if msg["type"] == "chat":
            lines.append(msg["message"]["text"])
    return lines


async def next_of(sock, kind: str) -> dict:
    while True:
        msg = await sock.recv()
        if msg["type"] == kind:
            return msg


@pytest.fixture
async def room(make_user, task_queue):
    """ala and bob play at table one, where cyd watches; at table two cyd plays a bot, and ala and
    bob watch. A test that reconnects a socket puts the new one in its place."""
    ala, bob, cyd = [await db(make_user)(n) for n in ("ala", "bob", "cyd")]
    one = await db(services.create_table)(ala, "sixtysix", seats=["me", ""])
    await db(services.sit)(one.pk, bob, 1)
    two = await db(services.create_table)(cyd, "sixtysix", seats=["me", "random"])
    socks = {
        "ala": (await connect(one.pk, ala))[0], "bob": (await connect(one.pk, bob))[0],
        "cyd": (await connect(one.pk, cyd))[0],
        "ala2": (await connect(two.pk, ala))[0], "bob2": (await connect(two.pk, bob))[0],
        "cyd2": (await connect(two.pk, cyd))[0],
    }
    room = {"one": one, "two": two, "users": (ala, bob, cyd), **socks}
    yield room
    for key in socks:
        await room[key].comm.disconnect()


async def test_a_muted_players_chat_stops_reaching_all_the_muters_sockets_and_comes_back_on_unmute(room):
    ala, bob, cyd, ala2, bob2 = (room[k] for k in ("ala", "bob", "cyd", "ala2", "bob2"))
    assert ala.last["me"] == "ala" and ala.last["muted"] == []
    await bob.send({"type": "chat", "text": "before"})
    assert await chat_until(ala, "before") == ["before"]

    await ala.send({"type": "mute", "name": "bob"})
    # Every socket of ala hears of it, the one at the other table too.
    assert (await next_of(ala, "muted"))["muted"] == ["bob"]
    assert (await next_of(ala2, "muted"))["muted"] == ["bob"]
    await bob.send({"type": "chat", "text": "you all suck"})
    await bob2.send({"type": "chat", "text": "here too"})
    assert await chat_until(cyd, "you all suck") == ["before", "you all suck"]
    assert await chat_until(bob2, "here too") == ["here too"]
    await cyd.send({"type": "chat", "text": "mark"})        # at both tables, after bob's lines
    await room["cyd2"].send({"type": "chat", "text": "mark"})
    assert await chat_until(ala, "mark") == ["mark"]
    assert await chat_until(ala2, "mark") == ["mark"]
    assert await chat_until(bob, "mark") == ["before", "you all suck", "mark"]
    # ala's own lines still reach everyone, bob included.
    await ala.send({"type": "chat", "text": "bye"})
    assert await chat_until(bob, "bye") == ["bye"] and await chat_until(ala, "bye") == ["bye"]

    # A reconnect: the snapshot's chat has none of bob's lines, and says whom ala muted.
    await ala.comm.disconnect()
    again, _ = await connect(room["one"].pk, room["users"][0])
    room["ala"] = again
    assert [c["text"] for c in again.last["chat"]] == ["mark", "bye"] and again.last["muted"] == ["bob"]
    await bob.send({"type": "chat", "text": "still here"})
    await cyd.send({"type": "chat", "text": "mark 2"})
    assert await chat_until(again, "mark 2") == ["mark 2"]

    await again.send({"type": "unmute", "name": "bob"})
    assert (await next_of(again, "muted"))["muted"] == []
    assert (await next_of(ala2, "muted"))["muted"] == []
    await bob.send({"type": "chat", "text": "friends?"})
    assert await chat_until(again, "friends?") == ["friends?"]
    # And the history is whole again for a fresh snapshot.
    await again.send({"type": "sync"})
    snap = await next_of(again, "snapshot")
    assert [c["text"] for c in snap["chat"]] == ["before", "you all suck", "mark", "bye", "still here", "mark 2", "friends?"]


async def test_a_mute_from_the_profile_page_takes_effect_on_open_sockets(room):
    ala_user = room["users"][0]

    def post_mute():
        client = Client()
        client.force_login(ala_user)
        return client.post(reverse("mute", args=["bob"])).status_code

    assert await db(post_mute)() == 302
    assert (await next_of(room["ala"], "muted"))["muted"] == ["bob"]
    assert (await next_of(room["ala2"], "muted"))["muted"] == ["bob"]
    await room["bob"].send({"type": "chat", "text": "hidden"})
    assert await chat_until(room["cyd"], "hidden") == ["hidden"]
    await room["cyd"].send({"type": "chat", "text": "mark"})
    assert await chat_until(room["ala"], "mark") == ["mark"]


async def test_a_report_through_the_socket_keeps_this_tables_chat_and_deal(room):
    ala, bob = room["ala"], room["bob"]
    await bob.send({"type": "chat", "text": "I see your cards lol"})
    await chat_until(ala, "I see your cards lol")
    reply = await ala.request({"type": "report", "name": "bob", "reason": "cheating", "text": "he knows my hand"})
    assert reply == {"type": "reported", "name": "bob"}
    report = await db(Report.objects.get)()
    assert (report.table_id, report.reason, report.text) == (room["one"].pk, "cheating", "he knows my hand")
    assert [line["text"] for line in report.chat] == ["I see your cards lol"]
    assert report.records[0]["record"]["players"] == ["ala", "bob"]
    again = await ala.request({"type": "report", "name": "bob", "reason": "spam"})
    assert again["type"] == "error" and again["code"] == "already_reported" and again["category"] == "bad_request"


async def test_the_socket_refuses_a_bad_mute_or_report_with_a_reason(room):
    ala = room["ala"]
    for data, code in (({"type": "mute", "name": "ala"}, "bad_request"),
                       ({"type": "mute", "name": "bot:random"}, "bad_request"),
                       ({"type": "unmute", "name": "ghost"}, "not_found"),
                       ({"type": "mute"}, "bad_request"),
                       ({"type": "report", "name": "bob", "reason": "ugly"}, "bad_request")):
        reply = await ala.request(data)
        assert reply["type"] == "error" and reply["code"] == code and reply["reason"], (data, reply)
        assert reply["version"] == ala.version
    assert not await db(Mute.objects.exists)() and not await db(Report.objects.exists)()


async def test_an_anonymous_visitor_may_not_mute(room):
    visitor, _ = await connect(room["one"].pk)
    assert visitor.last["me"] is None
    reply = await visitor.request({"type": "mute", "name": "bob"})
    assert reply["type"] == "error" and reply["code"] == "forbidden"
    await visitor.comm.disconnect()
