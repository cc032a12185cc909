"""Setup step of bench/live.py, run as a subprocess with the mode's settings (after migrate).

    python bench/_setup.py TABLES BOTS [LEVEL]   -> JSON on stdout: [{"id", "game", "level", "sessions": [...]}]
    python bench/_setup.py mix people:20,strong:5,expert:2

Creates the players, their tables (hearts and spades alternately; seats 1-3 bots of LEVEL (basic) when BOTS=1,
or per table as the mix says)
through games.services.create_table, seats the other players, and logs every player in by creating
a session (what django.contrib.auth.login stores), so that the client presents a ``sessionid``
cookie on the socket handshake as a browser does. The match is started later by the table's owner
over the socket.
"""
from __future__ import annotations

import json
import os
import sys
from datetime import timedelta

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY  # noqa: E402
from django.contrib.sessions.backends.db import SessionStore  # noqa: E402
from django.contrib.sessions.models import Session  # noqa: E402
from django.db import transaction  # noqa: E402
from django.utils import timezone  # noqa: E402
from django.utils.crypto import get_random_string  # noqa: E402

from accounts.models import User  # noqa: E402
from games import scheduling, services  # noqa: E402
from games.models import Seat  # noqa: E402

GAMES = ("hearts", "spades")


def tables_of(argv: list[str]) -> list[str | None]:
    """The bot level of each table (None: four people): ``TABLES BOTS [LEVEL]``, or ``mix SPEC``
    with SPEC like ``people:20,strong:5,expert:2`` (bench/live.py --mix)."""
    if argv[0] == "mix":
        out: list[str | None] = []
        for part in argv[1].split(","):
            kind, count = part.split(":")
            out += [None if kind == "people" else kind] * int(count)
        return out
    level = argv[2] if len(argv) > 2 else "basic"
    return [level if argv[1] == "1" else None] * int(argv[0])


def main() -> None:
    levels = tables_of(sys.argv[1:])
    # Creating a table schedules nothing we need here (its match starts later, from the socket).
    scheduling._scheduler = lambda *a, **k: None
    n_users = sum(1 if level else 4 for level in levels)
    users = User.objects.bulk_create([
        User(username=f"bench{i:05d}", password="!bench-unusable") for i in range(n_users)])
    users = list(User.objects.filter(username__startswith="bench").order_by("username"))
    expire = timezone.now() + timedelta(days=1)
    store = SessionStore()
    sessions, keys = [], {}
    for u in users:
        key = get_random_string(32, "abcdefghijklmnopqrstuvwxyz0123456789")
        data = {SESSION_KEY: str(u.pk), BACKEND_SESSION_KEY: settings.AUTHENTICATION_BACKENDS[0],
                HASH_SESSION_KEY: u.get_session_auth_hash()}
        sessions.append(Session(session_key=key, session_data=store.encode(data), expire_date=expire))
        keys[u.pk] = key
    Session.objects.bulk_create(sessions, batch_size=500)

    out = []
    first = 0
    for t, level in enumerate(levels):
        game = GAMES[t % len(GAMES)]
        group = users[first:first + (1 if level else 4)]
        first += len(group)
        owner = group[0]
        with_bots = level is not None
        spec = ["me", level, level, level] if with_bots else ["me", "", "", ""]
        with transaction.atomic():
            # Kept waiting: the owners' sockets start the matches (bench/live.py).
            table = services.create_table(owner, game, bank_seconds=300, increment_seconds=5, seats=spec,
                                          start=False)
            if not with_bots:
                for i, u in enumerate(group[1:], start=1):
                    Seat.objects.filter(table=table, index=i).update(user=u)
        out.append({"id": table.pk, "game": game, "level": level,
                    "sessions": [keys[u.pk] for u in group] + [None] * (4 - len(group))})
    print(json.dumps(out))


if __name__ == "__main__":
    main()
