"""Single elimination (two players a table): a bracket seeded by rating (1 v 16, 8 v 9, ...);
winners meet in bracket order, a drawn match sends the better seed through. Final ranks by the
round one went out in, sharing: 1, 2, 3, 3, 5, ..."""
from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from .. import pairing, results
from ..models import Entry, Game, Tournament
from .rounds import Plan, RoundFormat


def game_winner(g: Game, seed_rank: dict) -> int:
    pts = g.result["points"]
    best = max(pts)
    tied = [p for p, x in zip(g.players, pts) if x == best and p is not None]
    return min(tied, key=lambda p: seed_rank.get(p, 10**9))


def winners(t: Tournament, number: int, seeds: list[int]) -> list[int]:
    """Who goes through from round ``number``, in board order (a draw: the better seed)."""
    rank = {pk: i for i, pk in enumerate(seeds)}
    return [game_winner(g, rank)
            for g in Game.objects.filter(round__tournament=t, round__number=number).order_by("board")]


class Elimination(RoundFormat):
    name = "elimination"
    label = _("Single elimination")
    summary = _("Sixty-six: a bracket seeded by rating (the first against the last). The winner goes on; a drawn match sends the better seed through.")
    template = "tournaments/formats/elimination.html"
    add_round_refused = _("An elimination ends with its final: it cannot have another round.")
    seats = (2,)

    def plan(self, t: Tournament, number: int, entries: list[Entry]) -> Plan:
        seeds = [e.pk for e in results.seed_order(entries)]
        slots = pairing.elimination_slots(seeds) if number == 1 else winners(t, number - 1, seeds)
        out = []
        for a, b in pairing.elimination_pairs(slots):
            if a is None and b is None:
                continue
            out.append(([a if a is not None else b], True) if a is None or b is None else ([a, b], False))
        return out

    def total_rounds(self, t: Tournament, entries: int) -> int:
        return pairing.elimination_rounds(entries)

    def final_ranks(self, t: Tournament, entries: list[Entry]) -> dict[int, int]:
        """1 the winner, 2 the finalist, then by the round of exit, sharing: 3, 3, 5, 5, 5, 5, ..."""
        seeds = [e.pk for e in results.seed_order(entries)]
        rank = {pk: i for i, pk in enumerate(seeds)}
        out_in: dict[int, int] = {}
        last = 0
        for g in Game.objects.filter(round__tournament=t).select_related("round").order_by("round__number", "board"):
            last = max(last, g.round.number)
            if g.result is None:
                continue
            winner = game_winner(g, rank)
            for p in g.players:
                if p is not None and p != winner:
                    out_in[p] = g.round.number
        reached = {pk: out_in.get(pk, last + 1) for pk in seeds}
        return {pk: 1 + sum(1 for o in seeds if reached[o] > reached[pk]) for pk in seeds}


FORMAT = Elimination()
