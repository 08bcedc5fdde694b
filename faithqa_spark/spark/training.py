"""The training exports on Spark: sft/, dpo/, dialogues/ and DIR/README.md, the edge of
`core/training_exports.py` (whose docstring gives the steps). No dataset row reaches the
driver: only the bounded abstention pools and the counts per (export, kind, split, reason).
`faithqa_spark.training_writer.write_training_exports` writes the same bytes in one process.
"""

from __future__ import annotations

from functools import reduce
from typing import Any, Iterable

from pyspark.sql import DataFrame, SparkSession
from pyspark.sql import functions as F

from faithqa_spark.config import Config
from faithqa_spark.core import fields as C
from faithqa_spark.core.card import dataset_card, dataset_data_files
from faithqa_spark.core.controls import PoolKey, pool_key_prefix, pools_from_keyed
from faithqa_spark.core.training_exports import (CARD, EXPORT_FIELDS, TRAINING_FILES,
                                                 training_counts)
from faithqa_spark.spark import schema as S
from faithqa_spark.spark import tasks
from faithqa_spark.spark.outputs import OutputPlan
from faithqa_spark.spark.transforms import in_export_order

_KEY, _FILE = "_pool_key", "_file"


def abstention_pools(dataset: DataFrame, cfg: Config,
                     groups: Iterable[PoolKey]) -> dict[PoolKey, list[str]]:
    """Per (source, split) of `groups` the `training.abstention_pool_size` distinct original
    contexts with the smallest (pool_key, text) (`core.controls.build_pools`). The key is
    Spark's built-in sha2 (no Python worker). Each group's pool is a sort-and-limit, which
    Spark runs as a top-k: every task keeps its `size` smallest rows, and one task merges
    those; so no task holds more than that, where a window over (source, split) sorted every
    distinct context of a split in one task. Only the pools are collected."""
    size = cfg.training.abstention_pool_size
    key = F.sha2(F.concat(F.lit(pool_key_prefix(cfg.pipeline.seed)),
                          F.col(C.ORIGINAL_CONTEXT)), 256)
    contexts = dataset.select(C.SOURCE, C.SPLIT, C.ORIGINAL_CONTEXT).distinct()
    tops = [contexts.filter((F.col(C.SOURCE) == source) & (F.col(C.SPLIT) == split))
            .withColumn(_KEY, key).orderBy(_KEY, C.ORIGINAL_CONTEXT).limit(size)
            .select(C.SOURCE, C.SPLIT, _KEY, C.ORIGINAL_CONTEXT)
            for source, split in sorted(set(groups))]
    if not tops:
        return {}
    entries = reduce(DataFrame.unionByName, tops).collect()
    return pools_from_keyed((tuple(r) for r in entries), size)


def pool_groups(report: dict[str, Any]) -> list[PoolKey]:
    """The (source, split) groups that have dataset rows, from report.json's counts."""
    return [(source, split) for source, s in report["sources"].items()
            for split, n in s["splits"].items() if n]


def export_lines(spark: SparkSession, dataset: DataFrame, cfg: Config,
                 exports: list[str], groups: Iterable[PoolKey]) -> DataFrame:
    """Every dataset row's export lines (TRAINING_LINE_FIELDS), by
    `core.training_exports.export_lines` with the pools of `groups` (`pool_groups`)
    broadcast as plain data (lazy but for the pools' collect)."""
    pools = spark.sparkContext.broadcast(abstention_pools(dataset, cfg, groups))
    return dataset.mapInArrow(tasks.training_task(cfg, pools, exports),
                              S.struct_type(C.TRAINING_LINE_FIELDS))


def line_counts(lines: DataFrame, exports: list[str]) -> dict[str, Any]:
    """report.json's `training` section: `training_counts` over a groupBy."""
    keys = (C.EXPORT, C.KIND, C.SPLIT, C.REASON)
    groups = lines.groupBy(*keys).count().collect()
    return training_counts(((*(r[k] for k in keys), r["count"]) for r in groups), exports)


def add_outputs(plan: OutputPlan, lines: DataFrame, exports: list[str]) -> None:
    """Register, with the output plan, each export's files per split in shards (the records'
    lines in id order, `TRAINING_FILES`; one empty file for a split with none), written by
    the executors, and, with delta, a table per export (the lines parsed back with the
    export's schema)."""
    records = lines.filter(F.col(C.REASON).isNull())
    ordered = plan.keep(in_export_order(
        records.withColumn(_FILE, F.concat_ws("/", C.EXPORT, C.SPLIT)), _FILE))
    plan.add_sharded("training exports", ordered, _FILE, {
        f"{export}/{split}": [(TRAINING_FILES[export], split)]
        for export in exports for split in C.SPLITS})
    for export in exports:
        schema = S.struct_type(EXPORT_FIELDS[export])
        plan.add_table(export, records.filter(F.col(C.EXPORT) == export)
                       .select(F.from_json(C.VALUE, schema).alias("r")).select("r.*"),
                       (C.SPLIT,))


def write_card(plan: OutputPlan, cfg: Config, report: dict[str, Any]) -> None:
    """DIR/README.md (`core.card.dataset_card`), when `card` is among output.formats."""
    if CARD in plan.formats:
        plan.root.write_text("README.md", dataset_card(
            cfg, report, dataset_data_files(plan.formats), report.get("training", {})))
