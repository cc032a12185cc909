"""Arena scoring and pairing: pure functions (tournaments/arena_scoring.py)."""
import itertools

from hypothesis import given, settings, strategies as st

from tournaments import arena_scoring
from tournaments.arena_scoring import ArenaResult, Entrant, Free


def _two(a, b, share_a):
    return ArenaResult(players=[a, b], shares=[share_a, 1 - share_a])


# --- scoring -----------------------------------------------------------------------------------------
def test_a_win_is_two_a_draw_one_a_loss_nothing():
    rows = {r.id: r for r in arena_scoring.standings([Entrant("a"), Entrant("b")], [_two("a", "b", 0.5)])}
    assert rows["a"].points == rows["b"].points == 1
    rows = {r.id: r for r in arena_scoring.standings([Entrant("a"), Entrant("b")], [_two("a", "b", 1.0)])}
    assert (rows["a"].points, rows["b"].points) == (2, 0)


def test_after_two_wins_in_a_row_wins_count_double_until_a_non_win():
    games = [_two("a", "b", 1), _two("a", "c", 1), _two("a", "b", 1), _two("a", "c", 1),
             _two("a", "b", 0.5), _two("a", "c", 1), _two("a", "b", 1), _two("a", "c", 1)]
    row = next(r for r in arena_scoring.standings([Entrant(x) for x in "abc"], games) if r.id == "a")
    assert row.sheet == [2, 2, 4, 4, 1, 2, 2, 4]
    assert row.points == 21 and row.wins == 7 and row.games == 8 and row.on_fire


def test_a_loss_ends_the_streak_and_scores_nothing():
    games = [_two("a", "b", 1), _two("a", "b", 1), _two("a", "b", 0), _two("a", "b", 1)]
    row = next(r for r in arena_scoring.standings([Entrant("a"), Entrant("b")], games) if r.id == "a")
    assert row.sheet == [2, 2, 0, 2] and not row.on_fire


def test_four_seat_points_by_rank_and_bots_score_nothing():
    # Hearts shares (standings.table_points): 1, 2/3, 1/3, 0; seat 3 a house bot.
    g = ArenaResult(players=["a", "b", "c", None], shares=[1.0, 2 / 3, 1 / 3, 0.0])
    rows = {r.id: r for r in arena_scoring.standings([Entrant(x) for x in "abc"], [g])}
    assert [rows[x].points for x in "abc"] == [2, 1, 0]
    assert rows["a"].last_opponents == frozenset({"b", "c"})


def test_ties_on_points_go_to_wins_then_rating_then_entry_order():
    games = [_two("a", "b", 1), _two("c", "d", 0.5), _two("c", "d", 0.5)]
    rows = arena_scoring.standings([Entrant("a", 1500, 1), Entrant("b", 1600, 2), Entrant("c", 1400, 3),
                            Entrant("d", 1450, 4)], games)
    assert [r.id for r in rows] == ["a", "d", "c", "b"]
    assert [r.rank for r in rows] == [1, 2, 3, 4]


@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3), st.sampled_from([0.0, 0.5, 1.0])), max_size=30))
def test_points_are_the_sum_of_the_sheet_and_doubled_wins_need_two_wins_before(matches):
    games = [_two(a, b, s) for a, b, s in matches if a != b]
    for row in arena_scoring.standings([Entrant(i) for i in range(4)], games):
        assert row.points == sum(row.sheet)
        for i, x in enumerate(row.sheet):
            if x == 4:
                assert row.sheet[i - 1] in (2, 4) and row.sheet[i - 2] in (2, 4)


# --- two seats ---------------------------------------------------------------------------------------
def test_without_history_the_free_are_paired_with_the_closest_score():
    free = [Free(i, points=p) for i, p in enumerate([10, 9, 4, 3, 0, 0])]
    plan = arena_scoring.pair_two(free)
    assert plan.tables == [[0, 1], [2, 3], [4, 5]] and plan.waiting == []


def test_the_previous_opponent_is_avoided_when_another_is_free():
    free = [Free("a", 6, last_opponents=frozenset({"b"})), Free("b", 6, last_opponents=frozenset({"a"})),
            Free("c", 2), Free("d", 0)]
    plan = arena_scoring.pair_two(free)
    assert ["a", "b"] not in plan.tables and len(plan.tables) == 2


def test_the_previous_opponent_again_when_nobody_else_is_free():
    free = [Free("a", last_opponents=frozenset({"b"})), Free("b", last_opponents=frozenset({"a"}))]
    assert arena_scoring.pair_two(free).tables == [["a", "b"]]


def test_with_an_odd_number_the_last_to_become_free_waits():
    free = [Free("a", 4, waited=30), Free("b", 2, waited=0.5), Free("c", 0, waited=12)]
    plan = arena_scoring.pair_two(free)
    assert plan.waiting == ["b"] and plan.tables == [["a", "c"]]


def test_equal_waits_the_one_who_played_most_waits():
    free = [Free("a", 4, games=3), Free("b", 2, games=5), Free("c", 0, games=3)]
    assert arena_scoring.pair_two(free).waiting == ["b"]
    free = [Free(i, points=10 - i, games=2) for i in range(4)] + [Free(4, points=9, games=3)]
    assert arena_scoring.seat_four(free, fill_after=60).waiting == [4]


def test_another_waits_instead_when_that_avoids_a_repeat():
    free = [Free("a", 4, waited=30, last_opponents=frozenset({"c"})), Free("b", 2, waited=0.5),
            Free("c", 0, waited=12, last_opponents=frozenset({"a"}))]
    plan = arena_scoring.pair_two(free)
    assert plan.waiting == ["c"] and plan.tables == [["a", "b"]]


free_players = st.lists(
    st.tuples(st.integers(0, 20), st.floats(0, 60), st.lists(st.integers(0, 7), max_size=3)),
    min_size=0, max_size=8)


def _free(spec):
    return [Free(i, points=p, waited=w, last_opponents=frozenset(o for o in opp if o != i))
            for i, (p, w, opp) in enumerate(spec)]


def _repeat_free_pairing_exists(players):
    if not players:
        return True
    first, rest = players[0], players[1:]
    return any(not first.met_last(p) and _repeat_free_pairing_exists([q for q in rest if q is not p])
               for p in rest)


@settings(max_examples=300)
@given(free_players)
def test_everyone_but_at_most_one_is_paired_once_and_repeats_only_when_unavoidable(spec):
    free = _free(spec)
    plan = arena_scoring.pair_two(free)
    seated = [p for table in plan.tables for p in table]
    assert len(seated) == len(set(seated)) and len(plan.waiting) == len(free) % 2
    assert sorted(seated + plan.waiting) == sorted(f.id for f in free)
    by_id = {f.id: f for f in free}
    repeated = [t for t in plan.tables if by_id[t[0]].met_last(by_id[t[1]])]
    if any(_repeat_free_pairing_exists([g for g in free if g is not f]) for f in free) or (
            not len(free) % 2 and _repeat_free_pairing_exists(free)):
        assert repeated == []


# --- four seats --------------------------------------------------------------------------------------
def test_four_seat_tables_are_cut_by_score():
    free = [Free(i, points=20 - i) for i in range(8)]
    plan = arena_scoring.seat_four(free, fill_after=10)
    assert plan.tables == [[0, 1, 2, 3], [4, 5, 6, 7]] and plan.waiting == [] and plan.fill_in is None


def test_fewer_than_four_wait_then_get_house_bots():
    free = [Free("a", waited=3), Free("b", waited=1)]
    plan = arena_scoring.seat_four(free, fill_after=10)
    assert plan.tables == [] and sorted(plan.waiting) == ["a", "b"] and plan.fill_in == 7
    free = [Free("a", points=1, waited=10), Free("b", waited=1)]
    plan = arena_scoring.seat_four(free, fill_after=10)
    assert plan.tables == [["a", "b", None, None]] and plan.waiting == []


def test_the_last_to_become_free_are_the_ones_who_wait():
    free = [Free(i, points=10 - i, waited=30 - i) for i in range(5)]   # 4 became free last
    plan = arena_scoring.seat_four(free, fill_after=60)
    assert plan.tables == [[0, 1, 2, 3]] and plan.waiting == [4]


def test_a_table_of_the_same_four_again_is_broken_up_when_others_are_free():
    last = [frozenset({0, 1, 2, 3}), frozenset({4, 5, 6, 7})]
    free = [Free(i, points=20 - i, last_opponents=last[i // 4] - {i}) for i in range(8)]
    plan = arena_scoring.seat_four(free, fill_after=10)
    by_id = {f.id: f for f in free}
    naive = arena_scoring.repeats(free[:4]) + arena_scoring.repeats(free[4:])
    assert sum(arena_scoring.repeats([by_id[p] for p in t]) for t in plan.tables) < naive


@settings(max_examples=300)
@given(free_players, st.floats(0, 30))
def test_four_seats_seat_everyone_once_and_never_more_repeats_than_the_plain_cut(spec, fill_after):
    free = _free(spec)
    plan = arena_scoring.seat_four(free, fill_after=fill_after)
    seated = [p for table in plan.tables for p in table if p is not None]
    assert len(seated) == len(set(seated))
    assert sorted(seated + plan.waiting) == sorted(f.id for f in free)
    assert all(len(t) == 4 for t in plan.tables) and len(plan.waiting) < 4
    assert sum(1 for t in plan.tables if None in t) <= 1
    by_id = {f.id: f for f in free}
    full = [t for t in plan.tables if None not in t]
    order = [by_id[p] for t in full for p in t]
    plain = [arena_scoring.score_order(order)[i:i + 4] for i in range(0, len(order), 4)]
    assert sum(arena_scoring.repeats([by_id[p] for p in t]) for t in full) <= sum(arena_scoring.repeats(g) for g in plain)
    if plan.waiting:
        assert plan.fill_in is not None and plan.fill_in > 0


def test_pairing_is_reproducible():
    free = _free([(3, 1.0, [1]), (3, 2.0, [0]), (1, 0.0, []), (0, 5.0, []), (7, 3.0, [])])
    assert arena_scoring.pair_two(free) == arena_scoring.pair_two(list(reversed(free)))
    assert list(itertools.chain(*arena_scoring.seat_four(free, 0).tables)) == \
        list(itertools.chain(*arena_scoring.seat_four(list(reversed(free)), 0).tables))


def test_two_who_can_only_meet_again_wait_a_little_for_someone_else():
    free = [Free("a", waited=3, last_opponents=frozenset({"b"})), Free("b", waited=1, last_opponents=frozenset({"a"}))]
    plan = arena_scoring.pair_two(free, repeat_after=10)
    assert plan.tables == [] and sorted(plan.waiting) == ["a", "b"] and plan.fill_in == 9
    free = [Free("a", waited=12, last_opponents=frozenset({"b"})), Free("b", waited=10, last_opponents=frozenset({"a"}))]
    assert arena_scoring.pair_two(free, repeat_after=10).tables == [["a", "b"]]
    free.append(Free("c", waited=0))       # someone else: no wait, no repeat
    plan = arena_scoring.pair_two(free + [Free("d", waited=0)], repeat_after=10)
    assert len(plan.tables) == 2 and ["a", "b"] not in plan.tables and plan.fill_in is None


@settings(max_examples=200)
@given(free_players, st.floats(0, 30))
def test_with_a_repeat_wait_everyone_is_seated_or_waiting_and_no_early_repeat(spec, repeat_after):
    free = _free(spec)
    plan = arena_scoring.pair_two(free, repeat_after=repeat_after)
    seated = [p for table in plan.tables for p in table]
    assert sorted(seated + plan.waiting) == sorted(f.id for f in free) and len(seated) == len(set(seated))
    by_id = {f.id: f for f in free}
    for a, b in plan.tables:
        if by_id[a].met_last(by_id[b]):
            assert min(by_id[a].waited, by_id[b].waited) >= repeat_after
    if len(plan.waiting) > len(free) % 2:
        assert plan.fill_in is not None and plan.fill_in > 0
