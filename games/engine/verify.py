"""Verify that deal records were dealt from their committed seeds (docs/FAIRNESS.md).

    python -m games.engine.verify RECORD.json

For each record: the revealed server seed must hash to the commitment, and the record's hands
(and Sixty-six's stock and trump card) must be the deck the seeds derive, dealt by the rules.
Prints one line per record ("verified" or "not verified: <why>"); exits 0 when every record
verifies, 1 otherwise (or when the input cannot be read). ``-`` reads standard input; a file may
hold one JSON document or several records one per line (JSON lines), as for games.engine.replay.
"""
from __future__ import annotations

import argparse
import sys
from typing import Any, Iterable, TextIO

from .core import get_rules
from .fair import NotVerified, check_record
from .replay import read_records


def _name(record: Any, index: int) -> str:
    if isinstance(record, dict):
        return f"{record.get('game')} deal {record.get('deal_number', 0)}"
    return f"record {index + 1}"


def check(record: Any, index: int, out: TextIO) -> bool:
    try:
        check_record(record, get_rules)
    except NotVerified as exc:
        out.write(f"{_name(record, index)}: not verified: {exc}\n")
        return False
    fair = record["fair"]
    out.write(f"{_name(record, index)}: verified ({fair['label']}, commitment {fair['commitment']})\n")
    return True


def main(argv: Iterable[str] | None = None, stdin: TextIO | None = None, out: TextIO | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.engine.verify", description=__doc__.split("\n")[0])
    parser.add_argument("record", help="a deal record JSON file, JSON lines, or - for standard input")
    args = parser.parse_args(list(argv) if argv is not None else None)
    out = out or sys.stdout
    records = read_records(args.record, stdin, out)
    if records is None:
        return 1
    results = [check(record, i, out) for i, record in enumerate(records)]
    return 0 if all(results) else 1


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:
        sys.stderr.close()
        sys.exit(0)
