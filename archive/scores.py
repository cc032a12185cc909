"""A match's score sheet, deal by deal, folded with its game's own rules (the match page)."""
from __future__ import annotations

from games.engine import core
from games.models import Deal, Match


def score_table(match: Match, deals: list[Deal]) -> dict:
    """The match deal by deal: each deal's points per score column (the engine's teams) and the
    running totals, folded with the game's own rules."""
    state = match.state
    rules = core.get_rules(state["game"])
    variant = state["variant"]
    scores, bags = rules.initial_scores(variant), rules.initial_bags(variant)
    rows = []
    results = state.get("results", [])
    for deal in deals:
        row = {"deal": deal, "number": deal.number + 1, "points": None, "totals": None}
        if deal.finished and deal.number < len(results):
            res = results[deal.number]
            scores, bags = rules.add_result(variant, list(scores), list(bags) if bags is not None else None, res)
            row["points"] = rules.deal_points(res)
            row["totals"] = list(scores)
            row["extra"] = res
        rows.append(row)
    return {"rows": rows, "final": state.get("scores")}
