"""The audit on Spark (`jobs/audit_dataset.py`): the same reading, checks, flags, counts and
sample as `faithqa_spark.audit`, with the per-row work in mapInArrow tasks calling the same
functions, and counts and the sample computed by Spark. Its files equal the in-process ones.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Callable, Iterator

import pyarrow as pa
from pyspark.sql import DataFrame, SparkSession
from pyspark.sql import functions as F

from faithqa_spark import errors
from faithqa_spark.arrow import arrow_batch
from faithqa_spark.audit import AuditRun, parse_args, report_meta
from faithqa_spark.audit_io import (
    AuditInput, check_record, iter_records, sample_line, write_audit_outputs)
from faithqa_spark.core import fields as C
from faithqa_spark.core.audit import AuditBounds, audit_row
from faithqa_spark.core.audit_summary import (
    audit_counts, audit_key, audit_report, gender_lookup, row_gender_votes)
from faithqa_spark.fs import file_key
from faithqa_spark.spark.schema import struct_type

ROW_JSON, KEY, LINE = "row_json", "audit_key", "line"
ROWS_FIELDS = [(C.ID, C.STRING), (C.SOURCE, C.STRING), (ROW_JSON, C.STRING)]
VOTE_FIELDS = [("name", C.STRING), ("gender", C.STRING)]
AUDITED_FIELDS = [(C.ID, C.STRING), (C.SOURCE, C.STRING), (KEY, C.LONG), (LINE, C.STRING),
                  *C.AUDIT_FIELDS]
COUNT_FIELDS = [(C.SOURCE, C.STRING), ("flag", C.STRING), ("value", C.STRING), ("n", C.LONG)]


def _parse_fn(kinds: dict[str, str]) -> Callable:
    def parse(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        for batch in batches:
            for f in batch.to_pylist():
                path = file_key(f["path"])
                inp = AuditInput(path, kinds[path])
                out = []
                for loc, obj in iter_records(bytes(f["content"]), inp):
                    row = check_record(obj, path, loc)
                    out.append({C.ID: row[C.ID], C.SOURCE: row.get(C.SOURCE),
                                ROW_JSON: json.dumps(row, ensure_ascii=False)})
                if out:
                    yield arrow_batch(out, ROWS_FIELDS)
    return parse


def read_rows(spark: SparkSession, inputs: list[AuditInput]) -> DataFrame:
    """Checked rows (id, source, the row as JSON) of all inputs, one read task per file."""
    kinds = {str(Path(i.path).resolve()): i.kind for i in inputs}
    raw = spark.read.format("binaryFile").load(sorted(kinds)).select("path", "content")
    if len(kinds) > 1:
        raw = raw.repartition(len(kinds), "path")
    return raw.mapInArrow(_parse_fn(kinds), struct_type(ROWS_FIELDS))


def _votes_fn() -> Callable:
    def votes(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        for batch in batches:
            out = [{"name": n, "gender": g} for r in batch.column(ROW_JSON).to_pylist()
                   for n, g in row_gender_votes(json.loads(r))]
            if out:
                yield arrow_batch(out, VOTE_FIELDS)
    return votes


def gender_votes(rows: DataFrame) -> dict[str, tuple[int, int]]:
    """Per name, (male, female) votes of its mentions in the dataset's original contexts."""
    df = (rows.mapInArrow(_votes_fn(), struct_type(VOTE_FIELDS))
          .groupBy("name").agg(F.sum(F.when(F.col("gender") == "m", 1).otherwise(0)).alias("m"),
                               F.sum(F.when(F.col("gender") == "f", 1).otherwise(0)).alias("f")))
    return {r["name"]: (int(r["m"]), int(r["f"])) for r in df.collect()}


def _audit_fn(bounds: AuditBounds, votes: dict[str, tuple[int, int]], seed: int) -> Callable:
    def audit(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        gender_of = gender_lookup(votes)
        for batch in batches:
            out = []
            for r in batch.column(ROW_JSON).to_pylist():
                row = json.loads(r)
                flags = audit_row(row, bounds, gender_of)
                out.append({C.ID: row[C.ID], C.SOURCE: row.get(C.SOURCE),
                            KEY: audit_key(seed, row[C.ID]), LINE: sample_line(row, flags),
                            C.AUDIT: flags})
            yield arrow_batch(out, AUDITED_FIELDS)
    return audit


def _count_fn() -> Callable:
    def count(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        c: Counter = Counter()
        for batch in batches:
            c.update(audit_counts((s, a) for s, a in zip(
                batch.column(C.SOURCE).to_pylist(), batch.column(C.AUDIT).to_pylist())))
        yield arrow_batch([{C.SOURCE: s, "flag": f, "value": v, "n": n}
                           for (s, f, v), n in sorted(c.items(), key=lambda kv: (kv[0][0] or "", kv[0][1:]))],
                          COUNT_FIELDS)
    return count


def run_audit_spark(spark: SparkSession, run: AuditRun) -> str:
    """The audit with Spark; writes the same files as `faithqa_spark.audit.run_audit`."""
    rows = read_rows(spark, run.inputs).persist()
    votes = gender_votes(rows)
    audited = rows.mapInArrow(_audit_fn(run.bounds, votes, run.seed),
                              struct_type(AUDITED_FIELDS)).persist()
    counts_df = (audited.select(C.SOURCE, C.AUDIT).mapInArrow(_count_fn(), struct_type(COUNT_FIELDS))
                 .groupBy(C.SOURCE, "flag", "value").agg(F.sum("n").alias("n")))
    counts = {(r[C.SOURCE], r["flag"], r["value"]): int(r["n"]) for r in counts_df.collect()}
    sample = [r[LINE] for r in audited.orderBy(KEY, C.ID, LINE).limit(run.sample_size)
              .select(LINE).collect()] if run.sample_size else []
    report = {**report_meta(run), **audit_report(counts)}
    table = write_audit_outputs(run.output, report, sample, title="Audit sample")
    audited.unpersist()
    rows.unpersist()
    return table


def main(argv: list[str] | None = None) -> int:
    """spark-submit jobs/audit_dataset.py FILE_OR_DIR... --output DIR."""
    try:
        run = parse_args(argv, "audit_dataset.py")
    except Exception as e:  # noqa: BLE001 - a user error is one line; a bug keeps its traceback
        return errors.report(e)
    from faithqa_spark.spark.session import build_session

    spark = build_session(run.cfg, run.master)
    try:
        print(run_audit_spark(spark, run))
    except Exception as e:  # noqa: BLE001 - also a worker's error, unwrapped by errors.py
        return errors.report(e)
    finally:
        spark.stop()
    return 0

