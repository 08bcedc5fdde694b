"""The output plan: what a run keeps in memory, what it writes, in which threads, and when
it publishes. One object owns all of it, so no closure or thunk travels between functions
and nothing is unpersisted by hand: `OutputPlan` is a context manager that releases every
DataFrame it kept and removes its staging directory, whatever happens.

New outputs plug in at one place each: a text export of the dataset or the leftovers is an
entry of `core.exports.LINE_EXPORTS` (both runners write it); any other export of the
dataset is an entry of `SPLIT_WRITERS` (a function of one split's rows, in id order, to
files under the staging directory); a file from another DataFrame (the training exports)
is `OutputPlan.add_file`; a Delta table is `OutputPlan.add_table`.
"""

from __future__ import annotations

import json
import os
import shutil
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any, Callable

import pyarrow as pa
from pyspark import StorageLevel
from pyspark.sql import DataFrame, SparkSession
from pyspark.sql import functions as F

from faithqa_spark import faults
from faithqa_spark import io as fio
from faithqa_spark.arrow import arrow_batch
from faithqa_spark.audit_io import dataset_sample_line, write_audit_sample
from faithqa_spark.config import Config
from faithqa_spark.core import fields as C
from faithqa_spark.core.audit_summary import DEFAULT_SAMPLE_SIZE
from faithqa_spark.core.bank import EntityBank
from faithqa_spark.core.exports import DATASET, LEFTOVERS, LineExport, selected
from faithqa_spark.errors import DeltaUnavailableError
from faithqa_spark.report.index import write_report
from faithqa_spark.runs import new_staging, publish
from faithqa_spark.spark import actions
from faithqa_spark.spark import schema as S
from faithqa_spark.spark import tasks
from faithqa_spark.spark.transforms import in_export_order

WRITE_THREADS = 16  # driver threads waiting on Spark jobs, not CPU work


# ---------------------------------------------------------------- writers

def write_delta(df: DataFrame, path: Path, partition_by: tuple[str, ...] = ()) -> None:
    """Overwrite a Delta table: one atomic commit, so readers see the old version or the new
    one, never a mix; the history keeps both."""
    if faults.armed("delta-write"):  # the driver arms it; the tasks fail
        df = df.mapInArrow(faults.on_first_batch("delta-write", faults.passthrough,
                                                 faults.spec()), df.schema)
    w = df.write.format("delta").mode("overwrite").option("overwriteSchema", "true")
    if partition_by:
        w = w.partitionBy(*partition_by)
    w.save(str(path))


def write_lines(df: DataFrame, export: LineExport, group: str, path: Path) -> None:
    """One file of a line export, in the order of `df` (see `in_export_order`)."""
    write_text(df.select(*export.columns).mapInArrow(tasks.lines_task(export.line),
                                                     S.LINE_SCHEMA),
               path, export.frame(group) if export.frame else None)


def write_text(values: DataFrame, path: Path, frame: tuple[str, str, str] | None = None
               ) -> None:
    """One text file of the lines in the single string column of `values`, in its order
    (an empty file when it has no rows)."""
    parts = path.parent / f".{path.name}.parts"
    values.write.mode("overwrite").option("compression", "none").text(str(parts))
    fio.concat_parts_atomic(parts, path, frame)


def write_parquet(rows: DataFrame, split: str, staging: Path) -> None:
    """A directory of Parquet part files (part-00000.parquet, ...) in the order of `rows`."""
    directory = staging / "parquet" / split
    parts = directory.parent / f".{directory.name}.parts"
    rows.select(*C.DATASET_COLUMNS).write.mode("overwrite").parquet(str(parts))
    directory.mkdir(parents=True, exist_ok=True)
    for i, p in enumerate(fio.part_files(parts)):
        os.replace(p, directory / f"part-{i:05d}.parquet")
    shutil.rmtree(parts, ignore_errors=True)


# output.formats entry -> writer of one split's dataset rows (in id order) under staging
SPLIT_WRITERS: dict[str, Callable[[DataFrame, str, Path], None]] = {"parquet": write_parquet}


def delta_available(spark: SparkSession) -> bool:
    try:
        # Spark's class loader, which sees jars added with --jars / --packages
        spark.sparkContext._jvm.org.apache.spark.util.Utils.classForName(
            "io.delta.tables.DeltaTable", False, False)
    except Exception:  # noqa: BLE001 - py4j wraps the ClassNotFoundException
        return False
    return "DeltaSparkSessionExtension" in (spark.conf.get("spark.sql.extensions", "") or "")


def bank_table(spark: SparkSession, bank: EntityBank, origin: str) -> DataFrame:
    """The entity bank as BANK_TABLE_FIELDS rows."""
    rows = [{C.ENTITY_TYPE: t, C.ENT_TEXT: text, C.FREQUENCY: bank.frequency.get(t, {}).get(text),
             C.ORIGIN: origin} for t, texts in bank.entities.items() for text in texts]
    table = pa.Table.from_batches([arrow_batch(rows, C.BANK_TABLE_FIELDS)])
    return spark.createDataFrame(table)  # from Arrow: no per-row Python conversion


# ---------------------------------------------------------------- the plan

class OutputPlan:
    """A run's outputs under `out`: Delta tables under out/delta (when output.formats has
    "delta"), file exports staged then published, and the DataFrames kept meanwhile."""

    def __init__(self, spark: SparkSession, out: Path, cfg: Config, *, ner_cache: bool) -> None:
        self.spark, self.out = spark, out
        self.formats = set(cfg.output.formats)
        self.delta = "delta" in self.formats
        if (self.delta or ner_cache) and not delta_available(spark):
            raise DeltaUnavailableError(
                "Delta output (output.formats has 'delta', or --ner-cache) needs the Delta Lake "
                "jars and settings: run through ./scripts/submit.sh (or spark-submit --packages "
                "io.delta:delta-spark_2.13:<version> with the Delta SQL extension), or drop "
                "'delta' from output.formats")
        self._kept: list[DataFrame] = []
        self._tables: list[tuple[str, DataFrame, tuple[str, ...]]] = []
        self._files: list[tuple[str, Callable[..., None], tuple[Any, ...]]] = []
        self._staging: Path | None = None

    def __enter__(self) -> OutputPlan:
        return self

    def __exit__(self, *exc: Any) -> None:
        if self._staging is not None:
            shutil.rmtree(self._staging, ignore_errors=True)
        for df in self._kept:
            df.unpersist()

    def keep(self, df: DataFrame) -> DataFrame:
        """Persist `df` for the rest of the run (it is read more than once)."""
        self._kept.append(df.persist(StorageLevel.MEMORY_AND_DISK))
        return df

    def release(self, df: DataFrame) -> None:
        """Drop a kept DataFrame early (a later one holds what is still needed)."""
        if df in self._kept:
            self._kept.remove(df)
            df.unpersist()

    @property
    def staging(self) -> Path:
        """The staging directory, made on first use (once every input file has parsed, so
        nothing appears under the output before)."""
        if self._staging is None:
            self._staging = new_staging(self.out)
        return self._staging

    def add_table(self, name: str, df: DataFrame, partition_by: tuple[str, ...] = ()) -> None:
        """A Delta table out/delta/`name` to write with the others (only when delta is on)."""
        if self.delta:
            self._tables.append((name, df, partition_by))

    def add_file(self, what: str, writer: Callable[..., None], *args: Any) -> None:
        """Another file output, `writer(*args)`, to run with the others in `write` (an
        export of a DataFrame other than the dataset and the leftovers)."""
        self._files.append((what, writer, args))

    def write(self, dataset: DataFrame, leftovers: DataFrame) -> None:
        """The Delta tables and every file export, all at once.

        Each Spark job here is small next to its fixed cost (planning, scheduling, a Delta
        commit), so they run side by side from driver threads. The dataset is sorted into
        export order and persisted once; the Delta `dataset` table and every export are
        written from those same rows, so the exports hold exactly what the table holds."""
        sc = self.spark.sparkContext
        with ThreadPoolExecutor(max_workers=WRITE_THREADS) as pool:
            pending: list[Future] = []

            def submit(what: str, fn: Callable[..., None], *args: Any) -> None:
                def run() -> None:
                    sc.setJobDescription(f"write {what}")  # names the jobs in the Spark UI
                    try:
                        fn(*args)
                    finally:
                        sc.setJobDescription(None)  # type: ignore[arg-type]
                pending.append(pool.submit(run))

            # The dataset's sort comes first: every dataset write waits for it, and Spark
            # gives a job's tasks the cores in the order the jobs came (FIFO).
            ordered = {DATASET: self.keep(in_export_order(dataset, C.SPLIT)),
                       LEFTOVERS: self.keep(in_export_order(leftovers, C.STATUS))}
            sorted_rows = pool.submit(ordered[DATASET].count)
            for st in (C.FILTERED, C.REJECTED):
                self.add_table(st, ordered[LEFTOVERS].filter(F.col(C.STATUS) == st))
            for name, df, partition_by in self._tables:
                submit(f"delta/{name}", write_delta, df, self.out / "delta" / name, partition_by)
            exports = selected(self.formats)
            self._submit_lines(submit, ordered, [e for e in exports if e.table == LEFTOVERS])
            sorted_rows.result()  # sorted and persisted once, before several jobs read it
            faults.fire("write")
            if self.delta:
                submit("delta/dataset", write_delta, ordered[DATASET],
                       self.out / "delta" / "dataset", (C.SOURCE, C.SPLIT))
            self._submit_lines(submit, ordered, [e for e in exports if e.table == DATASET])
            for fmt, writer in SPLIT_WRITERS.items():
                if fmt in self.formats:
                    for split in C.SPLITS:
                        submit(f"{fmt}/{split}", writer,
                               ordered[DATASET].filter(F.col(C.SPLIT) == split), split,
                               self.staging)
            for what, writer, args in self._files:
                submit(what, writer, *args)
            for future in pending:
                future.result()  # the first error, if any, is raised here

    def _submit_lines(self, submit: Callable[..., None], ordered: dict[str, DataFrame],
                      exports: list[LineExport]) -> None:
        for export in exports:
            for group in export.groups:
                rows = ordered[export.table].filter(F.col(export.group) == group)
                submit(export.file(group), write_lines, rows, export, group,
                       self.staging / export.file(group))

    def write_report(self, report: dict[str, Any]) -> None:
        fio.write_json(self.staging / "report.json", report)

    def write_audit_and_analysis(self, dataset: DataFrame, report: dict[str, Any],
                                 seed: int) -> None:
        """DIR/audit/sample.{jsonl,html} (the seeded 200-row audit sample: only its rows
        reach the driver) and DIR/report/ (index.html and its charts), staged."""
        ids = actions.audit_sample_ids(dataset, seed, DEFAULT_SAMPLE_SIZE)
        rank = {row_id: i for i, row_id in enumerate(ids)}
        lines = [r["value"] for r in dataset.filter(F.col(C.ID).isin(ids))
                 .mapInArrow(tasks.lines_task(dataset_sample_line), S.LINE_SCHEMA).collect()]
        lines.sort(key=lambda line: rank[json.loads(line)[C.ID]])
        write_audit_sample(self.staging, lines, title="Audit sample")
        write_report(report, self.staging)

    def publish(self) -> list[str]:
        """Move every staged output to its final name; returns the Delta tables written."""
        publish(self.staging, self.out)
        return sorted(p.name for p in (self.out / "delta").iterdir()) if self.delta else []
