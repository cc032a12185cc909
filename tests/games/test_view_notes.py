"""The one view builder adds what the rules explain (``State.notes``) to each socket's view, for
its own seat only: a spectator never gets a player's claim check (it would tell his points)."""
from django.contrib.auth.models import AnonymousUser

from games import loading, messages, services


def test_it_adds_the_claim_check_to_the_player_on_lead_only(make_user, task_queue):
    ala = make_user("ala")
    table = services.create_table(ala, "sixtysix", "kurnik", seats=["me", "random"], start=True)
    live = loading.load(table.pk)
    on_lead = live.state.to_act()
    views = {seat: messages.view_for(live, seat) for seat in (0, 1, None)}
    assert views[on_lead]["claim"]["target"] == 66
    assert views[1 - on_lead]["claim"] is None and views[None]["claim"] is None
    assert all(v["outcome"] is None for v in views.values())
    snap, seat = messages.snapshot(table.pk, AnonymousUser())
    assert seat is None and snap["view"]["claim"] is None


def test_it_tells_every_socket_how_a_finished_deal_ended(make_user, task_queue):
    ala = make_user("ala")
    table = services.create_table(ala, "sixtysix", "kurnik", seats=["me", "random"], start=True)
    with loading.locked(table.pk) as live:
        seat = live.state.to_act()
        live.state.apply({"seat": seat, "type": "declare"})     # a false claim: 0 points
        views = [messages.view_for(live, s) for s in (0, 1, None)]
    for view in views:
        assert view["outcome"]["by"] == seat and view["outcome"]["why"] == "false_claim"
    assert "outcome" not in live.state.view(0)      # the engine's own view is left as it was


def test_it_tells_the_seat_to_act_what_it_decides_and_no_one_else(make_user, task_queue):
    ala = make_user("ala")
    table = services.create_table(ala, "sixtysix", "kurnik", seats=["me", "random"], start=True)
    live = loading.load(table.pk)
    on_lead = live.state.to_act()
    views = {seat: messages.view_for(live, seat) for seat in (0, 1, None)}
    kinds = views[on_lead]["decision"]["kinds"]
    assert "play" in kinds and set(kinds) == {a["type"] for a in views[on_lead]["legal"]}
    assert views[1 - on_lead]["decision"] is None and views[None]["decision"] is None
