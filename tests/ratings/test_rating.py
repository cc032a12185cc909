"""The rating arithmetic of each game shape, checked against openskill computed directly."""
import pytest
from openskill.models import PlackettLuce

from ratings import rating as R

MODEL = PlackettLuce()


def direct(teams, ranks):
    """openskill itself: teams of (mu, sigma) -> teams of (mu, sigma)."""
    out = MODEL.rate([[MODEL.rating(mu=mu, sigma=sigma) for mu, sigma in team] for team in teams], ranks=ranks)
    return [[(r.mu, r.sigma) for r in team] for team in out]


def pairs(skills):
    return [(s.mu, s.sigma) for s in skills]


def flat(ps):
    return [x for p in ps for x in p]


SKILLS = [R.Skill(27.1, 6.2), R.Skill(23.4, 7.9), R.Skill(25.0, 25 / 3), R.Skill(30.2, 3.1)]


def test_it_rates_sixty_six_as_two_players():
    new = R.rate_match("sixtysix", SKILLS[:2], [2, 1])
    [[a], [b]] = direct([[pairs(SKILLS)[0]], [pairs(SKILLS)[1]]], [2, 1])
    assert flat(pairs(new)) == pytest.approx(flat([a, b]))
    assert new[0].mu < SKILLS[0].mu and new[1].mu > SKILLS[1].mu


def test_it_rates_a_sixty_six_draw_as_a_shared_rank():
    new = R.rate_match("sixtysix", SKILLS[:2], [1, 1])
    expected = [p for team in direct([[pairs(SKILLS)[0]], [pairs(SKILLS)[1]]], [1, 1]) for p in team]
    assert flat(pairs(new)) == pytest.approx(flat(expected))


@pytest.mark.parametrize("ranks", [[1, 2, 3, 4], [2, 1, 2, 4], [4, 4, 1, 1], [1, 1, 1, 1]])
def test_it_rates_hearts_as_a_four_player_free_for_all_with_ties(ranks):
    new = R.rate_match("hearts", SKILLS, ranks)
    expected = [team[0] for team in direct([[p] for p in pairs(SKILLS)], ranks)]
    assert flat(pairs(new)) == pytest.approx(flat(expected))


def test_it_rates_spades_as_two_teams_of_two():
    # seat ranks as games.services gives them: partners share their team's rank
    new = R.rate_match("spades", SKILLS, [2, 1, 2, 1])
    p = pairs(SKILLS)
    [[s0, s2], [s1, s3]] = direct([[p[0], p[2]], [p[1], p[3]]], [2, 1])
    assert flat(pairs(new)) == pytest.approx(flat([s0, s1, s2, s3]))
    assert new[0].mu < SKILLS[0].mu and new[2].mu < SKILLS[2].mu
    assert new[1].mu > SKILLS[1].mu and new[3].mu > SKILLS[3].mu


def test_a_spades_team_whose_player_ran_out_of_time_loses():
    # seat 0 timed out (ranked last by final_ranks) although his team had the better score
    assert R.team_ranks("spades", [4, 2, 1, 2], [0]) == [2, 1]
    new = R.rate_match("spades", SKILLS, [4, 2, 1, 2], [0])
    p = pairs(SKILLS)
    [[s0, s2], [s1, s3]] = direct([[p[0], p[2]], [p[1], p[3]]], [2, 1])
    assert flat(pairs(new)) == pytest.approx(flat([s0, s1, s2, s3]))


def test_the_display_scale_starts_at_1500_and_is_linear_in_mu():
    assert R.display(R.MU) == R.DEFAULT_DISPLAY == 1500
    assert R.display(R.MU + 1) - R.display(R.MU) == R.DISPLAY_PER_MU
    assert R.display(R.MU - 10) == 1500 - 10 * R.DISPLAY_PER_MU
    # a first win between newcomers moves both by the same amount, in opposite directions
    [a], [b] = R.rate([[R.Skill()], [R.Skill()]], [1, 2])
    assert R.display(a.mu) - 1500 == 1500 - R.display(b.mu) > 0


def test_a_rating_is_provisional_for_its_first_games():
    assert R.provisional(0) and R.provisional(R.PROVISIONAL_GAMES - 1)
    assert not R.provisional(R.PROVISIONAL_GAMES)


def test_one_player_on_several_seats_gets_the_mean_of_their_new_skills():
    assert R.merge([R.Skill(20, 6), R.Skill(30, 8)]) == R.Skill(25, 7)


def test_it_refuses_a_shape_that_is_not_the_game():
    with pytest.raises(ValueError):
        R.rate_match("hearts", SKILLS[:2], [1, 2])
    with pytest.raises(ValueError):
        R.rate([[R.Skill()]], [1])
