"""Verify deal records from the command line (docs/RECORDS.md).

    python -m games.engine.replay RECORD.json [--trace]

Replays every action through the engine. At the first illegal action: prints the step, the action
and the reason, exits 1. Otherwise prints the computed result as JSON and exits 0 when it equals the
record's result (or the record has none), 1 when it differs. ``-`` reads standard input; a file may
hold one JSON document, a JSON list of records, or records one per line (JSON lines).
"""
from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Iterable, TextIO

from .records import RecordError, parse_records, state_of


def _dump(obj: Any) -> str:
    return json.dumps(obj, separators=(", ", ": "))


def check(record: Any, out: TextIO, trace: bool = False) -> bool:
    """Replay one record, printing the trace and the result; True when it verifies."""

    def print_legal(step: int, state, action: Any) -> None:
        # The acting seat: the action's own in a simultaneous phase, else the seat due to act.
        seat = action.get("seat") if isinstance(action, dict) else None
        if seat not in state.seats_to_act():
            seat = state.to_act()
        legal = state.legal_actions(seat)
        out.write(_dump({"step": step, "seat": seat, "legal": legal}) + "\n")

    try:
        state = state_of(record, print_legal if trace else None)
    except RecordError as exc:
        if exc.step is None:
            out.write(f"invalid record: {exc.reason}\n")
        else:
            out.write(f"illegal action at step {exc.step}: {_dump(exc.action)}: {exc.reason}\n")
        return False
    result = state.result() if state.is_over() else None
    out.write(_dump(result) + "\n")
    stated = record.get("result")
    if result is None:
        out.write(f"the deal is not finished after {len(record.get('actions', []))} actions\n")
        return stated is None
    if stated is not None and stated != result:
        out.write(f"the record's result differs: {_dump(stated)}\n")
        return False
    return True


def read_records(source: str, stdin: TextIO | None, out: TextIO) -> list | None:
    """The records a command was given (a file, JSON lines, or ``-`` for standard input), or
    None once ``out`` says why there are none. Shared by replay, verify and analyse."""
    try:
        if source == "-":
            text = (stdin or sys.stdin).read()
        else:
            with open(source, encoding="utf-8") as fh:
                text = fh.read()
    except (OSError, UnicodeDecodeError) as exc:
        out.write(f"cannot read {source}: {exc}\n")
        return None
    parsed = parse_records(text)
    wrong = next((p for p in parsed if p.error is not None), None)
    if wrong is not None:
        out.write(f"cannot read {source}: line {wrong.line} is not JSON ({wrong.error})\n")
        return None
    records = [p.record for p in parsed]
    if not records:
        out.write("no record given\n")
        return None
    return records


def main(argv: Iterable[str] | None = None, stdin: TextIO | None = None, out: TextIO | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.engine.replay", description=__doc__.split("\n")[0])
    parser.add_argument("record", help="a deal record JSON file, JSON lines, or - for standard input")
    parser.add_argument("--trace", action="store_true", help="print the legal actions before each step")
    args = parser.parse_args(list(argv) if argv is not None else None)
    out = out or sys.stdout
    records = read_records(args.record, stdin, out)
    if records is None:
        return 1
    ok = True
    for record in records:
        ok = check(record, out, args.trace) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:  # the reader (e.g. `| head`) closed early: not an error of the record
        sys.stderr.close()
        sys.exit(0)
