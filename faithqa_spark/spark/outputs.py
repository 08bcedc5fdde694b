"""The output plan: what a run keeps in memory, what it writes, in which threads, and where.
One object owns all of it, so no closure or thunk travels between functions and nothing is
unpersisted by hand: `OutputPlan` is a context manager that releases every DataFrame it kept
and, after a failure, drops its staging directory, whatever happens.

Every output goes straight into the output filesystem (`runs.RunDir`: a local path or any
URI `fs.py` reaches): the exports as shards written by the executors (`spark.shards`), the
small driver-made files (report.json, the card, the bank, the audit sample, the charts)
through `outdir.OutDir`, the Delta tables by Delta. manifest.json, written last by the job,
marks the run complete.

New outputs plug in at one place each: an export of the dataset or the leftovers is an
entry of `core.exports.FILE_EXPORTS` (both runners write it); files from another DataFrame
(the training exports) are `OutputPlan.add_sharded`; a Delta table is
`OutputPlan.add_table`.
"""

from __future__ import annotations

import json
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, Callable, Mapping, Sequence

import pyarrow as pa
from pyspark import StorageLevel
from pyspark.sql import DataFrame, SparkSession
from pyspark.sql import functions as F

from faithqa_spark import faults, fs
from faithqa_spark.arrow import arrow_batch
from faithqa_spark.audit_io import dataset_sample_line, write_audit_sample
from faithqa_spark.config import Config
from faithqa_spark.core import bank as cbank
from faithqa_spark.core import fields as C
from faithqa_spark.core.audit_summary import DEFAULT_SAMPLE_SIZE
from faithqa_spark.core.bank import EntityBank
from faithqa_spark.core.exports import DATASET, LEFTOVERS, by_export
from faithqa_spark.errors import DeltaUnavailableError
from faithqa_spark.outdir import OutDir
from faithqa_spark.report.index import write_report
from faithqa_spark.runs import DELTA, RunDir
from faithqa_spark.shard_io import Target, layout_of, targets_by_group
from faithqa_spark.spark import actions
from faithqa_spark.spark import schema as S
from faithqa_spark.spark import tasks
from faithqa_spark.spark.shards import write_sharded
from faithqa_spark.spark.transforms import in_export_order

WRITE_THREADS = 16  # driver threads waiting on Spark jobs, not CPU work


# ---------------------------------------------------------------- writers

def write_delta(df: DataFrame, uri: str, partition_by: tuple[str, ...] = ()) -> None:
    """Overwrite a Delta table: one atomic commit, so readers see the old version or the new
    one, never a mix; the history keeps both."""
    if faults.armed("delta-write"):  # the driver arms it; the tasks fail
        df = df.mapInArrow(faults.on_first_batch("delta-write", faults.passthrough,
                                                 faults.spec()), df.schema)
    w = df.write.format("delta").mode("overwrite").option("overwriteSchema", "true")
    if partition_by:
        w = w.partitionBy(*partition_by)
    w.save(uri)


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
    """A run's outputs under `out` (a path or a URI): Delta tables under out/delta (when
    output.formats has "delta"), the file exports and small files, and the DataFrames kept
    meanwhile."""

    def __init__(self, spark: SparkSession, out: str, cfg: Config, *, ner_cache: bool) -> None:
        self.spark = spark
        self.formats = set(cfg.output.formats)
        self.delta = "delta" in self.formats
        if (self.delta or ner_cache) and not delta_available(spark):
            raise DeltaUnavailableError(
                "Delta output (output.formats has 'delta', or --ner-cache) needs the Delta Lake "
                "jars and settings: run through ./scripts/submit.sh (or spark-submit --packages "
                "io.delta:delta-spark_2.13:<version> with the Delta SQL extension), or drop "
                "'delta' from output.formats")
        # the session's filesystem settings, as plain data: the executors write with them
        self.run = RunDir(out, fs.spark_hadoop_settings(spark), cfg.output.publish)
        self.layout = layout_of(cfg)
        self._kept: list[DataFrame] = []
        self._tables: list[tuple[str, DataFrame, tuple[str, ...]]] = []
        self._sharded: list[tuple[str, DataFrame, str, dict[str, list[Target]]]] = []

    def __enter__(self) -> OutputPlan:
        return self

    def __exit__(self, exc_type: Any, *exc: Any) -> None:
        if exc_type is not None:
            self.run.discard()
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
    def root(self) -> OutDir:
        """Where the run's files go (`RunDir.root`), made ready on first use: once every
        input file has parsed, so nothing under the output changes before."""
        return self.run.root

    def delta_uri(self, name: str) -> str:
        return self.run.out.path(f"{DELTA}/{name}")

    def add_table(self, name: str, df: DataFrame, partition_by: tuple[str, ...] = ()) -> None:
        """A Delta table out/delta/`name` to write with the others (only when delta is on)."""
        if self.delta:
            self._tables.append((name, df, partition_by))

    def add_sharded(self, what: str, ordered: DataFrame, key: str,
                    targets: Mapping[str, Sequence[Target]]) -> None:
        """Exports of another DataFrame (the training exports) to write with the others:
        `ordered` sorted by (`key`, id) and kept, `targets` per value of `key`
        (`spark.shards.write_sharded`)."""
        self._sharded.append((what, ordered, key, {k: list(v) for k, v in targets.items()}))

    def write(self, dataset: DataFrame, leftovers: DataFrame) -> None:
        """The Delta tables and every file export, all at once.

        Each Spark job here is small next to its fixed cost (planning, scheduling, a Delta
        commit), so they run side by side from driver threads. The dataset is sorted into
        export order and persisted once; the Delta `dataset` table and every export are
        written from those same rows, so the exports hold exactly what the table holds."""
        sc = self.spark.sparkContext
        root = self.root
        with ThreadPoolExecutor(max_workers=WRITE_THREADS) as pool:
            pending: list[Future] = []

            def submit(what: str, fn: Callable[..., Any], *args: Any) -> None:
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
                submit(f"delta/{name}", write_delta, df, self.delta_uri(name), partition_by)
            self._submit_exports(submit, root, LEFTOVERS, ordered[LEFTOVERS], C.STATUS)
            sorted_rows.result()  # sorted and persisted once, before several jobs read it
            faults.fire("write")
            if self.delta:
                submit("delta/dataset", write_delta, ordered[DATASET], self.delta_uri("dataset"),
                       (C.SOURCE, C.SPLIT))
            self._submit_exports(submit, root, DATASET, ordered[DATASET], C.SPLIT)
            for what, df, key, targets in self._sharded:
                submit(what, write_sharded, df, key, targets, root, self.layout)
            for future in pending:
                future.result()  # the first error, if any, is raised here

    def _submit_exports(self, submit: Callable[..., None], root: OutDir, table: str,
                        ordered: DataFrame, key: str) -> None:
        targets = targets_by_group(by_export(self.formats, table))
        if targets:
            submit(f"{table} exports", write_sharded, ordered, key, targets, root, self.layout)

    def write_bank(self, bank: EntityBank) -> None:
        """entity_bank/ in the paper's format (`core.bank.bank_files`)."""
        for name, data in cbank.bank_files(bank).items():
            self.root.write_bytes(f"entity_bank/{name}", data)

    def write_report(self, report: dict[str, Any]) -> None:
        self.root.write_json("report.json", report)

    def write_audit_and_analysis(self, dataset: DataFrame, report: dict[str, Any],
                                 seed: int) -> None:
        """DIR/audit/sample.{jsonl,html} (the seeded 200-row audit sample: only its rows
        reach the driver) and DIR/report/ (index.html and its charts)."""
        ids = actions.audit_sample_ids(dataset, seed, DEFAULT_SAMPLE_SIZE)
        rank = {row_id: i for i, row_id in enumerate(ids)}
        lines = [r["value"] for r in dataset.filter(F.col(C.ID).isin(ids))
                 .mapInArrow(tasks.lines_task(dataset_sample_line), S.LINE_SCHEMA).collect()]
        lines.sort(key=lambda line: rank[json.loads(line)[C.ID]])
        write_audit_sample(self.root, lines, title="Audit sample")
        write_report(report, self.root)

    def publish(self) -> list[str]:
        """Bring the files into place (`RunDir.publish`); returns the Delta tables written."""
        self.run.publish()
        if not self.delta:
            return []
        return fs.list_names(self.run.out.path(DELTA), self.run.out.settings)
