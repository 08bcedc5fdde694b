"""Writes the training exports and the dataset card in one process, from dataset rows: for
the reference runner and the tests. The Spark side calls the same per-row core functions
(core/training_exports.py) and writes the same files.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any, Iterable, Iterator, Mapping

from faithqa_spark import fs
from faithqa_spark.config import Config, ConfigError, load_config
from faithqa_spark.core import fields as C
from faithqa_spark.core.card import dataset_card, dataset_data_files
from faithqa_spark.core.controls import build_pools
from faithqa_spark.core.exports import FILE_EXPORTS
from faithqa_spark.core.training_exports import (
    CARD, TRAINING_FILES, abstention_context_for, export_lines, selected_exports,
    training_counts)
from faithqa_spark.outdir import OutDir, as_outdir
from faithqa_spark.runs import run_files
from faithqa_spark.shard_io import layout_of, write_groups


def write_training_exports(rows: Iterable[Mapping[str, Any]], out_dir: OutDir | str | Path,
                           cfg: Config, report: Mapping[str, Any] | None) -> dict[str, Any]:
    """Write `sft/`, `dpo/`, `dialogues/` and `README.md` (those in `output.formats`) under
    `out_dir`, from the dataset rows (with `split` set; any order). Returns report.json's
    `training` section, which the card also shows. Every (export, split) is written, in
    shards of `output.shard_rows` records (one empty file for none), ordered by record id."""
    out = as_outdir(out_dir)
    formats = set(cfg.output.formats)
    exports = selected_exports(formats)
    rows = list(rows)  # read twice: the pools, then the records
    pools = build_pools(rows, cfg.pipeline.seed, cfg.training.abstention_pool_size)
    files: dict[tuple[str, str], list[tuple[str, str]]] = defaultdict(list)
    groups: Counter[tuple[str, str, str, str | None]] = Counter()
    for row in rows:
        for line in export_lines(row, abstention_context_for(row, pools, cfg), cfg, exports):
            groups[(line[C.EXPORT], line[C.KIND], line[C.SPLIT], line[C.REASON])] += 1
            if line[C.REASON] is None:
                files[(line[C.EXPORT], line[C.SPLIT])].append((line[C.ID], line[C.VALUE]))
    layout = layout_of(cfg)
    for export in exports:
        for split in C.SPLITS:
            write_groups(out, [(TRAINING_FILES[export], split)],
                         [{C.VALUE: value} for _, value in sorted(files[(export, split)])],
                         layout)
    training = training_counts(((*k, n) for k, n in groups.items()), exports)
    if CARD in formats:
        out.write_text("README.md", dataset_card(
            cfg, report or _report_from_rows(rows), dataset_data_files(formats), training))
    return training


def _report_from_rows(rows: list[Mapping[str, Any]]) -> dict[str, Any]:
    """The little of report.json the card needs, when the caller has none."""
    sources: dict[str, Any] = defaultdict(lambda: {"splits": defaultdict(int)})
    for r in rows:
        sources[r[C.SOURCE]]["splits"][r[C.SPLIT]] += 1
    return {"sources": {s: {"success": sum(v["splits"].values()), "splits": dict(v["splits"])}
                        for s, v in sorted(sources.items())}}


def read_dataset_jsonl(dataset_dir: str) -> Iterator[dict[str, Any]]:
    """The rows of a complete run's JSONL export, `DIR/jsonl/<split>-*.jsonl` (the job's own
    export, any filesystem)."""
    jsonl = next(e for e in FILE_EXPORTS if e.format == "jsonl")
    files = run_files(dataset_dir, jsonl.directory, jsonl.suffix)
    for split in C.SPLITS:
        for path in (p for p in files
                     if fnmatch.fnmatch(p.rsplit("/", 1)[-1], jsonl.pattern(split).split("/")[-1])):
            for n, line in enumerate(fs.read_bytes(path).decode("utf-8").splitlines(), 1):
                try:
                    row = json.loads(line)
                except json.JSONDecodeError as e:
                    raise ValueError(f"{path}: line {n}: not JSON ({e.msg})") from None
                if not isinstance(row, dict) or row.get(C.SPLIT) != split:
                    raise ValueError(f"{path}: line {n}: not a dataset row of split {split!r}")
                yield row


def main(argv: list[str] | None = None) -> int:
    """`python -m faithqa_spark.training_writer DIR`: add the training exports and the card
    to a finished output directory (from its jsonl/ and report.json)."""
    p = argparse.ArgumentParser(prog="python -m faithqa_spark.training_writer",
                                description=main.__doc__)
    p.add_argument("dataset_dir", help="an output directory of the job (a path or a URI)")
    p.add_argument("--output", help="where to write (default: DATASET_DIR)")
    p.add_argument("--config", help="TOML config (default: the packaged faithqa_spark/defaults.toml)")
    p.add_argument("--set", action="append", default=[], metavar="SECTION.KEY=VALUE")
    args = p.parse_args(argv)
    try:
        cfg = load_config(args.config, args.set)
        report_path = fs.join(args.dataset_dir, "report.json")
        report = json.loads(fs.read_bytes(report_path)) if fs.exists(report_path) else None
        counts = write_training_exports(read_dataset_jsonl(args.dataset_dir),
                                        args.output or args.dataset_dir, cfg, report)
    except (ConfigError, OSError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(json.dumps(counts, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
