"""The Spark job: DataFrame -> DataFrame transforms around the pure core.

Every row-level decision is made by a core function (readers, `process_row`, bank cleaning,
split labelling); Spark only moves data: it reads files, runs NER once per distinct
context, joins, counts and writes. That is what lets `faithqa_spark.reference` reproduce
the output byte for byte without Spark.
"""

from __future__ import annotations

import math
import os
import shutil
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any, Callable, Iterator

import pyarrow as pa
from pyspark import StorageLevel
from pyspark.sql import Column, DataFrame, SparkSession
from pyspark.sql import functions as F

from faithqa_spark import PIPELINE_VERSION, faults
from faithqa_spark import io as fio
from faithqa_spark import ner as fner
from faithqa_spark import schema as S
from faithqa_spark.arrow import arrow_batch, arrow_schema, arrow_type
from faithqa_spark.config import Config
from faithqa_spark.core import bank as cbank
from faithqa_spark.core import fields as C
from faithqa_spark.core import reasons, splitting
from faithqa_spark.core.dedupe import DUPLICATE_OF, mark_in_order, number_records
from faithqa_spark.core.process import (PASS_THROUGH, ROW_INPUT, Provenance,
                                        entities_from_records, process_row)
from faithqa_spark.core.records import json_line, squad_document_frame, squad_paragraph
from faithqa_spark.core.report import build_report
from faithqa_spark.core.sampling import SamplingIndex
from faithqa_spark.inputs import InputFile, reader_settings
from faithqa_spark.manifest import build_manifest
from faithqa_spark.runs import RunResult, Stages, new_staging, provenance_dict, publish
from faithqa_spark.sources import read_file

BATCH_ROWS = 4096


# ---------------------------------------------------------------- mapInArrow functions
# Each returns a picklable closure over plain data; heavy objects (the spaCy model, the
# sampling index) are built lazily once per Python worker.

def _batched(rows: Iterator[dict[str, Any]], fields: list[tuple[str, str]]
             ) -> Iterator[pa.RecordBatch]:
    buf: list[dict[str, Any]] = []
    for r in rows:
        buf.append(r)
        if len(buf) >= BATCH_ROWS:
            yield arrow_batch(buf, fields)
            buf = []
    if buf:
        yield arrow_batch(buf, fields)


def _read_fn(files: dict[str, InputFile], cfg: Config) -> Callable:
    settings = reader_settings(cfg)

    def read(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        def rows() -> Iterator[dict[str, Any]]:
            for batch in batches:
                for path, content in zip(batch.column("path").to_pylist(),
                                         batch.column("content").to_pylist()):
                    f = files[fio.local_path(path)]
                    yield from mark_in_order(number_records(read_file(
                        content, path=f.display, source=f.source, settings=settings)))
        yield from _batched(rows(), C.QA_FIELDS)

    return read


def _warm_fn(model: str, components: list[str]) -> Callable:
    def warm(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        for batch in batches:
            try:
                fner.load_ner(model, components)
            except Exception:  # noqa: BLE001 - NER loads again, and reports a failure there
                pass
            yield batch

    return warm


def warm_workers(spark: SparkSession, cfg: Config, busy: int) -> threading.Thread | None:
    """Load the NER model in Python workers on the cores that the read leaves idle (`busy`
    read tasks), from a driver thread, so that NER does not start with every worker loading
    it. Workers are reused (spark.python.worker.reuse) and keep their model; the warm-up is
    a mapInArrow like NER, so that it runs in the same pool of workers. (Each worker loads
    in its main thread: a second thread would make it slower for good, see threads.py.)"""
    idle = spark.sparkContext.defaultParallelism - busy
    if idle <= 0:
        return None
    df = spark.range(0, idle, 1, idle)
    fn = _warm_fn(cfg.ner.model, cfg.ner.components)

    def run() -> None:
        spark.sparkContext.setLocalProperty("spark.job.description", "warm NER workers")
        try:
            df.mapInArrow(fn, df.schema).write.format("noop").mode("overwrite").save()
        except Exception:  # noqa: BLE001 - an optimisation; the job goes on without it
            pass

    thread = threading.Thread(target=run, name="faithqa-warm-workers", daemon=True)
    thread.start()
    return thread


def _mention_records(entities: list[dict[str, Any]], in_bank: bool, bank_cfg: Any
                     ) -> list[dict[str, str]]:
    if not in_bank:
        return []
    return [{C.ENTITY_TYPE: etype, C.ENT_TEXT: text}
            for etype, text in cbank.bank_mentions(entities, bank_cfg)]


def _ner_fn(cfg: Config) -> Callable:
    """NER, and the bank's cleaning of the mentions while they are Python objects anyway
    (a separate pass would convert every entity from Arrow again)."""
    model, components, batch_size = cfg.ner.model, cfg.ner.components, cfg.ner.batch_size
    bank_cfg = cfg.bank
    entity_type, mention_type = arrow_type(C.ENTITY_LIST), arrow_type(C.MENTION_LIST)

    def ner(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        for batch in batches:
            nlp = fner.load_ner(model, components)  # once per worker; none for no rows
            faults.inject("ner")
            ents = fner.run_ner(nlp, batch.column(C.CONTEXT).to_pylist(), batch_size)
            mentions = [_mention_records(e, flag, bank_cfg)
                        for e, flag in zip(ents, batch.column(C.IN_BANK).to_pylist())]
            # the context columns pass through untouched; only the entities are new
            yield pa.RecordBatch.from_arrays(
                [*batch.columns, pa.array(ents, type=entity_type),
                 pa.array(mentions, type=mention_type)],
                names=[*batch.schema.names, C.ENTITIES, C.BANK_MENTIONS])

    return ner


def _with_mentions_fn(cfg: Config) -> Callable:
    """The bank mentions of entities that did not come from `_ner_fn` (the NER cache)."""
    bank_cfg = cfg.bank
    mention_type = arrow_type(C.MENTION_LIST)

    def with_mentions(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        for batch in batches:
            mentions = [_mention_records(e or [], flag, bank_cfg) for e, flag in
                        zip(batch.column(C.ENTITIES).to_pylist(),
                            batch.column(C.IN_BANK).to_pylist())]
            yield pa.RecordBatch.from_arrays(
                [*batch.columns, pa.array(mentions, type=mention_type)],
                names=[*batch.schema.names, C.BANK_MENTIONS])

    return with_mentions


_index_cache: dict[str, SamplingIndex] = {}


def _as_type(array: pa.Array, type_: pa.DataType) -> pa.Array:
    # Spark may hand strings over as large_string (spark.sql.execution.arrow.useLargeVarTypes)
    return array if array.type == type_ else array.cast(type_)


def _process_fn(cfg: Config, bank_bc: Any, bank_key: str, prov: Provenance) -> Callable:
    computed = [(name, arrow_type(kind)) for name, kind in C.OUTCOME_FIELDS
                if name not in PASS_THROUGH]
    outcome_schema = arrow_schema(C.OUTCOME_FIELDS)

    def process(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        # One index per worker and bank: sorting the bank by length is not per-task work.
        index = _index_cache.get(bank_key)
        if index is None:
            index = _index_cache[bank_key] = SamplingIndex.from_bank(bank_bc.value)
        for batch in batches:
            cols = {name: batch.column(name).to_pylist() for name in ROW_INPUT}
            ids = batch.column(C.CONTEXT_ID).to_pylist()
            entities = batch.column(C.ENTITIES)
            outcomes = []
            # Rows of one context arrive together (the join is on context_id): its
            # entities are converted once, not once per question.
            last_id, last_ents = None, []
            for i, cid in enumerate(ids):
                if cid != last_id:
                    records = entities[i].as_py()
                    if records is None:  # a lost NER row must be loud, never a filter
                        raise RuntimeError(f"no NER result for context {cid}")
                    last_id, last_ents = cid, entities_from_records(records)
                row = {name: values[i] for name, values in cols.items()}
                outcomes.append(process_row(row, last_ents, index, cfg, prov))
            # one outcome per row, in order: the copied fields are the input's own Arrow
            # columns, so only what process_row computed is converted from Python
            arrays = {name: batch.column(from_row) for name, from_row in PASS_THROUGH.items()}
            arrays.update({name: pa.array([o[name] for o in outcomes], type=t)
                           for name, t in computed})
            yield pa.RecordBatch.from_arrays(
                [_as_type(arrays[f.name], f.type) for f in outcome_schema], schema=outcome_schema)

    return process


def _lines_fn(serialise: Callable[[dict[str, Any]], str]) -> Callable:
    """A mapInArrow function turning each row into one line of text with `serialise`."""
    def lines(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        for batch in batches:
            yield pa.RecordBatch.from_pydict(
                {"value": [serialise(r) for r in batch.to_pylist()]})

    return lines


# ---------------------------------------------------------------- transforms

def read_qa(spark: SparkSession, files: list[InputFile], cfg: Config) -> DataFrame:
    """Unified QA rows (QA_SCHEMA) from all input files, one task per file."""
    by_path = {f.local: f for f in files}
    raw = (spark.read.format("binaryFile").load([f.local for f in files])
           .select("path", "content"))
    if len(files) > 1:  # small files may share a scan partition; give each its own task
        raw = raw.repartition(len(files), "path")
    return raw.mapInArrow(_read_fn(by_path, cfg), S.QA_SCHEMA)


def with_duplicates_rejected(qa: DataFrame) -> DataFrame:
    """`core.dedupe`'s policy across files. Each read task has applied it within its file
    (`mark_in_order`); here only the ids seen more than once are shuffled with their
    first position, then joined back (a broadcast join when they are few). A row marked in
    its own file is marked again, naming the first copy of all files."""
    first = F.min(F.struct(C.INPUT_FILE, C.RECORD_INDEX, C.RECORD_LOC))
    dups = (qa.groupBy(C.ID).agg(F.count(F.lit(1)).alias("_n"), first.alias("_first"))
            .filter(F.col("_n") > 1).select(C.ID, "_first"))
    is_dup = (F.col("_first").isNotNull()
              & ((F.col(C.INPUT_FILE) != F.col(f"_first.{C.INPUT_FILE}"))
                 | (F.col(C.RECORD_INDEX) != F.col(f"_first.{C.RECORD_INDEX}")))
              & ((F.col(C.STATUS) != C.REJECTED) | (F.col(C.REASON) == reasons.DUPLICATE_ID)))
    detail = F.concat(F.lit(DUPLICATE_OF), F.col(f"_first.{C.INPUT_FILE}"), F.lit(" "),
                      F.col(f"_first.{C.RECORD_LOC}"))
    replaced = {C.STATUS: F.when(is_dup, F.lit(C.REJECTED)).otherwise(F.col(C.STATUS)),
                C.REASON: F.when(is_dup, F.lit(reasons.DUPLICATE_ID)).otherwise(F.col(C.REASON)),
                C.DETAIL: F.when(is_dup, detail).otherwise(F.col(C.DETAIL))}
    return (qa.join(dups, on=C.ID, how="left")
            .select(*[replaced.get(name, F.col(name)).alias(name) for name, _ in C.QA_FIELDS]))


def ner_partitions(spark: SparkSession, contexts: DataFrame, cfg: Config) -> int:
    """Partitions for NER sized by text length (the cost of NER), with a floor per core;
    1 when there is nothing to do."""
    n, total_chars = contexts.agg(F.count(F.lit(1)), F.sum(F.length(C.CONTEXT))).first()
    if not n:
        return 1
    floor = spark.sparkContext.defaultParallelism * cfg.spark.min_partitions_per_core
    return max(floor, math.ceil((total_chars or 0) / cfg.spark.chars_per_ner_partition))


def distinct_contexts(qa_ok: DataFrame, cfg: Config) -> DataFrame:
    """(context_id, context, in_bank) once per distinct context; in_bank says whether any of
    its questions comes from a source the bank is built from."""
    in_bank = F.col(C.SOURCE).isin(cfg.bank.sources)
    # every row of a context_id holds the same text (the id is its hash), so first() is exact
    return (qa_ok.groupBy(C.CONTEXT_ID)
            .agg(F.first(C.CONTEXT).alias(C.CONTEXT), F.max(in_bank).alias(C.IN_BANK))
            .select(*[name for name, _ in C.CONTEXT_FIELDS]))


def with_entities(contexts: DataFrame, cfg: Config, partitions: int) -> DataFrame:
    """The distinct contexts with their entities and bank mentions (NER_SCHEMA); NER runs
    once per context."""
    return (contexts.select(*[name for name, _ in C.CONTEXT_FIELDS])
            .repartition(partitions, C.CONTEXT_ID)
            .mapInArrow(_ner_fn(cfg), S.NER_SCHEMA))


def bank_mention_counts(ner_df: DataFrame) -> DataFrame:
    """(entity_type, text, count) of the cleaned mentions in the bank sources' contexts."""
    m = F.explode(C.BANK_MENTIONS).alias("m")
    return (ner_df.select(m).groupBy(f"m.{C.ENTITY_TYPE}", f"m.{C.ENT_TEXT}").count()
            .select(C.ENTITY_TYPE, C.ENT_TEXT, "count"))


def with_outcomes(qa_ok: DataFrame, ner_df: DataFrame, cfg: Config, bank: cbank.EntityBank,
                  prov: Provenance) -> DataFrame:
    """The outcome (dataset row or filtered row) of every answerable QA row; the bank is
    broadcast as plain lists. The context text comes from the NER side, so the questions are
    shuffled without it."""
    bank_bc = qa_ok.sparkSession.sparkContext.broadcast(bank.entities)
    questions = qa_ok.select(C.CONTEXT_ID, *[c for c in ROW_INPUT if c != C.CONTEXT])
    contexts = ner_df.select(C.CONTEXT_ID, C.CONTEXT, C.ENTITIES)
    joined = questions.join(contexts, on=C.CONTEXT_ID, how="left")
    return joined.mapInArrow(_process_fn(cfg, bank_bc, bank.fingerprint(), prov),
                             S.OUTCOME_SCHEMA)


def split_labels(successes: DataFrame, cfg: Config) -> Column:
    """A column with train/dev/test/over_cap for each success row, by exact rank of
    (split_key, id) within its source, found without a global sort."""
    bucket = F.shiftright(F.col(C.SPLIT_KEY), splitting.KEY_BITS - splitting.BUCKET_BITS)
    counts: dict[str, dict[int, int]] = {}
    for r in successes.groupBy(C.SOURCE, bucket.alias("bucket")).count().collect():
        counts.setdefault(r[C.SOURCE], {})[r["bucket"]] = r["count"]
    cuts = {s: splitting.cut_ranks(sum(c.values()), cfg.limits.max_success.get(s, 0),
                                   cfg.split.train, cfg.split.dev)
            for s, c in counts.items()}
    wanted = {(s, b) for s, c in counts.items()
              for b, _ in splitting.buckets_for_ranks(c, cuts[s]).values()}
    keys: dict[tuple[str, int], list[splitting.Key]] = {}
    if wanted:
        cond = F.lit(False)
        for s, b in sorted(wanted):
            cond = cond | ((F.col(C.SOURCE) == s) & (bucket == b))
        for r in (successes.filter(cond)
                  .select(C.SOURCE, bucket.alias("bucket"), C.SPLIT_KEY, C.ID).collect()):
            keys.setdefault((r[C.SOURCE], r["bucket"]), []).append((r[C.SPLIT_KEY], r[C.ID]))
    # CASE source WHEN s THEN (CASE WHEN key < train bound THEN 'train' WHEN ...) END
    label = F.lit(splitting.OVER_CAP)
    for s in sorted(counts):
        bounds = splitting.boundary_keys(
            counts[s], cuts[s], {b: keys.get((s, b), []) for b in counts[s]})
        src_label = F.lit(splitting.OVER_CAP)
        for name, bound in reversed(list(zip(C.SPLITS, bounds))):
            below = F.lit(True) if bound is None else (
                (F.col(C.SPLIT_KEY) < bound[0])
                | ((F.col(C.SPLIT_KEY) == bound[0]) & (F.col(C.ID) < bound[1])))
            src_label = F.when(below, F.lit(name)).otherwise(src_label)
        label = F.when(F.col(C.SOURCE) == s, src_label).otherwise(label)
    return label


# ---------------------------------------------------------------- NER and its cache

def ner_table(ner_df: DataFrame, model_name: str, model_version: str) -> DataFrame:
    # NER partitions are sized for NER's cost; a file each would make many small files
    parts = ner_df.sparkSession.sparkContext.defaultParallelism
    return ner_df.coalesce(parts).select(C.CONTEXT_ID, F.lit(model_name).alias(C.MODEL_NAME),
                         F.lit(model_version).alias(C.MODEL_VERSION), C.ENTITIES)


def cached_entities(spark: SparkSession, cache_dir: str, contexts: DataFrame,
                    model_name: str, model_version: str, cfg: Config) -> DataFrame | None:
    """The contexts the cache knows for this model, with their entities and bank mentions
    (NER_SCHEMA)."""
    from delta.tables import DeltaTable

    if not DeltaTable.isDeltaTable(spark, cache_dir):
        return None
    return (spark.read.format("delta").load(cache_dir)
            .filter((F.col(C.MODEL_NAME) == model_name) & (F.col(C.MODEL_VERSION) == model_version))
            .select(C.CONTEXT_ID, C.ENTITIES)
            .join(contexts, on=C.CONTEXT_ID, how="inner")
            .select(*[name for name, _ in C.NER_FIELDS if name != C.BANK_MENTIONS])
            .mapInArrow(_with_mentions_fn(cfg), S.NER_SCHEMA))


def merge_into_cache(spark: SparkSession, cache_dir: str, fresh: DataFrame) -> None:
    """Add new NER results to the cache table (created on first use); existing rows stay."""
    from delta.tables import DeltaTable

    if not DeltaTable.isDeltaTable(spark, cache_dir):
        fresh.write.format("delta").mode("errorifexists").save(cache_dir)
        return
    keys = " AND ".join(f"c.{k} = f.{k}" for k in (C.CONTEXT_ID, C.MODEL_NAME, C.MODEL_VERSION))
    (DeltaTable.forPath(spark, cache_dir).alias("c")
     .merge(fresh.alias("f"), keys).whenNotMatchedInsertAll().execute())


# ---------------------------------------------------------------- writing

def write_delta(df: DataFrame, path: Path, partition_by: tuple[str, ...] = ()) -> None:
    """Overwrite a Delta table: one atomic commit, so readers see the old version or the new
    one, never a mix; the history keeps both."""
    if faults.active("delta-write"):
        df = df.mapInArrow(_failing_fn(), df.schema)
    w = df.write.format("delta").mode("overwrite").option("overwriteSchema", "true")
    if partition_by:
        w = w.partitionBy(*partition_by)
    w.save(str(path))


def _failing_fn() -> Callable:
    def fail(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        for batch in batches:
            raise RuntimeError("fault injected into a Delta write (FAITHQA_FAULT=delta-write)")
            yield batch

    return fail


def in_export_order(df: DataFrame, group: str) -> DataFrame:
    """Rows range-partitioned and sorted by (group, id): a filter on `group` then yields one
    output's rows in id order, partition after partition, with no further sort."""
    parts = max(1, df.sparkSession.sparkContext.defaultParallelism)
    return df.repartitionByRange(parts, group, C.ID).sortWithinPartitions(group, C.ID)


def write_jsonl(df: DataFrame, columns: list[str], path: Path) -> None:
    """One JSONL file in the order of `df` (see `in_export_order`), serialised by the core's
    `json_line`."""
    _write_lines(df.select(*columns), _lines_fn(partial(json_line, columns=columns)), path, None)


def write_squad(df: DataFrame, split: str, path: Path) -> None:
    """One SQuAD v1.1 JSON file of a split, paragraphs in the order of `df`."""
    cols = [C.ID, C.QUESTION, C.MODIFIED_CONTEXT, C.FAITHFUL_ANSWER, C.ANSWER_STARTS]
    _write_lines(df.select(*cols), _lines_fn(squad_paragraph), path, squad_document_frame(split))


def write_parquet(df: DataFrame, directory: Path) -> None:
    """A directory of Parquet part files (part-00000.parquet, ...) in the order of `df`."""
    parts = directory.parent / f".{directory.name}.parts"
    df.select(*C.DATASET_COLUMNS).write.mode("overwrite").parquet(str(parts))
    directory.mkdir(parents=True, exist_ok=True)
    for i, p in enumerate(fio.part_files(parts)):
        os.replace(p, directory / f"part-{i:05d}.parquet")
    shutil.rmtree(parts, ignore_errors=True)


def _write_lines(df: DataFrame, fn: Callable, path: Path, frame: tuple[str, str, str] | None
                 ) -> None:
    parts = path.parent / f".{path.name}.parts"
    (df.mapInArrow(fn, S.LINE_SCHEMA)
       .write.mode("overwrite").option("compression", "none").text(str(parts)))
    fio.concat_parts_atomic(parts, path, frame)


def tally(final: DataFrame, qa: DataFrame) -> tuple[list, list]:
    """Every row's final place in one aggregation: (source, file, status, reason, n) and,
    for the dataset, (source, split, entity_type, match_strategy, n)."""
    keys = [C.SOURCE, C.INPUT_FILE, C.STATUS, C.REASON, C.SPLIT, C.ENTITY_TYPE, C.MATCH_STRATEGY]
    from_reader = qa.filter(F.col(C.STATUS) != C.OK).select(
        *[F.col(k) if k in qa.columns else F.lit(None).cast("string").alias(k) for k in keys])
    status_counts: list = []
    success_counts: list = []
    for r in final.select(*keys).unionByName(from_reader).groupBy(*keys).count().collect():
        status_counts.append((r[C.SOURCE], r[C.INPUT_FILE], r[C.STATUS],
                              None if r[C.STATUS] == C.OK else r[C.REASON], r["count"]))
        if r[C.STATUS] == C.OK:
            success_counts.append((r[C.SOURCE], r[C.SPLIT], r[C.ENTITY_TYPE],
                                   r[C.MATCH_STRATEGY], r["count"]))
    return status_counts, success_counts


def bank_table(spark: SparkSession, bank: cbank.EntityBank, origin: str) -> DataFrame:
    rows = [{C.ENTITY_TYPE: t, C.ENT_TEXT: text, C.FREQUENCY: bank.frequency.get(t, {}).get(text),
             C.ORIGIN: origin} for t, texts in bank.entities.items() for text in texts]
    table = pa.Table.from_batches([arrow_batch(rows, C.BANK_TABLE_FIELDS)])
    return spark.createDataFrame(table)  # from Arrow: no per-row Python conversion


WRITE_THREADS = 16  # driver threads waiting on Spark jobs, not CPU work


def delta_available(spark: SparkSession) -> bool:
    try:
        # Spark's class loader, which sees jars added with --jars / --packages
        spark.sparkContext._jvm.org.apache.spark.util.Utils.classForName(
            "io.delta.tables.DeltaTable", False, False)
    except Exception:  # noqa: BLE001 - py4j wraps the ClassNotFoundException
        return False
    return "DeltaSparkSessionExtension" in (spark.conf.get("spark.sql.extensions", "") or "")


class DeltaUnavailableError(RuntimeError):
    pass


def write_outputs(spark: SparkSession, staging: Path, delta_dir: Path | None,
                  formats: set[str], dataset: DataFrame, leftovers: DataFrame,
                  keep: Callable[[DataFrame], DataFrame],
                  delta_extra: Callable[[], dict[str, DataFrame]]) -> None:
    """The Delta tables (when `delta_dir` is set) and the file exports, all at once.

    Each Spark job here is small next to its fixed cost (planning, scheduling, a Delta
    commit), so they run side by side from driver threads. The dataset is sorted into export
    order and persisted once; the Delta `dataset` table and every export are written from
    those same rows, so the exports hold exactly what the table holds.
    """
    sc = spark.sparkContext
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

        # The dataset's sort comes first: every dataset write waits for it, and Spark gives a
        # job's tasks the cores in the order the jobs came (FIFO).
        ordered = keep(in_export_order(dataset, C.SPLIT))
        sorted_rows = pool.submit(ordered.count)
        ordered_left = keep(in_export_order(leftovers, C.STATUS))
        if delta_dir is not None:
            tables = {**delta_extra(), **{st: ordered_left.filter(F.col(C.STATUS) == st)
                                          for st in (C.FILTERED, C.REJECTED)}}
            for name, df in tables.items():
                submit(f"delta/{name}", write_delta, df, delta_dir / name)
        for st in (C.FILTERED, C.REJECTED):
            submit(f"{st}/{st}.jsonl", write_jsonl, ordered_left.filter(F.col(C.STATUS) == st),
                   C.LEFTOVER_COLUMNS, staging / st / f"{st}.jsonl")
        sorted_rows.result()  # sorted and persisted once, before several jobs read it
        faults.inject("write")
        if delta_dir is not None:
            submit("delta/dataset", write_delta, ordered, delta_dir / "dataset",
                   (C.SOURCE, C.SPLIT))
        for split in C.SPLITS:
            rows = ordered.filter(F.col(C.SPLIT) == split)
            if "jsonl" in formats:
                submit(f"jsonl/{split}.jsonl", write_jsonl, rows, C.DATASET_COLUMNS,
                       staging / "jsonl" / f"{split}.jsonl")
            if "parquet" in formats:
                submit(f"parquet/{split}", write_parquet, rows, staging / "parquet" / split)
            if "squad" in formats:
                submit(f"squad/{split}.json", write_squad, rows, split,
                       staging / "squad" / f"{split}.json")
        for future in pending:
            future.result()  # the first error, if any, is raised here


# ---------------------------------------------------------------- the job

def build_dataset(spark: SparkSession, cfg: Config, files: list[InputFile], output_dir: str | Path,
                  bank_dir: str | None = None, ner_cache: str | None = None) -> RunResult:
    """Run the whole pipeline. Writes, under DIR: delta/{dataset,entity_bank,ner,filtered,
    rejected} (when "delta" is among output.formats), the exports jsonl/, parquet/, squad/
    (as selected), entity_bank/, filtered/, rejected/, report.json and manifest.json."""
    out = Path(output_dir)
    formats = set(cfg.output.formats)
    use_delta = "delta" in formats
    if (use_delta or ner_cache) and not delta_available(spark):
        raise DeltaUnavailableError(
            "Delta output (output.formats has 'delta', or --ner-cache) needs the Delta Lake jars "
            "and settings: run through ./scripts/submit.sh (or spark-submit --packages "
            "io.delta:delta-spark_2.13:<version> with the Delta SQL extension), or drop 'delta' "
            "from output.formats")
    # A bad --bank directory is reported before any work, not after NER.
    given_bank = cbank.load(bank_dir, cfg.bank.types) if bank_dir else None
    started = time.time()
    stages = Stages()
    persisted: list[DataFrame] = []
    staging: Path | None = None

    def keep(df: DataFrame) -> DataFrame:
        persisted.append(df.persist(StorageLevel.MEMORY_AND_DISK))
        return df

    try:
        # Unless a cache may hold every context, NER follows the read: the model is loaded
        # meanwhile on the cores the read leaves idle.
        warming = None if ner_cache else warm_workers(spark, cfg, busy=len(files))
        parsed = keep(read_qa(spark, files, cfg))  # duplicates within each file marked
        qa = parsed if len(files) == 1 else keep(parsed.transform(with_duplicates_rejected))
        input_counts = [(r[C.SOURCE], r[C.INPUT_FILE], r["count"])
                        for r in qa.groupBy(C.SOURCE, C.INPUT_FILE).count().collect()]
        if qa is not parsed:
            parsed.unpersist()  # qa is materialised; the parse was needed twice, not after
        stages.done("read", f"{sum(n for *_, n in input_counts):,} records from {len(files)} file(s)")
        # Only once every input file has parsed does anything appear under the output.
        staging = new_staging(out)

        qa_ok = qa.filter(F.col(C.STATUS) == C.OK)
        contexts = keep(distinct_contexts(qa_ok, cfg))
        meta = fner.model_meta(cfg.ner.model)
        model_name, model_version = fner.model_name_version(meta)
        cached = (cached_entities(spark, ner_cache, contexts, model_name, model_version, cfg)
                  if ner_cache else None)
        todo = (contexts if cached is None else keep(
            contexts.join(cached.select(C.CONTEXT_ID), C.CONTEXT_ID, "left_anti")))
        n_parts = ner_partitions(spark, todo, cfg)
        fresh = keep(with_entities(todo, cfg, n_parts))
        if warming is not None:
            warming.join()  # done long ago, as a rule: it only loads a model
        n_fresh = fresh.count()  # NER runs here, once; later stages read the persisted rows
        ner_df = fresh if cached is None else keep(cached.unionByName(fresh))
        n_contexts = n_fresh if cached is None else ner_df.count()
        if ner_cache and n_fresh:
            merge_into_cache(spark, ner_cache, ner_table(fresh, model_name, model_version))
        stages.done("ner", f"{n_contexts:,} distinct contexts, {n_fresh:,} sent to NER "
                           f"in {n_parts} partitions" + (f" ({n_contexts - n_fresh:,} from the "
                                                         f"cache)" if ner_cache else ""))

        if given_bank is not None:
            bank, bank_origin = given_bank, str(bank_dir)
        else:
            # the bank is the one thing the driver collects; Arrow keeps that cheap
            counts = bank_mention_counts(ner_df).toArrow()
            bank = cbank.assemble(zip(*(counts.column(c).to_pylist() for c in
                                        (C.ENTITY_TYPE, C.ENT_TEXT, "count"))), cfg.bank)
            bank_origin = cbank.built_origin(cfg.bank)
        cbank.save(bank, staging / "entity_bank")
        stages.done("bank", f"{sum(bank.counts().values()):,} entities")

        prov = Provenance(PIPELINE_VERSION, cfg.config_hash, fner.format_model_id(meta))
        outcomes = keep(with_outcomes(qa_ok, ner_df, cfg, bank, prov))
        n_out = outcomes.count()
        stages.done("process", f"{n_out:,} rows matched, substituted and checked")

        successes = outcomes.filter(F.col(C.STATUS) == C.OK)
        # not persisted: a CASE expression over the persisted outcomes is cheaper than a copy
        labelled = outcomes.withColumn(
            C.SPLIT, F.when(F.col(C.STATUS) == C.OK, split_labels(successes, cfg)))
        over_cap = F.col(C.SPLIT) == splitting.OVER_CAP
        final = labelled.select(
            *[c for c in labelled.columns if c not in (C.STATUS, C.REASON)],
            F.when(over_cap, F.lit(C.FILTERED)).otherwise(F.col(C.STATUS)).alias(C.STATUS),
            F.when(over_cap, F.lit(reasons.OVER_SOURCE_CAP)).otherwise(F.col(C.REASON))
             .alias(C.REASON))
        dataset = final.filter(F.col(C.STATUS) == C.OK)
        leftovers = keep(
            final.filter(F.col(C.STATUS) != C.OK)
            .withColumn(C.ANSWER, F.col(C.ORIGINAL_ANSWER))
            .select(*C.LEFTOVER_COLUMNS)
            .unionByName(qa.filter(F.col(C.STATUS) != C.OK).select(
                *[F.col(c) if c in qa.columns else F.lit(None).cast("string").alias(c)
                  for c in C.LEFTOVER_COLUMNS])))
        stages.done("split")

        status_counts, success_counts = tally(final, qa)
        # Reconciled before anything is published: a lost row stops the job here.
        report = build_report(
            input_counts, status_counts, success_counts, bank_counts=bank.counts(),
            bank_origin=bank_origin, provenance=provenance_dict(prov))
        report["ner"] = {"distinct_contexts": n_contexts, "sent_to_ner": n_fresh,
                         "from_cache": n_contexts - n_fresh}
        stages.done("report")

        write_outputs(spark, staging, out / "delta" if use_delta else None, formats,
                      dataset.select(*C.DATASET_COLUMNS), leftovers, keep,
                      delta_extra=lambda: {
                          "ner": ner_table(ner_df, model_name, model_version),
                          "entity_bank": bank_table(spark, bank, bank_origin)})
        fio.write_json(staging / "report.json", report)
        stages.done("write")
        publish(staging, out)
        fio.write_json(out / "manifest.json", build_manifest(
            cfg, files, report, stages.seconds, runner=f"spark {spark.version} "
            f"({spark.sparkContext.master})", ner_model=prov.ner_model, started=started,
            extra={"ner_cache": ner_cache, "delta_tables": sorted(
                p.name for p in (out / "delta").iterdir()) if use_delta else []}))
        return RunResult(out, report, stages.seconds)
    finally:
        if staging is not None:
            shutil.rmtree(staging, ignore_errors=True)
        for df in persisted:
            df.unpersist()
