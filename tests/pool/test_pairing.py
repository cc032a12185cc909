"""The pure pairing rule (pool/pairing.py): the longest waiter first, close ratings, the window
widening with the wait, nobody in two groups."""
from hypothesis import given, strategies as st

from pool.pairing import Waiter, groups, window


def test_it_pairs_the_longest_waiter_with_the_closest_rating():
    ws = [Waiter(1, 1500, 5), Waiter(2, 1580, 1), Waiter(3, 1520, 2), Waiter(4, 1900, 9)]
    made = groups(ws, 2, start=100, growth=0)
    # 4 waited longest but nobody is within 100 of him; 1 comes next and takes 3 (20 away), not 2 (80).
    assert [[w.id for w in g] for g in made] == [[1, 3]]


def test_it_widens_the_window_with_the_wait():
    far = [Waiter(1, 1500, 0), Waiter(2, 1800, 0)]
    assert groups(far, 2, start=100, growth=10) == []
    later = [Waiter(1, 1500, 20), Waiter(2, 1800, 19)]      # 100 + 10 x 20 = 300
    assert [[w.id for w in g] for g in groups(later, 2, start=100, growth=10)] == [[1, 2]]
    assert window(20, 100, 10) == 300


def test_it_fills_a_table_of_four_within_the_anchors_window():
    ws = [Waiter(i, r, 10 - i) for i, r in enumerate([1500, 1550, 1450, 1520, 1700])]
    made = groups(ws, 4, start=100, growth=0)
    assert len(made) == 1 and sorted(w.id for w in made[0]) == [0, 1, 2, 3]
    ratings = [w.rating for w in made[0]]
    assert max(ratings) - min(ratings) <= 100


@given(st.lists(st.tuples(st.integers(1000, 2000), st.floats(0, 60)), max_size=30), st.sampled_from([2, 4]))
def test_it_never_puts_anyone_in_two_groups(specs, size):
    ws = [Waiter(i, r, w) for i, (r, w) in enumerate(specs)]
    made = groups(ws, size, start=100, growth=10)
    ids = [w.id for g in made for w in g]
    assert len(ids) == len(set(ids))
    for g in made:
        assert len(g) == size
        anchor = g[0]
        assert max(w.rating for w in g) - min(w.rating for w in g) <= window(anchor.waited, 100, 10)
