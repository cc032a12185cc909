"""The move path's few queries, compiled by Django once per thread and database, then re-run.

Django compiles a queryset's SQL anew on every evaluation and every ``save``: on a move that
compiling, not the database, would be most of the service's time (docs/SCALING.md, "What the
move path keeps and why"). The statements a move runs never change shape, only their
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
from django.db.models import JSONField, Model, QuerySet

from realtime import wire

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
        return self.instances(_run(connections[self.db], self.sql, self.with_param(value)))

    def with_param(self, value) -> list:
        params = list(self.params)
        params[self.slot] = value
        return params

    def instances(self, rows) -> list[Model]:
        if self.converters:
            rows = self.compiler.apply_converters(rows, self.converters)
        return [self.model.from_db(self.db, self.attnames, row) for row in rows]


def fetch_many(queries: list[tuple[_CompiledSelect, Any]]) -> list[list[Model]]:
    """Several compiled selects with their parameter, in order: on PostgreSQL in one round trip."""
    connection = connections[queries[0][0].db]
    if not _prepares(connection):
        return [query.fetch(value) for query, value in queries]
    results = _run_prepared(connection, [(q.sql, q.with_param(v)) for q, v in queries], fetch=True)
    return [q.instances(rows) for (q, _v), rows in zip(queries, results)]


def batches_reads(model: type[Model]) -> bool:
    """Whether reading more than is sure to be needed costs less than another round trip."""
    return _prepares(connections[router.db_for_read(model)])


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
    update_many([(instance, fields)])


def update_many(changes: list[tuple[Model, tuple[str, ...]]], *, commit: bool = False) -> None:
    """Several such updates (one change's); on PostgreSQL as one statement. The values are read
    at this call, so an instance listed twice is written once, with all the fields listed for it.

    ``commit``: these are the last statements of the caller's atomic block. On PostgreSQL, when
    that block is the outermost one, its COMMIT goes in the same round trip, and Django's commit
    at the block's end finds nothing left to do (it still runs the on-commit hooks). A move then
    costs two round trips, not three: each one waits for a busy machine to schedule the database
    and then this thread (bench/live.py: a third of the service's time under load)."""
    if not changes:
        return
    changes = _per_row(changes)
    connection = connections[router.db_for_write(type(changes[0][0]), instance=changes[0][0])]
    statements = [_update_statement(connection, instance, fields) for instance, fields in changes]
    if _prepares(connection):
        _run_prepared(connection, [_one_statement(statements)], fetch=False,
                      commit=commit and _outermost(connection))
    else:
        with connection.cursor() as cursor:
            for sql, params in statements:
                cursor.execute(sql, params)


def _per_row(changes: list[tuple[Model, tuple[str, ...]]]) -> list[tuple[Model, tuple[str, ...]]]:
    """One change per row: the fields listed for an instance, in the order first listed."""
    rows: dict[int, tuple[Model, dict[str, None]]] = {}
    for instance, fields in changes:
        rows.setdefault(id(instance), (instance, {}))[1].update(dict.fromkeys(fields))
    return [(instance, tuple(fields)) for instance, fields in rows.values()]


def _one_statement(statements: list[tuple[str, list]]) -> tuple[str, list]:
    """Several UPDATEs of different rows as one statement: all but the last as data-modifying
    WITH clauses (PostgreSQL runs each once, on one snapshot; no two touch the same row, so
    their order does not matter). One statement costs the server one parse-bind-execute and this
    thread one cursor instead of one per row (bench/service.py)."""
    if len(statements) == 1:
        return statements[0]
    sql = "WITH " + ", ".join(f"w{i} AS ({sql})" for i, (sql, _p) in enumerate(statements[:-1]))
    return f"{sql} {statements[-1][0]}", [p for _sql, params in statements for p in params]


def _update_statement(connection, instance: Model, fields: tuple[str, ...]) -> tuple[str, list]:
    model = type(instance)
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
    params: list[Any] = [_db_value(f, f.pre_save(instance, False), connection) for f in columns]
    params.append(instance.pk)
    return sql, params


def _db_value(field, value, connection):
    """``field.get_db_prep_save``, except that JSON (a deal record, each move) is encoded by
    orjson rather than the standard library, several times faster."""
    if isinstance(field, JSONField) and value is not None and field.encoder is None:
        if connection.vendor == "postgresql":
            from psycopg.types.json import Jsonb
            return Jsonb(value, dumps=wire.dumps)
        return wire.dumps(value)
    return field.get_db_prep_save(value, connection)


def _prepares(connection) -> bool:
    return (connection.vendor == "postgresql"
            and connection.settings_dict["OPTIONS"].get("prepare_threshold") is not None)


def _outermost(connection) -> bool:
    """Inside exactly one atomic block, with no savepoint and nothing marked for rollback: the
    block whose end commits (so never inside a test's wrapping transaction)."""
    return (connection.in_atomic_block and len(connection.atomic_blocks) == 1
            and not connection.savepoint_ids and not connection.needs_rollback)


def _run(connection, sql: str, params: list) -> list:
    if _prepares(connection):
        return _run_prepared(connection, [(sql, params)], fetch=True)[0]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def _run_prepared(connection, statements: list[tuple[str, list]], fetch: bool,
                  commit: bool = False) -> list[list] | None:
    """PostgreSQL: server-side prepared statements, parsed and planned once per connection, their
    parameters sent beside them. Django's psycopg cursors bind on the client, quoting every
    parameter (a deal record's JSON) into the text, which PostgreSQL then parses anew. Several
    statements (and the COMMIT, with ``commit``) go out in one pipeline: one round trip instead
    of one each."""
    import psycopg

    connection.ensure_connection()
    start = time.monotonic()
    raw = connection.connection
    rows = None
    with connection.wrap_database_errors:
        if len(statements) == 1 and not commit:
            with psycopg.Cursor(raw) as cursor:
                cursor.execute(*statements[0], prepare=True)
                rows = [cursor.fetchall()] if fetch else None
        else:
            cursors = [psycopg.Cursor(raw) for _ in statements]
            with raw.pipeline():
                for cursor, (sql, params) in zip(cursors, statements):
                    cursor.execute(sql, params, prepare=True)
                if commit:
                    raw.commit()
            rows = [cursor.fetchall() for cursor in cursors] if fetch else None
            for cursor in cursors:
                cursor.close()
    if connection.queries_logged:
        took = f"{time.monotonic() - start:.3f}"
        connection.queries_log.extend({"sql": sql, "time": took} for sql, _params in statements)
    return rows


def _cache() -> dict:
    cache = getattr(_local, "cache", None)
    if cache is None:
        cache = _local.cache = {}
    return cache
