"""moderation/services.py: mutes, reports, their refusals and the evidence a report keeps."""
from datetime import timedelta

import pytest
from django.contrib.auth.models import AnonymousUser
from django.utils import timezone

from accounts.models import bot_user
from games import messages
from realtime import broadcast
from games import services as games
from realtime.errors import ServiceError
from games.models import ChatMessage, Table
from moderation import mutes, services
from moderation.models import Mute, Report

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(make_user):
    return make_user("ala"), make_user("bob"), make_user("cyd")


def refusal(call, *args, **kwargs) -> ServiceError:
    with pytest.raises(ServiceError) as caught:
        call(*args, **kwargs)
    assert caught.value.reason
    return caught.value


def test_it_mutes_and_unmutes_and_doing_either_twice_changes_nothing(people):
    ala, bob, _cyd = people
    services.mute(ala, "bob")
    services.mute(ala, "bob")
    assert list(Mute.objects.values_list("muter__username", "muted__username")) == [("ala", "bob")]
    assert mutes.muted(ala.pk) == (frozenset({bob.pk}), ["bob"])
    assert mutes.muted(bob.pk) == (frozenset(), [])
    services.unmute(ala, "bob")
    services.unmute(ala, "bob")
    assert not Mute.objects.exists()


def test_a_change_of_mutes_is_announced_to_the_users_own_group_on_commit(people, django_capture_on_commit_callbacks):
    ala, _bob, _cyd = people
    with broadcast.collecting() as sent, django_capture_on_commit_callbacks(execute=True):
        services.mute(ala, "bob")
        assert sent == []           # nothing before the commit
    assert sent == [(mutes.user_group(ala.pk), {"type": "user.mutes"})]


def test_it_refuses_oneself_bots_unknown_players_and_anonymous_visitors(people):
    ala, _bob, _cyd = people
    bot = bot_user("basic")
    for call in (services.mute, services.unmute):
        assert refusal(call, ala, "ala").code == "bad_request"
        assert refusal(call, ala, bot.username).code == "bad_request"
        assert refusal(call, ala, "bot:basic").code == "bad_request"        # a bot seat's name
        assert refusal(call, ala, "nobody").code == "not_found"
        assert refusal(call, ala, "").code == "bad_request"
        assert refusal(call, ala, None).code == "bad_request"
        assert refusal(call, AnonymousUser(), "bob").code == "forbidden"
    assert refusal(services.report, ala, "ala", "abuse").reason == "You cannot report yourself."
    assert refusal(services.report, ala, "bot:strong", "cheating").reason == "Bots cannot be reported."
    assert refusal(services.report, ala, "nobody", "spam").code == "not_found"
    assert refusal(services.report, ala, "bob", "rude").code == "bad_request"
    assert refusal(services.report, ala, "bob", "abuse", "x" * 1001).code == "bad_request"
    assert refusal(services.report, ala, "bob", "abuse", table_id=987654).code == "not_found"
    assert not Mute.objects.exists() and not Report.objects.exists()


def test_a_report_keeps_the_tables_chat_and_deal_records_even_when_the_table_is_gone(people):
    ala, bob, cyd = people
    table = games.create_table(ala, "sixtysix", seats=["me", "random"])      # started: a deal is on
    other = games.create_table(cyd, "sixtysix", seats=["me", "random"])
    games.chat(table.pk, ala, "gl hf")
    games.chat(table.pk, bob, "you are all idiots")
    games.chat(other.pk, bob, "elsewhere")
    report = services.report(ala, "bob", "abuse", "  insults in the chat  ", table_id=table.pk)
    assert (report.reporter, report.reported, report.table_id, report.reason, report.text, report.status) == (
        ala, bob, table.pk, "abuse", "insults in the chat", "open")
    assert [(line["from"], line["text"], line["user_id"]) for line in report.chat] == [
        ("ala", "gl hf", ala.pk), ("bob", "you are all idiots", bob.pk)]
    assert [d["number"] for d in report.records] == [0]
    record = report.records[0]["record"]
    assert record["players"] == ["ala", "bot:random"] and record["hands"]
    Table.objects.filter(pk=table.pk).delete()
    report.refresh_from_db()
    assert report.table is None and len(report.chat) == 2 and report.records[0]["record"] == record


def test_a_report_from_the_profile_keeps_the_players_last_chat_lines_anywhere(people):
    ala, bob, cyd = people
    t1 = games.create_table(ala, "sixtysix", seats=["me", "random"])
    t2 = games.create_table(cyd, "sixtysix", seats=["me", "random"])
    games.chat(t1.pk, bob, "one")
    games.chat(t2.pk, cyd, "not his")
    games.chat(t2.pk, bob, "two")
    report = services.report(ala, "bob", "spam")
    assert report.table is None and report.records == []
    assert [(line["table"], line["text"]) for line in report.chat] == [(t1.pk, "one"), (t2.pk, "two")]


def test_it_takes_one_open_report_per_player_and_table(people):
    ala, _bob, _cyd = people
    table = games.create_table(ala, "sixtysix", seats=["me", "random"])
    services.report(ala, "bob", "abuse", table_id=table.pk)
    assert refusal(services.report, ala, "bob", "spam", table_id=table.pk).code == "already_reported"
    services.report(ala, "bob", "spam")           # from the profile: another report
    services.report(ala, "cyd", "spam", table_id=table.pk)
    assert services.close(Report.objects.all()) == 3
    assert Report.objects.filter(status="closed", closed_at__isnull=False).count() == 3
    services.report(ala, "bob", "other", table_id=table.pk)       # the first one was dealt with
    assert services.reopen(Report.objects.filter(status="closed")) == 3
    assert not Report.objects.filter(closed_at__isnull=False).exists()


def test_a_user_sends_at_most_the_daily_number_of_reports(people, make_user, settings):
    ala, _bob, _cyd = people
    settings.REPORTS_PER_DAY = 3
    for name in ("p1", "p2", "p3", "p4"):
        make_user(name)
    for name in ("p1", "p2", "p3"):
        services.report(ala, name, "spam")
    err = refusal(services.report, ala, "p4", "spam")
    assert err.code == "rate_limited" and 0 < err.params["retry_after"] <= 24 * 3600
    assert Report.objects.count() == 3
    services.report(make_user("dan"), "p4", "spam")        # the limit is per user
    # A report older than a day no longer counts.
    Report.objects.filter(reporter=ala, reported__username="p1").update(created=timezone.now() - timedelta(days=1, minutes=1))
    services.report(ala, "p4", "spam")
    assert Report.objects.filter(reporter=ala).count() == 4


def test_the_snapshot_leaves_out_the_chat_of_players_one_muted(people):
    ala, bob, cyd = people
    table = games.create_table(ala, "sixtysix", seats=["me", "random"])
    for who, text in ((ala, "hi"), (bob, "spam spam"), (cyd, "hello")):
        games.chat(table.pk, who, text)
    services.mute(ala, "bob")
    snap, _seat = messages.snapshot(table.pk, ala)
    assert [c["text"] for c in snap["chat"]] == ["hi", "hello"]
    assert snap["muted"] == ["bob"] and snap["me"] == "ala"
    snap, _seat = messages.snapshot(table.pk, cyd)
    assert [c["text"] for c in snap["chat"]] == ["hi", "spam spam", "hello"] and snap["muted"] == []
    snap, _seat = messages.snapshot(table.pk, AnonymousUser())
    assert len(snap["chat"]) == 3 and snap["muted"] == [] and snap["me"] is None
    assert ChatMessage.objects.count() == 3        # muting hides, it deletes nothing
