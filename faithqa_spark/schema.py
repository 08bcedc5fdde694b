"""Spark and Arrow schemas, built from the one list of fields in `core.fields`."""

from __future__ import annotations

import pyarrow as pa
from pyspark.sql import types as T

from faithqa_spark.core import fields as C

_SPAN = [(C.SPAN_START, "int"), (C.SPAN_END, "int")]
_ENTITY = [(C.ENT_TEXT, "string"), (C.ENT_LABEL, "string"), (C.ENT_START, "int"), (C.ENT_END, "int")]

_SPARK_SCALARS: dict[str, T.DataType] = {
    "string": T.StringType(), "long": T.LongType(), "int": T.IntegerType(),
    "bool": T.BooleanType(),
}
_ARROW_SCALARS: dict[str, pa.DataType] = {
    "string": pa.string(), "long": pa.int64(), "int": pa.int32(), "bool": pa.bool_(),
}


def _spark_type(kind: str) -> T.DataType:
    if kind in _SPARK_SCALARS:
        return _SPARK_SCALARS[kind]
    if kind == C.STRINGS:
        return T.ArrayType(T.StringType())
    if kind == "array<int>":
        return T.ArrayType(T.IntegerType())
    if kind == C.SPANS:
        return T.ArrayType(struct_type(_SPAN))
    if kind == C.ENTITY_LIST:
        return T.ArrayType(struct_type(_ENTITY))
    raise ValueError(f"unknown field kind {kind!r}")


def _arrow_type(kind: str) -> pa.DataType:
    if kind in _ARROW_SCALARS:
        return _ARROW_SCALARS[kind]
    if kind == C.STRINGS:
        return pa.list_(pa.string())
    if kind == "array<int>":
        return pa.list_(pa.int32())
    if kind == C.SPANS:
        return pa.list_(arrow_schema(_SPAN))
    if kind == C.ENTITY_LIST:
        return pa.list_(arrow_schema(_ENTITY))
    raise ValueError(f"unknown field kind {kind!r}")


def struct_type(fields: list[tuple[str, str]]) -> T.StructType:
    return T.StructType([T.StructField(n, _spark_type(k), True) for n, k in fields])


def arrow_schema(fields: list[tuple[str, str]]) -> pa.StructType:
    return pa.struct([pa.field(n, _arrow_type(k)) for n, k in fields])


def arrow_batch(rows: list[dict], fields: list[tuple[str, str]]) -> pa.RecordBatch:
    """Python dicts -> a RecordBatch with exactly `fields` (the output of every mapInArrow)."""
    schema = pa.schema([pa.field(n, _arrow_type(k)) for n, k in fields])
    return pa.RecordBatch.from_pylist(rows, schema=schema)


QA_SCHEMA = struct_type(C.QA_FIELDS)
NER_SCHEMA = struct_type(C.NER_FIELDS)
OUTCOME_SCHEMA = struct_type(C.OUTCOME_FIELDS)
DATASET_SCHEMA = struct_type(C.DATASET_FIELDS)
LEFTOVER_SCHEMA = struct_type(C.LEFTOVER_FIELDS)
BANK_MENTION_FIELDS = [(C.ENTITY_TYPE, "string"), (C.ENT_TEXT, "string")]
BANK_MENTION_SCHEMA = struct_type(BANK_MENTION_FIELDS)
LINE_FIELDS = [("value", "string")]
LINE_SCHEMA = struct_type(LINE_FIELDS)
