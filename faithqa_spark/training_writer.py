"""Writes the training exports and the dataset card in one process, from dataset rows: for
the reference runner and the tests. The Spark side calls the same per-row core functions
(core/training_exports.py) and writes the same files.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any, Iterable, Iterator, Mapping

from faithqa_spark import io as fio
from faithqa_spark.config import Config
from faithqa_spark.core import fields as C
from faithqa_spark.core.card import dataset_card
from faithqa_spark.core.controls import build_pools
from faithqa_spark.core.training_exports import (
    CARD, RowRecords, abstention_context_for, record_line, row_records, selected_exports,
    shard_path, tally, training_counts)


def dataset_data_files(formats: Iterable[str]) -> dict[str, str]:
    """The files of the dataset's own export that the card's `default` config points at."""
    formats = set(formats)
    if "jsonl" in formats:
        return {s: f"jsonl/{s}.jsonl" for s in C.SPLITS}
    if "parquet" in formats:
        return {s: f"parquet/{s}/*.parquet" for s in C.SPLITS}
    return {}


def write_training_exports(rows: Iterable[Mapping[str, Any]], out_dir: str | Path,
                           cfg: Config, report: Mapping[str, Any] | None) -> dict[str, Any]:
    """Write `sft/`, `dpo/`, `dialogues/` and `README.md` (those in `output.formats`) under
    `out_dir`, from the dataset rows (with `split` set; any order). Returns report.json's
    `training` section, which the card also shows. Every (export, split) file is written,
    an empty one included, each ordered by record id."""
    out = Path(out_dir)
    formats = set(cfg.output.formats)
    exports = selected_exports(formats)
    rows = sorted(rows, key=lambda r: r[C.ID])
    pools = build_pools(rows, cfg.pipeline.seed, cfg.training.abstention_pool_size)
    files: dict[tuple[str, str], list[tuple[str, str]]] = defaultdict(list)

    def keep_lines(results: Iterable[RowRecords]) -> Iterator[RowRecords]:
        # only the serialised lines stay in memory, not the record dicts
        for rr in results:
            for export, recs in rr.records.items():
                for rec in recs:
                    files[(export, rec[C.SPLIT])].append((rec[C.ID], record_line(export, rec)))
            yield rr

    training = training_counts(*tally(keep_lines(
        row_records(r, abstention_context_for(r, pools, cfg), cfg, exports) for r in rows)),
        exports)
    for export in exports:
        for split in C.SPLITS:
            fio.write_lines_atomic(out / shard_path(export, split),
                                   (line for _, line in sorted(files[(export, split)])))
    if CARD in formats:
        fio.write_text_atomic(out / "README.md", dataset_card(
            cfg, report or _report_from_rows(rows), dataset_data_files(formats), training))
    return training


def _report_from_rows(rows: list[Mapping[str, Any]]) -> dict[str, Any]:
    """The little of report.json the card needs, when the caller has none."""
    sources: dict[str, Any] = defaultdict(lambda: {"splits": defaultdict(int)})
    for r in rows:
        sources[r[C.SOURCE]]["splits"][r[C.SPLIT]] += 1
    return {"sources": {s: {"success": sum(v["splits"].values()), "splits": dict(v["splits"])}
                        for s, v in sorted(sources.items())}}
