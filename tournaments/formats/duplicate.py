"""Duplicate: every table of a round plays the same boards; the steps inside the tournament's lock
and what its page shows (the pure part, matchpoints and who held which cards, is
tournaments/duplicate.py).

A round is paired as the Swiss pairs (by the duplicate standings); its seed is drawn and its
SHA-256 stored in the transaction that creates the round and its tables, before any deal of it is
dealt: every table gets the seed in ``Table.duplicate`` (games/fair_deals.py), so board k there is
the deck fair.py derives from (round seed, no client seeds, ``round:<tournament>-<round>``, k).
The seed and the cards stay hidden until the round's last table has finished: then ``reveal``
marks the tables (their records carry the seed from then on, archive.visibility.public_record) and
opens them to spectators, and the page shows the seed and, per board, who held which cards, what
each table made of them and the matchpoints. Until then the page shows finished tables' match
scores only: a board's results would tell a table still playing it what the cards hold.
"""
from __future__ import annotations

from datetime import datetime

from django.utils.translation import gettext as _, gettext_lazy

from games import fair_deals, services
from games.card_letters import rank_label
from games.engine import core, fair
from games.labels import player_labels
from games.models import Deal, Table

from .. import duplicate, pairing, results, steps
from ..models import Entry, Game, Round, Tournament
from .base import PageData
from .rounds import Plan, RoundFormat
from .swiss import swiss_plan

CARD_SUITS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


def create_round(t: Tournament, number: int, now: datetime) -> Round:
    """The round, committed to its seed: drawn now, before any of its tables exists."""
    seed = fair.new_server_seed()
    return Round.objects.create(tournament=t, number=number, started_at=now,
                                seed=seed.hex(), commitment=fair.commitment(seed))


def table_options(t: Tournament, rnd: Round, index: int, count: int) -> dict:
    """The ``index``-th table of the round's ``count`` deals its boards from the round's seed (in
    Sixty-six every second table with the other dealer), in its own order (``board_order``: no
    board at two tables at once), and is private while the round lasts: a spectator could pass on
    a board another table has yet to play."""
    seats = steps.seats_of(t)
    by_board = duplicate.dealers(seats, t.boards, duplicate.flipped(t.one_on_one, index))
    order = duplicate.board_order(index, count, t.boards)
    source = fair_deals.duplicate_source(fair.round_label(t.pk, rnd.number), bytes.fromhex(rnd.seed),
                                         [by_board[b] for b in order], order)
    return {"private": True, "duplicate": source}


def plan(t: Tournament, entries: list[Entry]) -> Plan:
    """The round's tables as the Swiss pairs them, in the order of the duplicate standings."""
    history = {r.id: r for r in results.standings_rows(t, entries)}      # opponents, tables, byes
    order = standings(t, entries)
    players = [pairing.Player(id=r.id, score=r.pct, rating=r.rating,
                              opponents=frozenset(history[r.id].opponents),
                              partners=tuple(history[r.id].partners), byes=history[r.id].byes,
                              tables=tuple(history[r.id].tables)) for r in order]
    return swiss_plan(t, players)


def reveal(rnd: Round) -> None:
    """The round is over at every table: its deals may be shown (records with the seed, replays)."""
    tables = Table.objects.filter(tournament_game__round=rnd).exclude(duplicate=None)
    for table_id in tables.order_by("pk").values_list("pk", flat=True):
        services.reveal_deals(table_id)


# --- scores ----------------------------------------------------------------------------------------
def _variant(t: Tournament) -> str:
    return core.get_rules(t.game).check_variant(t.variant or None)


def table_rounds(t: Tournament, games: list[Game]) -> list[duplicate.TableRound]:
    """The finished tables of ``games`` with their margins per board, read from the deal records."""
    variant = _variant(t)
    played = [g for g in games if not g.bye and g.result is not None and g.table_id is not None]
    dealers = dict(Table.objects.filter(pk__in=[g.table_id for g in played]).values_list("pk", "duplicate"))
    margins: dict[int, dict[int, list[float]]] = {}
    for table_id, number, result in (Deal.objects.filter(match__table_id__in=list(dealers), finished=True)
                                     .values_list("match__table_id", "number", "result")):
        margins.setdefault(table_id, {})[number] = duplicate.board_margins(t.game, variant, result)
    out = []
    for g in played:
        source = dealers.get(g.table_id) or {}
        per_deal = list(source.get("dealers") or [])
        order = fair_deals.board_order(source)          # deal j of the table plays board order[j]
        by_board = {order[j]: d for j, d in enumerate(per_deal)}
        boards = {order[j]: m for j, m in margins.get(g.table_id, {}).items()}
        out.append(duplicate.TableRound(
            table=g.board, players=list(g.players), dealers=[by_board[k] for k in range(len(per_deal))],
            margins=[boards.get(k) for k in range(len(per_deal))],
            at_fault=frozenset(g.result.get("timed_out") or [])))
    return out


def round_scores(t: Tournament, rnd: Round, games: list[Game]) -> list[duplicate.BoardScore]:
    rules = core.get_rules(t.game)
    tables = table_rounds(t, games)
    if not tables:
        return []
    boards = len(tables[0].dealers)
    return duplicate.score_round(rules.teams(_variant(t)), rules.seats, tables, boards)


def standings(t: Tournament, entries: list[Entry]) -> list[duplicate.Row]:
    """Counted over finished rounds only: a round's matchpoints are final when its last table ends."""
    scores: list[duplicate.BoardScore] = []
    byes = []
    for rnd in t.round_set.filter(status=Round.Status.FINISHED):
        games = list(rnd.games.all())
        scores += round_scores(t, rnd, games)
        boards = max((len(tr.dealers) for tr in table_rounds(t, games)), default=t.boards)
        byes += [(g.players[0], boards) for g in games if g.bye]
    ents = [duplicate.Entrant(id=e.pk, rating=e.seed_rating or results.DEFAULT_RATING, order=e.pk) for e in entries]
    return duplicate.standings(ents, scores, byes)


# --- the page ----------------------------------------------------------------------------------------
def card_text(code: str) -> dict:
    """A card of a board as the reader letters it (games/card_letters.py)."""
    return {"code": code, "text": rank_label(code) + CARD_SUITS[code[1]], "suit": code[1]}


def holding_label(game: str, variant: str, holding: tuple[int, ...]) -> str:
    """Which hand of the board, named from the dealer (the same words at every table)."""
    rules = core.get_rules(game)
    if len(holding) > 1:
        return _("The dealer's partnership") if 0 in holding else _("The other partnership")
    if rules.one_on_one(variant or None):
        return _("The dealer's hand") if holding[0] == 0 else _("The hand that leads first")
    return [_("The dealer's hand"), _("Left of the dealer"), _("Across from the dealer"),
            _("Right of the dealer")][holding[0]]


def page_state(t: Tournament, page: PageData) -> dict:
    """What the page adds for a duplicate tournament: the standings (with each entrant's rating and
    whether his match is being played), and in each of ``rounds`` (the page's round dicts) its
    commitment and, once the round is over, its seed and every board's comparison."""
    names, active, final, playing = page.names, page.active, page.final, page.playing
    ratings = {e.pk: e.seed_rating for e in active}
    counted = page.started and t.round_set.filter(status=Round.Status.FINISHED).exists()
    rows = standings(t, active) if counted else []      # nothing to rank before a round is over
    label_of = {}

    def who(pid):
        if pid not in label_of:
            label_of[pid] = player_labels([names.get(pid) if pid is not None else f"bot:{t.bot_level}"])[0]
        return label_of[pid]

    shown = {r["number"]: r for r in page.rounds}
    for rnd in t.round_set.prefetch_related("games"):
        data = {"commitment": rnd.commitment, "label": fair.round_label(t.pk, rnd.number), "seed": None,
                "boards": []}
        if rnd.status == Round.Status.FINISHED and rnd.seed:
            data["seed"] = rnd.seed
            data["boards"] = _boards(t, rnd, list(rnd.games.all()), who)
        if rnd.number in shown:
            shown[rnd.number]["duplicate"] = data
    return {"duplicate": {
        "boards_per_round": t.boards,
        "standings": [{"rank": final.get(r.id) or r.rank, "entry": r.id, "name": names.get(r.id),
                       "rating": ratings.get(r.id), "playing": r.id in playing,
                       "pct": round(r.pct, 2), "boards": r.boards, "margin": r.margin, "byes": r.byes}
                      for r in sorted(rows, key=lambda r: (final.get(r.id) or r.rank, r.rank))],
    }}


def _boards(t: Tournament, rnd: Round, games: list[Game], who) -> list[dict]:
    rules = core.get_rules(t.game)
    variant = _variant(t)
    seeds = fair.DealSeeds(bytes.fromhex(rnd.seed), (None,) * rules.seats, fair.round_label(t.pk, rnd.number))
    scores = round_scores(t, rnd, games)
    count = max((s.board for s in scores), default=-1) + 1
    out = []
    for k in range(count):
        reference = duplicate.dealers(rules.seats, k + 1)[k]
        dealt = fair.deal_from_seeds(rules, variant, reference, seeds, k)
        hands = []
        for holding in sorted({s.holding for s in scores if s.board == k}):
            held = [dealt["hands"][duplicate.seat_at(p, reference, rules.seats)] for p in holding]
            hands.append({
                "label": holding_label(t.game, variant, holding),
                "cards": [[card_text(c) for c in hand] for hand in held],     # per hand (Spades: two)
                "results": [{"table": s.table, "players": [who(p) for p in s.players],
                             "margin": s.margin, "mp": s.mp, "top": s.top, "pct": round(s.pct, 1)}
                            for s in scores if s.board == k and s.holding == holding],
            })
        trump = dealt.get("trump_card")
        out.append({"number": k + 1, "trump": card_text(trump) if trump else None, "hands": hands})
    return out


class Duplicate(RoundFormat):
    name = "duplicate"
    own_settings = ("rounds", "boards", "break_seconds")
    label = gettext_lazy("Duplicate")
    summary = gettext_lazy("All games: every table of a round plays the same deals, from one seed committed before the round and revealed after it (in Sixty-six every second table with the hands swapped), and you are compared only with the players who held the same cards: matchpoints, as in duplicate bridge. Ranked by the mean percentage over all boards.")
    template = "tournaments/formats/duplicate.html"

    def clean(self, data: dict, seats: int) -> list[tuple[str, str]]:
        errors = super().clean(data, seats)
        if not data.get("rounds"):
            errors.append(("rounds", gettext_lazy("A duplicate tournament needs at least one round.")))
        boards = data.get("boards")
        if boards is not None and not 1 <= boards <= 24:
            errors.append(("boards", gettext_lazy("Between 1 and 24 boards.")))
        return errors

    def plan(self, t: Tournament, number: int, entries: list[Entry]) -> Plan:
        return plan(t, entries)

    def create_round(self, t: Tournament, number: int, now: datetime) -> Round:
        return create_round(t, number, now)

    def table_options(self, t: Tournament, rnd: Round, index: int, count: int) -> dict:
        return table_options(t, rnd, index, count)

    def round_closed(self, t: Tournament, rnd: Round) -> None:
        reveal(rnd)

    def standings(self, t: Tournament, entries: list[Entry]) -> list[duplicate.Row]:
        return standings(t, entries)

    def page_state(self, t: Tournament, page: PageData) -> dict:
        return page_state(t, page)


FORMAT = Duplicate()
