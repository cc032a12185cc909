"""A bot has one display form everywhere: "Bot (strong)", and "Bot 2 (strong)" (its seat number)
where two seats have bots of one level. The wire and deal records keep the identifier
"bot:<level>"; the pages (match, history, replay, profile, leaderboard, tournament) show the label."""
import json
import re

import pytest
from django.urls import reverse
from django.utils import translation

from accounts.models import bot_user
from games.labels import bot_label, player_labels
from tests.ratings.factories import finished_match


def visible_text(html: str) -> str:
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_it_numbers_bots_only_when_two_seats_share_a_level():
    assert player_labels(["ala", "bot:strong"]) == ["ala", "Bot (strong)"]
    assert player_labels(["ala", "bot:strong", "bot:strong", "bot:basic"]) == \
        ["ala", "Bot 2 (strong)", "Bot 3 (strong)", "Bot (basic)"]
    assert player_labels(["bot-strong", ""]) == ["bot-strong", ""]      # a person's name as it is
    with translation.override("pl"):
        assert player_labels(["bot:random", "bot:random"]) == ["Bot 1 (losowy)", "Bot 2 (losowy)"]
        assert bot_label("strong") == "Bot (silny)"


@pytest.mark.django_db
def test_the_match_history_and_replay_pages_tell_two_bots_of_one_level_apart(client, make_user):
    ala = make_user("ala")
    strong, basic = bot_user("strong"), bot_user("basic")
    m = finished_match(ala, "hearts", [ala, strong, strong, basic], rated=False)
    page = visible_text(client.get(reverse("match", args=[m.pk])).content.decode())
    for label in ("Bot 2 (strong)", "Bot 3 (strong)", "Bot (basic)"):
        assert label in page
    assert "bot:" not in page
    history = visible_text(client.get(reverse("history", args=["ala"])).content.decode()).replace(" ,", ",")
    assert "Bot 2 (strong), Bot 3 (strong), Bot (basic)" in history and "bot:" not in history
    html = client.get(reverse("replay", args=[m.pk, 1])).content.decode()
    boot = json.loads(re.search(r'<script id="replay-data" type="application/json">(.*?)</script>', html, re.S).group(1))
    assert boot["deals"][0]["players"] == ["ala", "Bot 2 (strong)", "Bot 3 (strong)", "Bot (basic)"]
    # The downloaded record keeps the identifier (docs/RECORDS.md): a machine format.
    record = json.loads(client.get(reverse("download_deal", args=[m.pk, 1])).content)
    assert record["players"][1] == "bot:strong"


@pytest.mark.django_db
def test_the_bot_profile_and_the_match_page_name_a_bot_by_its_label(client, make_user):
    ala = make_user("ala")
    m = finished_match(ala, "sixtysix", [ala, bot_user("strong")], rated=False)
    profile = visible_text(client.get(reverse("profile", args=["bot-strong"])).content.decode())
    assert "Bot (strong)" in profile and "bot-strong" not in profile
    page = visible_text(client.get(reverse("match", args=[m.pk])).content.decode())
    assert "Bot (strong)" in page and "bot-strong" not in page
