"""The reference client's event loop (games/bots/lab/client.py ``_on_event``) without a server: what it
answers to the event socket's messages, in order."""
import asyncio
import json

from games.bots.lab.client import BotClient


class FakeSocket:
    def __init__(self):
        self.sent = []

    async def send(self, text):
        self.sent.append(json.loads(text))


def challenge(n):
    return {"id": n, "from": f"p{n}", "game": "sixtysix"}


def run(bot, ws, *messages):
    async def feed():
        for msg in messages:
            await bot._on_event(ws, msg)
        started = list(bot.tables)
        for task in bot.tables.values():
            task.cancel()
        return started
    return asyncio.run(feed())


def test_it_takes_an_empty_list_of_challenges_and_the_answer_to_its_sync():
    bot, ws = BotClient("http://site", "cr_x", "basic"), FakeSocket()
    run(bot, ws, {"type": "challenges", "challenges": []}, {"type": "playing", "tables": []},
        {"type": "challenges", "challenges": []}, {"type": "playing", "tables": []})
    assert ws.sent == []


def test_accepts_not_yet_answered_count_against_max_tables():
    bot, ws = BotClient("http://site", "cr_x", "basic", max_tables=2), FakeSocket()
    started = run(bot, ws, {"type": "challenges", "challenges": [challenge(1), challenge(2), challenge(3)]},
                  {"type": "accepted", "id": 1, "table": 11}, {"type": "accepted", "id": 2, "table": 12},
                  {"type": "declined", "id": 3})
    assert ws.sent == [{"type": "accept", "id": 1}, {"type": "accept", "id": 2},
                       {"type": "decline", "id": 3, "reason": "busy"}]
    assert started == [11, 12] and bot.accepting == 0 and not bot.asked


def test_a_refused_accept_frees_its_place():
    bot, ws = BotClient("http://site", "cr_x", "basic", max_tables=1), FakeSocket()
    run(bot, ws, {"type": "challenge", "challenge": challenge(1)},
        {"type": "error", "code": "challenge_expired", "reason": "That challenge has expired."},
        {"type": "challenge", "challenge": challenge(2)})
    assert ws.sent == [{"type": "accept", "id": 1}, {"type": "accept", "id": 2}]
