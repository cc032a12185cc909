"""A Django shell that stays up, for the tests that run code against a server's database.

``manage.py shell -c CODE`` costs about 2 s of CPU each time (Python, Django and every app imported
anew), and the end-to-end tests ran it a couple of hundred times per suite, polling included. This
process sets Django up once, with the environment it is started in, then forks a child for each
block of code: every block runs in a fresh copy of the warmed-up process, so nothing one block
changes (a monkeypatch, a table kept in memory, an open transaction) reaches the next, as with a
new ``manage.py shell``.

    shell = Shell(env)            # the environment manage.py would have been run in
    last_line = shell.run(code, {"EXTRA": "value"})
    shell.close()

The extra environment of a block is for the code to read: the settings were read once, at the start.
The protocol on the server's stdin/stdout: one JSON line a request (``code``, ``env``), one JSON line
a reply (``rc``, ``out``, ``err``).
"""
from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
import tempfile
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Imported before the first fork so that no block pays for them (what the blocks import most).
WARM = ("games.services", "games.loading", "games.models", "accounts.models", "tournaments.services",
        "ratings.services", "analysis.services", "botapi.services", "moderation.services",
        "tests.ratings.factories", "tests.browser.scenarios", "django.test")


class ShellError(RuntimeError):
    pass


class Shell:
    """The test's side: a server process started in ``env``; ``run`` returns a block's output's
    last line, as ``manage.py shell -c`` printed it ("" when it printed nothing), and raises with
    its traceback when it fails."""

    def __init__(self, env: dict, python: str | os.PathLike = sys.executable):
        self.proc = subprocess.Popen([str(python), "-m", "tests.forking_shell"], cwd=ROOT, env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def run(self, code: str, extra_env: dict | None = None) -> str:
        if self.proc.poll() is not None:
            raise ShellError(f"the shell server has exited ({self.proc.returncode})")
        self.proc.stdin.write(json.dumps({"code": code, "env": extra_env or {}}) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise ShellError(f"the shell server died ({self.proc.wait()})")
        reply = json.loads(line)
        if reply["rc"] != 0:
            raise ShellError(f"the code failed ({reply['rc']}):\n{code}\n{reply['err']}")
        lines = reply["out"].strip().splitlines()
        return lines[-1] if lines else ""

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.stdin.close()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()


# --- the server --------------------------------------------------------------------------------
def _child(code: str, env: dict, out_path: str, err_path: str, namespace: dict) -> None:
    """In the forked child: the block, with its output in the two files; never returns."""
    rc = 0
    try:
        os.environ.update(env)
        for fd, path in ((1, out_path), (2, err_path)):
            target = os.open(path, os.O_WRONLY | os.O_TRUNC)
            os.dup2(target, fd)
            os.close(target)
        exec(compile(code, "<shell>", "exec"), dict(namespace))
    except SystemExit as exc:
        rc = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except BaseException:                    # noqa: BLE001 - reported to the test, whatever it is
        traceback.print_exc()
        rc = 1
    finally:
        try:
            from django.db import connections
            connections.close_all()
        except Exception:                    # noqa: BLE001
            pass
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(rc)


def _serve_one(request: dict, protocol, namespace: dict) -> None:
    with tempfile.NamedTemporaryFile("r", suffix=".out") as out, tempfile.NamedTemporaryFile("r", suffix=".err") as err:
        sys.stdout.flush()
        pid = os.fork()
        if pid == 0:
            _child(request["code"], request.get("env") or {}, out.name, err.name, namespace)
        _pid, status = os.waitpid(pid, 0)
        rc = os.waitstatus_to_exitcode(status)
        protocol.write(json.dumps({"rc": rc, "out": out.read(), "err": err.read()}) + "\n")
        protocol.flush()


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    for name in WARM:
        importlib.import_module(name)
    from django.core.management.commands.shell import Command
    from django.db import connections

    namespace = Command().get_namespace()   # the models `manage.py shell` imports by itself
    connections.close_all()                 # a child must not share a connection with another
    protocol = os.fdopen(os.dup(1), "w")   # the replies; a child's prints go to its own files
    while line := sys.stdin.readline():
        _serve_one(json.loads(line), protocol, namespace)


if __name__ == "__main__":
    main()
