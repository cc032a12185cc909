"""Fully specified deal records with known blunders, and a finished match made of them (for the
task, page and browser tests; ``make_finished_match`` also runs in ``manage.py shell``)."""
from __future__ import annotations

import json

# Sixty-six: "ala" (seat 0) has 37 points, holds the king and queen of clubs (trumps) and claims 66
# without them (step 9): a false claim, 2 game points to the opponent. Announcing the trump
# marriage and claiming with it (step 9's "QC/KC with marriage, claim 66") wins 2 instead.
FALSE_CLAIM = json.loads('{"format": "deal-record/1", "game": "sixtysix", "variant": "kurnik", "players": ["ala", "bot:basic"], "dealer": 1, "deal_number": 0, "scores_before": [0, 0], "hands": [["TD", "JC", "KH", "KS", "QC", "QS"], ["9H", "9D", "AH", "TH", "JS", "9S"]], "stock": ["QD", "QH", "AS", "KD", "9C", "AC", "KC", "JD", "AD", "TS", "JH"], "trump_card": "TC", "actions": [{"seat": 0, "type": "play", "card": "QS", "marriage": true}, {"seat": 1, "type": "play", "card": "9D"}, {"seat": 0, "type": "play", "card": "QD"}, {"seat": 1, "type": "play", "card": "9H"}, {"seat": 0, "type": "play", "card": "KH"}, {"seat": 1, "type": "play", "card": "AH"}, {"seat": 1, "type": "exchange"}, {"seat": 1, "type": "play", "card": "9S"}, {"seat": 0, "type": "play", "card": "AS"}, {"seat": 0, "type": "declare"}], "result": {"points": [37, 15], "game_points": [0, 2], "ended_by": "declare"}}')
FALSE_CLAIM_STEP = 9

# Spades: "bob" (seat 2) bid nil; "ala" (seat 0) holds every spade but bob's KS and 4S. Trick 3:
# ala led AS, both opponents showed out of spades, bob dropped KS, so the 4S is bob's. Step 16:
# ala leads 2S, bob must win it with the 4S: his nil fails. Any spade from 5S up covers him.
NIL_COVER = json.loads('{"format": "deal-record/1", "game": "spades", "variant": "standard", "players": ["ala", "bot:basic", "bob", "bot:basic"], "dealer": 0, "deal_number": 0, "scores_before": [0, 0], "hands": [["AS", "QS", "JS", "TS", "9S", "8S", "7S", "6S", "5S", "3S", "2S", "2C", "2D"], ["AC", "KC", "QC", "JC", "TC", "9C", "8C", "AD", "KD", "QD", "JD", "TD", "9D"], ["KS", "4S", "3C", "4C", "5C", "3D", "4D", "5D", "2H", "3H", "4H", "5H", "6H"], ["6C", "7C", "6D", "7D", "8D", "7H", "8H", "9H", "TH", "JH", "QH", "KH", "AH"]], "bags_before": [0, 0], "actions": [{"seat": 0, "type": "bid", "tricks": 9}, {"seat": 1, "type": "bid", "tricks": 4}, {"seat": 2, "type": "bid", "tricks": 0}, {"seat": 3, "type": "bid", "tricks": 2}, {"seat": 0, "type": "play", "card": "2C"}, {"seat": 1, "type": "play", "card": "AC"}, {"seat": 2, "type": "play", "card": "5C"}, {"seat": 3, "type": "play", "card": "6C"}, {"seat": 1, "type": "play", "card": "KC"}, {"seat": 2, "type": "play", "card": "4C"}, {"seat": 3, "type": "play", "card": "7C"}, {"seat": 0, "type": "play", "card": "QS"}, {"seat": 0, "type": "play", "card": "AS"}, {"seat": 1, "type": "play", "card": "QC"}, {"seat": 2, "type": "play", "card": "KS"}, {"seat": 3, "type": "play", "card": "7H"}, {"seat": 0, "type": "play", "card": "2S"}, {"seat": 1, "type": "play", "card": "8C"}, {"seat": 2, "type": "play", "card": "4S"}, {"seat": 3, "type": "play", "card": "6D"}, {"seat": 2, "type": "play", "card": "2H"}, {"seat": 3, "type": "play", "card": "AH"}, {"seat": 0, "type": "play", "card": "3S"}, {"seat": 1, "type": "play", "card": "9C"}, {"seat": 0, "type": "play", "card": "JS"}, {"seat": 1, "type": "play", "card": "9D"}, {"seat": 2, "type": "play", "card": "6H"}, {"seat": 3, "type": "play", "card": "7D"}, {"seat": 0, "type": "play", "card": "TS"}, {"seat": 1, "type": "play", "card": "TC"}, {"seat": 2, "type": "play", "card": "5D"}, {"seat": 3, "type": "play", "card": "8D"}, {"seat": 0, "type": "play", "card": "9S"}, {"seat": 1, "type": "play", "card": "TD"}, {"seat": 2, "type": "play", "card": "5H"}, {"seat": 3, "type": "play", "card": "8H"}, {"seat": 0, "type": "play", "card": "8S"}, {"seat": 1, "type": "play", "card": "JC"}, {"seat": 2, "type": "play", "card": "4D"}, {"seat": 3, "type": "play", "card": "9H"}, {"seat": 0, "type": "play", "card": "7S"}, {"seat": 1, "type": "play", "card": "JD"}, {"seat": 2, "type": "play", "card": "4H"}, {"seat": 3, "type": "play", "card": "TH"}, {"seat": 0, "type": "play", "card": "6S"}, {"seat": 1, "type": "play", "card": "QD"}, {"seat": 2, "type": "play", "card": "3C"}, {"seat": 3, "type": "play", "card": "JH"}, {"seat": 0, "type": "play", "card": "5S"}, {"seat": 1, "type": "play", "card": "KD"}, {"seat": 2, "type": "play", "card": "3D"}, {"seat": 3, "type": "play", "card": "QH"}, {"seat": 0, "type": "play", "card": "2D"}, {"seat": 1, "type": "play", "card": "AD"}, {"seat": 2, "type": "play", "card": "3H"}, {"seat": 3, "type": "play", "card": "KH"}], "result": {"tricks": [10, 2, 1, 0], "team_points": [-8, -60], "bags_after": [2, 0]}}')
NIL_COVER_STEP = 16
COVERING = {"5S", "6S", "7S", "8S", "9S", "TS", "JS"}


def make_finished_match(records: list[dict], humans: dict[int, str], private: bool = False,
                        finished: bool = True):
    """A finished match of ``records`` (one game); ``humans`` maps seats to usernames, the other
    seats are bots. Returns the games.models.Match."""
    from django.utils import timezone

    from accounts.models import User
    from games.engine.core import Match as EngineMatch
    from games.models import Deal, Match, Seat, Table

    first = records[0]
    table = Table.objects.create(game=first["game"], variant=first["variant"], private=private,
                                 status=Table.Status.FINISHED if finished else Table.Status.PLAYING)
    for seat in range(len(first["players"])):
        if seat in humans:
            user, created = User.objects.get_or_create(username=humans[seat])
            if created:
                user.set_password("a-Secret-123")
                user.save()
        else:
            user, _ = User.objects.get_or_create(username=f"bot-{seat}", defaults={"is_bot": True,
                                                                                  "bot_level": "basic"})
        Seat.objects.create(table=table, index=seat, user=user)
    table.owner = Seat.objects.filter(table=table, index=min(humans)).first().user
    table.save(update_fields=["owner"])
    engine = EngineMatch.start(first["game"], first["variant"], list(first["players"]), first_dealer=0)
    match = Match.objects.create(table=table, state=engine.to_dict(), finished=finished,
                                 finished_at=timezone.now() if finished else None,
                                 ranks=[1] * len(first["players"]), ended_by="score" if finished else "")
    for n, record in enumerate(records):
        record = dict(record, deal_number=n)
        Deal.objects.create(match=match, number=n, record=record, result=record.get("result"),
                            finished=True)
    return match
