"""The soak's load generator keeps track of its own sockets (issue 38): a seat group whose socket
fails to open (after a few tries, as the browser's client retries) closes every other socket it
opened, and a message built for another seat fails the
run, while a bot's taking over a seat (the protocol's one seat change) is told apart."""
from __future__ import annotations

import asyncio
import random
from collections import Counter
from types import SimpleNamespace

import pytest

from bench import live, soak


class FakeWS:
    def __init__(self):
        self.closed = False

    async def close(self):
        self.closed = True


@pytest.mark.asyncio
async def test_a_group_whose_socket_fails_to_open_closes_the_sockets_that_opened_after_it(monkeypatch):
    opened: list[FakeWS] = []
    started = asyncio.Event()

    async def connect(sock, sem):
        if sock.seat == 0:
            await started.wait()
            raise OSError("did not receive a valid HTTP response")
        started.set()
        await asyncio.sleep(0.05)           # still opening when seat 0's handshake fails
        sock.ws = FakeWS()
        opened.append(sock.ws)

    monkeypatch.setattr(live.Sock, "connect", connect)
    monkeypatch.setattr(soak, "HANDSHAKE_ATTEMPTS", 2)
    stats = live.Stats()
    spec = {"id": 110, "game": "hearts", "sessions": ["a", "b", "c", "d"]}
    args = SimpleNamespace(rate=1.0)
    await soak.play_table(spec, 0, [1, 2], stats, args, live.now() + 60, live.now(), random.Random(1), [0],
                          asyncio.Semaphore(4), Counter())
    await asyncio.sleep(0.2)                # anything still opening has opened by now
    assert stats.errors == {"handshake failed: OSError": 2, "group stopped: OSError": 1}
    assert len(opened) == 3 and all(ws.closed for ws in opened)


@pytest.mark.asyncio
async def test_a_handshake_refused_once_is_counted_and_tried_again(monkeypatch):
    tries = Counter()

    async def connect(sock, sem):
        tries[sock.seat] += 1
        if sock.seat == 2 and tries[2] == 1:
            raise OSError("did not receive a valid HTTP response")
        sock.ws = FakeWS()

    monkeypatch.setattr(live.Sock, "connect", connect)
    table = soak.SoakTable({"id": 7, "game": "spades", "sessions": ["a", "b", "c", "d"]}, [1, 2], 0,
                           live.Stats(), False, 0.0)
    await soak.connect_all(table, asyncio.Semaphore(4), pause=0)
    assert tries == {0: 1, 1: 1, 2: 2, 3: 1} and all(s.ws is not None for s in table.socks)
    assert table.stats.errors == {"handshake failed: OSError": 1}


def update(you, seats_are_bots=(False,) * 4, version=7):
    return {"type": "update", "version": version, "you": you, "view": None,
            "table": {"status": "playing", "seats": [{"is_bot": b} for b in seats_are_bots]}}


def test_a_message_for_another_seat_is_a_wrong_seat_and_fails_the_run():
    table = SimpleNamespace(id=5, stats=live.Stats())
    sock = live.Sock(table, 2, 1, "session")
    sock.check_seat(update(2))
    assert table.stats.errors == {} and live.wrong_seat_verdict(table.stats) == 0
    sock.check_seat(update(1))
    assert table.stats.errors == {"wrong_seat": 1} and live.wrong_seat_verdict(table.stats) == 1
    assert table.stats.incidents == ["table 5: the socket of seat 2 was sent a update for seat 1 at version 7"]


def test_a_bot_taking_the_seat_makes_the_socket_a_spectators_without_a_wrong_seat():
    table = SimpleNamespace(id=5, stats=live.Stats())
    sock = live.Sock(table, 2, 1, "session")
    sock.check_seat(update(None, (False, False, True, False)))
    sock.check_seat(update(None, (False, False, True, False), version=8))
    assert table.stats.errors == {"seat taken by a bot": 1} and sock.seat is None
    assert live.wrong_seat_verdict(table.stats) == 0
    other = live.Sock(table, 1, 1, "session")
    other.check_seat(update(None, (False, False, True, False)))     # seat 1 is no bot's
    assert table.stats.errors["wrong_seat"] == 1
