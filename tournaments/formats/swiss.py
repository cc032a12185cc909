"""Swiss: everyone plays every round, paired by the standings (tournaments/pairing.py): two
players by score group without a repeat while one can be avoided; four by tables of the
standings, regrouped every round, partners (Spades) chosen inside each table."""
from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from games.engine import core

from .. import pairing, results, standings, steps
from ..models import Entry, Tournament
from .rounds import Plan, RoundFormat


def swiss_plan(t: Tournament, players: list[pairing.Player]) -> Plan:
    """The Swiss round of ``players`` (in standings order): pairs and a bye, or tables of the
    game's size with partnerships seated by the pairing module."""
    seats = steps.seats_of(t)
    if t.one_on_one:
        result = pairing.swiss_pairs(players)
        out = [([a, b], False) for a, b in result.pairs]
        if result.bye is not None:
            out.append(([result.bye], True))
        return out
    by_id = {p.id: p for p in players}
    rules = core.get_rules(t.game)
    teams = rules.teams(t.variant or None)
    partnerships = rules.partnerships(t.variant or None)
    out = []
    for table in pairing.swiss_tables(players, seats):
        if partnerships:
            table = pairing.partnership_seating([by_id.get(p) for p in table], teams)
        out.append((list(table), False))
    return out


class Swiss(RoundFormat):
    name = "swiss"
    own_settings = ("rounds", "break_seconds")
    label = _("Swiss")
    summary = _("Everyone plays every round. In Sixty-six you meet someone with the same score whom you have not played yet. In Hearts and Spades the standings are cut into tables of four, regrouped every round; in Spades your partner changes from round to round.")
    template = "tournaments/formats/swiss.html"

    def clean(self, data: dict, seats: int) -> list[tuple[str, str]]:
        errors = super().clean(data, seats)
        if not data.get("rounds"):
            errors.append(("rounds", _("A Swiss tournament needs at least one round.")))
        return errors

    def plan(self, t: Tournament, number: int, entries: list[Entry]) -> Plan:
        return swiss_plan(t, standings.pairing_players(results.standings_rows(t, entries)))


FORMAT = Swiss()
