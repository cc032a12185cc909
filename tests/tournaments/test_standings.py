"""Standings arithmetic: match points, Buchholz, game points and the order they make."""
import pytest

from games.engine.core import get_rules
from tournaments import standings
from tournaments.standings import Entrant, GameResult


def test_it_gives_match_points_by_rank():
    assert standings.table_points([1, 2]) == [1.0, 0.0]
    assert standings.table_points([1, 1]) == [0.5, 0.5]
    assert standings.table_points([1, 2, 3, 4]) == pytest.approx([1, 2 / 3, 1 / 3, 0])
    assert standings.table_points([1, 1, 3, 4]) == pytest.approx([5 / 6, 5 / 6, 1 / 3, 0])
    # Spades: partnerships 0+2 and 1+3; a partner is not an opponent.
    assert standings.table_points([1, 2, 1, 2], [0, 1, 0, 1]) == [1.0, 0.0, 1.0, 0.0]


def test_it_measures_game_points_as_the_engines_score_margin():
    assert get_rules("sixtysix").margins("kurnik", [7, 3]) == [4.0, -4.0]
    assert get_rules("spades").margins("standard", [510, 320]) == [190.0, -190.0, 190.0, -190.0]
    # Hearts: low is good.
    assert get_rules("hearts").margins("standard", [20, 40, 60, 100]) == pytest.approx([46.667, 20, -6.667, -60], abs=1e-3)


def two(r, a, b, winner, margin=1.0):
    pts = [1.0, 0.0] if winner == a else [0.0, 1.0] if winner == b else [0.5, 0.5]
    gp = [margin, -margin] if winner == a else [-margin, margin]
    return GameResult(round=r, players=[a, b], points=pts, game_points=gp)


def bye(r, a):
    return GameResult(round=r, players=[a], points=[1.0], game_points=[0.0], bye=True)


def test_it_adds_up_match_points_buchholz_and_game_points():
    ents = [Entrant(id=x, rating=1500, order=i) for i, x in enumerate("ABCDE")]
    games = [two(1, "A", "B", "A", 3), two(1, "C", "D", "C", 1), bye(1, "E"),
             two(2, "A", "C", "A", 2), two(2, "B", "E", "E", 1), bye(2, "D")]
    rows = {r.id: r for r in standings.compute(ents, games)}
    assert rows["A"].match_points == 2 and rows["A"].game_points == 5
    assert rows["A"].buchholz == rows["B"].match_points + rows["C"].match_points == 0 + 1
    assert rows["E"].match_points == 2 and rows["E"].buchholz == 0       # a bye adds nothing
    assert rows["E"].byes == 1 and rows["E"].games == 1
    assert rows["D"].buchholz == 1                                          # played C once
    assert rows["A"].opponents == ["B", "C"]


def test_it_orders_by_match_points_then_buchholz_then_game_points():
    ents = [Entrant(id=x, rating=1500, order=i) for i, x in enumerate("ABCDEF")]
    games = [two(1, "A", "B", "A", 1), two(1, "C", "D", "C", 5), two(1, "E", "F", "E", 1),
             two(2, "A", "C", "C", 1), two(2, "B", "D", "B", 1), two(2, "E", "F", "E", 1)]
    order = [r.id for r in standings.compute(ents, games)]
    # C and E on 2: Buchholz C = D 0 + A 1 = 1, E = F 0 + F 0 = 0, so C first.
    # A and B on 1: Buchholz A = B 1 + C 2 = 3, B = A 1 + D 0 = 1, so A first.
    assert order[:4] == ["C", "E", "A", "B"]
    ents2 = [Entrant(id=x, rating=1500, order=i) for i, x in enumerate("PQRS")]
    games2 = [two(1, "P", "Q", "P", 1), two(1, "R", "S", "R", 9)]
    assert [r.id for r in standings.compute(ents2, games2)][:2] == ["R", "P"]   # equal Buchholz: margin
    rows = standings.compute(ents2, [])
    assert [r.rank for r in rows] == [1, 2, 3, 4]


def test_it_keeps_partners_apart_from_opponents():
    g = GameResult(round=1, players=["A", "B", "C", None], points=[1, 0, 1, 0], game_points=[5, -5, 5, -5],
                   teams=[0, 1, 0, 1])
    rows = {r.id: r for r in standings.compute([Entrant("A"), Entrant("B"), Entrant("C")], [g])}
    assert rows["A"].opponents == ["B"] and rows["A"].partners == ["C"]
    assert rows["B"].opponents == ["A", "C"] and rows["B"].partners == []
    assert rows["A"].tables == [frozenset({"A", "B", "C"})]
