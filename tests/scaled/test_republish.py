"""A change committed and never published (its process killed between the two) is found by the
republisher and told to the table's sockets, once; one published, or at a table nobody listens
at, is left alone (games/republish.py). On PostgreSQL and Redis, in one process; the two web
servers and the worker kill of tests/scaled/test_scaled.py meet it for real."""
import pytest

from .test_postgres_moves import hearts_table
from .test_scaled import manage_shell, scaled_env

pytestmark = pytest.mark.scaled

SCRIPT = hearts_table("rp", (0, None)) + """
import json, random
from django.conf import settings
from games import republish
from realtime import broadcast, hub
from games.bots import choose_action
from games.models import Table
settings.GAMES_REPUBLISH_QUIET_SECONDS = 0        # no wait for a publication still on its way
rng = random.Random(3)
layer = broadcast.get_channel_layer()
loop = broadcast.home_or_process_loop()
listener = broadcast.run_on(loop, layer.new_channel())
broadcast.run_on(loop, layer.group_add(hub.table_group(t.pk), listener))

def move(published=True):
    live = loading.load(t.pk)
    seat = live.state.seats_to_act()[0]
    action = choose_action("random", live.state.view(seat), rng)
    if published:
        services.act(t.pk, users[seat], live.table.version, action)
        return
    with broadcast.collecting():                  # committed; its messages go nowhere
        services.act(t.pk, users[seat], live.table.version, action)

def heard():
    got = broadcast.run_on(loop, layer.receive(listener))
    return {"type": got["type"], "version": got.get("version")}

out = {}
move()
out["published"] = [heard(), republish.tables_behind()]
move(published=False)
stored = Table.objects.get(pk=t.pk).version
out["stored"] = stored
out["lost"] = [republish.tables_behind(), republish.sweep(), heard()]
out["told_once"] = [republish.tables_behind(), republish.sweep()]
# Nobody listens any more: a change lost then is nobody's to tell.
presence.remove(t.pk, "socket-0"); presence.remove(t.pk, "socket-None")
move(published=False)
out["unheard"] = republish.tables_behind()
out["table"] = t.pk
print(json.dumps(out))
"""


def test_a_change_never_published_is_told_to_its_tables_sockets_once():
    out = manage_shell(scaled_env("cards_republish_test"), SCRIPT)
    stored, table = out["stored"], out["table"]
    assert out["published"] == [{"type": "table.each", "version": stored - 1}, []], out
    assert out["lost"] == [[[table, stored]], 1, {"type": "table.behind", "version": stored}], out
    assert out["told_once"] == [[], 0], out
    assert out["unheard"] == [], out
