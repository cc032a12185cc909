"""The pages: profile, leaderboard, history with filters, match, replay, downloads and upload."""
import json
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from games.engine import records
from games.models import Deal
from ratings import services
from ratings.models import Rating

from tests.ratings.factories import finished_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def ala(make_user):
    return make_user("ala")


@pytest.fixture
def matches(ala, make_user):
    """Three rated matches of ala (two games) and one unrated, all rated at once."""
    b1, b2, b3 = make_user("b1"), make_user("b2"), make_user("b3")
    out = [finished_match(ala, "sixtysix", [ala, b1], seed=1, ranks=[1, 2]),
           finished_match(ala, "sixtysix", [b1, ala], seed=2, ranks=[1, 2]),
           finished_match(ala, "hearts", [ala, b1, b2, b3], seed=3),
           finished_match(ala, "sixtysix", [ala, b2], seed=4, rated=False, ranks=[2, 1])]
    for m in out:
        services.rate_match(m.pk)
    return out


def test_a_hearts_match_lost_says_the_place_a_sixty_six_one_does_not(client, ala, make_user):
    """In hearts a "loss" may be second of four with the rating up: the row says the place."""
    b1, b2, b3 = make_user("b1"), make_user("b2"), make_user("b3")
    finished_match(ala, "hearts", [b1, ala, b2, b3], seed=5, ranks=[1, 2, 3, 4])
    finished_match(ala, "sixtysix", [b1, ala], seed=6, ranks=[1, 2])
    rows = client.get(reverse("history", args=["ala"])).content.decode().split("<tr")[2:]
    hearts = next(r for r in rows if "Hearts" in r)
    sixtysix = next(r for r in rows if "Sixty-six" in r)
    assert "place 2 of 4" in hearts and "place" not in sixtysix
    finished_match(ala, "hearts", [ala, b1, b2, b3], seed=7, ranks=[1, 2, 3, 4])
    won = client.get(reverse("history", args=["ala"])).content.decode().split("<tr")[2]
    assert "Hearts" in won and ">win<" in won and "place" not in won


def replay_data(html: str) -> dict:
    return json.loads(re.search(r'<script id="replay-data" type="application/json">(.*?)</script>', html, re.S).group(1))


def test_the_profile_shows_ratings_with_a_chart_totals_and_recent_matches(client, ala, matches):
    html = client.get(reverse("profile", args=["ala"])).content.decode()
    r = Rating.objects.get(user=ala, game="sixtysix")
    assert r.games == 2 and r.wins == 1
    assert f">{r.display}?<" in html                    # provisional mark
    assert html.count('class="rating-chart"') == 2      # sixtysix and hearts
    assert "4 matches played" in html
    assert html.count(reverse("match", args=[matches[0].pk])) >= 1


def test_the_history_filters_by_game_and_result(client, ala, matches):
    url = reverse("history", args=["ala"])

    def listed(query=""):
        html = client.get(url + query).content.decode()
        return {int(x) for x in re.findall(r'href="/match/(\d+)/"', html)}
    assert listed() == {m.pk for m in matches}
    assert listed("?game=hearts") == {matches[2].pk}
    assert listed("?result=loss") == {matches[1].pk, matches[3].pk} | (
        {matches[2].pk} if matches[2].ranks[0] != 1 else set())
    assert listed("?game=sixtysix&result=win") == {matches[0].pk}


def test_the_match_page_shows_the_score_deal_by_deal(client, matches):
    m = matches[2]
    html = client.get(reverse("match", args=[m.pk])).content.decode()
    deals = Deal.objects.filter(match=m).count()
    assert len(re.findall(r'class="replay-link[ "]', html)) == deals
    final = re.search(r'<tr class="total">(.*?)</tr>', html, re.S).group(1)
    assert [int(x) for x in re.findall(r"<td[^>]*>(-?\d+)</td>", final)] == m.state["scores"]
    assert "1500 →" in html                               # the rating change of each player


def test_the_replay_gives_every_step_with_all_hands(client, matches):
    m = matches[0]
    deal = Deal.objects.get(match=m, number=0)
    data = replay_data(client.get(reverse("replay", args=[m.pk, 1])).content.decode())
    frames = data["deals"][0]["frames"]
    assert len(frames) == len(deal.record["actions"]) + 1
    assert [sorted(h) for h in frames[0]["hands"]] == [sorted(h) for h in deal.record["hands"]]
    assert [f["action"] for f in frames[1:]] == deal.record["actions"]
    assert frames[-1]["view"]["over"] and data["deals"][0]["result"] == deal.result
    plays = [f["trick"] for f in frames if f["trick"]]
    assert plays == sorted(plays) and plays[0] == 1


def test_downloads_give_the_deal_record_and_the_match_as_json_lines(client, matches):
    m = matches[2]
    one = client.get(reverse("download_deal", args=[m.pk, 1]))
    assert one["Content-Disposition"].startswith("attachment")
    assert json.loads(one.content) == Deal.objects.get(match=m, number=0).record
    lines = client.get(reverse("download_match", args=[m.pk])).content.decode().strip().splitlines()
    assert len(lines) == Deal.objects.filter(match=m).count()
    for line in lines:
        verdict = records.verify(json.loads(line))
        assert verdict.finished and verdict.matches


def test_the_upload_verifies_a_record_and_shows_its_replay(client, matches):
    record = Deal.objects.get(match=matches[0], number=0).record
    resp = client.post(reverse("upload_record"), {"text": json.dumps(record)})
    html = resp.content.decode()
    assert "Valid: the engine computes the same result." in html
    assert len(replay_data(html)["deals"][0]["frames"]) == len(record["actions"]) + 1


def test_the_upload_names_the_step_and_reason_of_an_illegal_action(client, matches):
    record = Deal.objects.get(match=matches[0], number=0).record
    bad = json.loads(json.dumps(record))
    bad["actions"][1]["seat"] = bad["actions"][0]["seat"]      # the same seat acts twice
    upload = SimpleUploadedFile("deal.json", json.dumps(bad).encode(), "application/json")
    html = client.post(reverse("upload_record"), {"file": upload}).content.decode()
    assert "Illegal action at step 1" in html and "It is not your turn." in html


def test_the_upload_checks_every_line_of_a_match_and_reports_a_wrong_result(client, matches):
    m = matches[2]
    lines = client.get(reverse("download_match", args=[m.pk])).content.decode().strip().splitlines()
    tampered = json.loads(lines[0])
    tampered["result"]["points"] = [0, 0, 0, 26]
    payload = "\n".join([json.dumps(tampered)] + lines[1:] + ["{not json"])
    html = client.post(reverse("upload_record"), {"text": payload}).content.decode()
    assert "the stated result differs from the engine" in html
    assert "not valid JSON" in html
    assert html.count("Valid: the engine computes the same result.") == len(lines) - 1
    assert len(replay_data(html)["deals"]) == len(lines)


def test_the_upload_reads_a_json_list_as_several_records(client, matches):
    """The same reading as the command line's (games.engine.records.parse_records)."""
    m = matches[2]
    lines = client.get(reverse("download_match", args=[m.pk])).content.decode().strip().splitlines()
    listed = json.dumps([json.loads(line) for line in lines], indent=1)
    html = client.post(reverse("upload_record"), {"text": listed}).content.decode()
    assert html.count("Valid: the engine computes the same result.") == len(lines) > 1
    assert [d["title"] for d in replay_data(html)["deals"]] == [f"Record {n}" for n in range(1, len(lines) + 1)]


def test_the_upload_says_a_record_that_is_not_an_object_is_invalid(client):
    html = client.post(reverse("upload_record"), {"text": "[null, 3]"}).content.decode()
    assert html.count("a deal record must be a JSON object") == 2


def test_the_upload_refuses_an_empty_form(client):
    html = client.post(reverse("upload_record"), {"text": "  "}).content.decode()
    assert "Choose a file or paste a deal record." in html


def test_a_profile_without_matches_gives_no_win_rate(client, ala):
    html = client.get(reverse("profile", args=["ala"])).content.decode()
    assert "No matches played yet" in html
    assert "win rate" not in html


def test_the_loser_of_a_two_sided_match_is_not_labelled_place_two(client, ala, make_bot):
    b1, b2, b3 = make_bot("b1"), make_bot("b2"), make_bot("b3")
    two = finished_match(ala, "sixtysix", [b1, ala], seed=6, ranks=[1, 2])
    places = re.findall(r'<span class="match-place">([^<]*)</span>',
                        client.get(reverse("match", args=[two.pk])).content.decode())
    assert places == ["Winner", "Lost"]
    four = finished_match(ala, "hearts", [b1, ala, b2, b3], seed=5, ranks=[1, 2, 3, 4])
    places = re.findall(r'<span class="match-place">([^<]*)</span>',
                        client.get(reverse("match", args=[four.pk])).content.decode())
    assert places == ["Winner", "Place 2", "Place 3", "Place 4"]
