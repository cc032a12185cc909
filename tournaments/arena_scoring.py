"""Arena tournaments: scoring and pairing, pure functions over plain data (no Django:
docs/ARCHITECTURE.md). The arena's steps (tournaments/formats/arena.py) call them inside the
tournament's lock.

An arena runs for a time window. Whoever is free is paired at once; nobody waits for a round.

**Points per match** (``match_points``): a *win* is finishing ahead of every opponent at the table
(Sixty-six: winning the match; Hearts: first alone; Spades: the winning partnership) and is worth
2; finishing ahead of at least half of one's opponents (a drawn Sixty-six match, Hearts second or a
shared first) is worth 1; anything else 0. **Streak**: after two wins in a row, each further win
counts double (4) until a match that is not a win (which scores as usual and ends the streak).
House bots are not entrants: they score nothing and are nobody's opponent for the streak or the
"not the same opponent twice in a row" rule.

**Ranking** (``standings``): points, then wins, then seeding rating, then entry order.

**Pairing**: free players (registered, not paused, not at a running arena table) are ordered by
points; two-seat games (``pair_two``) pair each with the closest score, avoiding the opponent of
his previous match whenever some pairing avoids all such repeats; with an odd number the player
who became free last waits for the next one (equal waits: who played most, then the lowest
placed; another one if only that avoids a repeat); two who can only meet again wait
``repeat_after`` seconds for someone else before they do. Four-seat games (``seat_four``) cut the order
into tables of four, swapping players between neighbouring tables where that seats fewer previous
opponents together; fewer than four left over (chosen as in ``pair_two``) wait, and once the
longest waiting of them has waited ``fill_after`` seconds they get a table with house bots in the
empty seats.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Hashable, Optional, Sequence

PlayerId = Hashable
BOT = None                      # an empty seat a house bot fills

WIN_POINTS = 2
HALF_POINTS = 1
STREAK_WINS = 2                 # wins in a row after which a win counts double


def match_points(share: float) -> int:
    """Arena points of one match from the share of one's opponents one finished ahead of (a tie
    counting half: standings.table_points), before any streak bonus."""
    if share >= 1.0:
        return WIN_POINTS
    if share >= 0.5:
        return HALF_POINTS
    return 0


@dataclass
class ArenaResult:
    """One finished arena match: entrant per seat (None: a house bot) and each seat's share."""
    players: list[Optional[PlayerId]]
    shares: list[float]


@dataclass
class Entrant:
    id: PlayerId
    rating: float = 1500.0
    order: int = 0


@dataclass
class Row:
    id: PlayerId
    rank: int = 0
    points: int = 0
    games: int = 0
    wins: int = 0
    streak: int = 0                              # wins in a row up to now
    sheet: list = field(default_factory=list)    # points of each match, in order (4 = a doubled win)
    last_opponents: frozenset = frozenset()      # the entrants of his previous match
    rating: float = 1500.0
    order: int = 0

    @property
    def on_fire(self) -> bool:
        """His next win counts double."""
        return self.streak >= STREAK_WINS


def standings(entrants: Sequence[Entrant], games: Sequence[ArenaResult]) -> list[Row]:
    """The leaderboard, best first. ``games`` in the order they started: a player sits at one
    arena table at a time, so that is the order of each player's own matches."""
    rows = {e.id: Row(id=e.id, rating=e.rating, order=e.order) for e in entrants}
    for g in games:
        here = frozenset(p for p in g.players if p is not None)
        for seat, pid in enumerate(g.players):
            row = rows.get(pid)
            if row is None:
                continue
            base = match_points(g.shares[seat])
            if base == WIN_POINTS:
                gained = 2 * base if row.on_fire else base
                row.streak += 1
                row.wins += 1
            else:
                gained = base
                row.streak = 0
            row.points += gained
            row.games += 1
            row.sheet.append(gained)
            row.last_opponents = here - {pid}
    ordered = sorted(rows.values(), key=lambda r: (-r.points, -r.wins, -r.rating, r.order, str(r.id)))
    for i, row in enumerate(ordered, start=1):
        row.rank = i
    return ordered


# --- pairing ----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Free:
    """A player waiting for his next match."""
    id: PlayerId
    points: int = 0
    rating: float = 1500.0
    last_opponents: frozenset = frozenset()
    waited: float = 0.0                          # seconds since he became free
    games: int = 0                               # arena matches played so far

    def met_last(self, other: "Free") -> bool:
        return other.id in self.last_opponents or self.id in other.last_opponents


def score_order(players: Sequence[Free]) -> list[Free]:
    return sorted(players, key=lambda p: (-p.points, -p.rating, str(p.id)))


@dataclass
class Pairing:
    tables: list[list[Optional[PlayerId]]]      # per table, the entrant of each seat (None: a bot)
    waiting: list[PlayerId]                     # free players left for the next pass
    fill_in: Optional[float] = None             # seconds until the waiting settle for less (bots, a repeat)


def pair_two(free: Sequence[Free], budget: int = 20_000, repeat_after: float = 0.0) -> Pairing:
    """Pairs of close score, no one meeting his previous opponent while that can be avoided: a pair
    who met last time is held back until both have waited ``repeat_after`` seconds."""
    plan = _pair_everyone(score_order(free), budget)
    held, tables, due = [], [], []
    by_id = {p.id: p for p in free}
    for a, b in ((by_id[x], by_id[y]) for x, y in plan.tables):
        shorter = min(a.waited, b.waited)
        if a.met_last(b) and shorter < repeat_after:
            held += [a.id, b.id]
            due.append(repeat_after - shorter)
        else:
            tables.append([a.id, b.id])
    return Pairing(tables=tables, waiting=plan.waiting + held, fill_in=min(due) if due else None)


def _pair_everyone(order: list[Free], budget: int) -> Pairing:
    if not len(order) % 2:
        pairs = _pairs_without_repeat(order, budget) or _closest_pairs(order)
        return Pairing(tables=[[a.id, b.id] for a, b in pairs], waiting=[])
    # Odd: the one who became free last waits, unless only another's waiting lets everyone avoid
    # his previous opponent.
    candidates = _who_waits_first(order)
    for left in candidates:
        rest = [p for p in order if p is not left]
        pairs = _pairs_without_repeat(rest, budget // len(candidates))
        if pairs is not None:
            break
    else:
        left = candidates[0]
        pairs = _closest_pairs([p for p in order if p is not left])
    return Pairing(tables=[[a.id, b.id] for a, b in pairs], waiting=[left.id])


def _by_closeness(first: Free, rest: Sequence[Free]) -> list[Free]:
    return sorted(rest, key=lambda p: (abs(first.points - p.points), rest.index(p)))


def _closest_pairs(order: list[Free]) -> list[tuple[Free, Free]]:
    """Top down, each with the closest score, a repeat only when every choice is one."""
    rest, out = list(order), []
    while rest:
        first = rest.pop(0)
        options = _by_closeness(first, rest)
        partner = next((p for p in options if not first.met_last(p)), options[0])
        rest.remove(partner)
        out.append((first, partner))
    return out


def _pairs_without_repeat(order: list[Free], budget: int) -> Optional[list[tuple[Free, Free]]]:
    """Depth first, closest scores first: the first pairing of everyone without a repeat, or None
    (none exists, or the search ran out of ``budget`` steps)."""
    steps = [0]

    def search(rest: list[Free]) -> Optional[list]:
        if not rest:
            return []
        steps[0] += 1
        if steps[0] > budget:
            return None
        first, others = rest[0], rest[1:]
        for partner in _by_closeness(first, others):
            if first.met_last(partner):
                continue
            tail = search([p for p in others if p is not partner])
            if tail is not None:
                return [(first, partner)] + tail
            if steps[0] > budget:
                return None
        return None

    return search(order)


def seat_four(free: Sequence[Free], fill_after: float, seats: int = 4) -> Pairing:
    """Tables of ``seats`` by score; the remainder waits, or sits with house bots once the
    longest waiting of it has waited ``fill_after`` seconds."""
    if not free:
        return Pairing(tables=[], waiting=[])
    order = score_order(free)
    extra = len(order) % seats
    left = _who_waits_first(order)[:extra]
    seated = [p for p in order if p not in left]
    groups = [seated[i:i + seats] for i in range(0, len(seated), seats)]
    groups = _fewer_repeats(groups)
    tables: list[list[Optional[PlayerId]]] = [[p.id for p in g] for g in groups]
    fill_in = None
    if left:
        longest = max(p.waited for p in left)
        if longest >= fill_after:
            tables.append([p.id for p in score_order(left)] + [BOT] * (seats - len(left)))
            left = []
        else:
            fill_in = fill_after - longest
    return Pairing(tables=tables, waiting=[p.id for p in left], fill_in=fill_in)


def _who_waits_first(order: list[Free]) -> list[Free]:
    """Who waits when not everyone can be seated: the one who became free last; equal waits, the
    one who has played most; then the lowest placed."""
    return sorted(reversed(order), key=lambda p: (p.waited, -p.games))


def repeats(group: Sequence[Free]) -> int:
    """Pairs at a table who were at the same table in the previous match of one of them."""
    return sum(1 for i, a in enumerate(group) for b in group[i + 1:] if a.met_last(b))


def _fewer_repeats(groups: list[list[Free]], passes: int = 4) -> list[list[Free]]:
    """Swap players between neighbouring tables while a swap lowers the repeats of the two."""
    groups = [list(g) for g in groups]
    for _ in range(passes):
        improved = False
        for k in range(len(groups) - 1):
            a, b = groups[k], groups[k + 1]
            for i in range(len(a)):
                for j in range(len(b)):
                    before = repeats(a) + repeats(b)
                    if before == 0:
                        break
                    a2 = a[:i] + [b[j]] + a[i + 1:]
                    b2 = b[:j] + [a[i]] + b[j + 1:]
                    if repeats(a2) + repeats(b2) < before:
                        a[:], b[:] = a2, b2
                        improved = True
        if not improved:
            break
    return [score_order(g) for g in groups]
