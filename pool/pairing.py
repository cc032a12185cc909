"""Who plays whom: plain functions over waiters, no database (pool/services.py applies them).

A waiter's *window* is how far from his rating he accepts opponents: ``start`` points when he
joins, widening by ``growth`` points a second of waiting. Groups form around the longest waiter
first: he takes the waiters closest to his rating (the longer waiting first among equals) while
the group's ratings stay within his window, so the one who waited most is served first and
everyone's wait widens what he accepts."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Waiter:
    id: int
    rating: int
    waited: float       # seconds in the pool


def window(waited: float, start: int, growth: float) -> float:
    return start + growth * max(0.0, waited)


def groups(waiters: list[Waiter], size: int, start: int, growth: float,
           apart: set[frozenset] = frozenset()) -> list[list[Waiter]]:
    """Disjoint groups of ``size`` waiters; nobody is in two. Each group's rating spread is within
    the window of its longest waiter. ``apart``: pairs of waiter ids never put in one group
    (accounts seen together, moderation/linked.py)."""
    free = sorted(waiters, key=lambda w: (-w.waited, w.id))
    made: list[list[Waiter]] = []
    while len(free) >= size:
        for anchor in free:
            reach = window(anchor.waited, start, growth)
            near = sorted((w for w in free if w is not anchor and abs(w.rating - anchor.rating) <= reach),
                          key=lambda w: (abs(w.rating - anchor.rating), -w.waited, w.id))
            group = [anchor]
            for w in near:
                ratings = [g.rating for g in group] + [w.rating]
                if any(frozenset((w.id, g.id)) in apart for g in group):
                    continue
                if max(ratings) - min(ratings) <= reach:
                    group.append(w)
                if len(group) == size:
                    break
            if len(group) == size:
                made.append(group)
                free = [w for w in free if w not in group]
                break
        else:
            break       # nobody can be grouped now: wait for more, or for windows to widen
    return made
