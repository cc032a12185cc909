"""No board of a duplicate round at two tables at once: the pure order each table plays its boards
in (exhaustive over table and board counts), the hold that keeps tables apart when their pace
drifts (through the games services), and the records that name their board and verify."""
import math
from datetime import timedelta

import pytest
from django.utils import timezone

from games import fair_deals, services
from games.engine import core, fair
from games.engine.fair import NotVerified, check_record
from games.models import Deal, Table
from tournaments import duplicate as D


@pytest.mark.parametrize("tables", range(1, 17))
def test_every_table_plays_every_board_once_and_tables_in_step_never_share_one(tables):
    for boards in range(1, 25):
        orders = [D.board_order(i, tables, boards) for i in range(tables)]
        assert all(sorted(o) == list(range(boards)) for o in orders)
        for step in range(boards):
            at_once = [o[step] for o in orders]
            most = max(at_once.count(b) for b in set(at_once))
            # As many boards as tables: never two at once; more tables than boards: spread as
            # evenly as can be (the hold keeps the rest waiting).
            assert most == (1 if tables <= boards else math.ceil(tables / boards)), (tables, boards, step)


def test_a_table_plays_a_board_that_no_other_table_of_the_round_plays_or_waits(make_user):
    """Two tables given the same order (as more tables than boards would): the second is held off
    board 0 while the first plays it, and deals it once the first is done."""
    seed = bytes(range(32))
    source = fair_deals.duplicate_source("round:9-1", seed, [0, 1], [0, 1])
    ala, bob, cyd, dan = (make_user(n) for n in ("ala", "bob", "cyd", "dan"))
    first = services.create_table(ala, "sixtysix", seats=[ala, bob], start=True, duplicate=dict(source),
                                  tournament=True)
    second = services.create_table(cyd, "sixtysix", seats=[cyd, dan], start=True, duplicate=dict(source),
                                   tournament=True)
    assert Deal.objects.filter(match__table=first).count() == 1
    assert not Deal.objects.filter(match__table=second).exists()
    held = Table.objects.get(pk=second.pk)
    assert held.status == Table.Status.BETWEEN_DEALS and held.next_deal_at is not None

    # Its recheck comes while the first still plays board 0: held again.
    past = timezone.now() - timedelta(seconds=1)
    Table.objects.filter(pk=second.pk).update(next_deal_at=past, due_at=past)
    services.advance(second.pk)
    assert not Deal.objects.filter(match__table=second).exists()

    # The first table's board 0 is over: the second deals it at its next look.
    Deal.objects.filter(match__table=first).update(finished=True)
    Table.objects.filter(pk=second.pk).update(next_deal_at=past, due_at=past)
    services.advance(second.pk)
    dealt = Deal.objects.get(match__table=second)
    board0 = Deal.objects.get(match__table=first)
    assert dealt.record["fair"]["board"] == board0.record["fair"]["board"] == 0
    assert dealt.record["hands"] == board0.record["hands"]


def test_a_board_played_out_of_order_derives_and_verifies_with_its_board_number():
    rules = core.get_rules("hearts")
    seed = bytes(range(32))
    plain = fair.DealSeeds(seed, (None,) * 4, "round:3-2")
    board = fair.DealSeeds(seed, (None,) * 4, "round:3-2", 5)
    assert fair.deal_from_seeds(rules, "standard", 1, board, 0) == fair.deal_from_seeds(rules, "standard", 1, plain, 5)
    match = core.Match.start("hearts", dealers=[1])
    state = match.new_deal(seeds=board)
    record = state.record()
    record["fair"]["server_seed"] = seed.hex()
    assert record["deal_number"] == 0 and record["fair"]["board"] == 5
    check_record(record, core.get_rules)
    with pytest.raises(NotVerified):
        check_record(dict(record, fair=dict(record["fair"], board=4)), core.get_rules)
