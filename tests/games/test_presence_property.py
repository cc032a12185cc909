"""Presence as a property: random sequences (fixed seeds) of sit, leave, close, reload, resync, moves
and "the grace passed", some sent at once without waiting for their answers, over several sockets
of several users at a four-seat table. After each step, once every open socket has caught up:

* each seat's count (``Seat.connections``) is the number of open sockets whose user plays that
  seat, the spectators' count the number of the others, and there is one record per open socket;
* every open socket's last message is the table's current version, built for its own seat (a
  seated socket that was not counted would be sent nothing and stay behind);
* no present player was ever away, and no bot took the seat of a player with a socket open.

The same, without sockets, over the records of sockets of two web processes: counts always equal
records, however often a socket is placed, moved or removed."""
from __future__ import annotations

import asyncio
import random
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async as db
from django.utils import timezone

from games import loading, presence, services, tasks
from games.models import Seat, Table, TableSocket

from .sockets import Sock, connect

pytestmark = [pytest.mark.django_db(transaction=True)]
SETTLE_SECONDS = 30    # only the bound of a wait for a state: a starved machine (seen: 10 s run out) must not fail it
STEPS = 40
SEATS = 4


class Run:
    """The sockets open now, each with its user (None: an anonymous watcher)."""

    def __init__(self, table_id: int, users: list, rng: random.Random):
        self.table_id, self.users, self.rng = table_id, users, rng
        self.open: list[tuple[Sock, object]] = []
        self.replaced: set[int] = set()

    async def open_socket(self, user=None) -> None:
        sock, _refused = await connect(self.table_id, user)
        self.open.append((sock, user))

    def pick(self, seated_only=False):
        choices = [(s, u) for s, u in self.open if u is not None] if seated_only else self.open
        return self.rng.choice(choices) if choices else None

    async def close(self, entry) -> None:
        self.open.remove(entry)
        await entry[0].comm.disconnect()

    # --- steps ----------------------------------------------------------------------------------
    async def step(self) -> str:
        kind = self.rng.choices(["open", "sit", "leave", "close", "reload", "resync", "act", "sit_leave_close",
                                 "at_once", "grace"], weights=[2, 3, 2, 2, 2, 2, 3, 2, 3, 1])[0]
        if kind == "open" or not self.open:
            await self.open_socket(self.rng.choice(self.users + [None]))
            return "open"
        if kind == "at_once":        # two or three of these, none waiting for another
            entries = [self.rng.choice(self.open) for _ in range(self.rng.randint(2, 3))]
            ops = []
            for entry in dict.fromkeys(map(id, entries)):
                entry = next(e for e in self.open if id(e) == entry)
                ops.append(self.rng.choice([self.sit, self.leave, self.resync, self.reload, self.close]))
                ops[-1] = (ops[-1], entry)
            await asyncio.gather(*(op(entry) for op, entry in ops))
            return "at_once " + ",".join(op.__name__ for op, _e in ops)
        if kind == "grace":
            await self.grace_passes()
            return kind
        entry = self.pick(seated_only=kind in ("sit", "leave", "sit_leave_close"))
        if entry is None:
            return "none"
        await getattr(self, kind)(entry)
        return kind

    async def sit(self, entry) -> None:
        await entry[0].send({"type": "sit", "seat": self.rng.randrange(SEATS)})

    async def leave(self, entry) -> None:
        await entry[0].send({"type": "leave"})

    async def resync(self, entry) -> None:
        await entry[0].send({"type": "sync"})

    async def reload(self, entry) -> None:
        await self.close(entry)
        await self.open_socket(entry[1])

    async def act(self, entry) -> None:
        sock = entry[0]
        legal = (sock.last or {}).get("view") and sock.last["view"].get("legal")
        if legal:
            action = {k: v for k, v in self.rng.choice(legal).items() if k != "seat"}
            if action.get("type") == "pass" and len(action.get("cards", ())) > 3:
                action["cards"] = self.rng.sample(list(action["cards"]), 3)
            await sock.send({"type": "action", "version": sock.version, "action": action})

    async def sit_leave_close(self, entry) -> None:
        """The attack: sit, leave and close at once."""
        await self.sit(entry)
        await self.leave(entry)
        await self.close(entry)

    async def grace_passes(self) -> None:
        """The grace of every player who is away runs out: the due work runs, and a bot takes
        the seat of one who is away; never of a player with a socket open."""
        present = await db(self.present_seats)()
        await db(self.away_long_ago)()
        await db(tasks.sweep)()
        taken = await db(self.replaced_seats)()
        assert not (taken - self.replaced) & present, (taken, present)
        self.replaced = taken

    # --- what must hold ---------------------------------------------------------------------------
    def present_seats(self) -> set[int]:
        live = loading.load(self.table_id)
        return {seat for _sock, user in self.open if (seat := loading.seat_of(live, user)) is not None}

    def away_long_ago(self) -> None:
        long_ago = timezone.now() - timedelta(minutes=5)
        Seat.objects.filter(table_id=self.table_id, away_since__isnull=False).update(away_since=long_ago)
        Table.objects.filter(pk=self.table_id).update(due_at=long_ago)
        loading.forget(self.table_id)

    def replaced_seats(self) -> set[int]:
        return set(Seat.objects.filter(table_id=self.table_id).exclude(replaced_by_bot="")
                   .values_list("index", flat=True))

    def expected(self) -> tuple[int, list[int | None]]:
        live = loading.load(self.table_id)
        return live.table.version, [loading.seat_of(live, user) for _sock, user in self.open]

    def counted(self) -> tuple[list[int], int, int, list]:
        seats = list(Seat.objects.filter(table_id=self.table_id).order_by("index")
                     .values("connections", "away_since"))
        return ([s["connections"] for s in seats], Table.objects.get(pk=self.table_id).spectators,
                TableSocket.objects.filter(table_id=self.table_id).count(),
                [s["away_since"] is not None for s in seats])

    async def settle_and_check(self, history: list[str]) -> None:
        """Wait until every open socket shows the table's current version (until the version stops
        moving: a message sent at once may still be on its way, a player's first socket may itself
        be a change), then check that it shows it at its own seat."""
        for _attempt in range(20):
            version, seats = await db(self.expected)()
            for sock, _user in self.open:
                await _until(sock, lambda s: s.last is not None and s.last["version"] >= version,
                             history + [f"want {version}"])
            if (await db(self.expected)())[0] == version and all(
                    sock.last["version"] == version for sock, _user in self.open):
                break
        else:
            raise AssertionError(f"the table never stopped moving after {history}")
        for (sock, _user), seat in zip(self.open, seats):
            assert sock.last["you"] == seat, (sock.last["you"], seat, version, history)
        connections, spectators, records, away = await db(self.counted)()
        want = [sum(1 for s in seats if s == index) for index in range(SEATS)]
        assert connections == want, (connections, want, history)
        assert spectators == seats.count(None), (spectators, seats, history)
        assert records == len(self.open), history
        status = self.open[0][0].last["table"]["status"] if self.open else None
        if status in ("playing", "between_deals"):
            for index in range(SEATS):
                if want[index] and index not in self.replaced:
                    assert not away[index], (index, history)     # a present player is never away


async def _until(sock: Sock, done, history) -> None:
    async def read():
        while not done(sock):
            await sock.recv(timeout=SETTLE_SECONDS)
    try:
        await asyncio.wait_for(read(), SETTLE_SECONDS)
    except (asyncio.TimeoutError, AssertionError) as exc:
        tail = [(m.get("type"), m.get("version"), m.get("you"), m.get("code"), (m.get("event") or {}).get("kind"))
                for m in sock.received[-6:]]
        raise AssertionError(f"a socket never caught up: {tail} after {history}") from exc


@pytest.mark.asyncio
@pytest.mark.parametrize("seed", range(1, 9))
async def test_every_seats_count_is_its_open_sockets_and_every_open_socket_is_up_to_date(seed, make_user, task_queue):
    users = [await db(make_user)(f"p{i}") for i in range(SEATS)]
    table = await db(services.create_table)(users[0], "hearts", seats=[""] * SEATS)
    run = Run(table.pk, users, random.Random(seed))
    history: list[str] = []
    await run.open_socket(users[0])
    for _ in range(STEPS):
        history.append(await run.step())
        await run.settle_and_check(history)
    for entry in list(run.open):
        await run.close(entry)
    connections, spectators, records, _away = await db(run.counted)()
    assert (connections, spectators, records) == ([0] * SEATS, 0, 0)


@pytest.mark.parametrize("seed", [1, 2])
def test_the_counts_are_the_records_of_two_processes_sockets_whatever_their_order(seed, make_user, task_queue):
    """Sockets named as two web processes name their channels, placed, moved, placed again and
    removed (twice, too) in random order: the counts never go below zero and always equal the
    records."""
    ala = make_user("ala")
    table = services.create_table(ala, "hearts", seats=["me", "random", "", ""])
    rng = random.Random(seed)
    channels = [f"web{p}.specific.{n}" for p in (1, 2) for n in range(5)]
    where: dict[str, int | None] = {}
    for _ in range(200):
        channel = rng.choice(channels)
        if rng.random() < 0.35:
            presence.remove(table.pk, channel)
            where.pop(channel, None)
        else:
            seat = rng.choice([None, 0, 1, 2, 3])
            presence.place(table.pk, channel, seat)
            where[channel] = seat
        connections = list(Seat.objects.filter(table=table).order_by("index").values_list("connections", flat=True))
        assert connections == [sum(1 for s in where.values() if s == i) for i in range(SEATS)]
        assert Table.objects.get(pk=table.pk).spectators == sum(1 for s in where.values() if s is None)
        records = TableSocket.objects.filter(table=table)
        assert sorted(records.values_list("channel", "seat")) == sorted(where.items())
