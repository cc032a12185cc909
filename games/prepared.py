"""The move path's few queries, compiled by Django once per thread and database, then re-run.

Django compiles a queryset's SQL anew on every evaluation and every ``save``: on a move that
compiling, not the database, was most of the service's time (bench/service.py: 9 statements,
about 4 ms of Python on SQLite). The statements a move runs never change shape, only their
parameters, so each is compiled once by Django itself (quoting, ``FOR UPDATE`` where the database
has it, field adaptation) and its rows are turned into model instances by Django's own converters.
On PostgreSQL they run as server-side prepared statements when the connection allows them
(config/settings.py, DB_PREPARED_STATEMENTS). Signals are not sent for these
updates; no receiver listens to these models.
"""
from __future__ import annotations

import threading
import time
from typing import Any

from django.db import connections, router
from django.db.models import Model, QuerySet

# Stands in for the one (integer) parameter while a query is compiled, then is found among the
# compiled parameters: a number no real id or count takes.
_SLOT = -917_263_541
_local = threading.local()


class _CompiledSelect:
    def __init__(self, queryset: QuerySet, db: str):
        self.model = queryset.model
        self.compiler = queryset.query.get_compiler(db)
        self.sql, params = self.compiler.as_sql()
        self.params = list(params)
        slots = [i for i, p in enumerate(self.params) if p == _SLOT]
        assert len(slots) == 1, "a compiled query takes exactly one integer parameter"
        self.slot = slots[0]
        self.db = db
        # Plain querysets (no select_related, defer or annotations) select the concrete fields in
        # order: exactly what Model.from_db expects.
        self.attnames = [f.attname for f in self.model._meta.concrete_fields]
        assert self.compiler.col_count == len(self.attnames), "only plain querysets are compiled"
        self.converters = self.compiler.get_converters([s[0] for s in self.compiler.select])

    def fetch(self, value) -> list[Model]:
        params = list(self.params)
        params[self.slot] = value
        rows = _run(connections[self.db], self.sql, params, fetch=True)
        if self.converters:
            rows = self.compiler.apply_converters(rows, self.converters)
        return [self.model.from_db(self.db, self.attnames, row) for row in rows]


def select(name: str, build) -> _CompiledSelect:
    """The compiled query ``name`` of this thread: ``build(slot)`` returns the queryset, with
    ``slot`` where its one varying integer parameter goes (e.g. ``filter(pk=slot)``)."""
    cache = _cache()
    query = cache.get(name)
    if query is None:
        queryset = build(_SLOT)
        db = router.db_for_read(queryset.model) if not queryset._for_write else router.db_for_write(queryset.model)
        query = cache[name] = _CompiledSelect(queryset, db)
    return query


def update(instance: Model, fields: tuple[str, ...]) -> None:
    """``instance.save(update_fields=fields)`` for a saved instance, with its statement compiled once."""
    model = type(instance)
    db = router.db_for_write(model, instance=instance)
    connection = connections[db]
    cache = _cache()
    key = ("update", model, fields)
    compiled = cache.get(key)
    if compiled is None:
        meta = model._meta
        columns = [meta.get_field(name) for name in fields]
        qn = connection.ops.quote_name
        assignments = ", ".join(f"{qn(f.column)} = %s" for f in columns)
        sql = f"UPDATE {qn(meta.db_table)} SET {assignments} WHERE {qn(meta.pk.column)} = %s"
        compiled = cache[key] = (sql, columns)
    sql, columns = compiled
    params: list[Any] = [f.get_db_prep_save(f.pre_save(instance, False), connection) for f in columns]
    params.append(instance.pk)
    _run(connection, sql, params, fetch=False)


def _run(connection, sql: str, params: list, *, fetch: bool) -> list | None:
    if connection.vendor == "postgresql" and connection.settings_dict["OPTIONS"].get("prepare_threshold") is not None:
        return _run_prepared(connection, sql, params, fetch)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall() if fetch else None


def _run_prepared(connection, sql: str, params: list, fetch: bool) -> list | None:
    """PostgreSQL: a server-side prepared statement, parsed and planned once per connection, its
    parameters sent beside it. Django's psycopg cursors bind on the client, quoting every
    parameter (a deal record's JSON) into the text, which PostgreSQL then parses anew."""
    import psycopg

    connection.ensure_connection()
    start = time.monotonic()
    with connection.wrap_database_errors, psycopg.Cursor(connection.connection) as cursor:
        cursor.execute(sql, params, prepare=True)
        rows = cursor.fetchall() if fetch else None
    if connection.queries_logged:
        connection.queries_log.append({"sql": sql, "time": f"{time.monotonic() - start:.3f}"})
    return rows


def _cache() -> dict:
    cache = getattr(_local, "cache", None)
    if cache is None:
        cache = _local.cache = {}
    return cache
