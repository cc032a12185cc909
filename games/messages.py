"""Everything a client receives: the one answer to "what does a client receive".

* **Addresses.** Each table socket takes the messages of exactly one seat of its table, or the
  spectators': a message for them is addressed ``ToSeat(table, seat)`` (realtime/addresses.py); a
  commit's messages to a table travel as one message per table, which each process's table hub
  hands out by seat (realtime/hub.py). Lobby sockets are in the group ``lobby.<game>``, tournament
  pages in ``tournament.<id>``.
* **Table JSON** (``table_json``): seats, clocks, match scores, and the game's description from
  the engine (``rules``: teams, score columns, target) that the table client draws from.
* **Per-seat messages** (``message``): ``snapshot``/``update`` with the view the engine builds for
  that seat (``State.view``; None: the public view for spectators) and the commit's events, whose
  actions are in their public form (``GameRules.public_action``: a Hearts pass hides its cards).
* **A commit's messages** (``commit_messages``): one per listening seat, built after the commit.
* **Lobby rows** (``lobby_tables``).

Nothing here writes; games/services.py decides when these are sent, realtime/broadcast.py sends.
"""
from __future__ import annotations

from datetime import datetime

from django.utils import timezone

from realtime import wire
from games.engine import core

from . import clocks, fair_deals, hints, signals, spectator_view
from realtime.addresses import Message, ToSeat, everyone
from .first_moves import exit_options
from .loading import Live, load, seat_of
from .models import ChatMessage, Seat, Table

Status = Table.Status
CHAT_HISTORY = 50


# --- groups ------------------------------------------------------------------------------------
def lobby_group(game: str) -> str:
    return f"lobby.{game}"


def tournament_group(tournament_id: int) -> str:
    return f"tournament.{tournament_id}"


def listeners(live: Live) -> list[int | None]:
    """The seats with a socket open, then None when someone watches: a change is sent to them,
    not to seats nobody listens at (a bot's, mostly). A socket joins its seat at the hub
    before it is counted (under the table's lock) and reads its snapshot after: no change
    falls in between."""
    seats: list[int | None] = [s.index for s in live.seats if s.connections > 0]
    return seats + [None] if live.table.spectators > 0 else seats


# --- the table ---------------------------------------------------------------------------------
def epoch_ms(when: datetime | None) -> int | None:
    return None if when is None else int(when.timestamp() * 1000)


def _seat_json(live: Live, s: Seat) -> dict:
    """A seat; ``away_since`` (epoch ms): its player left the match in progress, and at
    ``grace_ends_at`` his opponent may claim the win (2 players) or a bot takes the seat (4)."""
    grace_end = clocks.grace_end(live, s)
    return {"seat": s.index, "name": s.player_name, "is_bot": s.is_bot,
            "bot_level": s.bot_level or None, "connected": s.connections > 0,
            # A bot account (the bot API): a person's program plays the seat; shown "BOT".
            "bot_account": bool(s.user_id and s.user.is_bot_account),
            "away_since": epoch_ms(s.away_since) if grace_end else None, "grace_ends_at": epoch_ms(grace_end),
            "hints_used": s.hints_used}


def table_json(live: Live, now: datetime | None = None, *, summary: bool = False) -> dict:
    t = live.table
    now = now or timezone.now()
    # The lobby tells open, playing and finished tables apart, so it is told of a match's start
    # and end, not of every deal's.
    status = Status.PLAYING if summary and t.status == Status.BETWEEN_DEALS else t.status
    data = {
        "id": t.pk, "game": t.game, "variant": t.variant, "rated": t.rated, "private": t.private,
        "status": status, "bots_allowed": t.bots_allowed,
        "tournament": t.tournament_table,    # a tournament pairs its next match: no rematch here
        "time_control": {"bank_seconds": t.bank_seconds, "increment_seconds": t.increment_seconds},
        "seats": [_seat_json(live, s) for s in live.seats],
        "owner": t.owner.username if t.owner_id else None,
        "version": t.version,
    }
    if summary:
        return data
    data["rules"] = _described(t.game, t.variant)
    m, e = live.match, live.engine
    data["match"] = None if m is None else {
        "scores": e.scores, "bags": e.bags, "deal_number": e.deal_number, "dealer": e.dealer,
        "over": m.finished, "winners": m.winners, "ranks": m.ranks, "results": e.results,
        "timed_out": m.timed_out, "abandoned": m.abandoned, "ended_by": m.ended_by or None,
        "resigned": m.resigned, **exit_options(live),
        "boards": e.boards,     # a duplicate tournament's match: this many deals instead of a target
    }
    deadlines = [clocks.deadline(s) for s in live.seats]
    data["clocks"] = {
        "banks_ms": [max(0, int((d - now).total_seconds() * 1000)) if d else s.bank_ms
                     for s, d in zip(live.seats, deadlines)],
        "to_act": sorted(clocks.acting(live)) if live.state is not None else [],
        "running": [s.index for s in live.seats if s.turn_started_at is not None],
        "deadlines": [epoch_ms(d) for d in deadlines],
        "deadline": epoch_ms(min((d for d in deadlines if d), default=None)),
    }
    data["next_deal_at"] = epoch_ms(t.next_deal_at) if t.status == Status.BETWEEN_DEALS else None
    data["rematch"] = t.rematch if t.status == Status.FINISHED else None
    # Provably fair deals: the current deal's commitment and client seeds, the next deal's
    # commitment (never a server seed: games/fair_deals.py).
    data["fair"] = fair_deals.public(live)
    return data


_descriptions: dict[tuple[str, str], dict] = {}


def _described(game: str, variant: str) -> dict:
    """The engine's description of a game (the same for every table of it: built once)."""
    key = (game, variant)
    found = _descriptions.get(key)
    if found is None:
        found = _descriptions[key] = core.get_rules(game).describe(variant)
    return found


# --- per-seat messages -------------------------------------------------------------------------
def public_action(game: str, action: dict) -> dict:
    """What everyone may learn of an action: the engine says (a Hearts pass without its cards)."""
    return core.get_rules(game).public_action(action)


def action_event(game: str, seat: int, action: dict) -> dict:
    return {"kind": "action", "seat": seat, "action": public_action(game, action)}


def view_for(live: Live, seat: int | None) -> dict | None:
    if live.state is None:
        return None
    view = live.state.view(seat)
    view.update(live.state.notes(seat))     # the rules' explanations for this seat
    # What the seat is asked to decide: the client picks its prompt by this, never by the game.
    view["decision"] = live.state.decision(seat, view.get("legal") or [])
    if seat is not None:        # whether the client shows the hint button (games/hints.py)
        view["hints_allowed"] = hints.allowed(live, seat)
    return view


def message(live: Live, seat: int | None, kind: str = "snapshot", events: list[dict] | None = None,
            now: datetime | None = None, table: dict | None = None) -> dict:
    """A ``snapshot``/``update`` message for one seat (None: the public one). ``event`` is the
    last of the commit's ``events`` (an action that ends a deal: action, deal_end[, match_end]).
    ``now``: the server's time (epoch ms) the message's clocks were computed at; clients take their
    clock offset from it."""
    now = now or timezone.now()
    msg = {"type": kind, "version": live.table.version, "table": table or table_json(live, now),
           "view": view_for(live, seat), "you": seat, "now": epoch_ms(now)}
    if events:
        msg["event"] = events[-1]
        msg["events"] = events
    return msg


def send_text(msg: dict) -> dict:
    """A message carrying ``msg`` as the JSON its sockets send: encoded once per seat, by
    the committing thread, so the text is fixed before the table's next change can begin. An
    update says its version beside the text: sockets pass updates on in version order, and the seat
    it was built for (None: the spectators), which the socket checks is its own before passing it on."""
    out = {"type": "table.send", "text": wire.dumps(msg)}
    if msg.get("type") == "update":
        out["version"] = msg["version"]
        out["seat"] = msg["you"]
    return out


def snapshot(table_id: int, user, invite: str | None = None) -> tuple[dict, int | None]:
    """What a socket gets on (re)connecting: its seat's full view, the chat, the invite link for
    the table's own people."""
    live = load(table_id)
    seat = seat_of(live, user)
    if seat is not None:
        msg = message(live, seat)
    else:
        # The same for every spectator: built once per version (games/spectator_view.py), but for
        # the seats, read afresh with the table: their presence moves without a new version.
        msg = spectator_view.message(live, message)
        msg["table"]["seats"] = [_seat_json(live, s) for s in live.seats]
    # Without the lines of players other apps hide from this user (moderation: those he muted).
    hidden: set[int] = set()
    for _receiver, ids in signals.chat_hidden.send(sender=Table, user=user):
        hidden.update(ids or ())
    msg["me"] = user.username if getattr(user, "is_authenticated", False) else None
    msg["chat"] = [c.as_json() for c in reversed(ChatMessage.objects.filter(table_id=table_id)
                                                  .exclude(user_id__in=hidden)
                                                  .order_by("-id")[:CHAT_HISTORY])]
    own = seat is not None or live.table.owner_id == getattr(user, "id", None)
    msg["invite"] = live.table.invite_token if own else None
    # What other apps add for a reconnecting socket (ratings: a finished match's rating changes;
    # moderation: the players this user muted).
    for _receiver, extra in signals.snapshot_extras.send(sender=Table, live=live, user=user):
        msg.update(extra or {})
    return msg, seat


def table_payloads(table_id: int, game: str, msg: dict) -> list[Message]:
    """An unversioned message (like chat) to every socket at a table: for what everyone there may
    see and that is no change of the table itself (a finished match's rating changes)."""
    payload = send_text(msg)
    return [(to, payload) for to in everyone(table_id, core.get_rules(game).seats)]


def commit_messages(live: Live, events: list[dict], now: datetime, *, resync: bool = False) -> list[Message]:
    """A committed change's messages: one per listening seat, each with that seat's own view.
    ``resync``: seats changed hands, so each socket rebuilds its own snapshot (and its seat)."""
    audience = listeners(live)
    t = live.table
    if resync:
        return [(ToSeat(t.pk, s), {"type": "table.resync", "version": t.version, "event": events[-1],
                                   "events": events}) for s in audience]
    if not audience:
        return []
    table = table_json(live, now)
    return [(ToSeat(t.pk, s), send_text(message(live, s, "update", events, now, table)))
            for s in audience]


def chat_messages(table_id: int, game: str, chat: ChatMessage) -> list[Message]:
    # ``author``: a socket drops the line if its user hides his (games/socket_hooks.py: moderation's mutes).
    payload = dict(send_text({"type": "chat", "message": chat.as_json()}), author=chat.user_id)
    return [(to, payload) for to in everyone(table_id, core.get_rules(game).seats)]


# --- the lobby ---------------------------------------------------------------------------------
def lobby_tables(game: str) -> list[dict]:
    tables = (Table.objects.filter(game=game, private=False)
              .exclude(status=Status.FINISHED).select_related("owner").order_by("-id")[:200])
    seats: dict[int, list[Seat]] = {}
    for s in Seat.objects.filter(table__in=list(tables)).select_related("user"):
        seats.setdefault(s.table_id, []).append(s)
    return [table_json(Live(table=t, seats=sorted(seats.get(t.pk, []), key=lambda s: s.index)),
                       summary=True) for t in tables]


def lobby_message(game: str) -> Message:
    return (lobby_group(game), {"type": "lobby.send", "tables": lobby_tables(game)})
