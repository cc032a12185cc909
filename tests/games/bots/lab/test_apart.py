"""The bot tooling (games/bots/lab/) stands apart from the levels players meet: no module of the
site imports it, so the measuring tools can change without touching what a table runs."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[4]
LAB = "games.bots.lab"
OUTSIDE = ("tests", "bench", "tools", "node_modules", ".venv")


def _imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found |= {node.module} | {f"{node.module}.{a.name}" for a in node.names}
    return found


def _site_modules() -> list[Path]:
    return [p for p in ROOT.rglob("*.py")
            if p.relative_to(ROOT).parts[0] not in OUTSIDE
            and not str(p.relative_to(ROOT)).startswith("games/bots/lab/")]


def test_no_module_of_the_site_imports_the_bot_tooling():
    users = [str(p.relative_to(ROOT)) for p in _site_modules()
             if any(name == LAB or name.startswith(LAB + ".") for name in _imports(p))]
    assert users == []


def test_it_reads_the_site_modules_and_sees_an_import_of_the_tooling(tmp_path):
    names = {str(p.relative_to(ROOT)) for p in _site_modules()}
    assert {"games/bots/levels.py", "botapi/views.py"} <= names
    probe = tmp_path / "probe.py"
    probe.write_text("from games.bots.lab import duel\nimport games.bots.lab.ladder\n")
    assert {"games.bots.lab.duel", "games.bots.lab.ladder"} <= _imports(probe)
