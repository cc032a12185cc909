"""Duplicate tournaments, the pure part: who holds which cards, board scores and matchpoints.

Every table of a round plays the same boards (deals), each derived from the round's one committed
seed (games/engine/fair.py, label ``round:<tournament>-<round>``, deal number = board index). A
deck dealt by the rules gives each seat the hand at its *position*, ``(seat - dealer) % seats``,
counted from the dealer; so two seats hold the same cards exactly when their boards and positions
are equal. Hearts and Spades: board k's dealer is ``k % 4`` at every table, so a seat holds the
same cards at every table. Sixty-six: every second table has the dealer swapped (``flipped``),
so the hand one player of a table A holds is held at table B by the player in the other seat:
each hand is played once by each side of the pairing and the luck of the deal cancels.

A board's *margin* for a seat is ``GameRules.margins`` of the deal's points: its (team's) points
on the board minus its opponents' mean, the sign turned where lower wins (Hearts). Results are
compared among everyone who held the same cards (a Spades partnership is one result):
*matchpoints*, 2 per result beaten and 1 per tie, as in duplicate bridge; a group of n results
has a top of 2(n - 1) and its matchpoints always sum to n(n - 1). The percentage is matchpoints
over the top; a result nobody else could be compared with is 50%. A board a table never played
(a two-player match forfeited on time or by leaving) is scored as in bridge, "average plus" (60%)
for the seats not at fault and "average minus" (40%) for the seat that was; a bye is 50% on every
board of the round.

Standings: the mean percentage over every board played (byes included), then the sum of board
margins, then seeding rating, then entry order.

No Django: services and tests use the same functions.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Hashable, Optional, Sequence

from games.engine import core

EntrantId = Hashable
AVERAGE = 50.0
AVERAGE_PLUS = 60.0
AVERAGE_MINUS = 40.0


# --- seating ---------------------------------------------------------------------------------------
def dealers(seats: int, boards: int, flipped: bool = False) -> list[int]:
    """The dealer of each board at a table: board k is dealt by ``k % seats``, or by the other
    player at a ``flipped`` (two-player) table, which then holds the hands swapped."""
    if boards < 1:
        raise ValueError("a round has at least one board")
    shift = 1 if flipped else 0
    return [(k + shift) % seats for k in range(boards)]


def flipped(one_on_one: bool, table_index: int) -> bool:
    """Two players alone (Sixty-six): every second table of the round plays the boards with the
    hands swapped. Four-seat games deal the same at every table."""
    return one_on_one and table_index % 2 == 1


def board_order(table_index: int, tables: int, boards: int) -> list[int]:
    """The order in which the round's ``table_index``-th table (of ``tables``) plays its boards:
    every board once, starting from its own, the starts spread evenly over the boards. Tables
    that keep the same pace are then never on the same board at once when there are at least as
    many boards as tables (step j: table i plays ``(start_i + j) % boards``, and the starts
    differ); tables that drift, or more tables than boards, are kept apart by the hold
    (games/fair_deals.py ``held``: a board is not dealt while another table of the round plays it)."""
    if boards < 1 or tables < 1 or not 0 <= table_index < tables:
        raise ValueError("a table of the round, at least one board")
    start = table_index * boards // tables if tables <= boards else table_index % boards
    return [(start + j) % boards for j in range(boards)]


def position(seat: int, dealer: int, seats: int) -> int:
    """Which hand of the board ``seat`` holds: its place counted from the dealer."""
    return (seat - dealer) % seats


def seat_at(hand_position: int, dealer: int, seats: int) -> int:
    """The seat that holds the hand at ``hand_position`` when ``dealer`` deals."""
    return (hand_position + dealer) % seats


# --- scoring ---------------------------------------------------------------------------------------
def board_margins(game: str, variant: str, result: dict) -> list[float]:
    """A finished deal's margin per seat (positive is better, whatever the game's direction)."""
    rules = core.get_rules(game)
    return rules.margins(variant, rules.deal_points(result))


def matchpoints(results: Sequence[float]) -> list[int]:
    """Matchpoints of each result of one group: 2 per other result it beats, 1 per tie."""
    return [sum(2 if mine > other else 1 if mine == other else 0
                for j, other in enumerate(results) if j != i)
            for i, mine in enumerate(results)]


def top(n: int) -> int:
    """The most matchpoints a result of a group of ``n`` can earn."""
    return 2 * (n - 1)


def percentage(mp: int, n: int) -> float:
    return AVERAGE if n < 2 else 100.0 * mp / top(n)


@dataclass
class TableRound:
    """One table's boards in a round. ``margins[k]``: per seat, None when board k was not played
    there. ``at_fault``: seats whose player lost the match on time or by leaving."""
    table: int                               # the table's number in the round (the Game's board)
    players: list[Optional[EntrantId]]       # per seat (None: a bot seat)
    dealers: list[int]
    margins: list[Optional[list[float]]]
    at_fault: frozenset = frozenset()


@dataclass
class BoardScore:
    """One team's (a player's, outside Spades) result on one board at one table."""
    board: int                   # 0-based
    table: int
    seats: tuple[int, ...]
    players: tuple               # per seat in ``seats``
    holding: tuple[int, ...]     # the hand positions held: equal holdings held the same cards
    margin: Optional[float]      # None: not played (an artificial score)
    mp: Optional[int]
    top: int
    pct: float


def score_round(teams: Sequence[Sequence[int]], seats: int, tables: Sequence[TableRound],
                boards: int) -> list[BoardScore]:
    """Every table's result on every board, compared with everyone who held the same cards."""
    groups: dict[tuple, list[tuple[TableRound, tuple]]] = {}
    artificial: list[BoardScore] = []
    for k in range(boards):
        for tr in tables:
            dealer = tr.dealers[k]
            for team in teams:
                holding = tuple(sorted(position(s, dealer, seats) for s in team))
                key = (k, holding)
                if tr.margins[k] is None:
                    fault = any(s in tr.at_fault for s in team)
                    artificial.append(BoardScore(
                        board=k, table=tr.table, seats=tuple(team), players=tuple(tr.players[s] for s in team),
                        holding=holding, margin=None, mp=None, top=0,
                        pct=AVERAGE_MINUS if fault else AVERAGE_PLUS))
                else:
                    groups.setdefault(key, []).append((tr, tuple(team)))
    out: list[BoardScore] = []
    for (k, holding), members in groups.items():
        margins = [tr.margins[k][team[0]] for tr, team in members]
        mps = matchpoints(margins)
        n = len(members)
        for (tr, team), margin, mp in zip(members, margins, mps):
            out.append(BoardScore(board=k, table=tr.table, seats=team, players=tuple(tr.players[s] for s in team),
                                  holding=holding, margin=margin, mp=mp, top=top(n), pct=percentage(mp, n)))
    out.extend(artificial)
    out.sort(key=lambda b: (b.board, b.holding, b.table))
    return out


# --- standings ---------------------------------------------------------------------------------------
@dataclass
class Entrant:
    id: EntrantId
    rating: float = 1500.0
    order: int = 0


@dataclass
class Row:
    id: EntrantId
    rank: int = 0
    pct: float = 0.0             # mean percentage over every board
    boards: int = 0              # boards counted (byes included)
    margin: float = 0.0          # sum of board margins (played boards)
    byes: int = 0
    rating: float = 1500.0
    order: int = 0
    pct_sum: float = field(default=0.0, repr=False)


def standings(entrants: Sequence[Entrant], scores: Sequence[BoardScore],
              byes: Sequence[tuple[EntrantId, int]] = ()) -> list[Row]:
    """The standings, best first. ``byes``: (entrant, boards of that round) per bye received."""
    rows = {e.id: Row(id=e.id, rating=e.rating, order=e.order) for e in entrants}
    for b in scores:
        for pid in b.players:
            row = rows.get(pid)
            if row is None:
                continue
            row.pct_sum += b.pct
            row.boards += 1
            row.margin += b.margin or 0.0
    for pid, boards in byes:
        row = rows.get(pid)
        if row is not None:
            row.byes += 1
            row.boards += boards
            row.pct_sum += AVERAGE * boards
    for row in rows.values():
        row.pct = row.pct_sum / row.boards if row.boards else 0.0
    ordered = sorted(rows.values(), key=lambda r: (-round(r.pct, 9), -r.margin, -r.rating, r.order, str(r.id)))
    for i, row in enumerate(ordered, start=1):
        row.rank = i
    return ordered
