"""docs/ARCHITECTURE.md, "Writes go through a service layer": a table, its seats, its match and its
deals are written only by the writers of live games (games/actions/, listed by games/services.py).
Any other module of the site that creates or saves one fails here, with its line."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WRITERS = ROOT / "games" / "actions"
# The sockets' counts (open sockets per seat, spectators): not the game's state, counted under the
# table's lock by the socket layer itself, and never versioned.
SOCKET_COUNTS = ROOT / "games" / "presence.py"
MODELS = r"(?:Table|Seat|Match|Deal)"
WRITE = re.compile(
    rf"\b{MODELS}\.objects\.(?:create|bulk_create|get_or_create|update_or_create|bulk_update)\("
    rf"|\b{MODELS}\.objects\..*\.(?:update|delete)\("
    r"|\b(?:table|seat|match|deal|live\.table|live\.match|live\.deal)\.(?:save|delete)\(")
NOT_THE_SITE = {".venv", "node_modules", "tests", "bench", "migrations", "tools", "static", "staticfiles"}


def site_modules() -> list[Path]:
    return [p for p in ROOT.rglob("*.py") if not NOT_THE_SITE & set(p.relative_to(ROOT).parts)]


def writes_outside_the_writers() -> list[str]:
    found = []
    for path in site_modules():
        if path == SOCKET_COUNTS or WRITERS in path.parents:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if WRITE.search(line.split("#")[0]):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    return found


def test_only_the_writers_write_a_table_its_seats_match_or_deals():
    assert writes_outside_the_writers() == []


def test_the_check_sees_a_write(tmp_path):
    assert WRITE.search('        table.save(update_fields=["duplicate", "private"])')
    assert WRITE.search("    t = Table.objects.create(game=game, owner=bot)")
    assert WRITE.search("Seat.objects.filter(table=t).update(user=None)")
    assert not WRITE.search("    t.save()        # a tournament's row")
    assert site_modules() and all(p.suffix == ".py" for p in site_modules())
