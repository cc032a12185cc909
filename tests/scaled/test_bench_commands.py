"""The scaled-mode benches docs/SCALING.md tells people to run, each with its smallest run, as a user
types it: each starts and stops its own servers on PostgreSQL and Redis (which is why they live
here, on the worker that also stops and starts those services in test_faults, never beside it)."""
import json

import pytest

from tests.commands.test_documented_commands import run
from tests.services import require_redis

pytestmark = pytest.mark.scaled


def test_bench_live_measures_a_few_scaled_tables():
    out = run("bench/live.py", "--mode", "scaled", "--tables", "2", "--seconds", "2", "--warmup", "1",
              "--server", "uvicorn").stdout
    row = next(line.split() for line in out.splitlines() if line.startswith("scaled") and "site/uvicorn" in line)
    assert row[2] == "2" and row[9] == "0", out         # two tables, no errors


def test_bench_idle_connects_its_sockets_and_reports_their_cost():
    out = run("bench/idle.py", "--sockets", "8", "--tables", "2", "--seconds", "1", "--server", "uvicorn").stdout
    assert "8 sockets connected" in out and "0 failed" in out and "0 sockets closed by the servers" in out, out


def test_bench_soak_plays_its_tables_and_reports_memory_per_row(tmp_path):
    """On a database and Redis number of its own, so a real soak (bench_soak, 7) may run meanwhile."""
    path = tmp_path / "soak.json"
    run("bench/soak.py", "--tables", "2", "--minutes", "0.2", "--interval", "4", "--warmup", "2",
        "--database", "bench_soak_smoke", "--redis-db", "6", "--json", str(path))
    soak = json.loads(path.read_text())
    assert len(soak["rows"]) >= 2 and all(row["errors"] == 0 for row in soak["rows"]), soak["rows"]
    assert soak["summary"]["errors"] == {} and soak["summary"]["log_errors"] == 0, soak["summary"]
    assert {"web1", "web2", "worker", "beat"} <= set(soak["summary"]["memory"])


def test_bench_pubsub_read_times_both_handlers():
    require_redis()
    out = run("bench/pubsub_read.py", "--messages", "200", "--runs", "1").stdout
    assert "redis-py's handler" in out and "the layer's handler" in out, out
