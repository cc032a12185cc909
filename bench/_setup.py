"""Setup step of bench/live.py, run as a subprocess with the mode's settings (after migrate).

    python bench/_setup.py TABLES BOTS [LEVEL]   -> JSON on stdout: [{"id", "game", "level", "sessions": [...]}]
    python bench/_setup.py mix people:20,strong:5,expert:2
    python bench/_setup.py ... --ending N [--ending-deals K]   (after either form)
    python bench/_setup.py analyses T0 T1   -> JSON on stdout: the analyses, read after the window
    python bench/_setup.py accounts K       -> JSON on stdout: K more logged-in accounts' session keys

Creates the players, their tables (hearts and spades alternately; seats 1-3 bots of LEVEL (basic) when BOTS=1,
or per table as the mix says)
through games.services.create_table, seats the other players, and logs every player in by creating
a session (what django.contrib.auth.login stores), so that the client presents a ``sessionid``
cookie on the socket handshake as a browser does. The match is started later by the table's owner
over the socket.

``--ending N``: N more tables of one person and three basic bots whose match is one move of the
person from its end (``ending_table``), spec ``"kind": "ending"``; their match ends on the server when
the person plays, and the site's own match_finished receiver creates the analysis and enqueues it.
``analyses T0 T1`` (epoch seconds of the measured window) reads the Analysis rows back: how many
matches ended in the window, each status, and the queue wait and run time of the finished ones.
"""
from __future__ import annotations

import json
import os
import random
import statistics
import sys
from datetime import datetime, timedelta
from datetime import timezone as dt_timezone

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
from analysis.models import Analysis  # noqa: E402
from games import loading, scheduling, services  # noqa: E402
from games.bots import choose_action  # noqa: E402
from games.engine.core import Match as EngineMatch  # noqa: E402
from games.models import Match, Seat  # noqa: E402
from tests.browser.scenarios import play_from  # noqa: E402

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


def pop_option(argv: list[str], name: str, default: int) -> int:
    """Take ``name VALUE`` out of ``argv`` (the positional forms above stay as they were)."""
    if name not in argv:
        return default
    i = argv.index(name)
    value = int(argv[i + 1])
    del argv[i:i + 2]
    return value


# --- tables one move from their match's end (--ending) -------------------------------------------
MAX_DEALS = 60      # a guard: a simulated match longer than this is drawn again


def played_out(state, rng: random.Random) -> None:
    """Play a deal to its end as basic bots would, seat after seat (the engine alone)."""
    while not state.is_over():
        seat = state.seats_to_act()[0]
        state.apply(choose_action("basic", state.view(seat), rng))


def ending_match(game: str, variant: str, players: list[str], rng: random.Random):
    """A match played by basic bots in the engine from its first deal to its last, the last cut
    before seat 0's last decision: (engine match before the last deal, the earlier deals' finished
    states, the last deal's state at the cut). Drawn again until every
    continuation of the cut ends the match, checked by the engine (``always_ends``)."""
    while True:
        engine = EngineMatch.start(game, variant, players, first_dealer=rng.randrange(4))
        earlier = []
        for _ in range(MAX_DEALS):
            state = engine.new_deal(rng)
            played_out(state, rng)
            trial = EngineMatch.from_dict(engine.to_dict())
            trial.finish_deal(state)
            if not trial.is_over():
                engine.finish_deal(state)
                earlier.append(state)
                continue
            actions = state.actions()
            mine = [i for i, a in enumerate(actions) if a["seat"] == 0]
            if not mine:
                break       # seat 0 did not act in this deal: draw another match
            cut = actions[:mine[-1]]
            start = engine.rules.new_state(state.setup)
            for action in cut:
                start.apply(action)
            if start.seats_to_act() == (0,) and always_ends(engine, start):
                return engine, earlier, start
            break


def always_ends(engine: EngineMatch, state, limit: int = 10_000) -> bool:
    """Whether every way of playing ``state`` out ends ``engine``'s match (all continuations
    enumerated; False beyond ``limit`` leaves, which a cut at the last trick never nears)."""
    leaves = [0]

    def walk(s) -> bool:
        if s.is_over():
            leaves[0] += 1
            trial = EngineMatch.from_dict(engine.to_dict())
            trial.finish_deal(s)
            return trial.is_over() and leaves[0] <= limit
        for seat in s.seats_to_act():
            for move in s.legal_moves(seat):
                nxt = s.clone()
                nxt.apply_move(move, seat)
                if not walk(nxt):
                    return False
        return True
    return walk(state)


def ending_table(owner: User, game: str, keep_deals: int, rng: random.Random) -> int:
    """A table of ``owner`` and three basic bots, playing, with the owner to make the match's last
    decision of his (the rest is the bots' forced or free play that ends the match whatever it is).
    Written as the browser tests' scenarios are (tests/browser/scenarios.py ``play_from``): the engine
    match at its last deal, the ``keep_deals - 1`` deals before it on record as finished deals (the
    analysis covers the deals on record: a whole match is ``--ending-deals`` large enough), the last
    deal played up to the cut."""
    table = services.create_table(owner, game, bank_seconds=3600, increment_seconds=5,
                                  seats=["me", "basic", "basic", "basic"], start=False)
    now = timezone.now()
    with loading.locked(table.pk) as live:
        t = live.table
        engine, earlier, state = ending_match(t.game, t.variant, [s.player_name for s in live.seats], rng)
        kept = earlier[max(0, len(earlier) - (keep_deals - 1)):] if keep_deals > 1 else []
        play_from(live, engine, state, now, kept)
    return table.pk


def logged_in(users: list[User]) -> dict[int, str]:
    """A session for each user (what a login stores): user id -> session key."""
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
    return keys


def main() -> None:
    argv = sys.argv[1:]
    if argv[0] == "analyses":
        print(json.dumps(analyses_in(float(argv[1]), float(argv[2]))))
        return
    if argv[0] == "accounts":         # bench/flood.py's pool accounts: their session keys
        users = User.objects.bulk_create([User(username=f"flood{i:05d}", password="!bench-unusable")
                                          for i in range(int(argv[1]))])
        print(json.dumps(list(logged_in(users).values())))
        return
    ending = pop_option(argv, "--ending", 0)
    keep_deals = pop_option(argv, "--ending-deals", 1)
    levels = tables_of(argv)
    # Creating a table schedules nothing we need here (its match starts later, from the socket).
    scheduling._scheduler = lambda *a, **k: None
    n_users = sum(1 if level else 4 for level in levels) + ending
    users = User.objects.bulk_create([
        User(username=f"bench{i:05d}", password="!bench-unusable") for i in range(n_users)])
    users = list(User.objects.filter(username__startswith="bench").order_by("username"))
    keys = logged_in(users)

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
    rng = random.Random(len(levels))
    for t, owner in enumerate(users[first:first + ending]):
        game = GAMES[t % len(GAMES)]
        out.append({"id": ending_table(owner, game, keep_deals, rng), "game": game, "level": "basic",
                    "kind": "ending", "sessions": [keys[owner.pk], None, None, None]})
    print(json.dumps(out))


def analyses_in(t0: float, t1: float) -> dict:
    """The analyses as the run left them: matches that ended in the window [t0, t1) (epoch s),
    analyses by status, and for the finished ones the queue wait (created -> started) and the run
    (started -> finished), in seconds."""
    start, end = (datetime.fromtimestamp(t, tz=dt_timezone.utc) for t in (t0, t1))
    rows = list(Analysis.objects.select_related("match").order_by("pk"))
    done = [a for a in rows if a.status == Analysis.Status.DONE]
    waits = [(a.started_at - a.created_at).total_seconds() for a in done]
    runs = [(a.finished_at - a.started_at).total_seconds() for a in done]
    return {
        "matches_ended_in_window": Match.objects.filter(finished=True, finished_at__gte=start,
                                                        finished_at__lt=end).count(),
        "analyses": len(rows),
        "by_status": {s: sum(a.status == s for a in rows) for s in Analysis.Status.values},
        "done_in_window": sum(start <= a.finished_at < end for a in done),
        "wait_p50": statistics.median(waits) if waits else None, "wait_max": max(waits, default=None),
        "run_p50": statistics.median(runs) if runs else None, "run_max": max(runs, default=None),
        "cpu_p50": statistics.median([a.cpu_seconds for a in done]) if done else None,
        "decisions_p50": statistics.median([a.total for a in done]) if done else None,
        # Those under way at the read: decisions judged of those planned.
        "running_done": sum(a.done for a in rows if a.status == Analysis.Status.RUNNING),
        "running_total": sum(a.total for a in rows if a.status == Analysis.Status.RUNNING),
        # The backlog at the read: how long the oldest analysis not yet started has waited.
        "waiting_max": max(((timezone.now() - a.created_at).total_seconds() for a in rows
                            if a.status == Analysis.Status.PENDING), default=None),
    }


if __name__ == "__main__":
    main()
