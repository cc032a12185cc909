"""Every command the README and docs/ tell people to run, run as they would run it: a process of
its own from the checkout, with its smallest sensible arguments, its exit code and what it prints
checked. (The bot client's modes are tests/botapi's; the servers' commands, `make run`'s
`config.serve` and the Procfile's, are run by tests/embedded.py and tests/scaled.)"""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.analysis.records import FALSE_CLAIM
from tests.embedded import ROOT
from tests.games.engine.playouts import finished_deal
from tests.games.engine.test_fair import revealed_record


def run(*args: str, exits: tuple[int, ...] = (0,), timeout: float = 300, **env: str) -> subprocess.CompletedProcess:
    """``python ARGS`` in the checkout, as a user types it (the embedded mode's settings unless
    ``env`` says otherwise), failing with its output unless it exits with one of ``exits``."""
    clean = {k: v for k, v in os.environ.items()
             if k not in ("DJANGO_SETTINGS_MODULE", "DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL")}
    done = subprocess.run([sys.executable, *args], cwd=ROOT, env=dict(clean, **env), capture_output=True,
                          text=True, timeout=timeout)
    assert done.returncode in exits, \
        f"{args} exited {done.returncode}:\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}"
    return done


# --- README: the rules engine, bots and benchmarks; docs/FAIRNESS.md; docs/ANALYSIS.md ----------
def test_replay_replays_a_record_file_with_its_trace(tmp_path):
    path = tmp_path / "deal.json"
    record = finished_deal("hearts", "standard", seed=3).record()
    path.write_text(json.dumps(record))
    lines = run("-m", "games.engine.replay", str(path), "--trace").stdout.splitlines()
    assert json.loads(lines[-1]) == record["result"]
    assert [json.loads(line)["step"] for line in lines[:-1]] == list(range(len(record["actions"])))


def test_verify_checks_a_record_from_its_revealed_seeds(tmp_path):
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(revealed_record("spades", "standard")))
    assert ": verified" in run("-m", "games.engine.verify", str(path)).stdout


def test_analyse_finds_the_blunder_in_a_record(tmp_path):
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(FALSE_CLAIM))
    out = json.loads(run("-m", "games.bots.analyse", str(path), "--seat", "0", "--iterations", "16",
                         "--seed", "3", "--json").stdout)
    assert out["summary"][0]["blunders"] == 1


def test_the_arena_plays_a_pair_of_matches_and_prints_the_win_rate():
    out = run("-m", "games.bots.lab.duel", "--game", "sixtysix", "--variant", "kurnik", "--a", "basic",
              "--b", "random", "--matches", "2", "--jobs", "1", "--quiet", "--cpu-clock").stdout
    assert "matches 2 (duplicate pairs, seats swapped)" in out and "win rate of A" in out, out


def test_the_ladder_measures_without_writing_on_a_dry_run(tmp_path):
    ladder = (ROOT / "games" / "bots" / "ladder.json").read_text()
    results = tmp_path / "results.jsonl"
    out = run("-m", "games.bots.lab.ladder", "--games", "sixtysix", "--deals", "2", "--steps", "basic:random",
              "--jobs", "1", "--results", str(results), "--dry-run").stdout
    assert "sixtysix: basic > random       2" in out, out
    deals = [json.loads(line) for line in results.read_text().splitlines()]
    assert len(deals) == 4 and {d["clock"] for d in deals} == {"cpu"}    # two deals, each played twice
    assert (ROOT / "games" / "bots" / "ladder.json").read_text() == ladder


def test_bench_engine_counts_playouts_and_exits_1_only_below_a_target():
    """Its exit code is the machine's speed against the targets: either is right, if it says so."""
    done = run("bench/engine.py", "--seconds", "0.2", "--runs", "1", exits=(0, 1))
    rows = done.stdout.splitlines()[1:]
    assert [row.split()[0] for row in rows] == ["sixtysix"] * 3 + ["hearts"] * 2 + ["spades"], done.stdout
    assert done.returncode == any(row.endswith("BELOW") for row in rows)


def _p_values(out: str) -> dict[str, float]:
    """(variant, test) -> p of the table bench/shuffle_uniformity.py prints."""
    rows = [line.split() for line in out.splitlines()[2:]]
    return {f"{row[0]} {row[1]}": float(row[4]) for row in rows}


def test_bench_shuffle_uniformity_passes_the_fair_shuffle_and_fails_the_naive_one():
    """Its seed is fixed (``--seed 1``): the same decks, the same p values, every run."""
    fair = _p_values(run("bench/shuffle_uniformity.py", "--deals", "2000").stdout)
    naive = _p_values(run("bench/shuffle_uniformity.py", "--deals", "2000", "--naive").stdout)
    assert len(fair) == len(naive) == 12
    assert min(fair.values()) > 0.001, fair
    assert max(p for key, p in naive.items() if key.endswith("positions")) < 0.001, naive


def test_bench_sixtysix_decisions_counts_a_levels_choices():
    out = run("bench/sixtysix_decisions.py", "--level", "basic", "--deals", "3").stdout
    assert "basic self-play, 3 deals" in out and "exact endgame:" in out, out


def test_bench_moon_plays_moon_chances_and_reports_shooting_and_defence():
    out = run("bench/moon.py", "--deals", "1", "--levels", "basic", "--opponents", "basic",
              "--jobs", "1").stdout
    assert "shooting     basic: shot " in out and "defence      basic: seat 0 shot " in out, out


def test_bench_oracle_plays_a_level_that_sees_the_hidden_cards_against_itself():
    out = run("bench/oracle.py", "--game", "sixtysix", "--level", "medium", "--deals", "2",
              "--jobs", "1").stdout
    assert "A=oracle:medium vs B=medium" in out and "deals won by A:" in out, out


def test_bench_service_measures_moves_on_sqlite():
    out = run("bench/service.py", "--tables", "2", "--moves", "20", "--runs", "1").stdout
    assert "ms/move" in out and "queries" in out, out


def test_manage_demo_data_loads_into_a_fresh_database(tmp_path):
    settings = {"SQLITE_PATH": str(tmp_path / "db.sqlite3"), "DJANGO_SETTINGS_MODULE": "config.settings"}
    run("manage.py", "migrate", "--noinput", "-v0", **settings)
    run("manage.py", "demo_data", **settings)
    users = run("manage.py", "shell", "-c", "from accounts.models import User; "
                "print(User.objects.filter(username='demo').count())", **settings).stdout.split()[-1]
    assert users == "1"


def test_bench_live_measures_a_few_embedded_tables():
    """It starts and stops its own server (uvicorn, as `make run`); the smallest run it allows."""
    out = run("bench/live.py", "--mode", "embedded", "--tables", "2", "--seconds", "2", "--warmup", "1",
              "--server", "uvicorn").stdout
    row = next(line.split() for line in out.splitlines() if line.startswith("embedded") and "site/uvicorn" in line)
    assert row[2] == "2" and row[9] == "0", out         # two tables, no errors


def test_bench_matrix_runs_a_round_and_summarises_it(tmp_path):
    out_file = tmp_path / "ab.jsonl"
    out = run("bench/matrix.py", "--modes", "embedded", "--servers", "uvicorn", "--tables", "2", "--runs", "1",
              "--seconds", "2", "--warmup", "1", "--out", str(out_file)).stdout
    rows = [json.loads(line) for line in out_file.read_text().splitlines()]
    assert len(rows) == 1 and rows[0]["tables"] == 2 and rows[0]["checkout"] == ".", out
    assert any(line.startswith(".") and "embedded" in line for line in out.splitlines()), out


def test_bench_bot_capacity_reckons_tables_per_level_and_times_each_kind_of_decision():
    out = run("bench/bot_capacity.py", "--levels", "medium", "--deals", "1").stdout
    assert [line.split()[:2] for line in out.splitlines()[1:]] == [
        ["medium", "sixtysix"], ["medium", "hearts"], ["medium", "spades"]], out
    kinds = run("bench/bot_capacity.py", "--by-kind", "--cpu-clock", "--levels", "medium", "--deals", "1").stdout
    assert {tuple(line.split()[1:3]) for line in kinds.splitlines()[1:]} == {
        ("sixtysix", "play"), ("hearts", "play"), ("hearts", "pass"), ("spades", "play"), ("spades", "bid")}, kinds


def test_bench_analysis_prices_a_deal_and_a_bots_reply_beside_it():
    out = run("bench/analysis.py", "--deals", "1", "--iterations", "4").stdout
    assert [line.split()[0] for line in out.splitlines()[1:]] == ["sixtysix", "hearts", "spades"], out
    out = run("bench/analysis.py", "--responsiveness", "--rounds", "2").stdout
    assert out.count("median") == 3, out


def test_bench_frame_send_times_a_frame_through_the_wrapper_and_past_it():
    out = run("bench/frame_send.py", "--sends", "2000", "--runs", "1").stdout
    assert "through the session wrapper" in out and "past it" in out, out
