"""python -m games.engine.verify: exit 0 for records dealt from their revealed seeds, 1 otherwise."""
import copy
import io
import json
import subprocess
import sys
from pathlib import Path

from games.engine import verify

from .test_fair import revealed_record

ROOT = Path(__file__).resolve().parents[3]


def run(text, *args):
    out = io.StringIO()
    code = verify.main(["-", *args], stdin=io.StringIO(text), out=out)
    return code, out.getvalue()


def test_a_good_record_and_good_json_lines_exit_0():
    code, out = run(json.dumps(revealed_record()))
    assert code == 0 and "verified" in out and "not verified" not in out
    lines = "\n".join(json.dumps(revealed_record(g, v)) for g, v in
                      [("sixtysix", "kurnik"), ("spades", "standard"), ("hearts", "jack_of_diamonds")])
    code, out = run(lines + "\n")
    assert code == 0 and out.count(": verified") == 3


def test_a_changed_seed_client_seed_or_card_exits_1_with_a_readable_reason():
    good = revealed_record("spades", "standard")
    seed = copy.deepcopy(good)
    seed["fair"]["server_seed"] = "00" * 32
    client = copy.deepcopy(good)
    client["fair"]["client_seeds"][0] = "ff" * 20
    card = copy.deepcopy(good)
    card["hands"][2][0], card["hands"][3][0] = card["hands"][3][0], card["hands"][2][0]
    for bad, reason in [(seed, "the commitment does not match the server seed"),
                        (client, "the cards differ from the derived deal"),
                        (card, "hand of seat 2")]:
        code, out = run(json.dumps(bad))
        assert code == 1 and "not verified" in out and reason in out, out
    # One bad record among good ones fails the whole input, and says which.
    code, out = run(json.dumps(good) + "\n" + json.dumps(card) + "\n")
    assert code == 1 and out.count(": verified") == 1 and out.count("not verified") == 1


def test_unrevealed_or_unfair_records_and_unreadable_input_exit_1():
    unrevealed = revealed_record()
    del unrevealed["fair"]["server_seed"]
    assert run(json.dumps(unrevealed)) == (1, "hearts deal 4: not verified: the server seed is not revealed "
                                               "yet (it is, once the deal may be shown)\n")
    plain = revealed_record()
    del plain["fair"]
    code, out = run(json.dumps(plain))
    assert code == 1 and "no fair object" in out
    code, out = run("{not json\n")
    assert code == 1 and "cannot read" in out
    assert run("")[0] == 1


def test_it_runs_as_a_module_on_a_file(tmp_path):
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(revealed_record("sixtysix", "schnapsen")))
    done = subprocess.run([sys.executable, "-m", "games.engine.verify", str(path)], cwd=ROOT,
                          capture_output=True, text=True)
    assert done.returncode == 0 and "verified" in done.stdout
    rec = json.loads(path.read_text())
    rec["trump_card"], rec["stock"][0] = rec["stock"][0], rec["trump_card"]
    path.write_text(json.dumps(rec))
    done = subprocess.run([sys.executable, "-m", "games.engine.verify", str(path)], cwd=ROOT,
                          capture_output=True, text=True)
    assert done.returncode == 1 and "not verified" in done.stdout
