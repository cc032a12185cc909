"""Post-match analysis: the strong bot's verdict on every decision of a deal record (docs/ANALYSIS.md).

    python -m games.bots.analyse RECORD [--seat N] [--iterations N] [--seed S] [--json]

Each decision is rebuilt by replaying the record through the engine and judged from the deciding
seat's own view at that moment (``State.view(seat)``, never the hidden cards): every legal option
is searched by ``strong.evaluate`` with more draws than live play makes, the option with the best
mean is the best move, and the played option's shortfall from it (in deal points of that seat) is
labelled by the game's thresholds. Forced moves (one legal option) and the hearts moon choice are
not decisions here (see docs/ANALYSIS.md). Deterministic given ``--seed``.

Exit codes as ``games.engine.replay``: 0 analysed, 1 a record that cannot be read or replayed,
2 wrong arguments.
"""
from __future__ import annotations

import argparse
import itertools
import json
import random
import sys
import time
from typing import Any, Callable, Iterable, TextIO

from games.engine import cards as C
from games.engine.records import RecordError, state_of
from games.engine.replay import read_records

from . import hearts_basic, parts, strong

FORMAT = "analysis/1"
LABELS = ("inaccuracy", "mistake", "blunder")
PLURALS = {"inaccuracy": "inaccuracies", "mistake": "mistakes", "blunder": "blunders"}
# Draws per decision: twice the most live play ever makes (strong.MAX_ITERATIONS, reached only on
# easy positions within its 200 ms; hard ones get 15-150 there) - bench/analysis.py for the cost.
ITERATIONS = 2 * strong.MAX_ITERATIONS
BATCH = 16                   # draws between two calls of ``pause`` (a worker yields there)
PASS_POOL = 6                # hearts: passes searched are the triples of this many riskiest cards


def thresholds(game: str) -> tuple[float, float, float]:
    """The loss (deal points of the deciding seat, in the units strong.py scores a deal: its game's
    ``parts.BotParts.loss_unit``) from which a decision is an inaccuracy, a mistake, a blunder."""
    return parts.of(game).loss_labels


def label_of(game: str, loss: float) -> str | None:
    label = None
    for name, threshold in zip(LABELS, thresholds(game)):
        if loss >= threshold - 1e-9:
            label = name
    return label


def pass_candidates(view: dict, played: list[str] | None = None) -> list[dict]:
    """Hearts passes worth searching: every triple of the riskiest cards by basic's rule, plus the
    pass actually made (the search of all 286 triples would cost 14 times more)."""
    hand = [C.INDEX[c] for c in view["legal"][0]["cards"]]
    first = hearts_basic.hearts_pass(view, hand)
    rest = [c for c in hand if C.CODES[c] not in first]
    pool = first + hearts_basic.hearts_pass(view, rest) if len(rest) >= 3 else first
    pool = pool[:PASS_POOL]
    triples = [sorted(t, key=C.INDEX.__getitem__) for t in itertools.combinations(pool, 3)]
    if played is not None:
        mine = sorted(played, key=C.INDEX.__getitem__)
        if mine not in triples:
            triples.append(mine)
    seat = view["seat"]
    return [{"seat": seat, "type": "pass", "cards": t} for t in triples]


def _acting_seat(state, action) -> int | None:
    seat = action.get("seat") if isinstance(action, dict) else None
    if seat not in state.seats_to_act():
        seat = state.to_act()
    return seat


def decisions_of(record: dict, seats: Iterable[int] | None = None,
                 skip: Callable[[int, int], bool] | None = None) -> list[dict]:
    """The decisions worth judging: ``{"step", "seat", "view", "played", "options"}`` for each
    action of a seat in ``seats`` (None: all) with a real choice, unless ``skip(step, seat)``.
    The view is the seat's own; the state itself goes nowhere."""
    wanted = None if seats is None else set(seats)
    found = []

    def on_step(step, state, action):
        seat = _acting_seat(state, action)
        if seat is None or (wanted is not None and seat not in wanted) or (skip and skip(step, seat)):
            return
        view = state.view(seat)
        legal = view.get("legal") or []
        if not legal or legal[0]["type"] == "moon":
            return
        if legal[0]["type"] == "pass":
            options = pass_candidates(view, action.get("cards"))
        elif len(legal) < 2:
            return
        else:
            options = legal
        moves = [state.move_of(o) for o in options]
        played = state.move_of(action)
        if played not in moves:        # cannot happen for a legal action; keep the record honest
            raise RecordError("the action is not among the legal options", step, action)
        found.append({"step": step, "seat": seat, "view": view, "options": [dict(o) for o in options],
                      "played_index": moves.index(played), "played": action})

    state_of(record, on_step)
    return found


def judge(game: str, decision: dict, evaluations: list[dict]) -> dict:
    """One decision's verdict from its options' evaluations."""
    means = [e["mean"] for e in evaluations]
    best = max(range(len(means)), key=lambda j: (means[j], -j))
    played = decision["played_index"]
    loss = max(0.0, means[best] - means[played])
    return {"step": decision["step"], "seat": decision["seat"], "played": decision["played"],
            "options": [{"action": e["action"], "mean": round(e["mean"], 4), "samples": e["samples"]}
                        for e in evaluations],
            "best": best, "played_index": played, "loss": round(loss, 4), "label": label_of(game, loss)}


def evaluate_decision(decision: dict, iterations: int, seed: str,
                      pause: Callable[[], None] | None = None, evaluate: Callable | None = None) -> list[dict]:
    """``strong.evaluate`` (or ``evaluate``, which takes the same arguments: the site's runs it in
    its bot processes, games/thinking.py) in batches of BATCH draws, each with its own seeded rng
    (so the result does not depend on when ``pause`` let other work run, nor where it ran)."""
    evaluate = evaluate or strong.evaluate
    totals = [0.0] * len(decision["options"])
    done = 0
    samples = 0
    batch_no = 0
    while done < iterations:
        if pause is not None:
            pause()
        n = min(BATCH, iterations - done)
        rng = random.Random(f"{seed}/{batch_no}")
        evaluations = evaluate(decision["view"], rng, iterations=n, actions=decision["options"])
        for j, e in enumerate(evaluations):
            totals[j] += e["mean"] * e["samples"]
        # A sixty-six endgame the search solves exactly takes one draw per hand the opponent may
        # hold, whatever was asked: weigh by the draws made.
        samples += evaluations[0]["samples"] if evaluations else n
        done += n
        batch_no += 1
        if evaluations and evaluations[0]["samples"] != n:
            break           # solved exactly: another batch would give the same
    return [{"action": o, "mean": t / samples if samples else 0.0, "samples": samples}
            for o, t in zip(decision["options"], totals)]


def summarise(game: str, verdicts: list[dict]) -> list[dict]:
    """Per seat: decisions judged, average loss per decision, and how many of each label."""
    out = []
    for seat in sorted({v["seat"] for v in verdicts}):
        mine = [v for v in verdicts if v["seat"] == seat]
        row = {"seat": seat, "decisions": len(mine),
               "average_loss": round(sum(v["loss"] for v in mine) / len(mine), 4),
               "total_loss": round(sum(v["loss"] for v in mine), 4)}
        for name in LABELS:
            row[PLURALS[name]] = sum(1 for v in mine if v["label"] == name)
        out.append(row)
    return out


def plan(records: list[dict], seats_of: Callable[[int, dict], Iterable[int] | None] = lambda i, r: None,
         skip_of: Callable[[int, dict], Callable[[int, int], bool] | None] = lambda i, r: None
         ) -> list[list[dict]]:
    """The decisions of each record (what the progress counts)."""
    return [decisions_of(r, seats_of(i, r), skip_of(i, r)) for i, r in enumerate(records)]


def analyse(records: list[dict], planned: list[list[dict]] | None = None, *, seats=None,
            iterations: int | None = None, seed: Any = 0,
            pause: Callable[[], None] | None = None,
            progress: Callable[[int, int], None] | None = None,
            evaluate: Callable | None = None, cpu_clock: Callable[[], float] = time.thread_time) -> dict:
    """Judge every decision of ``records`` (the deals of one game); the result is JSON-ready.
    ``evaluate``: see ``evaluate_decision``; ``cpu_clock``: the CPU seconds the searches used so
    far (by default this thread's)."""
    if not records:
        raise ValueError("no record to analyse")
    game = records[0].get("game")
    if planned is None:
        planned = plan(records, lambda i, r: seats)
    n = iterations or ITERATIONS
    total = sum(len(p) for p in planned)
    done = 0
    cpu = 0.0
    deals = []
    all_verdicts = []
    if progress:
        progress(0, total)
    for record, decisions in zip(records, planned):
        verdicts = []
        deal_cpu = cpu_clock()
        for d in decisions:
            evaluations = evaluate_decision(d, n, f"{seed}/{record.get('deal_number', 0)}/{d['step']}", pause,
                                            evaluate)
            verdicts.append(judge(game, d, evaluations))
            done += 1
            if progress:
                progress(done, total)
        deal_cpu = cpu_clock() - deal_cpu
        cpu += deal_cpu
        all_verdicts += verdicts
        deals.append({"deal_number": record.get("deal_number", 0), "players": record.get("players"),
                      "decisions": verdicts, "summary": summarise(game, verdicts),
                      "cpu_seconds": round(deal_cpu, 3)})
    return {"format": FORMAT, "game": game, "variant": records[0].get("variant"), "iterations": n,
            "seed": str(seed), "unit": parts.of(game).loss_unit, "thresholds": dict(zip(LABELS, thresholds(game))),
            "deals": deals, "summary": summarise(game, all_verdicts), "cpu_seconds": round(cpu, 3)}


# --- the command line ---------------------------------------------------------------------------
def _act(action: dict) -> str:
    kind = action.get("type")
    if kind == "play":
        extra = " +marriage" if action.get("marriage") else ""
        return action["card"] + extra + (" +66" if action.get("declare") else "")
    if kind == "pass":
        return "pass " + " ".join(action["cards"])
    if kind == "bid":
        return f"bid {action['tricks']}"
    if kind == "blind_nil":
        return "blind nil" if action.get("accept") else "no blind nil"
    if kind == "declare":
        return "claim 66"
    return str(kind)


def write_table(result: dict, out: TextIO) -> None:
    out.write(f"{result['game']} {result['variant']}: {result['iterations']} draws per decision, "
              f"loss in {result['unit']} (inaccuracy/mistake/blunder from "
              f"{'/'.join(str(v) for v in result['thresholds'].values())})\n")
    for deal in result["deals"]:
        players = deal["players"] or []
        out.write(f"\ndeal {deal['deal_number'] + 1}\n")
        for v in deal["decisions"]:
            name = players[v["seat"]] if v["seat"] < len(players) else str(v["seat"])
            tag = f"  {v['label'].upper()}" if v["label"] else ""
            best = v["options"][v["best"]]
            out.write(f"  step {v['step']:>3} seat {v['seat']} ({name}): played {_act(v['played'])}, "
                      f"best {_act(best['action'])}, loss {v['loss']:.2f}{tag}\n")
            order = sorted(range(len(v["options"])), key=lambda j: -v["options"][j]["mean"])
            for j in order:
                mark = ("*" if j == v["best"] else " ") + (">" if j == v["played_index"] else " ")
                out.write(f"      {mark} {_act(v['options'][j]['action']):<24} {v['options'][j]['mean']:+.3f}\n")
        for row in deal["summary"]:
            out.write(_summary_line(row, players))
    out.write("\nmatch\n")
    players = result["deals"][0]["players"] if result["deals"] else []
    for row in result["summary"]:
        out.write(_summary_line(row, players or []))
    out.write(f"cpu seconds: {result['cpu_seconds']}\n")


def _summary_line(row: dict, players: list[str]) -> str:
    name = players[row["seat"]] if row["seat"] < len(players) else str(row["seat"])
    return (f"  seat {row['seat']} ({name}): {row['decisions']} decisions, average loss "
            f"{row['average_loss']:.3f}, {row['inaccuracies']} inaccuracies, {row['mistakes']} mistakes, "
            f"{row['blunders']} blunders\n")


def main(argv: Iterable[str] | None = None, stdin: TextIO | None = None, out: TextIO | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.bots.analyse", description=__doc__.split("\n")[0])
    parser.add_argument("record", help="a deal record JSON file, JSON lines (one match), or - for standard input")
    parser.add_argument("--seat", type=int, action="append", help="analyse only this seat (repeatable)")
    parser.add_argument("--iterations", type=int, help="draws per decision (default: per game)")
    parser.add_argument("--seed", default="0", help="the search's seed (same seed, same verdicts)")
    parser.add_argument("--json", action="store_true", help="print the analysis as JSON")
    args = parser.parse_args(list(argv) if argv is not None else None)
    out = out or sys.stdout
    if args.iterations is not None and args.iterations < 1:
        parser.error("--iterations must be at least 1")
    records = read_records(args.record, stdin, out)
    if records is None:
        return 1
    if len({r.get("game") if isinstance(r, dict) else None for r in records}) != 1:
        out.write("the records are not all of one game\n")
        return 1
    try:
        planned = plan(records, lambda i, r: args.seat)
    except RecordError as exc:
        where = "invalid record" if exc.step is None else f"illegal action at step {exc.step}"
        out.write(f"{where}: {exc.reason}\n")
        return 1
    result = analyse(records, planned, iterations=args.iterations, seed=args.seed)
    if args.json:
        out.write(json.dumps(result) + "\n")
    else:
        write_table(result, out)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:
        sys.stderr.close()
        sys.exit(0)
