"""The job's Spark actions: each runs Spark jobs now and returns plain data to the driver
(counts, bounds, tallies), so a reader of `job.build_dataset` sees where work happens."""

from __future__ import annotations

import math
from contextlib import contextmanager
from typing import Any, Callable, Iterator, Mapping, TypeVar

from pyspark import InheritableThread
from pyspark.sql import DataFrame, SparkSession
from pyspark.sql import functions as F

from faithqa_spark.config import Config
from faithqa_spark.core import fields as C
from faithqa_spark.core import nearby, splitting
from faithqa_spark.core.bank import EntityBank
from faithqa_spark.core.bank_build import MentionCount
from faithqa_spark.core.outcomes import INPUT_KEYS, TALLY_KEYS, Tally, tally
from faithqa_spark.core.quality_report import DATASET, FIELDS, INPUT, PartialCount
from faithqa_spark.spark import schema as S
from faithqa_spark.spark import tasks
from faithqa_spark.spark import transforms as T

_T = TypeVar("_T")


def group_counts(df: DataFrame, keys: tuple[str, ...]) -> list[tuple[tuple[Any, ...], int]]:
    """(values of `keys`, rows) per group: `core.outcomes.group_counts` on a DataFrame."""
    return [(tuple(r[k] for k in keys), r["count"])
            for r in df.groupBy(*keys).count().collect()]


def input_counts(qa: DataFrame) -> list[tuple[tuple[Any, ...], int]]:
    """Records read per (source, input file); materialises `qa` when it is persisted."""
    return group_counts(qa, INPUT_KEYS)


def materialise(df: DataFrame) -> int:
    """Run `df` (persisted by the caller) once, so later stages read the stored rows."""
    return df.count()


def ner_partitions(spark: SparkSession, contexts: DataFrame, cfg: Config) -> int:
    """Partitions for NER sized by text length (the cost of NER), with a floor per core;
    1 when there is nothing to do."""
    n, total_chars = contexts.agg(F.count(F.lit(1)), F.sum(F.length(C.CONTEXT))).first()
    if not n:
        return 1
    floor = spark.sparkContext.defaultParallelism * cfg.spark.min_partitions_per_core
    return max(floor, math.ceil((total_chars or 0) / cfg.spark.chars_per_ner_partition))


def mention_counts(ner_df: DataFrame) -> list[MentionCount]:
    """(type, text, n) of the bank mentions; the one thing of size the driver collects,
    through Arrow to keep that cheap."""
    counts = T.bank_mention_counts(ner_df).toArrow()
    return list(zip(*(counts.column(c).to_pylist() for c in (C.ENTITY_TYPE, C.ENT_TEXT, "count"))))


def broadcast_bank(spark: SparkSession, bank: EntityBank) -> Any:
    """The bank as plain lists, broadcast to the process tasks."""
    return spark.sparkContext.broadcast(bank.entities)


def nearby_mapping(qa_ok: DataFrame, ner_df: DataFrame, cfg: Config
                   ) -> dict[str, dict[str, list[str]]] | None:
    """The entities of every article (`core.nearby.nearby_entities`), collected to the
    driver: None unless the policy draws from them."""
    if not nearby.wanted(cfg.substitution.policy):
        return None
    cols = (T.ARTICLE, C.ENTITY_TYPE, C.ENT_TEXT, "count")
    table = T.article_mentions(qa_ok, ner_df).toArrow()
    return nearby.nearby_entities(zip(*(table.column(c).to_pylist() for c in cols)))


@contextmanager
def in_background(spark: SparkSession, description: str, fn: Callable[[], _T]
                  ) -> Iterator[Callable[[], _T]]:
    """`fn()` run in a driver thread during the block. The block gets a function that waits
    for the value and returns it, or raises what `fn` raised. Meant for a small Spark job
    that would leave cores idle if the driver waited for it: the block's own work (the
    bank's assembly in Python, say) runs meanwhile. Leaving the block waits for the thread.
    An InheritableThread: the job keeps the caller's local properties (a job group or a
    scheduler pool that the user set) and its JVM thread is released with it."""
    outcome: dict[str, Any] = {}

    def run() -> None:
        spark.sparkContext.setLocalProperty("spark.job.description", description)
        try:
            outcome["value"] = fn()
        except BaseException as e:  # noqa: BLE001 - handed to the block, which raises it
            outcome["error"] = e

    thread = InheritableThread(run, daemon=True)
    thread.start()

    def value() -> _T:
        thread.join()
        if "error" in outcome:
            raise outcome["error"]
        return outcome["value"]

    try:
        yield value
    finally:
        thread.join()


def broadcast_nearby(spark: SparkSession, near: Mapping[str, Any] | None) -> Any:
    """The articles' entities (`nearby_mapping`), broadcast to the process tasks like the
    bank, of which they are a regrouping (None: None)."""
    return None if near is None else spark.sparkContext.broadcast(near)


def split_bounds(outcomes: DataFrame, cfg: Config) -> dict[str, splitting.Bounds]:
    """Each source's split bounds (`core.splitting.source_bounds`) by exact rank of
    (split_key, id) among its successes, found without a global sort: the rows are counted
    per hash bucket, then only the keys of the buckets where a cut falls are collected."""
    ok = outcomes.filter(F.col(C.STATUS) == C.OK)
    bucket = T.bucket(F.col(C.SPLIT_KEY)).alias("bucket")
    counts: dict[str, dict[int, int]] = {}
    for r in ok.groupBy(C.SOURCE, bucket).count().collect():
        counts.setdefault(r[C.SOURCE], {})[r["bucket"]] = r["count"]

    def limits(source: str) -> tuple[int, float, float]:
        return cfg.limits.max_success.get(source, 0), cfg.split.train, cfg.split.dev

    wanted = sorted((s, b) for s, c in counts.items()
                    for b in splitting.cut_buckets(c, *limits(s)))
    keys: dict[str, dict[int, list[splitting.Key]]] = {s: {} for s in counts}
    if wanted:
        cond = F.lit(False)
        for s, b in wanted:
            cond = cond | ((F.col(C.SOURCE) == s) & (T.bucket(F.col(C.SPLIT_KEY)) == b))
        for r in ok.filter(cond).select(C.SOURCE, bucket, C.SPLIT_KEY, C.ID).collect():
            keys[r[C.SOURCE]].setdefault(r["bucket"], []).append((r[C.SPLIT_KEY], r[C.ID]))
    return {s: splitting.source_bounds(counts[s], keys[s], *limits(s)) for s in sorted(counts)}


def final_tally(final: DataFrame, qa: DataFrame,
                inputs: list[tuple[tuple[Any, ...], int]]) -> Tally:
    """Every row's final place in one aggregation, over the placed outcomes and the reader's
    filtered and rejected records (`core.outcomes.tally`)."""
    rows = final.select(*TALLY_KEYS).unionByName(T.reader_leftovers(qa, list(TALLY_KEYS)))
    return tally(inputs, group_counts(rows, TALLY_KEYS))


def quality_counts(dataset: DataFrame, qa: DataFrame) -> list[PartialCount]:
    """The counts of report.json's audit and analysis sections
    (`core.quality_report.quality_sections`): partial counts per partition of the QA rows
    read OK and of the dataset rows, summed in one aggregation."""
    schema = S.struct_type(tasks.COUNT_FIELDS)
    inputs = (qa.filter(F.col(C.STATUS) == C.OK).select(*FIELDS[INPUT])
              .mapInArrow(tasks.quality_counts_task(INPUT), schema))
    rows = dataset.select(*FIELDS[DATASET]).mapInArrow(tasks.quality_counts_task(DATASET), schema)
    keys = [c for c in tasks.COUNT_COLUMNS if c != "n"]
    summed = inputs.unionByName(rows).groupBy(*keys).agg(F.sum("n").alias("n"))
    return [(*(r[k] for k in keys), int(r["n"])) for r in summed.collect()]  # type: ignore[misc]


def audit_sample_ids(dataset: DataFrame, seed: int, n: int) -> list[str]:
    """`core.audit_summary.audit_sample_ids` on Spark: the `n` ids of lowest audit key, in
    that order (only these ids reach the driver)."""
    keys = dataset.select(C.ID).mapInArrow(
        tasks.audit_key_task(seed), S.struct_type([(C.ID, C.STRING), (tasks.AUDIT_KEY, C.LONG)]))
    return [r[C.ID] for r in keys.orderBy(tasks.AUDIT_KEY, C.ID).limit(n).collect()]


__all__ = ["audit_sample_ids", "quality_counts", "broadcast_bank", "final_tally", "group_counts", "input_counts", "materialise",
           "mention_counts", "ner_partitions", "split_bounds"]
