"""The reference bot client: a bot account played by one of the built-in levels (docs/BOTS.md).

    python -m games.bots.lab.client --url http://127.0.0.1:8000 --token cr_... --level basic --table 12
    python -m games.bots.lab.client --url ... --token ... --level strong --accept-challenges
    python -m games.bots.lab.client --url ... --token ... --level basic --join-open sixtysix

It speaks the same table protocol as the browser (docs/PROTOCOL.md): it reads its seat's view from
each ``snapshot``/``update`` and, when the view lists legal actions, sends the one its level
chooses with the version it saw. A dropped socket is reopened and starts again from the fresh
snapshot the server sends; a refused token (close code 4401) ends the program. Copy it and put
your own ``choose`` in place of the built-in levels.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import logging
import sys
from collections import deque
import urllib.error
import urllib.request

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from games.bots import BOTS, choose_action

log = logging.getLogger("bot")
BAD_TOKEN = 4401                 # the server's close code for a wrong or revoked token
# Close codes that reconnecting would only meet again (docs/BOTS.md): the token, a private table,
# no such table. 4429 (too many messages or sockets) is worth another try after a pause.
FINAL = {BAD_TOKEN: "the token was refused", 4403: "the table is private", 4404: "there is no such table"}
RETRY_SECONDS = (1, 2, 5, 10)    # waits between reconnections (then every 10 s)
SYNC_SECONDS = 10                # how often the challenge loop asks for its state again


class Refused(Exception):
    """The server refused the token or the request for good: retrying would not help."""


class BotClient:
    def __init__(self, url: str, token: str, level: str, max_tables: int = 4):
        self.url = url.rstrip("/")
        self.ws_url = "ws" + self.url[len("http"):]       # http -> ws, https -> wss
        self.headers = {"Authorization": f"Bearer {token}"}
        self.level = level
        self.max_tables = max_tables
        self.tables: dict[int, asyncio.Task] = {}
        # Challenges answered on the event socket and not yet answered back (id, accepted?), oldest
        # first; the accepted ones count as tables being played (see _busy).
        self.asked: deque[tuple[int, bool]] = deque()
        self.accepting = 0

    # --- HTTP -------------------------------------------------------------------------------------
    def _request(self, method: str, path: str) -> dict:
        req = urllib.request.Request(self.url + path, method=method, headers=self.headers, data=b"" if method == "POST" else None)
        try:
            with urllib.request.urlopen(req, timeout=15) as answer:
                return json.load(answer)
        except urllib.error.HTTPError as err:
            body = json.loads(err.read() or b"{}")
            if err.code == 401:
                raise Refused(body.get("reason", "the token was refused")) from None
            raise RuntimeError(f"{method} {path}: {err.code} {body.get('reason')}") from None

    async def api(self, method: str, path: str) -> dict:
        return await asyncio.to_thread(self._request, method, path)

    # --- one table ----------------------------------------------------------------------------------
    async def play_table(self, table_id: int) -> dict | None:
        """Play at a table until its match is over (taking a free seat first if it has one and we
        have none); returns the finished match. Reconnects after a dropped socket."""
        for attempt in range(10**9):
            try:
                async with connect(f"{self.ws_url}/ws/table/{table_id}/", additional_headers=self.headers) as ws:
                    return await self._play(ws, table_id)
            except ConnectionClosed as exc:
                if exc.rcvd is not None and exc.rcvd.code in FINAL:
                    raise Refused(f"table {table_id}: {exc.rcvd.reason or FINAL[exc.rcvd.code]}") from None
                log.warning("table %s: the socket closed (%s); reconnecting", table_id, exc)
            except (OSError, InvalidStatus) as exc:
                log.warning("table %s: cannot connect (%s); retrying", table_id, exc)
            await asyncio.sleep(RETRY_SECONDS[min(attempt, len(RETRY_SECONDS) - 1)])
        return None

    async def _play(self, ws, table_id: int) -> dict:
        sitting = False
        async for text in ws:
            msg = json.loads(text)
            if msg["type"] == "error":
                log.warning("table %s: refused %s: %s", table_id, msg["code"], msg["reason"])
                if sitting or msg["category"] == "forbidden":
                    raise Refused(msg["reason"])
                continue        # e.g. stale: a fresh snapshot follows
            if msg["type"] not in ("snapshot", "update"):
                continue        # chat, ratings, ...
            table, seat, view = msg["table"], msg["you"], msg["view"]
            if table["status"] == "finished":
                match = table["match"] or {}
                log.info("table %s: match over, winners %s (we are seat %s)", table_id, match.get("winners"), seat)
                return match
            if seat is None:
                free = [s["seat"] for s in table["seats"] if s["name"] is None]
                if table["status"] == "waiting" and free and not sitting:
                    log.info("table %s: taking seat %s", table_id, free[0])
                    await ws.send(json.dumps({"type": "sit", "seat": free[0]}))
                    sitting = True
                continue
            sitting = False
            if view and view.get("legal") and seat in table["clocks"]["to_act"]:
                action = choose_action(self.level, view)
                log.info("table %s: seat %s plays %s", table_id, seat, action)
                await ws.send(json.dumps({"type": "action", "version": msg["version"], "action": action}))
        raise ConnectionClosed(None, None)      # the server ended the socket: reconnect

    def _start(self, table_id: int) -> None:
        """Play a table in the background (once, however often it is announced)."""
        if table_id in self.tables and not self.tables[table_id].done():
            return
        self.tables[table_id] = asyncio.create_task(self.play_table(table_id))

    def _busy(self) -> bool:
        return sum(not t.done() for t in self.tables.values()) + self.accepting >= self.max_tables

    # --- challenges -------------------------------------------------------------------------------
    async def serve_challenges(self) -> None:
        """Forever: accept the challenges that come (while fewer than max_tables are being played),
        and play every table where this bot has a seat (accepted challenges, tournaments)."""
        for attempt in range(10**9):
            try:
                async with connect(f"{self.ws_url}/ws/bot/", additional_headers=self.headers) as ws:
                    self.asked.clear()          # what a closed socket was asked is answered on no other
                    self.accepting = 0
                    log.info("listening for challenges")
                    syncing = asyncio.create_task(self._sync_every(ws))
                    try:
                        async for text in ws:
                            await self._on_event(ws, json.loads(text))
                    finally:
                        syncing.cancel()
            except ConnectionClosed as exc:
                if exc.rcvd is not None and exc.rcvd.code == BAD_TOKEN:
                    raise Refused("the token was refused") from None
                log.warning("event socket closed (%s); reconnecting", exc)
            except (OSError, InvalidStatus) as exc:
                log.warning("cannot reach the server (%s); retrying", exc)
            await asyncio.sleep(RETRY_SECONDS[min(attempt, len(RETRY_SECONDS) - 1)])

    async def _sync_every(self, ws) -> None:
        while True:
            await asyncio.sleep(SYNC_SECONDS)
            await ws.send(json.dumps({"type": "sync"}))

    async def _on_event(self, ws, msg: dict) -> None:
        kind = msg["type"]
        if kind == "challenges":            # on connecting, and the answer to each sync
            for c in msg["challenges"]:
                await self._answer(ws, c)
        elif kind == "challenge":
            await self._answer(ws, msg["challenge"])
        elif kind in ("accepted", "declined", "error"):
            # The socket answers in order, so this is the answer to the oldest question asked.
            asked, accepting = self.asked.popleft() if self.asked else (None, False)
            self.accepting -= accepting
            if kind == "accepted":
                self._start(msg["table"])
            elif kind == "error":
                log.warning("refused %s (challenge %s): %s", msg["code"], asked, msg["reason"])
        elif kind == "playing":
            log.info("playing at tables %s", msg["tables"])
            for table_id in msg["tables"]:
                self._start(table_id)

    async def _answer(self, ws, c: dict) -> None:
        """Accept a challenge while fewer than max_tables matches are going or being accepted."""
        if self._busy():
            log.info("declining challenge %s from %s: busy", c["id"], c["from"])
            await ws.send(json.dumps({"type": "decline", "id": c["id"], "reason": "busy"}))
            self.asked.append((c["id"], False))
        else:
            log.info("accepting challenge %s from %s (%s)", c["id"], c["from"], c["game"])
            await ws.send(json.dumps({"type": "accept", "id": c["id"]}))
            self.asked.append((c["id"], True))
            self.accepting += 1

    # --- open tables --------------------------------------------------------------------------------
    async def join_open(self, game: str) -> dict | None:
        """Wait for an open table of ``game`` that allows bots, sit there and play its match."""
        while True:
            tables = (await self.api("GET", f"/api/bot/tables/?game={game}"))["tables"]
            if tables:
                log.info("joining table %s", tables[0]["id"])
                return await self.play_table(tables[0]["id"])
            log.info("no open %s table allows bots yet; looking again in 5 s", game)
            await asyncio.sleep(5)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Play a bot account with a built-in level (docs/BOTS.md).")
    parser.add_argument("--url", required=True, help="the site, e.g. http://127.0.0.1:8000")
    parser.add_argument("--token", required=True, help="the bot account's API token")
    parser.add_argument("--level", default="basic", choices=sorted(BOTS))
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--table", type=int, help="play the match at this table (sitting down if needed)")
    what.add_argument("--accept-challenges", action="store_true", help="accept challenges, forever")
    what.add_argument("--join-open", metavar="GAME", help="join an open table of GAME that allows bots")
    parser.add_argument("--max-tables", type=int, default=4, help="tables played at once when accepting")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    bot = BotClient(args.url, args.token, args.level, args.max_tables)
    try:
        if args.table:
            asyncio.run(bot.play_table(args.table))
        elif args.join_open:
            asyncio.run(bot.join_open(args.join_open))
        else:
            asyncio.run(bot.serve_challenges())
    except Refused as exc:
        log.error("refused: %s", exc)
        return 2
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
