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


# ---------------------------------------------------------------- Arrow -> Python, fast

def pylist(array: pa.Array | pa.ChunkedArray) -> list[Any]:
    """`array.to_pylist()`, the same values of the same Python types, several times faster
    on the columns the tasks read. pyarrow's own to_pylist makes a Scalar object per value
    (per field of a struct, per element of a list), which made the Arrow -> Python
    conversion the largest cost of the shard writers and of the process and training tasks.
    Here strings, integers and booleans go through NumPy in C, and structs and lists are
    put together from their children's values; any other type, and integers, booleans,
    structs or lists with nulls, fall back on to_pylist."""
    if isinstance(array, pa.ChunkedArray):
        return [v for chunk in array.chunks for v in pylist(chunk)]
    t = array.type
    if pa.types.is_string(t) or pa.types.is_large_string(t):
        return array.to_numpy(zero_copy_only=False).tolist()  # a null is None
    if array.null_count:
        return array.to_pylist()
    if pa.types.is_integer(t) or pa.types.is_boolean(t):
        return array.to_numpy(zero_copy_only=False).tolist()
    if pa.types.is_struct(t) and t.num_fields:
        names = [t.field(i).name for i in range(t.num_fields)]
        # flatten(): the children cut to this (possibly sliced) array
        return [dict(zip(names, values))
                for values in zip(*(pylist(child) for child in array.flatten()))]
    if pa.types.is_list(t) or pa.types.is_large_list(t):
        values = pylist(array.flatten())
        out, at = [], 0
        for n in array.value_lengths().to_numpy(zero_copy_only=False).tolist():
            out.append(values[at:at + n])
            at += n
        return out
    return array.to_pylist()


def batch_rows(batch: pa.RecordBatch) -> list[dict[str, Any]]:
    """`batch.to_pylist()` (a dict per row, the columns in order) by `pylist`."""
    names = batch.schema.names
    if not names:
        return batch.to_pylist()
    return [dict(zip(names, values)) for values in zip(*(pylist(c) for c in batch.columns))]
