"""The evaluator on Spark: the same readers, row scorer and metrics as the in-process one
(faithqa_spark.evaluate), for prediction sets too large for one process.

Reading: the dataset from the Delta table `DIR/delta/dataset` when present (else its JSONL or
Parquet export), controls from `DIR/sft/` and `--records`, predictions from their files (one
task per file, parsed by `eval_io` exactly as in-process). Joining: the first copy of each
predicted id (by file, then position) with the rows, full outer. Scoring: a mapInArrow that
calls `core.evaluation.contributions` per row. Aggregating: one groupBy of integer counts,
collected to the driver (a few hundred groups) and turned into metrics by the core.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Callable, Iterator

import pyarrow as pa
from pyspark.sql import DataFrame, SparkSession, Window
from pyspark.sql import functions as F

from faithqa_spark import errors
from faithqa_spark.arrow import arrow_batches
from faithqa_spark.core import evaluation as E
from faithqa_spark.core import fields as C
from faithqa_spark.eval_io import EvalInputError, dataset_files, eval_rows, predictions
from faithqa_spark.fs import file_key
from faithqa_spark.spark.schema import struct_type

FILE_ORD, POS, RANK, IN_DATASET, DUPLICATE = "file_ord", "pos", "rank", "in_dataset", "duplicate"
DIM, VALUE = "dimension", "value"
PRED_FIELDS = [(C.ID, C.STRING), (C.PREDICTION, C.STRING), (FILE_ORD, C.INT), (POS, C.LONG)]
COUNT_FIELDS = [(C.KIND, C.STRING), (DIM, C.STRING), (VALUE, C.STRING)] + [
    (c, C.LONG) for c in E.COUNTS]
SCORE_INPUT = C.EVAL_FIELDS + [(IN_DATASET, C.BOOL), (C.PREDICTION, C.STRING),
                               (DUPLICATE, C.BOOL)]
# Errors raised in a Python worker reach the driver wrapped; this one is meant for the user.



def _files(spark: SparkSession, paths: list[str]) -> DataFrame:
    """(path, content) of each file, one task per file."""
    raw = spark.read.format("binaryFile").load([os.path.abspath(p) for p in paths])
    return raw.select("path", "content").repartition(max(len(paths), 1), "path")


def _names(paths: list[str]) -> dict[str, tuple[str, int]]:
    """Absolute path -> (the path as given, its position on the command line)."""
    return {os.path.abspath(p): (p, i) for i, p in enumerate(paths)}


def _eval_rows_fn(names: dict[str, tuple[str, int]], controls_only: bool) -> Callable:
    def parse(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        def rows() -> Iterator[dict[str, Any]]:
            for b in batches:
                for path, content in zip(b.column("path").to_pylist(),
                                         b.column("content").to_pylist()):
                    yield from eval_rows(content, names[file_key(path)][0], controls_only)
        yield from arrow_batches(rows(), C.EVAL_FIELDS)
    return parse


def _records_to_eval_fn(table: str) -> Callable:
    def one(record: dict[str, Any]) -> dict[str, Any]:
        try:
            return E.eval_row(record)
        except E.RecordError as e:
            raise EvalInputError(f"{table}: {e}") from None

    def convert(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        yield from arrow_batches((one(r) for b in batches for r in b.to_pylist()), C.EVAL_FIELDS)
    return convert


def _predictions_fn(names: dict[str, tuple[str, int]]) -> Callable:
    def parse(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        def rows() -> Iterator[dict[str, Any]]:
            for b in batches:
                for path, content in zip(b.column("path").to_pylist(),
                                         b.column("content").to_pylist()):
                    shown, order = names[file_key(path)]
                    for pid, text, pos in predictions(content, shown):
                        yield {C.ID: pid, C.PREDICTION: text, FILE_ORD: order, POS: pos}
        yield from arrow_batches(rows(), PRED_FIELDS)
    return parse


def _score_fn(settings: E.Settings) -> Callable:
    eval_names = [n for n, _ in C.EVAL_FIELDS]

    def score(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        def rows() -> Iterator[dict[str, Any]]:
            for b in batches:
                for r in b.to_pylist():
                    row = {n: r[n] for n in eval_names} if r[IN_DATASET] else None
                    for (kind, dim, value), counts in E.contributions(
                            row, r[C.PREDICTION], bool(r[DUPLICATE]), settings):
                        yield {C.KIND: kind, DIM: dim, VALUE: value,
                               **{c: counts.get(c, 0) for c in E.COUNTS}}
        yield from arrow_batches(rows(), COUNT_FIELDS)
    return score


def dataset_rows(spark: SparkSession, dataset: str) -> DataFrame:
    """The dataset's evaluation rows: the Delta table when there is one, else the export."""
    delta = Path(dataset) / "delta" / "dataset"
    if (delta / "_delta_log").is_dir():
        table = spark.read.format("delta").load(str(delta.resolve()))
        return table.mapInArrow(_records_to_eval_fn(str(delta)), struct_type(C.EVAL_FIELDS))
    files, _ = dataset_files(dataset)
    return _files(spark, files).mapInArrow(_eval_rows_fn(_names(files), False),
                                           struct_type(C.EVAL_FIELDS))


def all_rows(spark: SparkSession, dataset: str | None, records: list[str]) -> DataFrame:
    """Dataset rows and controls (completed from their dataset rows), as in-process."""
    control_files = dataset_files(dataset)[1] + records
    schema = struct_type(C.EVAL_FIELDS)
    rows = dataset_rows(spark, dataset) if dataset else spark.createDataFrame([], schema)
    if not control_files:
        return rows
    controls = _files(spark, control_files).mapInArrow(
        _eval_rows_fn(_names(control_files), dataset is not None), schema)
    if dataset:
        base = rows.select(F.col(C.ID).alias("_sid"),
                           *[F.col(f).alias(f"_src_{f}") for f in E.INHERITED])
        controls = (controls.join(base, F.col(C.SOURCE_ID) == F.col("_sid"), how="left")
                    .select(*[F.coalesce(F.col(n), F.col(f"_src_{n}")).alias(n)
                              if n in E.INHERITED else F.col(n) for n, _ in C.EVAL_FIELDS]))
    return rows.unionByName(controls)


def check_unique(rows: DataFrame) -> None:
    dup = rows.groupBy(C.ID).count().filter(F.col("count") > 1).limit(1).collect()
    if dup:
        raise EvalInputError(f"id {dup[0][C.ID]} appears twice in the evaluation records")


def score_input(rows: DataFrame, preds: DataFrame) -> DataFrame:
    """Rows joined with the first prediction of their id (full outer: unknown predictions
    and missing ones stay), plus the later copies of predicted ids as duplicates."""
    ranked = preds.withColumn(RANK, F.row_number().over(
        Window.partitionBy(C.ID).orderBy(FILE_ORD, POS)))
    first = ranked.filter(F.col(RANK) == 1).select(F.col(C.ID).alias("_pid"), C.PREDICTION)
    joined = (rows.withColumn(IN_DATASET, F.lit(True))
              .join(first, F.col(C.ID) == F.col("_pid"), how="full_outer")
              .withColumn(DUPLICATE, F.lit(False)))
    later = (ranked.filter(F.col(RANK) > 1)
             .select(*[F.lit(None).cast("string").alias(n) for n, _ in C.EVAL_FIELDS],
                     F.lit(None).cast("boolean").alias(IN_DATASET), C.PREDICTION,
                     F.lit(True).alias(DUPLICATE)))
    cols = [n for n, _ in SCORE_INPUT]
    return joined.select(*cols).unionByName(later.select(*cols))


def evaluate_spark(spark: SparkSession, run: Any) -> dict[str, Any]:
    """The metrics.json object of one run (an evaluate.EvalRun), computed on Spark."""
    from faithqa_spark.evaluate import result, settings

    rows = all_rows(spark, run.dataset, run.records)
    check_unique(rows)
    preds = _files(spark, run.predictions).mapInArrow(
        _predictions_fn(_names(run.predictions)), struct_type(PRED_FIELDS))
    counts = score_input(rows, preds).mapInArrow(_score_fn(settings(run.cfg)),
                                                 struct_type(COUNT_FIELDS))
    totals = (counts.groupBy(C.KIND, DIM, VALUE)
              .agg(*[F.sum(c).alias(c) for c in E.COUNTS]).collect())
    return result(run, {(r[C.KIND], r[DIM], r[VALUE]): {c: int(r[c]) for c in E.COUNTS if r[c]}
                        for r in totals})


def main(argv: list[str] | None = None) -> int:
    """spark-submit jobs/evaluate.py: the in-process evaluator's flags, on Spark."""
    from faithqa_spark.evaluate import finish, parse
    from faithqa_spark.spark.session import build_session

    try:
        run = parse(argv, "evaluate.py")
    except Exception as e:  # noqa: BLE001 - a user error is one line; a bug keeps its traceback
        return errors.report(e)
    spark = build_session(run.cfg, run.master)
    try:
        metrics = evaluate_spark(spark, run)
    except Exception as e:  # noqa: BLE001 - also a worker's error, unwrapped by errors.py
        return errors.report(e)
    finally:
        spark.stop()
    finish(run, metrics)
    return 0
