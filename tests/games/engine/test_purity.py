"""The engine is pure: importing it pulls in no Django, Channels or Celery (docs/ARCHITECTURE.md)."""
import ast
import pathlib
import subprocess
import sys

ENGINE = pathlib.Path(__file__).resolve().parents[3] / "games" / "engine"
FRAMEWORKS = ("django", "channels", "celery", "daphne", "redis")


def test_it_imports_no_framework_when_loaded_alone():
    code = (
        "import sys\n"
        "import games.engine.records, games.engine.replay\n"
        "from games.engine.core import get_rules, GAME_NAMES\n"
        "[get_rules(g) for g in GAME_NAMES]\n"
        f"bad = sorted(m for m in sys.modules if m.split('.')[0] in {FRAMEWORKS!r})\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ENGINE.parents[1], capture_output=True,
                         text=True, check=True)
    assert out.stdout.strip() == ""


def test_it_names_no_framework_in_any_import_statement():
    for path in ENGINE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            for name in names:
                assert name.split(".")[0] not in FRAMEWORKS, f"{path.name} imports {name}"
