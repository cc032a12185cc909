"""Scenario tables for browser tests: a started table whose current deal comes from explicit hands
(and optionally a prefix of actions already played), written through the ORM.

Test-only: production code has no way to choose a deal. It runs inside the browser server's
environment (its database) through ``manage.py shell``; see the ``scenario`` fixture in conftest.py.

A spec (JSON): ``{"owner": username, "game", "variant", "rated", "seats": ["me", "random",
"user:<name>" (another person), ...],
"dealer", "deal_number", "scores", "bags", "hands": [[codes]...], "stock", "trump_card",
"actions": [action objects already played]}``. The owner must be to act when the page loads (the
browser server's worker only hears of tables it scheduled itself; the sweeper would pick a bot move
up only a couple of seconds late).
"""
from __future__ import annotations

import json

from django.utils import timezone

from accounts.models import User
from games import clocks, loading, services
from games.actions import steps
from games.engine import core
from games.engine.core import Match as EngineMatch
from games.models import Deal, Match, Table


def start(spec: dict) -> int:
    owner = User.objects.get(username=spec["owner"])
    seats = [User.objects.get(username=s[5:]) if s.startswith("user:") else s for s in spec["seats"]]
    table = services.create_table(owner, spec["game"], spec.get("variant"), seats=seats,
                                  bank_seconds=spec.get("bank_seconds", 600), increment_seconds=5,
                                  rated=spec.get("rated", False), start=False)
    now = timezone.now()
    with loading.locked(table.pk) as live:      # which writes the rows _bump changed
        t = live.table
        players = [s.player_name for s in live.seats]
        engine = EngineMatch.start(t.game, t.variant, players, first_dealer=spec.get("dealer", 0))
        if spec.get("scores") is not None:
            engine.scores = list(spec["scores"])
        if spec.get("bags") is not None:
            engine.bags = list(spec["bags"])
        engine.deal_number = spec.get("deal_number", 0)
        if spec.get("hands"):
            state = core.new_state(engine.setup_for(spec["hands"], spec.get("stock"), spec.get("trump_card")))
        else:                                            # a shuffled deal from the chosen scores
            state = engine.new_deal()
        for action in spec.get("actions", ()):
            state.apply(action)
        play_from(live, engine, state, now)
    return table.pk


def play_from(live, engine: EngineMatch, state, now, finished: list = ()) -> None:
    """Start the locked table ``live`` at ``engine``'s match with ``state`` as its current deal
    (after the ``finished`` deals' states, stored as played), its clocks running from ``now``
    (bench/_setup.py's tables near a match's end are written this way too)."""
    t = live.table
    live.match = Match.objects.create(table=t, state=engine.to_dict())
    Deal.objects.bulk_create([Deal(match=live.match, number=s.setup.deal_number, record=s.record(),
                                   result=s.result(), finished=True) for s in finished])
    live.engine = engine
    live.deal = Deal.objects.create(match=live.match, number=engine.deal_number, record=state.record())
    live.state = state
    t.status = Table.Status.PLAYING
    clocks.run(live, now)
    steps.bump(live, now)


def santase_worked_example(owner: str) -> dict:
    """docs/RULES.md's worked example (Santase, trump clubs) as a scenario spec: we (the owner,
    seat 0) are P2, the dealer, on lead after winning JD with JC, holding 9C, KC to take, QC. The
    opponent is the basic bot, which never claims 66 falsely (the random one may end the next deal
    at its first lead)."""
    hands = ["KH QH TH 9D QC JC".split(), "AH 9H KS QD AC TC".split()]
    drawn = ["TS", "AS", "JD", "9C", "9S", "TD"]
    deck = [r + s for s in "CDHS" for r in "9JQKTA"]
    stock = drawn + [c for c in deck if c not in hands[0] + hands[1] + ["KC"] + drawn]
    played = [(1, "9H"), (0, "TH"), (0, "QH", True), (1, "AH"), (1, "JD"), (0, "JC")]
    actions = [dict({"seat": s, "type": "play", "card": c}, **({"marriage": True} if m else {}))
               for s, c, *m in played]
    return {"owner": owner, "game": "sixtysix", "variant": "santase", "seats": ["me", "basic"],
            "dealer": 0, "hands": hands, "stock": stock, "trump_card": "KC", "actions": actions}


def main(text: str) -> None:
    print(json.dumps({"table_id": start(json.loads(text))}))
