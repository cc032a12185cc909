"""bench/sixtysix_tree_noise.py: the decisions it studies are open-stock choices, and a run is repeatable."""
from __future__ import annotations

import pytest

from .helpers import load_bench


@pytest.fixture
def noise():
    return load_bench("sixtysix_tree_noise")


def test_the_decisions_are_open_stock_choices_and_the_same_every_run(noise):
    views = noise.decisions(3, "kurnik", draws=10)
    assert len(views) == 3
    for view in views:
        assert view["stock_size"] > 0 and len(view["legal"]) > 1
    assert noise.decisions(3, "kurnik", draws=10) == views


def test_a_run_prints_the_same_figures_twice(noise, capsys):
    args = ["--decisions", "1", "--iterations", "30", "--reference", "120"]
    noise.main(args)
    first = capsys.readouterr().out
    noise.main(args)
    assert capsys.readouterr().out == first
    assert "30 iterations: the reference's move" in first


def test_the_reference_grown_on_its_own_draws_agrees_with_itself(noise):
    """The comparison's yardstick: the same count and seed choose the same move."""
    view = noise.decisions(1, "kurnik", draws=10)[0]
    assert noise.tree(view, 60, 5) == noise.tree(view, 60, 5)
