"""Round robin (two players a table): the circle (Berger) method, everyone meets everyone once;
n−1 rounds (n if odd, whoever the circle leaves out having a bye)."""
from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from .. import pairing, results
from ..models import Entry, Tournament
from .rounds import Plan, RoundFormat


class RoundRobin(RoundFormat):
    name = "round_robin"
    label = _("Round robin")
    summary = _("Sixty-six: everyone plays everyone once.")
    template = "tournaments/formats/round_robin.html"
    add_round_refused = _("A round robin has as many rounds as it needs: everyone meets everyone once.")
    seats = (2,)

    def plan(self, t: Tournament, number: int, entries: list[Entry]) -> Plan:
        seeds = [e.pk for e in results.seed_order(entries)]
        pairs = pairing.round_robin_rounds(seeds)[number - 1]
        return [([a], True) if b is None else ([a, b], False) for a, b in pairs]

    def total_rounds(self, t: Tournament, entries: int) -> int:
        return entries - 1 if entries % 2 == 0 else entries


FORMAT = RoundRobin()
