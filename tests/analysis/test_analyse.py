"""The pure analysis (games/bots/analyse.py): known blunders found, the CLI, determinism."""
import io
import json
import random

from hypothesis import given, strategies as st

from games.bots import analyse as A
from games.bots import strong
from games.engine.core import GAME_NAMES, deal

from .records import COVERING, FALSE_CLAIM, FALSE_CLAIM_STEP, NIL_COVER, NIL_COVER_STEP


def _verdict(result, step):
    return next(v for d in result["deals"] for v in d["decisions"] if v["step"] == step)


def test_a_false_66_claim_is_a_blunder_and_the_trump_marriage_claim_is_best():
    result = A.analyse([FALSE_CLAIM], seats=[0], iterations=64, seed=1)
    v = _verdict(result, FALSE_CLAIM_STEP)
    assert v["played"]["type"] == "declare"
    assert v["label"] == "blunder"
    best = v["options"][v["best"]]["action"]
    assert best["type"] == "play" and best.get("marriage") and best.get("declare")
    assert best["card"] in ("QC", "KC")      # clubs are trumps: 37 + 40 = 77, a sure 66
    assert v["options"][v["played_index"]]["mean"] < -1.9     # the opponent scores 2
    assert v["loss"] >= 3.5


def test_a_spade_led_into_the_partners_nil_is_a_blunder_and_a_covering_spade_is_best():
    result = A.analyse([NIL_COVER], seats=[0], iterations=48, seed=1)
    v = _verdict(result, NIL_COVER_STEP)
    assert v["played"] == {"seat": 0, "type": "play", "card": "2S"}
    assert v["label"] == "blunder"
    assert v["options"][v["best"]]["action"]["card"] in COVERING
    assert v["loss"] >= 150          # the nil's 100 lost and 100 paid


def test_only_the_asked_seats_and_only_real_choices_are_judged():
    decisions = A.decisions_of(NIL_COVER, seats=[0])
    assert decisions and {d["seat"] for d in decisions} == {0}
    assert all(len(d["options"]) > 1 for d in decisions)
    assert NIL_COVER_STEP in {d["step"] for d in decisions}
    # The view is the seat's own: no other hand in it.
    view = next(d["view"] for d in decisions if d["step"] == NIL_COVER_STEP)
    assert view["seat"] == 0 and "hands" not in view
    assert set(view["hand"]) == {"2S", "3S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "2D"}


def test_skip_leaves_out_the_moves_a_bot_made_for_the_seat():
    skipped = A.decisions_of(NIL_COVER, seats=[0], skip=lambda step, seat: step >= NIL_COVER_STEP)
    assert skipped and max(d["step"] for d in skipped) < NIL_COVER_STEP


def test_the_same_seed_gives_the_same_verdicts_and_another_may_differ_only_in_noise():
    one = A.analyse([FALSE_CLAIM], seats=[0], iterations=20, seed="x")
    two = A.analyse([FALSE_CLAIM], seats=[0], iterations=20, seed="x")
    for a, b in zip(one["deals"][0]["decisions"], two["deals"][0]["decisions"]):
        assert a["options"] == b["options"] and a["label"] == b["label"]


def test_pausing_between_batches_does_not_change_the_result():
    calls = []
    paused = A.analyse([FALSE_CLAIM], seats=[0], iterations=A.BATCH * 2, seed=3, pause=lambda: calls.append(1))
    plain = A.analyse([FALSE_CLAIM], seats=[0], iterations=A.BATCH * 2, seed=3)
    assert len(calls) == 2 * len(plain["deals"][0]["decisions"])
    assert paused["deals"] == [dict(d, cpu_seconds=p["cpu_seconds"]) for d, p in zip(plain["deals"], paused["deals"])]


def test_a_hearts_pass_is_searched_over_candidate_triples_including_the_one_played():
    rng = random.Random(5)
    state = deal("hearts", "standard", rng=rng)
    view = state.view(0)
    hand = view["legal"][0]["cards"]
    odd_pass = sorted(hand, key=lambda c: "23456789TJQKA".index(c[0]))[:3]   # the three lowest
    candidates = A.pass_candidates(view, odd_pass)
    assert len(candidates) == 21 and {"seat": 0, "type": "pass", "cards": odd_pass} in [
        dict(c, cards=sorted(c["cards"], key=lambda x: "23456789TJQKA".index(x[0]))) for c in candidates]
    values = strong.evaluate(view, random.Random(1), iterations=6, actions=candidates)
    assert [v["samples"] for v in values] == [6] * len(candidates)


def test_evaluate_does_not_change_what_the_strong_bot_chooses():
    state = deal("spades", "standard", rng=random.Random(2))
    while state.view(state.to_act())["phase"] != "play":
        s = state.to_act()
        state.apply(state.legal_actions(s)[3 if state.view(s)["phase"] == "bid" else 0])
    view = state.view(state.to_act())
    chosen = strong.choose_action(view, random.Random(9), iterations=30)
    values = strong.evaluate(view, random.Random(9), iterations=30)
    best = max(range(len(values)), key=lambda j: (values[j]["mean"], -j))
    assert values[best]["action"] == chosen


@given(st.sampled_from(sorted(GAME_NAMES)), st.floats(0, 500), st.floats(0, 500))
def test_labels_grow_with_the_loss(game, a, b):
    order = [None, *A.LABELS]
    lo, hi = sorted((a, b))
    assert order.index(A.label_of(game, lo)) <= order.index(A.label_of(game, hi))
    assert A.label_of(game, 0) is None
    assert A.label_of(game, A.thresholds(game)[2]) == "blunder"


# --- the command line ------------------------------------------------------------------------
def _run(args, stdin=""):
    out = io.StringIO()
    code = A.main(args, stdin=io.StringIO(stdin), out=out)
    return code, out.getvalue()


def test_cli_prints_a_table_with_the_blunder(tmp_path):
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(FALSE_CLAIM))
    code, out = _run([str(path), "--seat", "0", "--iterations", "32"])
    assert code == 0
    assert "step   9 seat 0 (ala): played claim 66" in out and "BLUNDER" in out
    assert "1 blunders" in out


def test_cli_json_from_stdin_json_lines_and_seed(tmp_path):
    lines = json.dumps(FALSE_CLAIM) + "\n" + json.dumps(dict(FALSE_CLAIM, deal_number=1)) + "\n"
    code, out = _run(["-", "--json", "--iterations", "16", "--seed", "7", "--seat", "0"], stdin=lines)
    assert code == 0
    result = json.loads(out)
    assert result["format"] == A.FORMAT and result["seed"] == "7" and len(result["deals"]) == 2
    assert result["summary"][0]["blunders"] == 2
    again = json.loads(_run(["-", "--json", "--iterations", "16", "--seed", "7", "--seat", "0"], stdin=lines)[1])
    assert [d["decisions"] for d in again["deals"]] == [d["decisions"] for d in result["deals"]]


def test_cli_refuses_bad_input(tmp_path):
    assert _run(["-"], stdin="not json")[0] == 1
    assert _run([str(tmp_path / "missing.json")])[0] == 1
    bad = dict(FALSE_CLAIM, actions=FALSE_CLAIM["actions"][:1] + [{"seat": 0, "type": "play", "card": "AS"}])
    code, out = _run(["-"], stdin=json.dumps(bad))
    assert code == 1 and out.startswith("illegal action at step 1")
    code, out = _run(["-"], stdin=json.dumps(FALSE_CLAIM) + "\n" + json.dumps(NIL_COVER) + "\n")
    assert code == 1 and "one game" in out
