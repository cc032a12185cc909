"""realtime/stages.py: the opt-in hop timings bench/live.py --stages reads back."""
import time

from realtime import stages


def test_it_is_off_unless_the_bench_asks_for_it():
    assert stages.ENABLED is False      # the test settings set no STAGES_FILE: nothing is written


def test_a_recorded_move_is_read_back_by_its_arrival_within_the_window_only(tmp_path, monkeypatch):
    prefix = str(tmp_path / "stages")
    monkeypatch.setattr(stages, "_PATH", prefix)
    monkeypatch.setattr(stages, "_flushed_at", 0.0)
    monkeypatch.setattr(stages, "_lines", [])
    move = stages.Move()
    with move.in_thread():
        sum(range(20000))           # some CPU on "the pool thread"
        time.sleep(0.01)            # and some waiting
    move.back_on_loop()
    stages.record(move)

    found = stages.read(prefix, move.arrived_epoch - 1, move.arrived_epoch + 1)
    assert {name: len(v) for name, v in found.items()} == {name: 1 for name in stages.STAGES}
    assert found["thread"][0] >= 10 > found["cpu"][0] > 0       # the wait is wall time, not CPU
    assert all(v[0] >= 0 for v in found.values())
    assert stages.read(prefix, move.arrived_epoch + 1, move.arrived_epoch + 2)["thread"] == []


async def test_off_the_table_socket_takes_the_plain_step_and_records_nothing(tmp_path, monkeypatch):
    from games import consumers

    prefix = str(tmp_path / "stages")
    monkeypatch.setattr(stages, "_PATH", prefix)
    monkeypatch.setattr(stages, "_flushed_at", 0.0)
    monkeypatch.setattr(stages, "_lines", [])
    applied, published = [], []

    class Socket:
        channel_layer = "layer"

    async def apply_in_thread(socket, data):
        applied.append(data)
        return [("group", data)], None

    async def send(layer, sent):
        published.append((layer, sent))

    monkeypatch.setattr(consumers, "_apply_in_thread", apply_in_thread)
    monkeypatch.setattr(consumers.broadcast, "send", send)
    answer = await consumers.TableConsumer.apply_and_publish(Socket(), {"n": 1})
    assert answer == ([("group", {"n": 1})], None)
    assert applied == [{"n": 1}] and published == [("layer", [("group", {"n": 1})])]
    assert stages._lines == [] and not list(tmp_path.iterdir())      # no move timed, no file


async def test_the_timed_step_answers_as_the_plain_one_and_records_the_move(tmp_path, monkeypatch):
    from asgiref.sync import sync_to_async

    prefix = str(tmp_path / "stages")
    monkeypatch.setattr(stages, "_PATH", prefix)
    monkeypatch.setattr(stages, "_flushed_at", 0.0)
    monkeypatch.setattr(stages, "_lines", [])
    published = []

    class Socket:
        channel_layer = "layer"

    def apply(socket, data):
        return [("group", data)], None

    async def publish(layer, sent):
        published.append((layer, sent))

    step = stages.timed(apply, lambda f: sync_to_async(f, thread_sensitive=False), publish)
    started = time.time()
    assert await step(Socket(), {"n": 1}) == ([("group", {"n": 1})], None)
    assert published == [("layer", [("group", {"n": 1})])]
    assert len(stages.read(prefix, started - 1, time.time() + 1)["publish"]) == 1
