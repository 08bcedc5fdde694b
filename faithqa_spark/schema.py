"""Spark schemas, built from the one list of fields in `core.fields`."""

from __future__ import annotations

from pyspark.sql import types as T

from faithqa_spark.arrow import ENTITY, SPAN
from faithqa_spark.core import fields as C

_SCALARS: dict[str, T.DataType] = {
    "string": T.StringType(), "long": T.LongType(), "int": T.IntegerType(),
    "bool": T.BooleanType(),
}


def _spark_type(kind: str) -> T.DataType:
    if kind in _SCALARS:
        return _SCALARS[kind]
    if kind == C.STRINGS:
        return T.ArrayType(T.StringType())
    if kind == "array<int>":
        return T.ArrayType(T.IntegerType())
    if kind == C.SPANS:
        return T.ArrayType(struct_type(SPAN))
    if kind == C.ENTITY_LIST:
        return T.ArrayType(struct_type(ENTITY))
    raise ValueError(f"unknown field kind {kind!r}")


def struct_type(fields: list[tuple[str, str]]) -> T.StructType:
    return T.StructType([T.StructField(n, _spark_type(k), True) for n, k in fields])


QA_SCHEMA = struct_type(C.QA_FIELDS)
NER_SCHEMA = struct_type(C.NER_FIELDS)
NER_TABLE_SCHEMA = struct_type(C.NER_TABLE_FIELDS)
BANK_TABLE_SCHEMA = struct_type(C.BANK_TABLE_FIELDS)
OUTCOME_SCHEMA = struct_type(C.OUTCOME_FIELDS)
DATASET_SCHEMA = struct_type(C.DATASET_FIELDS)
LEFTOVER_SCHEMA = struct_type(C.LEFTOVER_FIELDS)
BANK_MENTION_FIELDS = [(C.ENTITY_TYPE, "string"), (C.ENT_TEXT, "string")]
BANK_MENTION_SCHEMA = struct_type(BANK_MENTION_FIELDS)
LINE_SCHEMA = struct_type([("value", "string")])
