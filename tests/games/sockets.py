"""Socket test helpers: logged-in communicators that record everything they receive, and a guard
that checks every received message against what its seat may know at that version."""
from __future__ import annotations

import json

from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from config.routing import application
from games.engine import cards as C
from games.engine.core import get_rules


def _cookie(user) -> bytes:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}".encode()


class Sock:
    def __init__(self, comm, seat_label):
        self.comm = comm
        self.label = seat_label
        self.received: list[dict] = []
        self.unchecked: list[dict] = []
        self.last: dict | None = None      # last snapshot/update

    async def recv(self, timeout=20.0) -> dict:
        # The timeout only says when a message that must come is lost: a loaded machine is slow.
        msg = json.loads(await self.comm.receive_from(timeout=timeout))
        self.received.append(msg)
        self.unchecked.append(msg)
        if msg["type"] in ("snapshot", "update"):
            self.last = msg
        return msg

    async def drain(self, version: int | None = None) -> list[dict]:
        """What has arrived; with ``version``, first everything up to that table version (the
        broadcasts of a commit may still be on their way: waiting for them is not a race)."""
        out = []
        while version is not None and (self.last is None or self.last["version"] < version):
            out.append(await self.recv())
        while not await self.comm.receive_nothing(timeout=0.02, interval=0.005):
            out.append(await self.recv())
        return out

    async def send(self, data) -> None:
        await self.comm.send_to(text_data=data if isinstance(data, str) else json.dumps(data))

    async def request(self, data) -> dict:
        """Send, then the first reply (an error or an update)."""
        await self.send(data)
        return await self.recv()

    @property
    def version(self) -> int:
        return self.last["version"]

    @property
    def seat(self):
        return self.last["you"]


async def connect(table_id, user=None, invite=None, path=None) -> tuple[Sock | None, int | None]:
    headers = [(b"origin", b"http://localhost")]
    if user is not None:
        headers.append((b"cookie", await database_sync_to_async(_cookie)(user)))
    url = path or f"/ws/table/{table_id}/" + (f"?invite={invite}" if invite else "")
    comm = WebsocketCommunicator(application, url, headers=headers)
    ok, code = await comm.connect()
    if not ok:
        return None, code
    first = await comm.receive_output()
    if first["type"] == "websocket.send" and json.loads(first["text"])["type"] == "error":
        return None, (await comm.receive_output())["code"]     # refused: why, then the close
    sock = Sock(comm, None)
    comm.output_queue.put_nowait(first)         # read again, as a message
    if path is None:
        await sock.recv()      # the snapshot
        sock.label = sock.seat
    return sock, None


async def refused(path: str, headers=()) -> dict:
    """The close message of a socket the server refuses: accepted, told why, then closed at once,
    so that a browser reads the code and the reason (a denied handshake would show neither)."""
    comm = WebsocketCommunicator(application, path, headers=[(b"origin", b"http://localhost"), *headers])
    ok, _code = await comm.connect()
    assert ok, "refused in the handshake: a browser would not see the code"
    error = json.loads(await comm.receive_from())
    closed = await comm.receive_output()
    assert closed["type"] == "websocket.close", closed
    assert error["type"] == "error" and error["reason"] == closed["reason"] and error["version"] is None
    assert error["code"] == {4403: "forbidden", 4404: "not_found"}[closed["code"]]
    await comm.wait()
    return closed


class LeakGuard:
    """Remembers, for every version a table reaches, which cards each seat may know
    (``State.known_cards``) and which lie in other seats' hands; checks messages against it.
    It also remembers every secret server seed the table has committed to (provably fair deals:
    the pending one and each deal's): no socket message may ever carry one, since a deal's seed
    is revealed only in its downloadable record once the deal may be shown."""

    def __init__(self):
        self.known: dict[tuple[int, int], dict] = {}
        self.checked = 0
        self.secret_seeds: set[str] = set()

    def record(self, live):
        pending = live.table.fair_pending
        if pending:
            self.secret_seeds.add(pending["seed"])
        if live.deal is not None and live.deal.server_seed:
            self.secret_seeds.add(live.deal.server_seed)
        if live.table.duplicate:        # a duplicate tournament's round seed: never on a socket either
            self.secret_seeds.add(live.table.duplicate["seed"])
        state = live.state
        if state is None:
            return
        n = get_rules(live.table.game).seats
        places = state.card_places()
        hands = [places.get(f"hand{s}", 0) for s in range(n)]
        per = {}
        public = getattr(state, "shown", 0)   # sixty-six: hand cards everybody saw go there
        for seat in list(range(n)) + [None]:
            others = 0
            for s in range(n):
                if s != seat:
                    others |= hands[s] & ~public
            per[seat] = (state.known_cards(seat), others)
        self.known[(live.table.pk, live.table.version)] = per

    def check(self, table_id, sock: Sock):
        for msg in sock.unchecked:
            text = json.dumps(msg)
            assert not [seed for seed in self.secret_seeds if seed in text], (sock.label, msg)
            version = msg.get("version")
            codes = set(_codes(msg))
            if not codes:
                continue
            assert version is not None, msg
            known, others = self.known[(table_id, version)][sock.label]
            mask = C.mask_of_codes(codes)
            assert mask & ~known == 0, (sock.label, C.codes_of(mask & ~known), msg)
            # Cards in other hands: never to a spectator (but a sixty-six card shown going into a
            # hand: the trump card taken); to a seat only those it knows (the three it passed in
            # hearts, those shown), which the known-cards check above already allows.
            if sock.label is None:
                assert mask & others == 0, (sock.label, C.codes_of(mask & others), msg)
            self.checked += 1
        sock.unchecked.clear()


def _codes(obj):
    if isinstance(obj, str):
        if C.CODE_RE.match(obj):
            yield obj
    elif isinstance(obj, dict):
        for k, v in obj.items():
            if k == "chat" or k == "message":   # chat text is free text
                continue
            yield from _codes(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from _codes(v)
