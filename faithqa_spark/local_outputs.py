"""The reference runner's file outputs: the same exports (`core.exports`), serialisers, order
(by id) and shards (`shard_io.ShardWriter`) as the Spark job's, written from Python lists
into the run's directory (`outdir.OutDir`, any filesystem)."""

from __future__ import annotations

import logging
from typing import Any

from faithqa_spark.audit_io import dataset_sample_line, write_audit_sample
from faithqa_spark.config import Config
from faithqa_spark.core import bank as cbank
from faithqa_spark.core import fields as C
from faithqa_spark.core.audit_summary import DEFAULT_SAMPLE_SIZE, audit_sample_ids
from faithqa_spark.core.bank import EntityBank
from faithqa_spark.core.exports import DATASET, LEFTOVERS, by_export
from faithqa_spark.core.training_exports import CARD, selected_exports
from faithqa_spark.outdir import OutDir
from faithqa_spark.report.index import write_report
from faithqa_spark.shard_io import layout_of, targets_by_group, write_groups
from faithqa_spark.training_writer import write_training_exports

log = logging.getLogger("faithqa_spark")


def write_files(cfg: Config, out: OutDir, dataset: list[dict[str, Any]],
                leftovers: list[dict[str, Any]], report: dict[str, Any]) -> None:
    """Every file output under `out`: the exports of the dataset and the leftovers, and
    report.json."""
    formats = set(cfg.output.formats)
    if "delta" in formats:
        log.warning("[faithqa] the reference runner writes no Delta tables (no Spark); "
                    "the other outputs are the same as the job's")
    layout = layout_of(cfg)
    for table, rows in ((DATASET, dataset), (LEFTOVERS, leftovers)):
        exports = by_export(formats, table)
        ordered = sorted(rows, key=lambda r: r[C.ID])
        for group, targets in targets_by_group(exports).items():
            column = exports[0].group
            write_groups(out, targets, [r for r in ordered if r[column] == group], layout)
    out.write_json("report.json", report)


def write_bank(out: OutDir, bank: EntityBank) -> None:
    """entity_bank/ in the paper's format (`core.bank.bank_files`)."""
    for name, data in cbank.bank_files(bank).items():
        out.write_bytes(f"entity_bank/{name}", data)


def write_training(cfg: Config, out: OutDir, dataset: list[dict[str, Any]],
                   report: dict[str, Any]) -> None:
    """sft/, dpo/, dialogues/ and the card README.md, as selected
    (`training_writer.write_training_exports`, the same bytes as the job's), and report.json's
    `training` section added to `report` (when an export is selected, as in the job)."""
    formats = set(cfg.output.formats)
    exports = selected_exports(formats)
    if not exports and CARD not in formats:
        return
    training = write_training_exports(dataset, out, cfg, report)
    if exports:
        report["training"] = training


def write_audit_and_analysis(cfg: Config, out: OutDir, dataset: list[dict[str, Any]],
                             report: dict[str, Any]) -> None:
    """audit/sample.{jsonl,html} (the seeded audit sample, `audit_sample_ids`) and report/
    (index.html and its charts) under `out`, as the job writes them."""
    by_id = {r[C.ID]: r for r in dataset}
    ids = audit_sample_ids(by_id, cfg.pipeline.seed, DEFAULT_SAMPLE_SIZE)
    write_audit_sample(out, [dataset_sample_line(by_id[i]) for i in ids],
                       title="Audit sample")
    write_report(report, out)
