"""CPU of reading pub/sub messages through the scaled channel layer's subscriber (redis-py), with
redis-py's own handler of each message and with the layer's (realtime/layers.py ``_as_is``): the
A/B of that one change, interleaved.

    .venv/bin/python bench/pubsub_read.py [--messages 5000] [--size 10000] [--runs 5]

Needs Redis on 127.0.0.1:6379. Reported: microseconds of this process's CPU per message read, the
median of the runs, for each handler.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time

import redis.asyncio as aioredis

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("SECRET_KEY", "bench-only-not-secret-" + "x" * 40)

from realtime.layers import _as_is  # noqa: E402


async def read_cost(messages: int, size: int, quiet: bool) -> float:
    subscriber = aioredis.Redis(host="127.0.0.1", port=6379)
    publisher = aioredis.Redis(host="127.0.0.1", port=6379)
    pubsub = subscriber.pubsub(push_handler_func=_as_is if quiet else None)
    try:
        await pubsub.subscribe("bench-pubsub-read")
        await pubsub.get_message(timeout=1)             # the subscription's confirmation
        body = b"x" * size
        spent, batch = 0.0, 200      # in batches: Redis drops a subscriber more than 8-32 MB behind
        for _ in range(0, messages, batch):
            async with publisher.pipeline(transaction=False) as pipe:
                for _ in range(batch):
                    pipe.publish("bench-pubsub-read", body)
                await pipe.execute()
            start = time.process_time()
            got = 0
            while got < batch:
                if await pubsub.get_message(ignore_subscribe_messages=True, timeout=5) is not None:
                    got += 1
            spent += time.process_time() - start
        return spent / (messages // batch * batch) * 1e6
    finally:
        await pubsub.aclose()
        await subscriber.aclose()
        await publisher.aclose()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--messages", type=int, default=5000)
    ap.add_argument("--size", type=int, default=10000, help="bytes per message (a table's bundle: ~10 KB)")
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    costs: dict[str, list[float]] = {"redis-py's handler": [], "the layer's handler": []}
    for _ in range(args.runs):
        for name, quiet in (("redis-py's handler", False), ("the layer's handler", True)):
            costs[name].append(asyncio.run(read_cost(args.messages, args.size, quiet)))
    for name, runs in costs.items():
        print(f"{name:<22} {statistics.median(runs):7.1f} us CPU per message   "
              f"(runs: {' '.join(f'{r:.1f}' for r in runs)})")


if __name__ == "__main__":
    main()
