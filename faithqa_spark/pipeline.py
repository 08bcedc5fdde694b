"""The Spark job: DataFrame -> DataFrame transforms around the pure core.

Every row-level decision is made by a core function (readers, `process_row`, bank cleaning,
split labelling); Spark only moves data: it reads files, runs NER once per distinct
context, joins, counts and writes. That is what lets `faithqa_spark.reference` reproduce
the output byte for byte without Spark.
"""

from __future__ import annotations

import logging
import math
import time
from dataclasses import dataclass, field
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
from faithqa_spark.config import Config
from faithqa_spark.core import bank as cbank
from faithqa_spark.core import fields as C
from faithqa_spark.core import reasons, splitting
from faithqa_spark.core.dedupe import DUPLICATE_OF, number_records
from faithqa_spark.core.process import Provenance, entities_from_records, process_row
from faithqa_spark.core.records import json_line, leftover_row
from faithqa_spark.core.report import build_report
from faithqa_spark.core.sampling import SamplingIndex
from faithqa_spark.inputs import InputFile, reader_settings
from faithqa_spark.sources import read_file

log = logging.getLogger("faithqa_spark")
BATCH_ROWS = 4096


@dataclass
class RunResult:
    output_dir: Path
    report: dict[str, Any]
    stage_seconds: dict[str, float] = field(default_factory=dict)


class _Stages:
    """Wall time per stage, logged as the job goes so long runs show progress."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}
        self._t = time.perf_counter()

    def done(self, name: str, what: str = "") -> None:
        now = time.perf_counter()
        self.seconds[name] = round(now - self._t, 3)
        self._t = now
        log.warning("[faithqa] %-8s %7.1fs %s", name, self.seconds[name], what)


# ---------------------------------------------------------------- mapInArrow functions
# Each returns a picklable closure over plain data; heavy objects (the spaCy model, the
# sampling index) are built lazily once per Python worker.

def _batched(rows: Iterator[dict[str, Any]], fields: list[tuple[str, str]]
             ) -> Iterator[pa.RecordBatch]:
    buf: list[dict[str, Any]] = []
    for r in rows:
        buf.append(r)
        if len(buf) >= BATCH_ROWS:
            yield S.arrow_batch(buf, fields)
            buf = []
    if buf:
        yield S.arrow_batch(buf, fields)


def _read_fn(files: dict[str, InputFile], cfg: Config) -> Callable:
    settings = reader_settings(cfg)

    def read(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        def rows() -> Iterator[dict[str, Any]]:
            for batch in batches:
                for path, content in zip(batch.column("path").to_pylist(),
                                         batch.column("content").to_pylist()):
                    f = files[fio.local_path(path)]
                    yield from number_records(read_file(content, path=f.display,
                                                        source=f.source, settings=settings))
        yield from _batched(rows(), C.QA_FIELDS)

    return read


def _ner_fn(model: str, components: list[str], batch_size: int) -> Callable:
    def ner(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        nlp = fner.load_ner(model, components)
        for batch in batches:
            faults.inject("ner")
            ids = batch.column(C.CONTEXT_ID).to_pylist()
            ents = fner.run_ner(nlp, batch.column(C.CONTEXT).to_pylist(), batch_size)
            yield S.arrow_batch([{C.CONTEXT_ID: i, C.ENTITIES: e} for i, e in zip(ids, ents)],
                                C.NER_FIELDS)

    return ner


def _mentions_fn(cfg: Config) -> Callable:
    bank_cfg = cfg.bank

    def mentions(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        def rows() -> Iterator[dict[str, Any]]:
            for batch in batches:
                for ents in batch.column(C.ENTITIES).to_pylist():
                    for e in ents or ():
                        t = cbank.clean_entity(e[C.ENT_TEXT], e[C.ENT_LABEL], bank_cfg)
                        if t is not None:
                            yield {C.ENTITY_TYPE: e[C.ENT_LABEL], C.ENT_TEXT: t}
        yield from _batched(rows(), S.BANK_MENTION_FIELDS)

    return mentions


_index_cache: dict[str, SamplingIndex] = {}


def _process_fn(cfg: Config, bank_bc: Any, bank_key: str, prov: Provenance) -> Callable:
    def process(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        # One index per worker and bank: sorting the bank by length is not per-task work.
        index = _index_cache.get(bank_key)
        if index is None:
            index = _index_cache[bank_key] = SamplingIndex.from_bank(bank_bc.value)

        def rows() -> Iterator[dict[str, Any]]:
            for batch in batches:
                for row in batch.to_pylist():
                    ents = row.pop(C.ENTITIES)
                    if ents is None:  # a lost NER row must be loud, never a silent filter
                        raise RuntimeError(f"no NER result for context {row[C.CONTEXT_ID]}")
                    yield process_row(row, entities_from_records(ents), index, cfg, prov)
        yield from _batched(rows(), C.OUTCOME_FIELDS)

    return process


def _lines_fn(columns: list[str]) -> Callable:
    def lines(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        for batch in batches:
            yield pa.RecordBatch.from_pydict(
                {"value": [json_line(r, columns) for r in batch.to_pylist()]})

    return lines


# ---------------------------------------------------------------- transforms

def read_qa(spark: SparkSession, files: list[InputFile], cfg: Config) -> DataFrame:
    """Unified QA rows (QA_SCHEMA) from all input files, one task per file."""
    by_path = {f.local: f for f in files}
    raw = (spark.read.format("binaryFile").load([f.local for f in files])
           .select("path", "content"))
    return raw.repartition(len(files), "path").mapInArrow(_read_fn(by_path, cfg), S.QA_SCHEMA)


def with_duplicates_rejected(qa: DataFrame) -> DataFrame:
    """`core.dedupe`'s policy in Spark: only the ids seen more than once are shuffled with
    their first position, then joined back (a broadcast join when they are few)."""
    first = F.min(F.struct(C.INPUT_FILE, C.RECORD_INDEX, C.RECORD_LOC))
    dups = (qa.groupBy(C.ID).agg(F.count(F.lit(1)).alias("_n"), first.alias("_first"))
            .filter(F.col("_n") > 1).select(C.ID, "_first"))
    is_dup = (F.col("_first").isNotNull()
              & ((F.col(C.INPUT_FILE) != F.col(f"_first.{C.INPUT_FILE}"))
                 | (F.col(C.RECORD_INDEX) != F.col(f"_first.{C.RECORD_INDEX}")))
              & (F.col(C.STATUS) != C.REJECTED))
    detail = F.concat(F.lit(DUPLICATE_OF), F.col(f"_first.{C.INPUT_FILE}"), F.lit(" "),
                      F.col(f"_first.{C.RECORD_LOC}"))
    replaced = {C.STATUS: F.when(is_dup, F.lit(C.REJECTED)).otherwise(F.col(C.STATUS)),
                C.REASON: F.when(is_dup, F.lit(reasons.DUPLICATE_ID)).otherwise(F.col(C.REASON)),
                C.DETAIL: F.when(is_dup, detail).otherwise(F.col(C.DETAIL))}
    return (qa.join(dups, on=C.ID, how="left")
            .select(*[replaced.get(name, F.col(name)).alias(name) for name, _ in C.QA_FIELDS]))


def ner_partitions(spark: SparkSession, contexts: DataFrame, cfg: Config) -> int:
    """Partitions for NER sized by text length (the cost of NER), with a floor per core."""
    total_chars = contexts.agg(F.sum(F.length(C.CONTEXT))).first()[0] or 0
    floor = spark.sparkContext.defaultParallelism * cfg.spark.min_partitions_per_core
    return max(floor, math.ceil(total_chars / cfg.spark.chars_per_ner_partition))


def with_entities(contexts: DataFrame, cfg: Config, partitions: int) -> DataFrame:
    """(context_id, entities) for each distinct context; NER runs once per context."""
    return (contexts.repartition(partitions, C.CONTEXT_ID)
            .mapInArrow(_ner_fn(cfg.ner.model, cfg.ner.components, cfg.ner.batch_size),
                        S.NER_SCHEMA)
            .select(C.CONTEXT_ID, C.ENTITIES))


def bank_mention_counts(ner_df: DataFrame, qa_ok: DataFrame, cfg: Config) -> DataFrame:
    """(entity_type, text, count) of cleaned mentions in the bank sources' contexts."""
    bank_contexts = (qa_ok.filter(F.col(C.SOURCE).isin(cfg.bank.sources))
                     .select(C.CONTEXT_ID).distinct())
    return (ner_df.join(bank_contexts, on=C.CONTEXT_ID, how="left_semi")
            .mapInArrow(_mentions_fn(cfg), S.BANK_MENTION_SCHEMA)
            .groupBy(C.ENTITY_TYPE, C.ENT_TEXT).count()
            .select(C.ENTITY_TYPE, C.ENT_TEXT, "count"))


def with_outcomes(qa_ok: DataFrame, ner_df: DataFrame, cfg: Config, bank: cbank.EntityBank,
                  prov: Provenance) -> DataFrame:
    """The outcome (dataset row or filtered row) of every answerable QA row; the bank is
    broadcast as plain lists."""
    bank_bc = qa_ok.sparkSession.sparkContext.broadcast(bank.entities)
    joined = qa_ok.join(ner_df, on=C.CONTEXT_ID, how="left")
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


# ---------------------------------------------------------------- writing

def write_jsonl(df: DataFrame, columns: list[str], path: Path) -> None:
    """One JSONL file, rows ordered by id, serialised by the core's `json_line`."""
    parts = path.parent / f".{path.name}.parts"
    (df.select(*columns).orderBy(C.ID)
       .mapInArrow(_lines_fn(columns), S.LINE_SCHEMA)
       .write.mode("overwrite").text(str(parts)))
    fio.concat_parts_atomic(parts, path)


# ---------------------------------------------------------------- the job

def build_dataset(spark: SparkSession, cfg: Config, files: list[InputFile], output_dir: str | Path,
                  bank_dir: str | None = None) -> RunResult:
    """Run the whole pipeline and write DIR/jsonl/, DIR/entity_bank/, DIR/filtered/,
    DIR/rejected/ and DIR/report.json."""
    out = Path(output_dir)
    out.mkdir(parents=True, exist_ok=True)
    stages = _Stages()
    persisted: list[DataFrame] = []

    def keep(df: DataFrame) -> DataFrame:
        persisted.append(df.persist(StorageLevel.MEMORY_AND_DISK))
        return df

    try:
        qa = keep(read_qa(spark, files, cfg).transform(with_duplicates_rejected))
        input_counts = [(r[C.SOURCE], r[C.INPUT_FILE], r["count"])
                        for r in qa.groupBy(C.SOURCE, C.INPUT_FILE).count().collect()]
        stages.done("read", f"{sum(n for *_, n in input_counts):,} records from {len(files)} file(s)")

        qa_ok = qa.filter(F.col(C.STATUS) == C.OK)
        contexts = qa_ok.select(C.CONTEXT_ID, C.CONTEXT).dropDuplicates([C.CONTEXT_ID])
        contexts = keep(contexts)
        n_parts = ner_partitions(spark, contexts, cfg)
        ner_df = keep(with_entities(contexts, cfg, n_parts))
        n_contexts = ner_df.count()
        stages.done("ner", f"{n_contexts:,} distinct contexts in {n_parts} partitions")

        if bank_dir:
            bank = cbank.load(bank_dir, cfg.bank.types)
            bank_origin = str(bank_dir)
        else:
            counts = [(r[C.ENTITY_TYPE], r[C.ENT_TEXT], r["count"])
                      for r in bank_mention_counts(ner_df, qa_ok, cfg).collect()]
            bank = cbank.assemble(counts, cfg.bank)
            bank_origin = "built from " + ", ".join(cfg.bank.sources) + " contexts"
        cbank.save(bank, out / "entity_bank")
        stages.done("bank", f"{sum(bank.counts().values()):,} entities")

        prov = Provenance(PIPELINE_VERSION, cfg.config_hash, fner.model_id_for(cfg.ner.model))
        outcomes = keep(with_outcomes(qa_ok, ner_df, cfg, bank, prov))
        n_out = outcomes.count()
        stages.done("process", f"{n_out:,} rows matched, substituted and checked")

        successes = outcomes.filter(F.col(C.STATUS) == C.OK)
        labelled = keep(outcomes.withColumn(
            C.SPLIT, F.when(F.col(C.STATUS) == C.OK, split_labels(successes, cfg))))
        over_cap = F.col(C.SPLIT) == splitting.OVER_CAP
        final = labelled.select(
            *[c for c in labelled.columns if c not in (C.STATUS, C.REASON)],
            F.when(over_cap, F.lit(C.FILTERED)).otherwise(F.col(C.STATUS)).alias(C.STATUS),
            F.when(over_cap, F.lit(reasons.OVER_SOURCE_CAP)).otherwise(F.col(C.REASON))
             .alias(C.REASON))
        dataset = final.filter(F.col(C.STATUS) == C.OK)
        stages.done("split")

        jsonl_dir = out / "jsonl"
        jsonl_dir.mkdir(parents=True, exist_ok=True)
        for split in C.SPLITS:
            faults.inject("write")
            write_jsonl(dataset.filter(F.col(C.SPLIT) == split), C.DATASET_COLUMNS,
                        jsonl_dir / f"{split}.jsonl")
        leftovers = (final.filter(F.col(C.STATUS) != C.OK)
                     .withColumn(C.ANSWER, F.col(C.ORIGINAL_ANSWER))
                     .select(*C.LEFTOVER_COLUMNS)
                     .unionByName(qa.filter(F.col(C.STATUS) != C.OK).select(
                         *[F.col(c) if c in qa.columns else F.lit(None).cast("string").alias(c)
                           for c in C.LEFTOVER_COLUMNS])))
        leftovers = keep(leftovers)
        for status in (C.FILTERED, C.REJECTED):
            d = out / status
            d.mkdir(parents=True, exist_ok=True)
            write_jsonl(leftovers.filter(F.col(C.STATUS) == status), C.LEFTOVER_COLUMNS,
                        d / f"{status}.jsonl")
        stages.done("write")

        status_counts = (
            [(r[C.SOURCE], r[C.INPUT_FILE], C.OK, None, r["count"]) for r in
             dataset.groupBy(C.SOURCE, C.INPUT_FILE).count().collect()]
            + [(r[C.SOURCE], r[C.INPUT_FILE], r[C.STATUS], r[C.REASON], r["count"]) for r in
               leftovers.groupBy(C.SOURCE, C.INPUT_FILE, C.STATUS, C.REASON).count().collect()])
        success_counts = [
            (r[C.SOURCE], r[C.SPLIT], r[C.ENTITY_TYPE], r[C.MATCH_STRATEGY], r["count"])
            for r in dataset.groupBy(C.SOURCE, C.SPLIT, C.ENTITY_TYPE, C.MATCH_STRATEGY)
            .count().collect()]
        report = build_report(
            input_counts, status_counts, success_counts, bank_counts=bank.counts(),
            bank_origin=bank_origin, provenance=_provenance_dict(prov))
        fio.write_json(out / "report.json", report)
        stages.done("report")
        return RunResult(out, report, stages.seconds)
    finally:
        for df in persisted:
            df.unpersist()


def _provenance_dict(prov: Provenance) -> dict[str, str]:
    return {C.PIPELINE_VERSION: prov.pipeline_version, C.CONFIG_HASH: prov.config_hash,
            C.NER_MODEL: prov.ner_model}
