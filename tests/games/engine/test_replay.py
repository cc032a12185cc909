"""The verifier CLI, `python -m games.engine.replay`, exactly as docs/RECORDS.md describes it."""
import io
import json
import pathlib
import subprocess
import sys

import pytest

from games.engine.replay import main

from .playouts import GAME_VARIANTS, finished_deal

ROOT = pathlib.Path(__file__).resolve().parents[3]


def run(args, stdin=""):
    out = io.StringIO()
    code = main(args, stdin=io.StringIO(stdin), out=out)
    return code, out.getvalue().splitlines()


@pytest.fixture
def record_file(tmp_path):
    def write(obj, name="deal.json"):
        path = tmp_path / name
        path.write_text(obj if isinstance(obj, str) else json.dumps(obj))
        return str(path)
    return write


@pytest.mark.parametrize("game,variant", GAME_VARIANTS)
def test_it_prints_the_result_and_exits_0_when_it_matches(game, variant, record_file):
    rec = finished_deal(game, variant, seed=11).record()
    code, lines = run([record_file(rec)])
    assert code == 0 and json.loads(lines[-1]) == rec["result"]


def test_it_exits_0_for_a_record_without_a_result(record_file):
    rec = finished_deal("hearts", "standard", seed=12).record()
    del rec["result"]
    code, lines = run([record_file(rec)])
    assert code == 0 and json.loads(lines[-1])["points"]


def test_it_exits_1_when_the_result_differs(record_file):
    rec = finished_deal("spades", "standard", seed=13).record()
    rec["result"]["team_points"] = [999, 999]
    code, lines = run([record_file(rec)])
    assert code == 1 and any("differs" in line for line in lines)


def test_it_names_the_step_action_and_reason_of_the_first_illegal_action(record_file):
    rec = finished_deal("sixtysix", "kurnik", seed=14).record()
    rec["actions"][3] = {"seat": rec["actions"][3]["seat"], "type": "play", "card": "2C"}
    code, lines = run([record_file(rec)])
    assert code == 1
    assert lines[-1].startswith("illegal action at step 3:") and '"2C"' in lines[-1]


@pytest.mark.parametrize("game,variant", GAME_VARIANTS)
def test_it_traces_every_step_with_the_legal_actions_before_it(game, variant, record_file):
    rec = finished_deal(game, variant, seed=15).record()
    code, lines = run([record_file(rec), "--trace"])
    assert code == 0
    trace = [json.loads(line) for line in lines[:-1]]
    assert [t["step"] for t in trace] == list(range(len(rec["actions"])))
    for t, action in zip(trace, rec["actions"]):
        assert set(t) == {"step", "seat", "legal"} and t["seat"] == action["seat"]
        comparable = [{k: v for k, v in a.items() if not (k == "marriage" and v is False)} for a in t["legal"]]
        if action["type"] == "pass":
            assert t["legal"] == [{"seat": action["seat"], "type": "pass", "cards": t["legal"][0]["cards"]}]
            assert set(action["cards"]) <= set(t["legal"][0]["cards"])
        else:
            assert action in comparable


def test_it_lists_legal_actions_in_a_stable_order(record_file):
    rec = finished_deal("sixtysix", "santase", seed=16).record()
    path = record_file(rec)
    assert run([path, "--trace"]) == run([path, "--trace"])


def test_it_reads_several_records_as_json_lines_from_stdin():
    recs = [finished_deal(g, v, seed=17).record() for g, v in GAME_VARIANTS]
    code, lines = run(["-"], stdin="\n".join(json.dumps(r) for r in recs) + "\n")
    assert code == 0
    assert [json.loads(line) for line in lines] == [r["result"] for r in recs]


def test_it_reads_a_json_list_as_several_records(record_file):
    recs = [finished_deal(g, v, seed=19).record() for g, v in GAME_VARIANTS]
    code, lines = run([record_file(json.dumps(recs, indent=1), "deals.json")])
    assert code == 0
    assert [json.loads(line) for line in lines] == [r["result"] for r in recs]


def test_it_names_the_line_that_is_not_json(record_file):
    good = json.dumps(finished_deal("hearts", "standard", seed=18).record())
    code, lines = run([record_file(good + "\n{not json\n", "deals.jsonl")])
    assert code == 1 and "line 2 is not JSON" in lines[0]


def test_it_exits_1_if_any_of_several_records_fails():
    good = finished_deal("hearts", "standard", seed=18).record()
    bad = dict(good, result={"points": [0, 0, 0, 0], "moon": None})
    code, _ = run(["-"], stdin=json.dumps(good) + "\n" + json.dumps(bad) + "\n")
    assert code == 1


def test_it_exits_1_on_unreadable_input(record_file):
    assert run([record_file("{not json", "junk.json")])[0] == 1
    assert run(["/nonexistent/deal.json"])[0] == 1
    assert run([record_file({"format": "deal-record/1", "game": "chess"})])[0] == 1


def test_it_runs_as_a_module_from_the_command_line(record_file):
    rec = finished_deal("sixtysix", "schnapsen", seed=19).record()
    proc = subprocess.run([sys.executable, "-m", "games.engine.replay", "-"], input=json.dumps(rec),
                          capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0 and json.loads(proc.stdout) == rec["result"]
