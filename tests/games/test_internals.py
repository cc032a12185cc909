"""The private internals the move path leans on, each checked for the shape it is used in.

games/prepared.py compiles a move's queries once with Django's own compiler and sends them
pipelined; realtime/layers.py publishes through channels_redis's shards. Both are measured gains
(bench/service.py, bench/live.py) that rest on names a library may change in any release: when
one of these fails after an upgrade, adapt the module (or fall back to the public API) and
measure again, rather than silence the test."""
import inspect

import pytest
from django.db import connection
from django.db.models.sql.compiler import SQLCompiler

from games.models import Table


def test_djangos_compiler_still_has_what_prepared_compiles_with():
    qs = Table.objects.filter(pk=1)
    compiler = qs.query.get_compiler("default")
    assert isinstance(compiler, SQLCompiler)
    sql, params = compiler.as_sql()
    assert isinstance(sql, str) and list(params) == [1]
    assert compiler.col_count == len(Table._meta.concrete_fields)
    assert isinstance(compiler.select, list) and all(len(item) == 3 for item in compiler.select)
    converters = compiler.get_converters([s[0] for s in compiler.select])
    assert isinstance(converters, dict)
    assert list(inspect.signature(compiler.apply_converters).parameters) == ["rows", "converters"]
    assert hasattr(qs, "_for_write")


def test_djangos_connection_still_tracks_its_atomic_blocks_as_prepared_reads_them():
    for name in ("atomic_blocks", "savepoint_ids", "needs_rollback", "in_atomic_block",
                 "queries_logged", "queries_log", "wrap_database_errors"):
        assert hasattr(connection, name), name
    assert isinstance(connection.atomic_blocks, list) and isinstance(connection.savepoint_ids, list)


def test_channels_redis_still_has_the_shards_the_scaled_layer_publishes_through():
    from channels_redis.pubsub import RedisPubSubChannelLayer, RedisPubSubLoopLayer, RedisSingleShardConnection

    assert callable(RedisPubSubChannelLayer._get_layer)
    assert callable(RedisPubSubChannelLayer.serialize)
    assert callable(RedisPubSubLoopLayer._get_group_channel_name)
    assert callable(RedisPubSubLoopLayer._get_shard)
    assert callable(RedisSingleShardConnection._ensure_redis)
    assert "_redis" in inspect.getsource(RedisSingleShardConnection.__init__)


def test_channels_still_names_handlers_as_the_thin_consumers_dispatch_them():
    from channels.consumer import get_handler_name
    from django.utils.translation import trans_real

    assert get_handler_name({"type": "table.send"}) == "table_send"
    assert trans_real.parse_accept_lang_header("pl,en;q=0.5")[0][0] == "pl"


@pytest.mark.django_db
def test_a_kept_user_can_be_attached_without_a_query():
    """games/loading.py gives seats the users it already holds: assigning a loaded instance
    through Django's public descriptor costs no query."""
    from accounts.models import User
    from games.models import Seat

    user = User.objects.create(username="kept")
    seat = Seat(index=0, user_id=user.pk)
    from django.test.utils import CaptureQueriesContext
    with CaptureQueriesContext(connection) as q:
        seat.user = user
        assert seat.user.username == "kept"
    assert len(q) == 0


def test_what_the_scaled_layer_and_the_worker_lean_on_after_a_broker_or_redis_restart():
    """realtime/layers.py (_Resubscribed) hooks the shard's subscriber connection and fills the loop
    layer's queues; config/worker.py overrides one method of Celery's consumer."""
    from celery.worker.consumer import Consumer
    from channels_redis.pubsub import RedisPubSubLoopLayer, RedisSingleShardConnection
    from redis.asyncio.connection import AbstractConnection

    assert "_pubsub" in inspect.getsource(RedisSingleShardConnection.__init__)
    source = inspect.getsource(RedisPubSubLoopLayer.__init__)
    assert "self.channels" in source and "self.groups" in source
    assert callable(AbstractConnection.register_connect_callback)
    assert callable(Consumer.on_connection_error_after_connected)


def test_redis_py_still_installs_a_pubsub_push_handler_as_the_scaled_layer_sets_it():
    """realtime/layers.py _skip_push_logging (bench/pubsub_read.py)."""
    import redis.asyncio as aioredis
    from redis._parsers.hiredis import _AsyncHiredisParser
    pubsub = aioredis.Redis().pubsub()
    assert hasattr(pubsub, "push_handler_func") and pubsub.connection is None
    assert "push_handler_func" in inspect.signature(aioredis.client.PubSub.__init__).parameters
    assert callable(getattr(_AsyncHiredisParser, "set_pubsub_push_handler", None))


def test_channels_session_wrapper_still_keeps_the_servers_send_as_the_sockets_reach_it():
    """games/consumers.py ThinConsumer.send (bench/frame_send.py)."""
    from channels.sessions import InstanceSessionWrapper

    async def server_send(message):
        pass

    wrapper = InstanceSessionWrapper({"cookies": {}}, server_send)
    assert wrapper.real_send is server_send
