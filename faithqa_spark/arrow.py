"""Arrow schemas from the one list of fields in `core.fields` (no Spark import, so the
reference runner can use them too)."""

from __future__ import annotations

from typing import Any, Iterable, Iterator

import pyarrow as pa

from faithqa_spark.core import fields as C

SPAN = [(C.SPAN_START, "int"), (C.SPAN_END, "int")]
ENTITY = [(C.ENT_TEXT, "string"), (C.ENT_LABEL, "string"), (C.ENT_START, "int"),
          (C.ENT_END, "int")]
MENTION = [(C.ENTITY_TYPE, "string"), (C.ENT_TEXT, "string")]
MESSAGE = [(C.ROLE, "string"), (C.CONTENT, "string")]

_SCALARS: dict[str, pa.DataType] = {
    C.STRING: pa.string(), C.LONG: pa.int64(), C.INT: pa.int32(), C.BOOL: pa.bool_(),
}


def arrow_type(kind: str) -> pa.DataType:
    if kind in _SCALARS:
        return _SCALARS[kind]
    if kind == C.STRINGS:
        return pa.list_(pa.string())
    if kind == "array<int>":
        return pa.list_(pa.int32())
    if kind == C.SPANS:
        return pa.list_(arrow_struct(SPAN))
    if kind == C.ENTITY_LIST:
        return pa.list_(arrow_struct(ENTITY))
    if kind == C.MENTION_LIST:
        return pa.list_(arrow_struct(MENTION))
    if kind == C.MESSAGE_LIST:
        return pa.list_(arrow_struct(MESSAGE))
    if kind == C.AUDIT_STRUCT:
        return arrow_struct([(flag, C.BOOL) for flag in C.AUDIT_FLAGS])
    raise ValueError(f"unknown field kind {kind!r}")


def arrow_struct(fields: list[tuple[str, str]]) -> pa.StructType:
    return pa.struct([pa.field(n, arrow_type(k)) for n, k in fields])


def arrow_schema(fields: list[tuple[str, str]]) -> pa.Schema:
    return pa.schema([pa.field(n, arrow_type(k)) for n, k in fields])


def arrow_batch(rows: list[dict], fields: list[tuple[str, str]]) -> pa.RecordBatch:
    """Python dicts -> a RecordBatch with exactly `fields` (the output of every mapInArrow)."""
    return pa.RecordBatch.from_pylist(rows, schema=arrow_schema(fields))


BATCH_ROWS = 4096  # rows per Arrow batch that a mapInArrow task yields


def arrow_batches(rows: Iterable[dict[str, Any]], fields: list[tuple[str, str]],
                  batch_rows: int = BATCH_ROWS) -> Iterator[pa.RecordBatch]:
    """Python rows as Arrow batches of `fields`, `batch_rows` at a time (a task's output
    stays bounded in memory however many rows it yields)."""
    buf: list[dict[str, Any]] = []
    for r in rows:
        buf.append(r)
        if len(buf) >= batch_rows:
            yield arrow_batch(buf, fields)
            buf = []
    if buf:
        yield arrow_batch(buf, fields)
