"""Standings arithmetic: pure functions over plain data (no Django: docs/ARCHITECTURE.md).

Per game, each entrant gets
* **match points**: the share of his opponents he finished ahead of, a tie counting half:
  2 players: win 1, draw ½, loss 0; 4 players alone (Hearts): 1, ⅔, ⅓, 0 by rank; partnerships
  (Spades): the partnership's result against the other partnership (1 or 0). A bye is worth a
  win (1). Who ran out of time ranks last at his table (the games' rule), so he scores 0 there.
* **game points**: the score margin of the match, as the engine measures it
  (``GameRules.margins``: his team's score minus the average of the other teams', turned round
  where low is good). A bye is worth 0.

Standings order (README, "Tournaments"): match points, then Buchholz (the sum of the current match
points of every entrant he has played, once per game, byes and bots adding nothing), then game
points, then seeding rating, then entry order.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Hashable, Optional, Sequence

from .pairing import Player

EntrantId = Hashable


@dataclass
class GameResult:
    """One finished game (or bye) of a round. ``players`` per seat (None: a bot seat)."""
    round: int
    players: list[Optional[EntrantId]]
    points: list[float]                      # match points per seat
    game_points: list[float]
    teams: Optional[list[int]] = None        # per seat, its team (GameRules.team_of); None: everyone alone
    bye: bool = False

    def opponents_of(self, seat: int) -> list[EntrantId]:
        return [p for s, p in enumerate(self.players)
                if s != seat and p is not None and not self._same_team(s, seat)]

    def partners_of(self, seat: int) -> list[EntrantId]:
        return [p for s, p in enumerate(self.players)
                if s != seat and p is not None and self._same_team(s, seat)]

    def _same_team(self, a: int, b: int) -> bool:
        return self.teams is not None and self.teams[a] == self.teams[b]


@dataclass
class Entrant:
    id: EntrantId
    rating: float = 1500.0
    order: int = 0                # entry order, the last tie-break


@dataclass
class Row:
    id: EntrantId
    rank: int = 0
    match_points: float = 0.0
    buchholz: float = 0.0
    game_points: float = 0.0
    rating: float = 1500.0
    games: int = 0
    byes: int = 0
    opponents: list = field(default_factory=list)    # once per game played against them
    partners: list = field(default_factory=list)
    tables: list = field(default_factory=list)       # frozensets of entrants at his tables
    order: int = 0


def table_points(ranks: Sequence[int], teams: Optional[Sequence[int]] = None) -> list[float]:
    """Match points of each seat from the table's final ranks (1 = best; equal ranks tie)."""
    n = len(ranks)
    out = []
    for s in range(n):
        opp = [o for o in range(n) if o != s and (teams is None or teams[o] != teams[s])]
        if not opp:
            out.append(0.0)
            continue
        won = sum(1.0 if ranks[s] < ranks[o] else 0.5 if ranks[s] == ranks[o] else 0.0 for o in opp)
        out.append(won / len(opp))
    return out


def compute(entrants: Sequence[Entrant], games: Sequence[GameResult]) -> list[Row]:
    """The standings, best first, with every entrant's history (for the next pairing)."""
    rows = {e.id: Row(id=e.id, rating=e.rating, order=e.order) for e in entrants}
    for g in games:
        entrants_here = frozenset(p for p in g.players if p is not None)
        for seat, pid in enumerate(g.players):
            row = rows.get(pid)
            if row is None:
                continue
            row.match_points += g.points[seat]
            row.game_points += g.game_points[seat]
            if g.bye:
                row.byes += 1
                continue
            row.games += 1
            row.opponents.extend(g.opponents_of(seat))
            row.partners.extend(g.partners_of(seat))
            row.tables.append(entrants_here)
    for row in rows.values():
        row.buchholz = sum(rows[o].match_points for o in row.opponents if o in rows)
    ordered = sorted(rows.values(), key=sort_key)
    for i, row in enumerate(ordered, start=1):
        row.rank = i
    return ordered


def sort_key(row: Row):
    return (-row.match_points, -row.buchholz, -row.game_points, -row.rating, row.order, str(row.id))


def pairing_players(rows: Sequence[Row]) -> list[Player]:
    """The pairing module's view of the standings."""
    return [Player(id=r.id, score=r.match_points, rating=r.rating, opponents=frozenset(r.opponents),
                   partners=tuple(r.partners), byes=r.byes, tables=tuple(r.tables)) for r in rows]
