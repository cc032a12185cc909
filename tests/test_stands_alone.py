"""The project stands alone: what it refers to is in the repository, and its map is complete.

A person who clones the repository has only what is in it. So no file may point at a document the
repository lacks (an upper-case Markdown name, or a path to one) or at a directory outside it; the
README's "Architecture map" names every Python module and nothing that is gone; the README's list
of writers names every writer of ``games/services.py``; and the console examples of
docs/RECORDS.md give, when run, exactly the output shown there.
"""
from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"

# Packages whose every module the map names (migrations and package __init__ files aside).
MAPPED = ("config", "accounts", "realtime", "games", "tournaments", "ratings", "botapi", "analysis", "moderation",
          "pool", "bench", "tools", "puzzles", "ops")

MARKDOWN_REF = re.compile(r"(?<![\w./-])((?:[\w.-]+/)*[\w-]+\.md)\b")
UPPER_NAME = re.compile(r"[A-Z][A-Z0-9_]*\.md")
# A path leaving the repository for the sibling directory of documents it was specified from (the
# word is spelt in two halves so that this file does not match itself).
_SIBLING = "sha" + "red"
OUTSIDE_PATH = re.compile(rf"(?:\.\./|/work/){_SIBLING}\b|(?<![\w-]){_SIBLING}/")


def tracked_files() -> list[str]:
    """The repository's files as git knows them; without git, the tree minus what git ignores here."""
    try:
        out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True)
        return [line for line in out.stdout.splitlines() if (ROOT / line).is_file()]
    except (OSError, subprocess.CalledProcessError):
        skip = {".git", ".venv", "node_modules", "__pycache__", "staticfiles"}
        return [str(p.relative_to(ROOT)) for p in ROOT.rglob("*")
                if p.is_file() and not skip & set(p.relative_to(ROOT).parts)]


def text_of(path: str) -> str | None:
    try:
        return (ROOT / path).read_text(encoding="utf-8")
    except UnicodeDecodeError:
        return None                 # compiled translations, images: not prose


def missing_documents(files: list[str]) -> list[str]:
    """``file: reference`` for every Markdown document referred to that the repository lacks."""
    names = {Path(f).name for f in files}
    missing = []
    for path in files:
        text = text_of(path)
        if text is None:
            continue
        for match in MARKDOWN_REF.finditer(text):
            ref = match.group(1)
            if "/" in ref:
                found = (ROOT / ref).is_file() or (ROOT / path).parent.joinpath(ref).is_file()
            elif UPPER_NAME.fullmatch(ref):
                found = ref in names
            else:
                continue            # a lower-case bare name is not a document reference here
            if not found:
                missing.append(f"{path}: {ref}")
    return missing


def test_it_refers_to_no_document_the_repository_lacks():
    assert missing_documents(tracked_files()) == []


def test_it_points_at_no_path_outside_the_repository():
    hits = [f"{path}: {m.group(0)}" for path in tracked_files() if (text := text_of(path)) is not None
            for m in OUTSIDE_PATH.finditer(text)]
    assert hits == []


def test_the_reference_check_would_notice_a_missing_document():
    """The check itself can fail: a file naming a document nobody has is reported."""
    probe = ROOT / "docs" / "_probe_reference.txt"
    probe.write_text("see " + "NOWHERE_TO_BE" + "_FOUND.md and docs/" + "absent.md\n", encoding="utf-8")
    try:
        missing = missing_documents([str(probe.relative_to(ROOT))])
    finally:
        probe.unlink()
    assert len(missing) == 2
    assert OUTSIDE_PATH.search("see ../" + _SIBLING + "/RULES") and not OUTSIDE_PATH.search(_SIBLING + " cache")


# --- the README's map -------------------------------------------------------------------------------
def map_block() -> list[str]:
    text = README.read_text(encoding="utf-8")
    section = text[text.index("## Architecture map"):]
    start = section.index("```\n") + 4
    return section[start:section.index("```\n", start)].splitlines()


def named_modules(lines: list[str]) -> set[str]:
    """The module paths the map names. A line at column 0 starting ``name/`` opens a package; one
    indented by two spaces starting ``sub/`` opens its subpackage, any other two-space line goes
    back to the package; deeper lines continue where they are. A name with a slash that starts
    with a mapped package is a path from the root, else from the current (sub)package."""
    package = sub = ""
    named = set()
    for line in lines:
        indent = len(line) - len(line.lstrip(" "))
        first = line.split()[0] if line.strip() else ""
        if indent == 0 and first.endswith("/"):
            package, sub = first, ""
        elif indent == 2:
            sub = first if first.endswith("/") else ""
        for name in re.findall(r"(?<![\w/])[\w/]+\.py\b", line):
            if "/" in name and name.split("/")[0] in MAPPED:
                named.add(name)
            else:
                named.add(package + sub + name)
    return named


def project_modules() -> set[str]:
    return {f for f in tracked_files()
            if f.endswith(".py") and f.split("/")[0] in MAPPED
            and "migrations" not in f.split("/") and not f.endswith("__init__.py")}


def test_the_readme_map_names_every_module():
    missing = sorted(project_modules() - named_modules(map_block()))
    assert missing == [], "add them to the README's Architecture map"


def test_the_readme_map_names_no_module_that_is_gone():
    gone = sorted(m for m in named_modules(map_block()) if not (ROOT / m).is_file())
    assert gone == []


def test_the_map_reading_attributes_names_to_their_packages():
    lines = ["games/", "  engine/      core.py,", "               fair.py", "  clocks.py    x",
             "               tokens in accounts/tokens.py", "bench/         live.py"]
    assert named_modules(lines) == {"games/engine/core.py", "games/engine/fair.py", "games/clocks.py",
                                    "accounts/tokens.py", "bench/live.py"}


def test_the_readme_names_every_writer_of_live_games():
    tree = ast.parse((ROOT / "games" / "services.py").read_text(encoding="utf-8"))
    exported = next(ast.literal_eval(node.value) for node in tree.body if isinstance(node, ast.Assign)
                    and any(getattr(t, "id", None) == "__all__" for t in node.targets))
    writers = set(exported) - {"ServiceError", "final_ranks"}       # an error class, a pure helper
    row = next(line for line in README.read_text(encoding="utf-8").splitlines()
               if line.startswith("| who writes a move?"))
    assert sorted(w for w in writers if f"`{w}`" not in row) == []
    # The longer list under the map names them too, and no writer that is gone.
    text = README.read_text(encoding="utf-8")
    bullet = text[text.index("- **Who writes a move**"):text.index("- **What a client receives**")]
    assert sorted(w for w in writers if f"`{w}`" not in bullet and f"games.services.{w}`" not in bullet) == []
    named = set(re.findall(r"`(?:games\.services\.)?([a-z_]+)`", bullet))
    functions = {node.name for path in (ROOT / "games" / "actions").glob("*.py")
                 for node in ast.parse(path.read_text(encoding="utf-8")).body if isinstance(node, ast.FunctionDef)}
    assert sorted(n for n in named if n not in functions and n.isidentifier() and "_" in n
                  and n not in {"advance_table", "select_for_update"}) == []


# --- docs/RECORDS.md's console examples ------------------------------------------------------------
def console_examples() -> list[tuple[str, str]]:
    """(command, expected output) for every ``$ `` line of the page's console blocks."""
    text = (ROOT / "docs" / "RECORDS.md").read_text(encoding="utf-8")
    examples = []
    for block in re.findall(r"```console\n(.*?)```", text, flags=re.S):
        for chunk in block.split("$ ")[1:]:
            command, _, output = chunk.partition("\n")
            examples.append((command, output))
    return examples


def test_records_md_shows_runnable_examples():
    assert len(console_examples()) >= 8


def test_records_md_console_examples_print_what_the_page_shows(tmp_path):
    """Each block's commands run in one shell (so ``echo $?`` sees the command before it), from the
    repository's root, with ``python`` being this interpreter."""
    (tmp_path / "python").symlink_to(sys.executable)
    env = dict(os.environ, PATH=f"{tmp_path}{os.pathsep}{os.environ.get('PATH', '')}")
    script, expected = [], []
    for i, (command, output) in enumerate(console_examples()):
        # A marker after each command, keeping its exit status for the next one to see.
        script += [command, f"status=$?; echo '@@{i}'; (exit $status)"]
        expected.append(f"{output}@@{i}\n")
    ran = subprocess.run(["bash", "-c", "\n".join(script)], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=120)
    assert ran.stderr == ""
    assert ran.stdout == "".join(expected)


@pytest.mark.parametrize("name", ["santase-example.json", "fair-example.json"])
def test_the_example_records_are_the_ones_the_docs_describe(name):
    """docs/RULES.md walks the Santase deal through; docs/FAIRNESS.md's known answer is the other."""
    from games.engine import fair, records
    from games.engine.core import get_rules
    import json

    record = json.loads((ROOT / "docs" / "examples" / name).read_text(encoding="utf-8"))
    if name.startswith("santase"):
        verdict = records.verify(record)
        assert verdict.finished and verdict.matches
        assert verdict.result == {"points": [28, 74], "game_points": [0, 2], "ended_by": "declare"}
    else:
        assert fair.check_record(record, get_rules)["trump_card"] == "9C"
