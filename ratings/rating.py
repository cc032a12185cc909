"""Rating arithmetic: pure functions around openskill's Plackett-Luce model (no Django here).

Every game is one "shape" of the same call, ``rate(teams, ranks)``: the engine's teams
(``GameRules.teams``), e.g. two teams of one player (``[[a], [b]]``) ranked ``[1, 2]`` (or
``[1, 1]``), four teams of one ranked by the final score (ties sharing a rank), or two
partnerships of two (seats 0+2 against 1+3).

Display scale: ``display = 1500 + 30 * (mu - 25)``, rounded. A newcomer (mu 25, sigma 25/3) shows
1500 with an uncertainty of +-250; 30 points per unit of mu makes a 400-point gap between settled
players about 10:1 odds under Plackett-Luce (c = sqrt(2) * beta, exp(13.3 / 5.9) ~ 9.6), close to
what Elo's 400 points mean. We show mu, not the conservative ordinal (mu - 3 sigma): a newcomer
starts at 1500, and the provisional mark (fewer than PROVISIONAL_GAMES rated matches) says how far
to trust it.
"""
from __future__ import annotations

from dataclasses import dataclass

from openskill.models import PlackettLuce

from games.engine import core

MU = 25.0
SIGMA = MU / 3
DISPLAY_BASE = 1500
DISPLAY_PER_MU = 30
PROVISIONAL_GAMES = 10

MODEL = PlackettLuce(mu=MU, sigma=SIGMA)

@dataclass(frozen=True)
class Skill:
    mu: float = MU
    sigma: float = SIGMA


def display(mu: float) -> int:
    """The rating players see."""
    return round(DISPLAY_BASE + DISPLAY_PER_MU * (mu - MU))


DEFAULT_DISPLAY = display(MU)


def provisional(games: int) -> bool:
    return games < PROVISIONAL_GAMES


def rate(teams: list[list[Skill]], ranks: list[int]) -> list[list[Skill]]:
    """New skills after one match: ``teams`` of current skills, ``ranks`` per team (1 best, ties
    share a rank)."""
    if len(teams) != len(ranks) or len(teams) < 2:
        raise ValueError("one rank per team, at least two teams")
    rated = MODEL.rate([[MODEL.rating(mu=s.mu, sigma=s.sigma) for s in team] for team in teams],
                       ranks=list(ranks))
    return [[Skill(r.mu, r.sigma) for r in team] for team in rated]


def teams_of(game: str, variant: str | None = None) -> list[list[int]]:
    """Seats per team: the shape of a match for the model (the engine says)."""
    return core.get_rules(game).teams(variant)


def team_ranks(game: str, seat_ranks: list[int], timed_out: list[int] = (),
               variant: str | None = None) -> list[int]:
    """Each team's rank from the match's seat ranks (games.services.final_ranks: timed-out seats
    already last). In a partnership game a team with a seat that ran out of time loses to every
    team without one (the seat's partner shares the forfeit, as a team shares its score)."""
    teams = teams_of(game, variant)
    if not core.get_rules(game).partnerships(variant):
        return [seat_ranks[t[0]] for t in teams]
    key = [(any(s in timed_out for s in t), min(seat_ranks[s] for s in t)) for t in teams]
    return [1 + sum(1 for other in key if other < k) for k in key]


def rate_match(game: str, seat_skills: list[Skill], seat_ranks: list[int],
               timed_out: list[int] = (), variant: str | None = None) -> list[Skill]:
    """New skill per seat after a match of ``game``."""
    teams = teams_of(game, variant)
    if sum(len(t) for t in teams) != len(seat_skills) or len(seat_ranks) != len(seat_skills):
        raise ValueError(f"{game} is played by {sum(len(t) for t in teams)} seats")
    new = rate([[seat_skills[s] for s in t] for t in teams],
               team_ranks(game, seat_ranks, timed_out, variant))
    out: list[Skill] = [Skill()] * len(seat_skills)
    for team, skills in zip(teams, new):
        for seat, skill in zip(team, skills):
            out[seat] = skill
    return out


def merge(skills: list[Skill]) -> Skill:
    """One player on several seats (a bot level filling three hearts seats): the mean of the
    seats' new skills."""
    return Skill(sum(s.mu for s in skills) / len(skills), sum(s.sigma for s in skills) / len(skills))
