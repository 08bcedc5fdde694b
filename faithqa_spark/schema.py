"""Spark schemas, derived from the Arrow ones (`faithqa_spark.arrow`), which are built from
the one list of fields in `core.fields`: one type mapping, so the two can never disagree."""

from __future__ import annotations

from pyspark.sql import types as T
from pyspark.sql.pandas.types import from_arrow_schema

from faithqa_spark.arrow import arrow_schema
from faithqa_spark.core import fields as C


def struct_type(fields: list[tuple[str, str]]) -> T.StructType:
    return from_arrow_schema(arrow_schema(fields))


QA_SCHEMA = struct_type(C.QA_FIELDS)
NER_SCHEMA = struct_type(C.NER_FIELDS)
NER_TABLE_SCHEMA = struct_type(C.NER_TABLE_FIELDS)
BANK_TABLE_SCHEMA = struct_type(C.BANK_TABLE_FIELDS)
OUTCOME_SCHEMA = struct_type(C.OUTCOME_FIELDS)
DATASET_SCHEMA = struct_type(C.DATASET_FIELDS)
LEFTOVER_SCHEMA = struct_type(C.LEFTOVER_FIELDS)
AUDIT_SCHEMA = struct_type(C.AUDIT_FIELDS)
LINE_SCHEMA = struct_type([("value", C.STRING)])
