"""The pairing rules, on plain data (tournaments/pairing.py imports no Django)."""
import random
import subprocess
import sys

import pytest

from tournaments import pairing
from tournaments.pairing import Player


def players(n, **kw):
    return [Player(id=i, rating=2000 - i, **kw) for i in range(n)]


def play_swiss(n, rounds, rng):
    """Pair ``rounds`` Swiss rounds of ``n`` players with random results; return the rounds."""
    ps = {i: Player(id=i, rating=2000 - 10 * i) for i in range(n)}
    history = []
    for _ in range(rounds):
        r = pairing.swiss_pairs(list(ps.values()))
        history.append(r)
        for a, b in r.pairs:
            winner = rng.choice((a, b))
            ps[winner].score += 1
            ps[a].opponents |= {b}
            ps[b].opponents |= {a}
        if r.bye is not None:
            ps[r.bye].score += 1
            ps[r.bye].byes += 1
    return history


def test_it_imports_no_django():
    code = "import sys, tournaments.pairing, tournaments.standings; print('django' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_it_folds_round_one_top_half_against_bottom_half():
    r = pairing.swiss_pairs(players(8))
    assert r.pairs == [(0, 4), (1, 5), (2, 6), (3, 7)] and r.bye is None


def test_it_pairs_inside_score_groups_first():
    ps = players(8)
    for p in ps[:4]:
        p.score = 1
    r = pairing.swiss_pairs(ps)
    assert {frozenset(p) for p in r.pairs} == {frozenset(p) for p in [(0, 2), (1, 3), (4, 6), (5, 7)]}


def test_it_never_repeats_an_opponent_while_avoidable():
    rng = random.Random(7)
    for n in (4, 6, 7, 8, 9, 12, 15):
        rounds = min(n - 1 if n % 2 == 0 else n, 7) - 1   # stay clear of where repeats are forced
        seen = set()
        for r in play_swiss(n, rounds, rng):
            assert r.repeats == 0, (n, r)
            for a, b in r.pairs:
                assert frozenset((a, b)) not in seen
                seen.add(frozenset((a, b)))


def test_it_backtracks_when_the_natural_pairing_forces_a_repeat():
    # 0 and 1 top the score group; 0 has met 2 (its fold partner) and 1 has met 3.
    ps = players(4)
    ps[0].opponents = frozenset({2, 1})
    ps[2].opponents = frozenset({0})
    ps[1].opponents = frozenset({0, 3})
    ps[3].opponents = frozenset({1})
    r = pairing.swiss_pairs(ps)
    assert r.repeats == 0
    assert {frozenset(p) for p in r.pairs} == {frozenset((0, 3)), frozenset((1, 2))}


def test_it_repeats_only_when_every_pairing_repeats():
    ps = players(2)
    ps[0].opponents, ps[1].opponents = frozenset({1}), frozenset({0})
    r = pairing.swiss_pairs(ps)
    assert r.pairs == [(0, 1)] and r.repeats == 1


def test_it_gives_the_bye_to_the_lowest_placed_player_without_one():
    ps = players(5)
    assert pairing.swiss_pairs(ps).bye == 4
    ps[4].byes = 1
    assert pairing.swiss_pairs(ps).bye == 3


def test_it_rotates_byes_so_nobody_gets_two_while_others_have_none():
    rng = random.Random(3)
    hist = play_swiss(7, 7, rng)
    byes = [r.bye for r in hist]
    assert len(set(byes)) == 7, byes


def test_it_finds_a_repeat_free_round_in_a_bigger_field_quickly():
    rng = random.Random(11)
    hist = play_swiss(64, 6, rng)
    assert all(r.repeats == 0 for r in hist)


# --- 4-player tables --------------------------------------------------------------------------------
def test_it_cuts_tables_of_four_by_standing_with_bot_seats_at_the_bottom():
    ps = players(10)
    tables = pairing.swiss_tables(ps)
    assert tables == [[0, 1, 2, 3], [4, 5, 6, None], [7, 8, 9, None]]
    assert pairing.table_sizes(9) == [3, 3, 3]
    assert pairing.table_sizes(13) == [4, 3, 3, 3]
    assert pairing.table_sizes(3) == [3] and pairing.table_sizes(5) == [3, 2]


def test_it_regroups_tables_by_the_standings_it_is_given():
    ps = players(8)
    order = [ps[i] for i in (7, 2, 5, 0, 1, 3, 4, 6)]
    assert pairing.swiss_tables(order) == [[7, 2, 5, 0], [1, 3, 4, 6]]


def test_it_breaks_up_a_table_that_would_repeat_exactly():
    ps = players(8)
    first = [frozenset({0, 1, 2, 3}), frozenset({4, 5, 6, 7})]
    for p in ps:
        p.tables = (first[0] if p.id < 4 else first[1],)
    tables = pairing.swiss_tables(ps)
    assert all(frozenset(t) not in first for t in tables), tables
    assert sorted(x for t in tables for x in t) == list(range(8))


def test_it_varies_partners():
    a, b, c, d = players(4)
    opposite = [[0, 2], [1, 3]]                                        # spades: partners sit opposite
    assert pairing.partnership_seating([a, b, c, d], opposite) == [0, 1, 3, 2]     # 1st+4th vs 2nd+3rd
    a.partners, d.partners = (3,), (0,)
    seats = pairing.partnership_seating([a, b, c, d], opposite)
    assert seats == [0, 1, 2, 3]                                       # 1st+3rd vs 2nd+4th
    assert pairing.partnership_seating([a, b, c, None], opposite) == [0, 1, None, 2]


def test_it_seats_partners_where_the_teams_sit():
    a, b, c, d = players(4)
    assert pairing.partnership_seating([a, b, c, d], [[0, 1], [2, 3]]) == [0, 3, 1, 2]
    with pytest.raises(ValueError):
        pairing.partnership_seating([a, b, c, d], [[0], [1], [2], [3]])


# --- round robin and elimination -------------------------------------------------------------------------
def test_it_schedules_a_round_robin_where_everyone_meets_once():
    for n in (4, 5, 6, 7):
        rounds = pairing.round_robin_rounds(list(range(n)))
        met = [frozenset(p) for r in rounds for p in r if None not in p]
        assert len(met) == len(set(met)) == n * (n - 1) // 2
        for r in rounds:
            ids = [x for p in r for x in p if x is not None]
            assert len(ids) == len(set(ids))
        if n % 2:
            assert sorted(a for r in rounds for a, b in r if b is None) == list(range(n))


def test_it_seeds_an_elimination_bracket_with_byes_to_the_top_seeds():
    assert pairing.bracket_positions(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    slots = pairing.elimination_slots(["s1", "s2", "s3", "s4", "s5", "s6"])
    assert pairing.elimination_pairs(slots) == [("s1", None), ("s4", "s5"), ("s2", None), ("s3", "s6")]
    assert pairing.elimination_rounds(6) == 3 and pairing.elimination_rounds(8) == 3
    assert pairing.elimination_rounds(2) == 1
