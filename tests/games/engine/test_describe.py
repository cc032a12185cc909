"""How the engine describes each game to the rest of the site: seats, teams, score columns, how a
match ranks, and the replay frame (GameRules.teams ... describe, State.replay_frame)."""
import json
import random

import pytest

from games.engine.core import GAME_NAMES, deal, get_rules

from .playouts import GAME_VARIANTS, finished_deal, play_out

TEAMS = {"sixtysix": [[0], [1]], "hearts": [[0], [1], [2], [3]], "spades": [[0, 2], [1, 3]]}


def old_score_margins(game, scores, seats):
    """tournaments/standings.score_margins as it was before the engine described games."""
    if game == "spades":
        return [float(scores[s % 2] - scores[1 - s % 2]) for s in range(seats)]
    out = []
    for s in range(seats):
        others = [scores[o] for o in range(seats) if o != s]
        margin = scores[s] - sum(others) / len(others)
        out.append(float(-margin if game == "hearts" else margin))
    return out


@pytest.mark.parametrize("game,variant", GAME_VARIANTS)
def test_it_tells_the_teams_of_every_game(game, variant):
    rules = get_rules(game)
    teams = rules.teams(variant)
    assert teams == TEAMS[game]
    assert sorted(s for team in teams for s in team) == list(range(rules.seats))   # each seat once
    for i, team in enumerate(teams):
        for seat in team:
            assert rules.team_of(seat, variant) == i
            assert rules.partners(seat, variant) == [s for s in team if s != seat]


def test_it_names_partners_only_in_spades():
    assert get_rules("spades").partners(0) == [2]
    assert get_rules("spades").partners(3) == [1]
    assert get_rules("hearts").partners(1) == []
    assert get_rules("sixtysix").partners(0) == []


@pytest.mark.parametrize("game,partnerships,one_on_one", [
    ("sixtysix", False, True), ("hearts", False, False), ("spades", True, False)])
def test_it_says_whether_partners_share_a_score_and_whether_two_play_alone(game, partnerships, one_on_one):
    rules = get_rules(game)
    for variant in rules.variants:
        assert rules.partnerships(variant) is partnerships
        assert rules.one_on_one(variant) is one_on_one


@pytest.mark.parametrize("game", GAME_NAMES)
def test_every_game_names_itself_and_its_goal_in_words_for_translation(game):
    rules = get_rules(game)
    assert rules.title and rules.title[0].isupper()
    assert "{n}" in rules.goal


def test_it_marks_the_words_for_makemessages_without_translating_them():
    from pathlib import Path

    from games.engine import core

    assert core.gettext_noop("Hearts") == "Hearts"
    for game in GAME_NAMES:
        source = Path(core.__file__).with_name(f"{game}.py").read_text(encoding="utf-8")
        assert f'title = gettext_noop("{get_rules(game).title}")' in source


def test_it_gives_each_seat_its_teams_score():
    assert get_rules("spades").seat_scores("standard", [510, 320]) == [510, 320, 510, 320]
    assert get_rules("hearts").seat_scores("standard", [20, 40, 60, 100]) == [20, 40, 60, 100]
    assert get_rules("sixtysix").seat_scores("kurnik", [7, 3]) == [7, 3]


def test_it_knows_which_way_a_score_ranks():
    assert get_rules("hearts").lower_wins is True
    assert get_rules("spades").lower_wins is False
    assert get_rules("sixtysix").lower_wins is False


@pytest.mark.parametrize("game,scores", [
    ("sixtysix", [7, 3]), ("sixtysix", [0, 11]), ("sixtysix", [5, 5]),
    ("hearts", [20, 40, 60, 100]), ("hearts", [0, 0, 26, 104]), ("hearts", [50, 50, 50, 50]),
    ("spades", [510, 320]), ("spades", [-210, 150]), ("spades", [300, 300]),
])
def test_it_measures_margins_as_the_tournament_formula_did(game, scores):
    rules = get_rules(game)
    assert rules.margins(rules.variants[0], scores) == pytest.approx(
        old_score_margins(game, scores, rules.seats))


def test_it_measures_margins_on_random_scores_as_before():
    rng = random.Random(7)
    for game in GAME_NAMES:
        rules = get_rules(game)
        for _ in range(50):
            scores = [rng.randint(-300, 600) for _ in rules.teams()]
            assert rules.margins(rules.variants[0], scores) == pytest.approx(
                old_score_margins(game, scores, rules.seats))


def test_it_never_gives_a_negative_zero_margin():
    assert [str(m) for m in get_rules("hearts").margins("standard", [50, 50, 50, 50])] == ["0.0"] * 4


@pytest.mark.parametrize("game,variant", GAME_VARIANTS)
def test_it_describes_the_game_for_pages_and_the_client(game, variant):
    rules = get_rules(game)
    described = rules.describe(variant)
    assert described == {"game": game, "variant": variant, "seats": rules.seats, "teams": TEAMS[game],
                         "partnerships": game == "spades", "one_on_one": game == "sixtysix",
                         "lower_wins": rules.lower_wins, "target": rules.target(variant),
                         "deal_points": described["deal_points"], "rank_order": rules.rank_order}
    assert json.loads(json.dumps(described)) == described
    assert rules.describe(None)["variant"] == rules.variants[0]


def test_it_states_each_games_target():
    assert get_rules("sixtysix").describe("kurnik")["target"] == 7
    assert get_rules("sixtysix").describe("santase")["target"] == 11
    assert get_rules("hearts").describe()["target"] == 100
    assert get_rules("spades").describe()["target"] == 500


@pytest.mark.parametrize("game,key", [("sixtysix", "game_points"), ("hearts", "points"), ("spades", "team_points")])
def test_it_reads_a_deals_points_per_score_column(game, key):
    rules = get_rules(game)
    assert rules.describe()["deal_points"] == key
    for seed in range(5):
        state = finished_deal(game, rules.variants[0], seed)
        result = state.result()
        points = rules.deal_points(result)
        assert points == result[key]
        assert len(points) == len(rules.teams())


@pytest.mark.parametrize("game,variant", GAME_VARIANTS)
def test_it_adds_a_deals_points_to_the_score_columns(game, variant):
    rules = get_rules(game)
    for seed in range(5):
        result = finished_deal(game, variant, seed).result()
        start = rules.initial_scores(variant)
        scores, _ = rules.add_result(variant, list(start), rules.initial_bags(variant), result)
        assert scores == [a + b for a, b in zip(start, rules.deal_points(result))]


@pytest.mark.parametrize("game,variant", GAME_VARIANTS)
def test_it_makes_replay_frames_that_show_every_hand_but_no_seats_own_view(game, variant):
    rng = random.Random(3)
    state = deal(game, variant, rng=rng)
    rules = get_rules(game)
    frames = []
    while True:
        frame = state.replay_frame()
        frames.append(frame)
        assert set(frame) == {"view", "hands"}
        view = frame["view"]
        for key in ("hand", "legal", "tricks", "my_captured", "my_points", "passed", "received"):
            assert key not in view
        assert view["game"] == game
        assert frame["hands"] == [state.view(s)["hand"] for s in range(rules.seats)]
        assert json.loads(json.dumps(frame)) == frame
        if state.is_over():
            break
        state.apply_move(state.random_move(rng))
    assert len(frames) > 10
    assert play_out(state, rng).is_over()
