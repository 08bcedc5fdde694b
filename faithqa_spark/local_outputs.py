"""The reference runner's file outputs: the same exports (`core.exports`), serialisers and
order (by id) as the Spark job's, written from Python lists."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from faithqa_spark import io as fio
from faithqa_spark.audit_io import dataset_sample_line, write_audit_sample
from faithqa_spark.arrow import arrow_batch, arrow_schema
from faithqa_spark.config import Config
from faithqa_spark.core import fields as C
from faithqa_spark.core.audit_summary import DEFAULT_SAMPLE_SIZE, audit_sample_ids
from faithqa_spark.core.exports import DATASET, LEFTOVERS, framed_text, selected
from faithqa_spark.core.training_exports import CARD, selected_exports
from faithqa_spark.report.index import write_report
from faithqa_spark.training_writer import write_training_exports

log = logging.getLogger("faithqa_spark")


def write_files(cfg: Config, staging: Path, dataset: list[dict[str, Any]],
                leftovers: list[dict[str, Any]], report: dict[str, Any]) -> None:
    """Every file output under `staging`: the line exports, Parquet and report.json."""
    formats = set(cfg.output.formats)
    if "delta" in formats:
        log.warning("[faithqa] the reference runner writes no Delta tables (no Spark); "
                    "the other outputs are the same as the job's")
    tables = {DATASET: sorted(dataset, key=lambda r: r[C.ID]),
              LEFTOVERS: sorted(leftovers, key=lambda r: r[C.ID])}
    for export in selected(formats):
        for group in export.groups:
            lines = [export.line(r) for r in tables[export.table] if r[export.group] == group]
            path = staging / export.file(group)
            if export.frame is None:
                fio.write_lines_atomic(path, lines)
            else:
                fio.write_text_atomic(path, framed_text(lines, export.frame(group)))
    if "parquet" in formats:
        for split in C.SPLITS:
            write_parquet([r for r in tables[DATASET] if r[C.SPLIT] == split],
                          staging / "parquet" / split)
    fio.write_json(staging / "report.json", report)


def write_training(cfg: Config, staging: Path, dataset: list[dict[str, Any]],
                   report: dict[str, Any]) -> None:
    """sft/, dpo/, dialogues/ and the card README.md, as selected
    (`training_writer.write_training_exports`, the same bytes as the job's), and report.json's
    `training` section added to `report` (when an export is selected, as in the job)."""
    formats = set(cfg.output.formats)
    exports = selected_exports(formats)
    if not exports and CARD not in formats:
        return
    training = write_training_exports(dataset, staging, cfg, report)
    if exports:
        report["training"] = training


def write_parquet(rows: list[dict[str, Any]], directory: Path) -> None:
    """One split as a directory with one Parquet file (the job writes one per partition;
    readers see the same table)."""
    directory.mkdir(parents=True, exist_ok=True)
    pq.write_table(pa.Table.from_batches([arrow_batch(rows, C.DATASET_FIELDS)])
                   if rows else arrow_schema(C.DATASET_FIELDS).empty_table(),
                   directory / "part-00000.parquet")


def write_audit_and_analysis(cfg: Config, staging: Path, dataset: list[dict[str, Any]],
                             report: dict[str, Any]) -> None:
    """audit/sample.{jsonl,html} (the seeded audit sample, `audit_sample_ids`) and report/
    (index.html and its charts) under `staging`, as the job writes them."""
    by_id = {r[C.ID]: r for r in dataset}
    ids = audit_sample_ids(by_id, cfg.pipeline.seed, DEFAULT_SAMPLE_SIZE)
    write_audit_sample(staging, [dataset_sample_line(by_id[i]) for i in ids],
                       title="Audit sample")
    write_report(report, staging)
