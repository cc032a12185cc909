"""CPU of sending one websocket text frame through Channels' session wrapper, and past it as the
table and lobby sockets do (games/consumers.py ``ThinConsumer.send``): the A/B of that change.

    .venv/bin/python bench/frame_send.py [--sends 100000] [--runs 3]

Reported: microseconds of CPU per frame, the median of the runs (the server's own send is a no-op
here, so this is the wrapper's cost alone).
"""
from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("SECRET_KEY", "bench-only-not-secret-" + "x" * 40)


async def server_send(message) -> None:
    pass


async def costs(sends: int, runs: int) -> dict[str, list[float]]:
    from channels.sessions import InstanceSessionWrapper
    wrapper = InstanceSessionWrapper({"cookies": {}}, server_send)
    await wrapper.resolve_session()
    frame = {"type": "websocket.send", "text": "x"}
    out: dict[str, list[float]] = {}
    for name, send in (("through the session wrapper", wrapper.send), ("past it", server_send)) * runs:
        start = time.process_time()
        for _ in range(sends):
            await send(frame)
        out.setdefault(name, []).append((time.process_time() - start) / sends * 1e6)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sends", type=int, default=100_000)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    import django
    django.setup()
    for name, runs in asyncio.run(costs(args.sends, args.runs)).items():
        print(f"{name:<28} {statistics.median(runs):6.2f} us CPU per frame   "
              f"(runs: {' '.join(f'{r:.2f}' for r in runs)})")


if __name__ == "__main__":
    main()
