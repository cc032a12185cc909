"""A TCP proxy on loopback that can be told to hold what passes through it, both ways: a network
path that stalls without closing (what a train's tunnel or a dozing Wi-Fi does to a socket), for
the heartbeat's tests. It runs its own asyncio loop in a thread; ``hold()`` keeps every byte of
every connection, open or new, until ``release()`` lets them through in order."""
from __future__ import annotations

import asyncio
import threading


class StallProxy:
    def __init__(self, target_port: int, host: str = "127.0.0.1"):
        self.host, self.target_port = host, target_port
        self.loop = asyncio.new_event_loop()
        self._flowing: asyncio.Event | None = None
        self._server = None
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, name="stall-proxy", daemon=True)
        self.port = 0

    def __enter__(self) -> StallProxy:
        self._thread.start()
        self._ready.wait(10)
        return self

    def __exit__(self, *exc) -> None:
        asyncio.run_coroutine_threadsafe(self._shut(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(10)
        self.loop.close()

    async def _shut(self) -> None:
        """Every connection closed and its tasks ended before the loop stops."""
        self._server.close()
        tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def hold(self) -> None:
        self.loop.call_soon_threadsafe(self._flowing.clear)

    def release(self) -> None:
        self.loop.call_soon_threadsafe(self._flowing.set)

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self._flowing = asyncio.Event()
        self._flowing.set()
        self._server = self.loop.run_until_complete(asyncio.start_server(self._serve, self.host, 0))
        self.port = self._server.sockets[0].getsockname()[1]
        self._ready.set()
        self.loop.run_forever()

    async def _serve(self, reader, writer) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection(self.host, self.target_port)
        except OSError:
            writer.close()
            return
        await asyncio.gather(self._pipe(reader, up_writer), self._pipe(up_reader, writer),
                             return_exceptions=True)

    async def _pipe(self, reader, writer) -> None:
        try:
            while data := await reader.read(65536):
                await self._flowing.wait()      # held: the bytes wait here, the connection stays open
                writer.write(data)
                await writer.drain()
            await self._flowing.wait()          # a close is held like the bytes before it
        finally:
            writer.close()
