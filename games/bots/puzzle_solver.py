"""Puzzles from finished deals: positions where one play is provably the only best, solved
exactly with every card known (no Django here; the site's side is puzzles/).

A puzzle is a moment of a deal record, before one seat's play, late enough for the exact solvers
the strong bot uses on its draws: Sixty-six once the stock is closed or exhausted
(``sixtysix_solver``), the last ``puzzle_cards`` tricks of Hearts and Spades (``trick_solver``). There
every option's exact value for the seat is computed with all hands known (a double-dummy puzzle:
the page shows every hand open and says so), and the position is a puzzle when exactly one option
is best, by at least ``puzzle_margin`` (Sixty-six: the one play that wins the deal, every other
loses or draws it). Values are in the solvers' units: Sixty-six game points won minus lost, Hearts
the seat's penalty points against the others' average (the others playing together against it),
Spades the team's deal score minus the other team's. Each game's numbers and its exact value are
its bot parts' (``parts.BotParts.puzzle``, registered by ``<game>_search.py``).

Solving one: the player plays for his seat; any play whose value equals the best is right (a
later decision may have several), a worse one fails the puzzle; the other seats' replies are the
solver's (the opponents' best against him, a Spades partner's best for him). The puzzle is solved
when the deal is over or no choice of his is left that matters (every option equally good).
"""
from __future__ import annotations

from games.engine.core import State, get_rules
from games.engine.records import state_of

from . import parts, trick_solver

EPS = 1e-6
MAX_REPLIES = 60        # a line never runs longer than a deal's remaining cards; a guard all the same


def value(state: State, me: int) -> float | None:
    """The exact value of ``state`` for seat ``me`` (None: not solvable exactly here)."""
    return parts.of(state.game).puzzle.value(state, me)


def _plain_plays(options: list[dict]) -> bool:
    """Card plays, and a Sixty-six claim (its outcome is the engine's, exactly); no marriage."""
    return all(o["type"] in ("play", "declare") and not o.get("marriage") and not o.get("declare")
               for o in options)


def in_window(state: State) -> bool:
    """Whether the position is late enough to solve exactly."""
    if state.is_over():
        return False
    puzzle = parts.of(state.game).puzzle
    if not puzzle.solvable(state):
        return False
    return trick_solver.cards_left(state) <= puzzle.cards


def option_values(state: State, seat: int) -> list[tuple[dict, float]] | None:
    """Each legal option of ``seat`` with its exact value for that seat (None: not solvable)."""
    options = state.legal_actions(seat)
    out = []
    for option in options:
        after = state.clone()
        after.apply(option)
        v = value(after, seat)
        if v is None:
            return None
        out.append((option, v))
    return out


def unique_best(game: str, values: list[tuple[dict, float]]) -> dict | None:
    """The one best option when it is a puzzle's answer (see the module's docstring)."""
    if sum(1 for o, _v in values if o["type"] == "play") < 2 or not _plain_plays([o for o, _v in values]):
        return None         # a choice between cards to play (claiming 66 beside one card is none)
    ranked = sorted(values, key=lambda ov: -ov[1])
    best, second = ranked[0][1], ranked[1][1]
    puzzle = parts.of(game).puzzle
    if best - second < puzzle.margin - EPS:
        return None
    if puzzle.wins_only and not (best > 0 >= second):
        return None
    if ranked[0][0]["type"] != "play":      # the answer is a card to play
        return None
    return ranked[0][0]


def _side(game: str, seat: int, me: int) -> bool:
    """Whether ``seat`` plays for ``me`` (himself, or his partner)."""
    rules = get_rules(game)
    return seat == me or rules.team_of(seat) == rules.team_of(me)


def reply(state: State, me: int) -> dict:
    """The solver's play for the seat to act, not ``me``: the best for ``me``'s side when it is
    his partner, else the worst for him (first such option in the engine's order)."""
    seat = state.to_act()
    mine = _side(state.game, seat, me)
    best = None
    for option in state.legal_actions(seat):
        after = state.clone()
        after.apply(option)
        v = value(after, me)
        if best is None or (v > best[1] + EPS if mine else v < best[1] - EPS):
            best = (option, v)
    return best[0]


def play_replies(state: State, me: int) -> list[dict]:
    """Apply the solver's replies until ``me`` is to act or the deal is over; what was played."""
    played = []
    while not state.is_over() and state.to_act() is not None and state.to_act() != me and len(played) < MAX_REPLIES:
        if not parts.of(state.game).puzzle.playing(state):
            break
        action = reply(state, me)
        state.apply(action)
        played.append(action)
    return played


def finished(state: State, me: int) -> bool:
    """Nothing left for ``me`` to get right: the deal is over (or past its play), or every
    option of his now is equally good."""
    if state.is_over() or state.to_act() != me:
        return True
    if not parts.of(state.game).puzzle.playing(state):
        return True
    values = option_values(state, me)
    if values is None:
        return True
    return max(v for _o, v in values) - min(v for _o, v in values) < EPS


def judge(state: State, me: int, action: dict) -> bool:
    """Whether ``action`` (legal: the engine checked it) keeps the best value for ``me``."""
    values = option_values(state, me)
    best = max(v for _o, v in values)
    move = state.move_of(action)
    return any(state.move_of(o) == move and v >= best - EPS for o, v in values)


def solution_line(state: State, me: int, first: dict) -> list[dict]:
    """The line from the puzzle's position: its answer, the replies, and the player's best plays
    until the puzzle is solved (on a copy of ``state``)."""
    s = state.clone()
    line = [first]
    s.apply(first)
    line += play_replies(s, me)
    while not finished(s, me) and len(line) < MAX_REPLIES:
        values = option_values(s, me)
        best = max(values, key=lambda ov: ov[1])[0]
        s.apply(best)
        line.append(best)
        line += play_replies(s, me)
    return line


def find(record: dict, seats=None, limit: int = 1) -> list[dict]:
    """Puzzles in a finished deal record: ``{"step", "seat", "values", "answer", "line"}`` for
    at most ``limit`` positions (the earliest: the most to see), of a seat in ``seats`` (None:
    any) that played there. ``step``: the number of the record's actions before the position."""
    found: list[dict] = []
    wanted = None if seats is None else set(seats)

    def on_step(step, state, action):
        if len(found) >= limit or not in_window(state):
            return
        seat = state.to_act()
        if seat is None or (wanted is not None and seat not in wanted):
            return
        values = option_values(state, seat)
        if values is None:
            return
        answer = unique_best(state.game, values)
        if answer is None:
            return
        found.append({"step": step, "seat": seat, "answer": answer,
                      "values": [{"action": o, "value": round(v, 4)} for o, v in values],
                      "line": solution_line(state, seat, answer)})

    state_of(record, on_step)
    return found


def shown(state: State) -> dict:
    """What a puzzle's board shows beside the public view and the hands: in Sixty-six each seat's
    card points so far (they decide the deal, and the public view does not sum them)."""
    shown_by = parts.of(state.game).puzzle.shown
    return shown_by(state) if shown_by is not None else {}


def position(record: dict, step: int) -> State:
    """The state before action ``step`` of ``record``."""
    return state_of(dict(record, actions=record.get("actions", [])[:step]))
