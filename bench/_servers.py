"""Server processes for bench/live.py: environments, start/stop, readiness and CPU accounting.

Everything listens on 127.0.0.1 only. Processes are started in their own session and stopped by
their own pid (their children with them), never by name.
"""
from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV_BIN = ROOT / ".venv" / "bin"
PYTHON = str(VENV_BIN / "python") if (VENV_BIN / "python").exists() else sys.executable
CLK_TCK = os.sysconf("SC_CLK_TCK")

PG_URL_BASE = "postgres://postgres@127.0.0.1:5432"
# Our own database and Redis DB number (Celery broker keys; tests use none); two benches run at
# once on one machine each name their own.
PG_DB = os.environ.get("BENCH_PG_DB", "bench_live")
REDIS_DB = int(os.environ.get("BENCH_REDIS_DB", "9"))


def base_env(workdir: Path, *, bot_delay_ms: int, deal_pause_ms: int) -> dict:
    env = {k: v for k, v in os.environ.items()
           if k not in ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL", "DJANGO_SETTINGS_MODULE",
                        "EMBEDDED_WORKER", "SQLITE_PATH")}
    env.update({
        "DJANGO_SETTINGS_MODULE": "config.settings",
        # The site's default in both modes. DEBUG on logs every query with its parameters quoted
        # into the SQL (a deal record, each move): not what a site serves with.
        "DEBUG": os.environ.get("BENCH_DEBUG", "0"),
        "LOG_LEVEL": "WARNING",
        "BOT_DELAY_MS": str(bot_delay_ms),
        "DEAL_PAUSE_MS": str(deal_pause_ms),
        "PYTHONUNBUFFERED": "1",
        "PYTHONPATH": str(ROOT),
        # The house's own tables (games/showcase.py) are bots at full speed when the bot delay is
        # 0: load the bench does not drive or measure. On only when asked for.
        "SHOWCASE": os.environ.get("SHOWCASE", "0"),
        # Every simulated player connects from 127.0.0.1.
        "SOCKET_PER_ADDRESS": "0",
    })
    return env


def embedded_env(workdir: Path, **kw) -> dict:
    env = base_env(workdir, **kw)
    env["SQLITE_PATH"] = str(workdir / "bench.sqlite3")
    return env


def scaled_env(workdir: Path, **kw) -> dict:
    env = base_env(workdir, **kw)
    env["DATABASE_URL"] = f"{PG_URL_BASE}/{PG_DB}"
    env["REDIS_URL"] = f"redis://127.0.0.1:6379/{REDIS_DB}"
    # Scaled mode is how production runs: a secret and the hosts are required.
    env.update({"SECRET_KEY": "bench-only-not-secret-" + "x" * 40,
                "ALLOWED_HOSTS": "127.0.0.1,localhost", "SESSION_COOKIE_SECURE": "0",
                "CSRF_COOKIE_SECURE": "0"})
    return env


def reset_postgres() -> None:
    """Drop and recreate the bench database (only ours: bench_live)."""
    import psycopg  # from the project venv

    with psycopg.connect(f"{PG_URL_BASE}/postgres", autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {PG_DB} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {PG_DB}")


def reset_redis() -> None:
    import redis

    redis.Redis(host="127.0.0.1", port=6379, db=REDIS_DB).flushdb()


def append_json(path: str | None, row: dict) -> None:
    """Add a result row to a JSON-lines file (bench/matrix.py reads them)."""
    if path:
        with open(path, "a") as fh:
            fh.write(json.dumps(row) + "\n")


def run_checked(args: list[str], env: dict, log: Path, timeout: float = 600) -> str:
    with open(log, "ab") as err:
        out = subprocess.run(args, env=env, cwd=ROOT, stdout=subprocess.PIPE, stderr=err,
                             timeout=timeout)
    if out.returncode != 0:
        raise SystemExit(f"{' '.join(args[:3])}... failed ({out.returncode}); see {log}")
    return out.stdout.decode()


class Proc:
    def __init__(self, name: str, args: list[str], env: dict, log: Path):
        self.name = name
        self.log = log
        self.fh = open(log, "ab")
        self.p = subprocess.Popen(args, env=env, cwd=ROOT, stdout=self.fh, stderr=subprocess.STDOUT,
                                  start_new_session=True)

    @property
    def pid(self) -> int:
        return self.p.pid

    def alive(self) -> bool:
        return self.p.poll() is None

    def stop(self, timeout: float = 10) -> None:
        if self.p.poll() is None:
            try:
                os.killpg(self.p.pid, signal.SIGTERM)   # its own session: it and its children only
            except ProcessLookupError:
                pass
            try:
                self.p.wait(timeout)
            except subprocess.TimeoutExpired:
                try:
                    os.killpg(self.p.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                self.p.wait(5)
        self.fh.close()


# The site's socket frame limit (SOCKET_FRAME_BYTES, as the Procfile's uvicorn has it).
DAPHNE_FRAME_LIMIT = ("--websocket-max-message-size", "65536", "--websocket-max-frame-size", "65536")
# The server's half of the heartbeat (SOCKET_PING_SECONDS, SOCKET_PING_TIMEOUT_SECONDS), as the
# Procfile's uvicorn has it.
DAPHNE_PINGS = ("--ping-interval", "5", "--ping-timeout", "4")
SITE_APP = "config.asgi:application"
ECHO_APP = "bench.echo_asgi:application"     # the bare floor (bench/echo_asgi.py)


def daphne(port: int, env: dict, log: Path, app: str = SITE_APP) -> Proc:
    return Proc(f"daphne:{port}", [str(VENV_BIN / "daphne"), "-b", "127.0.0.1", "-p", str(port),
                                   *DAPHNE_FRAME_LIMIT, *DAPHNE_PINGS, app], env, log)


def uvicorn(port: int, env: dict, log: Path, app: str = SITE_APP) -> Proc:
    """The same application under uvicorn as the Procfile runs it (uvloop, httptools)."""
    return Proc(f"uvicorn:{port}", procfile_web("web1", port, app), env, log)


def procfile_web(name: str, port: int, app: str = SITE_APP) -> list[str]:
    """The Procfile's command for web process ``name``, on 127.0.0.1:``port`` and serving
    ``app``: what the bench and tests/scaled run is what a deployment runs."""
    words = procfile_words(name)
    out, skip = [], False
    for word in words:
        if skip:
            skip = False
            continue
        if word in ("--host", "--port", "-b", "-p"):
            skip = True
            continue
        out.append(app if word == SITE_APP else word)
    server = out[0]
    host, port_flag = ("-b", "-p") if server == "daphne" else ("--host", "--port")
    return [str(VENV_BIN / server), host, "127.0.0.1", port_flag, str(port), *out[1:]]


def procfile_words(name: str) -> list[str]:
    """The words of the Procfile's command for process ``name``."""
    for line in (ROOT / "Procfile").read_text().splitlines():
        if line.startswith(f"{name}:"):
            return line.split(":", 1)[1].split()
    raise LookupError(f"the Procfile has no {name}")


def web_server(kind: str, port: int, env: dict, log: Path, app: str = SITE_APP) -> Proc:
    return {"daphne": daphne, "uvicorn": uvicorn}[kind](port, env, log, app)


def celery_worker(env: dict, log: Path, concurrency: int = 4) -> Proc:
    # -B: the sweeper (beat) runs with the worker, as a deployment would run beat somewhere.
    # -Q celery as the Procfile's worker: the analyses' queue is analysis_worker's.
    return Proc("celery", [str(VENV_BIN / "celery"), "-A", "config", "worker", "-B", "-l", "WARNING",
                           "-c", str(concurrency), "-Q", "celery", "--without-gossip", "--without-mingle",
                           "-s", str(log.parent / "celerybeat-schedule")], env, log)


def analysis_worker(env: dict, log: Path) -> Proc:
    """The Procfile's ``analysis`` worker (post-match analyses, niced, one process), as it is
    there but for its log level."""
    words = procfile_words("analysis")
    words = [str(VENV_BIN / "celery") if w == "celery" else w for w in words]
    i = words.index("-l")
    words[i + 1] = "WARNING"
    return Proc("analysis", words, env, log)


def wait_port(port: int, proc: Proc, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not proc.alive():
            raise SystemExit(f"{proc.name} exited early; see {proc.log}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"{proc.name} did not listen on {port} within {timeout}s; see {proc.log}")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# --- CPU from /proc ------------------------------------------------------------------------------
def _stat(pid: int) -> tuple[int, float] | None:
    """(ppid, user+system CPU seconds) of one process."""
    try:
        raw = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = raw[raw.rindex(")") + 2:].split()
    return int(fields[1]), (int(fields[11]) + int(fields[12])) / CLK_TCK


def _comm(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return ""


def tree_cpu(root: int) -> float:
    """CPU seconds of a process and all its live descendants."""
    stats = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            s = _stat(int(d))
            if s:
                stats[int(d)] = s
    total, todo, seen = 0.0, [root], set()
    while todo:
        pid = todo.pop()
        if pid in seen or pid not in stats:
            continue
        seen.add(pid)
        total += stats[pid][1]
        todo.extend(p for p, (pp, _c) in stats.items() if pp == pid)
    return total


def named_cpu(names: tuple[str, ...]) -> dict[int, float]:
    """CPU seconds per pid of every process whose command name starts with one of ``names``
    (read only: PostgreSQL and Redis are shared services, we only look at them)."""
    out = {}
    for d in os.listdir("/proc"):
        if d.isdigit() and _comm(int(d)).startswith(names):
            s = _stat(int(d))
            if s:
                out[int(d)] = s[1]
    return out


def cpu_sample(procs: dict[str, int]) -> dict:
    out = {name: tree_cpu(pid) for name, pid in procs.items()}
    out["postgres+redis"] = named_cpu(("postgres", "redis-server"))
    out["loadgen"] = sum(os.times()[:2])
    out["machine idle"] = _machine_ticks("idle")
    out["iowait"] = _machine_ticks("iowait")     # idle, but with a process waiting on the disk
    out["steal"] = _machine_ticks("steal")   # taken by the hypervisor: a noisy neighbour
    return out


def _machine_ticks(column: str) -> float:
    """Seconds of all CPUs spent in one /proc/stat column (user nice system idle iowait irq
    softirq steal)."""
    with open("/proc/stat") as fh:
        fields = fh.readline().split()[1:]
    names = ("user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal")
    return int(fields[names.index(column)]) / CLK_TCK


def cpu_delta(a: dict, b: dict) -> dict[str, float]:
    """CPU seconds used between two samples (per-pid for the services: backends come and go)."""
    out = {}
    for k, v in b.items():
        if isinstance(v, dict):
            out[k] = sum(c - a[k].get(pid, 0.0) for pid, c in v.items())
        else:
            out[k] = v - a[k]
    return out


def dump(obj) -> str:
    return json.dumps(obj, separators=(",", ":"))
