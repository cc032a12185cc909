"""Duplicate tournaments, the pure part: the seat/hand mapping against the real deck derivation,
matchpoints, a round's scoring and the standings; and the engine's fixed-board match."""
import pytest
from hypothesis import given, settings, strategies as st

from games.engine import core, fair
from games.engine.core import get_rules
from games.engine.core import Match
from tournaments import duplicate as D

seeds = st.binary(min_size=32, max_size=32)


@settings(max_examples=40, deadline=None)
@given(seed=seeds, boards=st.integers(1, 6), variant=st.sampled_from(["kurnik", "schnapsen", "santase"]))
def test_sixtysix_tables_hold_the_same_hands_swapped(seed, boards, variant):
    """Table B (flipped) deals every board with the other dealer: the hand seat s holds at table A
    is held at table B by the seat D.seat_at maps it to, the other seat; stock and trump are equal."""
    seeds_ = fair.DealSeeds(seed, (None, None), "round:7-1")
    a, b = D.dealers(2, boards, D.flipped(True, 0)), D.dealers(2, boards, D.flipped(True, 1))
    for k in range(boards):
        assert a[k] != b[k]
        deal_a = fair.deal_from_seeds(get_rules("sixtysix"), variant, a[k], seeds_, k)
        deal_b = fair.deal_from_seeds(get_rules("sixtysix"), variant, b[k], seeds_, k)
        assert deal_a["stock"] == deal_b["stock"] and deal_a["trump_card"] == deal_b["trump_card"]
        for s in range(2):
            p = D.position(s, a[k], 2)
            other = D.seat_at(p, b[k], 2)
            assert other == 1 - s
            assert deal_a["hands"][s] == deal_b["hands"][other]


@settings(max_examples=25, deadline=None)
@given(seed=seeds, boards=st.integers(1, 5), game=st.sampled_from(["hearts", "spades"]), tables=st.integers(1, 4))
def test_four_seat_tables_give_each_seat_the_same_hand_everywhere(seed, boards, game, tables):
    seeds_ = fair.DealSeeds(seed, (None,) * 4, "round:1-2")
    per_table = [D.dealers(4, boards, D.flipped(False, i)) for i in range(tables)]
    assert all(d == per_table[0] for d in per_table)
    for k in range(boards):
        deals = [fair.deal_from_seeds(get_rules(game), None, d[k], seeds_, k) for d in per_table]
        assert all(x["hands"] == deals[0]["hands"] for x in deals)
        assert sorted(D.position(s, per_table[0][k], 4) for s in range(4)) == [0, 1, 2, 3]


@given(st.lists(st.integers(-5, 5), min_size=1, max_size=12))
def test_matchpoints_of_a_board_sum_to_a_constant_and_ties_share(results):
    mp = D.matchpoints(results)
    n = len(results)
    assert sum(mp) == n * (n - 1)
    assert all(0 <= x <= D.top(n) for x in mp)
    for i in range(n):
        for j in range(n):
            if results[i] == results[j]:
                assert mp[i] == mp[j]
            elif results[i] > results[j]:
                assert mp[i] > mp[j]
    if n > 1:
        assert sum(D.percentage(x, n) for x in mp) == pytest.approx(50.0 * n)


def test_matchpoints_by_hand():
    assert D.matchpoints([3, 1, 1, -2]) == [6, 3, 3, 0]
    assert D.percentage(6, 4) == 100 and D.percentage(3, 4) == 50 and D.percentage(0, 1) == 50


def _table(number, players, dealers, margins, at_fault=()):
    return D.TableRound(table=number, players=players, dealers=dealers, margins=margins,
                        at_fault=frozenset(at_fault))


def test_sixtysix_round_compares_each_hand_across_tables():
    # Two tables, one board: at table 1 seat 0 deals; at table 2 (flipped) seat 1 deals.
    # The dealer's hand: table 1's seat 0 made -2 (lost 2 game points), table 2's seat 1 made +1.
    t1 = _table(1, ["a", "b"], [0], [[-2.0, 2.0]])
    t2 = _table(2, ["c", "d"], [1], [[-1.0, 1.0]])
    scores = D.score_round([[0], [1]], 2, [t1, t2], 1)
    by_player = {s.players[0]: s for s in scores}
    assert by_player["a"].holding == by_player["d"].holding == (0,)       # the dealer's hand
    assert by_player["b"].holding == by_player["c"].holding == (1,)
    assert (by_player["a"].mp, by_player["d"].mp) == (0, 2)                # -2 against +1
    assert (by_player["b"].mp, by_player["c"].mp) == (2, 0)                # +2 against -1
    assert by_player["d"].pct == 100.0 and by_player["a"].pct == 0.0


def test_spades_partners_share_one_result_and_unplayed_boards_are_averages():
    teams = [[0, 2], [1, 3]]
    t1 = _table(1, ["a", "b", "c", "d"], [0, 1], [[30, -30, 30, -30], [10, -10, 10, -10]])
    t2 = _table(2, ["e", "f", "g", None], [0, 1], [[-10, 10, -10, 10], None], at_fault=[1])
    scores = D.score_round(teams, 4, [t1, t2], 2)
    first = [s for s in scores if s.board == 0]
    assert len(first) == 4 and all(len(s.players) == 2 for s in first)
    assert {s.players: s.mp for s in first} == {("a", "c"): 2, ("e", "g"): 0, ("b", "d"): 0, ("f", None): 2}
    second = {s.players: s for s in scores if s.board == 1}
    assert second[("a", "c")].pct == 50.0 and second[("a", "c")].top == 0        # alone: average
    assert second[("e", "g")].pct == D.AVERAGE_PLUS and second[("f", None)].pct == D.AVERAGE_MINUS

    rows = D.standings([D.Entrant(id=x, order=i) for i, x in enumerate("abcdefgz")], scores, byes=[("z", 2)])
    pct = {r.id: r.pct for r in rows}
    assert pct["a"] == pct["c"] == 75.0 and pct["e"] == 30.0 and pct["f"] == 70.0 and pct["z"] == 50.0
    assert rows[0].id in ("a", "c") and [r.rank for r in rows] == list(range(1, 9))
    assert next(r for r in rows if r.id == "z").boards == 2


@settings(max_examples=30, deadline=None)
@given(margins=st.lists(st.lists(st.integers(-3, 3), min_size=3, max_size=3), min_size=1, max_size=6))
def test_every_hand_group_of_a_round_sums_to_its_constant(margins):
    tables = [_table(i + 1, [f"p{i}", f"q{i}"], D.dealers(2, 3, D.flipped(True, i)),
                     [[float(m), float(-m)] for m in row]) for i, row in enumerate(margins)]
    scores = D.score_round([[0], [1]], 2, tables, 3)
    n = len(tables)
    for k in range(3):
        for holding in ((0,), (1,)):
            group = [s for s in scores if s.board == k and s.holding == holding]
            assert len(group) == n and sum(s.mp for s in group) == n * (n - 1)


def test_board_margins_use_the_games_points():
    assert D.board_margins("sixtysix", "kurnik", {"points": [70, 30], "game_points": [2, 0]}) == [2.0, -2.0]
    hearts = D.board_margins("hearts", "standard", {"points": [0, 26, 0, 0]})
    assert hearts[1] < 0 < hearts[0]
    spades = D.board_margins("spades", "standard", {"team_points": [60, -40], "tricks": [0] * 4})
    assert spades == [100.0, -100.0, 100.0, -100.0]


def test_a_duplicate_match_plays_its_boards_with_their_dealers_and_is_over():
    m = Match.start("spades", None, dealers=[0, 1, 2])
    assert (m.boards, m.dealer) == (3, 0)
    import random
    rng = random.Random(5)
    for k in range(3):
        assert not m.is_over() and m.dealer == k
        state = m.new_deal(seeds=fair.DealSeeds(bytes(32), (None,) * 4, "round:1-1"))
        assert state.setup.deal_number == k and state.setup.bags_before == [0, 0]
        while not state.is_over():
            state.apply_move(state.random_move(rng))
        m.finish_deal(state)
        assert m.bags == [0, 0]           # every board scored on its own
    assert m.is_over() and Match.from_dict(m.to_dict()) == m
    with pytest.raises(ValueError):
        Match.start("hearts", None, dealers=[4])
    assert Match.from_dict({k: v for k, v in Match.start("hearts").to_dict().items()
                            if k not in ("boards", "dealers")}).boards is None
    assert core.get_rules("hearts").match_over("standard", [0, 0, 0, 0]) is False
