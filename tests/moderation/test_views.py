"""The profile's Mute/Unmute and Report buttons, the page of muted players, and the admin's
report pages."""
import re

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import bot_user
from games import services as games
from moderation import services
from moderation.models import Mute, Report

pytestmark = pytest.mark.django_db


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def ala(make_user):
    return make_user("ala")


@pytest.fixture
def bob(make_user):
    return make_user("bob")


def page(client, url) -> str:
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def test_a_profile_offers_mute_and_report_and_then_unmute(ala, bob):
    client = client_of(ala)
    html = page(client, reverse("profile", args=["bob"]))
    assert f'action="{reverse("mute", args=["bob"])}"' in html and 'data-action="mute"' in html
    assert f'action="{reverse("report_player", args=["bob"])}"' in html and 'name="reason"' in html
    response = client.post(reverse("mute", args=["bob"]), {"next": reverse("profile", args=["bob"])})
    assert response.status_code == 302 and response["Location"] == reverse("profile", args=["bob"])
    assert Mute.objects.filter(muter=ala, muted=bob).exists()
    html = page(client, reverse("profile", args=["bob"]))
    assert "bob is muted" in html and 'data-action="unmute"' in html and 'data-action="mute"' not in html
    client.post(reverse("unmute", args=["bob"]))
    assert not Mute.objects.exists()
    assert 'data-action="mute"' in page(client, reverse("profile", args=["bob"]))


def test_the_report_form_sends_a_report_or_says_why_not(ala, bob):
    client = client_of(ala)
    response = client.post(reverse("report_player", args=["bob"]), {"reason": "abuse", "text": "rude"}, follow=True)
    assert "Report sent" in response.content.decode()
    report = Report.objects.get()
    assert (report.reporter, report.reported, report.reason, report.text, report.table) == (ala, bob, "abuse", "rude", None)
    response = client.post(reverse("report_player", args=["bob"]), {"reason": "abuse"}, follow=True)
    assert "already reported bob" in response.content.decode()
    response = client.post(reverse("report_player", args=["bob"]), {"reason": "ugly"}, follow=True)
    assert "Select a valid choice" in response.content.decode()
    response = client.post(reverse("report_player", args=["ala"]), {"reason": "spam"}, follow=True)
    assert "You cannot report yourself." in response.content.decode()
    assert Report.objects.count() == 1


def test_no_buttons_for_oneself_a_bot_or_a_visitor_and_the_muted_page_lists_and_unmutes(ala, bob, make_user):
    client = client_of(ala)
    services.mute(ala, "bob")
    own = page(client, reverse("profile", args=["ala"]))
    assert 'data-action="mute"' not in own and f'href="{reverse("muted_players")}"' in own
    bot = bot_user("basic")
    assert 'data-action="mute"' not in page(client, reverse("profile", args=[bot.username]))
    assert "data-action" not in page(Client(), reverse("profile", args=["bob"]))
    assert Client().post(reverse("mute", args=["bob"])).status_code == 302      # to the login page
    assert client.get(reverse("mute", args=["bob"])).status_code == 405

    html = page(client, reverse("muted_players"))
    assert re.search(r'href="/accounts/u/bob/">bob</a>', html) and "Unmute bob" in html
    response = client.post(reverse("unmute", args=["bob"]), {"next": reverse("muted_players")})
    assert response["Location"] == reverse("muted_players")
    assert "You have muted nobody." in page(client, reverse("muted_players"))
    # an unsafe "next" goes back to the profile instead
    response = client.post(reverse("mute", args=["bob"]), {"next": "https://evil.example/"})
    assert response["Location"] == reverse("profile", args=["bob"])


def test_the_admin_lists_reports_shows_their_evidence_and_closes_them(ala, bob, make_user):
    admin = make_user("root", is_staff=True, is_superuser=True)
    table = games.create_table(ala, "sixtysix", seats=["me", "random"])
    games.chat(table.pk, bob, "<b>idiots</b>")
    report = services.report(ala, "bob", "abuse", "see the chat", table_id=table.pk)
    services.report(ala, "bob", "spam")
    client = client_of(admin)
    changelist = reverse("admin:moderation_report_changelist")
    html = page(client, changelist)
    assert "see the chat" in html and "Abuse" in html
    html = page(client, changelist + "?status__exact=open&reason__exact=abuse")
    assert "see the chat" in html and "1 report" in html
    html = page(client, reverse("admin:moderation_report_change", args=[report.pk]))
    assert "&lt;b&gt;idiots&lt;/b&gt;" in html and "<b>idiots</b>" not in html      # escaped
    assert 'class="report-chat"' in html and 'class="report-deal"' in html and "bot:random" in html
    assert "Deal 0 (in progress)" in html
    assert f'href="{reverse("table", args=[table.pk])}"' in html
    response = client.post(changelist, {"action": "close_reports", "_selected_action": [report.pk]})
    assert response.status_code == 302
    report.refresh_from_db()
    assert report.status == "closed" and report.closed_at is not None
    assert Report.objects.filter(status="open").count() == 1
    # The change form: the status is the one thing to edit, through the services.
    response = client.post(reverse("admin:moderation_report_change", args=[report.pk]), {"status": "open"})
    assert response.status_code == 302
    report.refresh_from_db()
    assert report.status == "open" and report.closed_at is None
    assert page(client, reverse("admin:moderation_mute_changelist"))
    assert client.get(reverse("admin:moderation_report_add")).status_code == 403
