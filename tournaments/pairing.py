"""Who meets whom: pure functions over plain data (no Django: docs/ARCHITECTURE.md).

The tournament manager (tournaments/services.py) turns entries and finished games into ``Player``
records, calls one of these functions and stores what it returns. Nothing here reads a clock, a
random source or a database, so a round's pairing is reproducible from the standings alone.

Formats (README, "Tournaments"):

* ``swiss_pairs``: 2-player Swiss. Players are ordered by standing; each score group is folded (top
  half against bottom half, the Dutch system's S1/S2 idea) and an odd player floats down. No two
  players meet twice while a pairing without a repeat exists (an exhaustive, memoised search);
  with an odd number the bye goes to the lowest-placed player who has had the fewest byes.
* ``swiss_tables``: 4-player Swiss. Players ordered by standing are cut into tables of four; when
  the number is not a multiple of four the bot seats are spread over the bottom tables. A table that would
  repeat an earlier table exactly is broken up by swapping with a neighbour.
* ``partnership_seating``: partnerships formed per round inside a table of two teams of two
  (Spades: 1st+4th against 2nd+3rd by standing), varied so that nobody partners the same player
  again while avoidable, and seated where the game's teams sit.
* ``round_robin``: the circle method (Berger); with an odd number each round one player sits out.
* ``elimination_slots`` / ``elimination_pairs``: a seeded bracket (1 v 16, 8 v 9, ...), byes to
  the top seeds, winners meet in bracket order.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Hashable, Iterable, Optional, Sequence

PlayerId = Hashable
BYE = None            # the empty side of a pairing (a bye) or a bot seat at a table


@dataclass
class Player:
    id: PlayerId
    score: float = 0.0            # match points so far
    rating: float = 1500.0        # seeding rating, the tie-break of the pairing order
    opponents: frozenset = field(default_factory=frozenset)   # everyone met (repeats counted once)
    partners: tuple = ()          # partners so far (partnership games), one per game, repeats kept
    byes: int = 0                 # byes (2-player) received so far
    tables: tuple = ()            # frozensets of the entrants of each earlier 4-player table


class PairingError(Exception):
    pass


def standing_order(players: Iterable[Player]) -> list[Player]:
    """Pairing order: score, then seeding rating, then id (a stable, documented order)."""
    return sorted(players, key=lambda p: (-p.score, -p.rating, str(p.id)))


# --- 2-player Swiss ------------------------------------------------------------------------------
@dataclass
class SwissRound:
    pairs: list[tuple[PlayerId, PlayerId]]     # in board order, the higher-placed player first
    bye: Optional[PlayerId] = None
    repeats: int = 0                           # pairs who met before (0 unless unavoidable)


def swiss_pairs(players: Sequence[Player], budget: int = 200_000) -> SwissRound:
    """Pair one Swiss round of a 2-player game. See the module docstring for the rules."""
    order = standing_order(players)
    if len(order) < 2:
        raise PairingError("a Swiss round needs at least two players")
    bye_candidates: list[Player | None] = [None]
    if len(order) % 2:
        fewest = min(p.byes for p in order)
        # The lowest-placed first, among those with the fewest byes; then the others (who would
        # get a second bye) only if nobody with fewer can be left out without forcing a repeat.
        bottom_up = list(reversed(order))
        bye_candidates = ([p for p in bottom_up if p.byes == fewest]
                          + [p for p in bottom_up if p.byes != fewest])
    for allow_repeats in (False, True):
        for cand in bye_candidates:
            rest = [p for p in order if p is not cand]
            pairs = _pair_ordered(rest, allow_repeats, budget)
            if pairs is not None:
                repeats = sum(1 for a, b in pairs if b.id in a.opponents)
                return SwissRound(pairs=[(a.id, b.id) for a, b in pairs],
                                  bye=None if cand is None else cand.id, repeats=repeats)
            if allow_repeats:
                break   # with repeats allowed the first candidate always pairs
    raise PairingError("no pairing found")   # unreachable: repeats allowed always pairs


def _pair_ordered(order: list[Player], allow_repeats: bool, budget: int):
    """Pair ``order`` (already in standing order) top-down: the highest unpaired player takes the
    most natural opponent (same score group, folded), backtracking when the rest cannot be
    paired. Failing sub-problems are memoised by the set of players left."""
    failed: set[frozenset] = set()
    steps = [0]

    def preference(p: Player, rest: list[Player]) -> list[Player]:
        # p is the top of what is left of his score group: he meets the middle of it (the top
        # of the bottom half, S2), then the lower ones, then the upper ones; then other groups,
        # the nearest score first.
        group = [q for q in rest if q.score == p.score]
        ideal = (len(group) + 1) // 2 - 1
        pos = {id(q): i for i, q in enumerate(group)}

        def key(q: Player):
            if id(q) in pos:
                i = pos[id(q)]
                return (0, 0, i - ideal) if i >= ideal else (0, 1, ideal - i)
            return (1, abs(p.score - q.score), rest.index(q))
        return sorted(rest, key=key)

    def solve(rest: list[Player]):
        if not rest:
            return []
        key = frozenset(id(q) for q in rest)
        if key in failed:
            return None
        steps[0] += 1
        if steps[0] > budget:
            return None
        p, others = rest[0], rest[1:]
        for q in preference(p, others):
            if not allow_repeats and q.id in p.opponents:
                continue
            tail = solve([r for r in others if r is not q])
            if tail is not None:
                return [(p, q)] + tail
        failed.add(key)
        return None

    return solve(order)


# --- 4-player Swiss --------------------------------------------------------------------------------
def table_sizes(n: int, seats: int = 4) -> list[int]:
    """How many entrants sit at each table: as few tables as possible, as full as possible, the
    bot seats spread one per table over the bottom tables (9 entrants: 3 + 3 + 3 and a bot at
    each; 10: 4 + 3 + 3; 5: 3 + 2)."""
    if n <= 0:
        return []
    tables = -(-n // seats)
    base, extra = divmod(n, tables)
    return [base + 1] * extra + [base] * (tables - extra)


def swiss_tables(players: Sequence[Player], seats: int = 4) -> list[list[PlayerId]]:
    """Tables for one round of a 4-player Swiss. ``players`` come in standings order (the caller's
    full order, tie-breaks included); they are cut into tables (bot seats, shown as ``None``, at
    the bottom tables), then exact repeats of an earlier table are broken by swapping a player with
    the next (or previous) table. Each table is listed in standings order."""
    order = list(players)
    rank = {id(p): i for i, p in enumerate(order)}
    sizes = table_sizes(len(order), seats)
    groups: list[list[Player]] = []
    i = 0
    for size in sizes:
        groups.append(order[i:i + size])
        i += size
    if len(groups) > 1:
        for _attempt in range(3):
            changed = False
            for t, group in enumerate(groups):
                if not _repeats_a_table(group):
                    continue
                other = t + 1 if t + 1 < len(groups) else t - 1
                for a in range(len(group) - 1, -1, -1):          # lowest of this table first
                    swapped = False
                    for b in range(len(groups[other])):           # highest of the neighbour first
                        g1, g2 = list(group), list(groups[other])
                        g1[a], g2[b] = g2[b], g1[a]
                        if not _repeats_a_table(g1) and not _repeats_a_table(g2):
                            groups[t], groups[other] = g1, g2
                            swapped = changed = True
                            break
                    if swapped:
                        break
            if not changed:
                break
    out = []
    for group in groups:
        ids = [p.id for p in sorted(group, key=lambda p: rank[id(p)])]
        out.append(ids + [BYE] * (seats - len(ids)))
    return out


def _repeats_a_table(group: list[Player]) -> bool:
    if len(group) < 2:
        return False
    ids = frozenset(p.id for p in group)
    return any(ids == frozenset(t) for p in group for t in p.tables)


def partnership_seating(table: Sequence[Optional[Player]],
                        teams: Sequence[Sequence[int]]) -> list[Optional[PlayerId]]:
    """The player of each seat at a table of two partnerships of two, ``teams`` being the seats of
    each (the engine's ``GameRules.teams``, e.g. ``[[0, 2], [1, 3]]``: partners sit opposite).
    ``table`` is in standing order (``None``: a bot seat). The first of 1st+4th / 2nd+3rd,
    1st+3rd / 2nd+4th, 1st+2nd / 3rd+4th that repeats the fewest earlier partnerships wins."""
    if len(teams) != 2 or any(len(team) != 2 for team in teams):
        raise ValueError(f"partnership seating needs two teams of two, not {teams}")
    a, b, c, d = list(table) + [None] * (4 - len(table))
    options = [((a, d), (b, c)), ((a, c), (b, d)), ((a, b), (c, d))]

    def repeats(option) -> int:
        n = 0
        for x, y in option:
            if x is not None and y is not None:
                n += x.partners.count(y.id)
        return n
    best = min(options, key=repeats)     # min keeps the first of equals
    seats: list[Optional[PlayerId]] = [None] * 4
    for pair, team in zip(best, teams):
        for player, seat in zip(pair, team):
            seats[seat] = None if player is None else player.id
    return seats


# --- round robin ------------------------------------------------------------------------------------
def round_robin_rounds(n_or_ids: Sequence[PlayerId]) -> list[list[tuple]]:
    """Every round of a single round robin by the circle method: player 0 stays, the others turn.
    With an odd number, the one drawn against ``None`` sits the round out (a bye)."""
    ids = list(n_or_ids)
    if len(ids) % 2:
        ids.append(BYE)
    n = len(ids)
    rounds = []
    rot = ids[1:]
    for r in range(n - 1):
        line = [ids[0]] + rot
        pairs = []
        for i in range(n // 2):
            x, y = line[i], line[n - 1 - i]
            pairs.append((y, x) if x is BYE else (x, y))
        rounds.append(pairs)
        rot = rot[-1:] + rot[:-1]
    return rounds


# --- single elimination -------------------------------------------------------------------------------
def bracket_positions(size: int) -> list[int]:
    """Seed numbers (1-based) in bracket order: 1, 16, 8, 9, ... so that 1 and 2 meet last."""
    order = [1]
    while len(order) < size:
        m = len(order) * 2
        order = [x for s in order for x in (s, m + 1 - s)]
    return order


def elimination_slots(seeded: Sequence[PlayerId]) -> list[Optional[PlayerId]]:
    """The first round's bracket: ``seeded`` is best first; the missing seeds are byes (None), so
    the byes fall to the top seeds."""
    size = 1
    while size < len(seeded):
        size *= 2
    size = max(size, 2)
    return [seeded[s - 1] if s <= len(seeded) else BYE for s in bracket_positions(size)]


def elimination_pairs(slots: Sequence[Optional[PlayerId]]) -> list[tuple]:
    """Neighbouring slots meet: (slot 0, slot 1), (slot 2, slot 3), ... A side that is ``None`` is
    a bye for the other. The winners, in board order, are the next round's slots."""
    return [(slots[i], slots[i + 1]) for i in range(0, len(slots) - 1, 2)]


def elimination_rounds(n: int) -> int:
    rounds, size = 0, 1
    while size < n:
        size *= 2
        rounds += 1
    return max(rounds, 1)
