"""Writes the training exports and the dataset card in one process, from dataset rows: for
the reference runner and the tests. The Spark side calls the same per-row core functions
(core/training_exports.py) and writes the same files.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any, Iterable, Iterator, Mapping

from faithqa_spark import io as fio
from faithqa_spark.config import Config, ConfigError, load_config
from faithqa_spark.core import fields as C
from faithqa_spark.core.card import dataset_card, dataset_data_files
from faithqa_spark.core.controls import build_pools
from faithqa_spark.core.training_exports import (
    CARD, abstention_context_for, export_lines, selected_exports, shard_path, training_counts)


def write_training_exports(rows: Iterable[Mapping[str, Any]], out_dir: str | Path,
                           cfg: Config, report: Mapping[str, Any] | None) -> dict[str, Any]:
    """Write `sft/`, `dpo/`, `dialogues/` and `README.md` (those in `output.formats`) under
    `out_dir`, from the dataset rows (with `split` set; any order). Returns report.json's
    `training` section, which the card also shows. Every (export, split) file is written,
    an empty one included, each ordered by record id."""
    out = Path(out_dir)
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
    for export in exports:
        for split in C.SPLITS:
            fio.write_lines_atomic(out / shard_path(export, split),
                                   (value for _, value in sorted(files[(export, split)])))
    training = training_counts(((*k, n) for k, n in groups.items()), exports)
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


def read_dataset_jsonl(dataset_dir: Path) -> Iterator[dict[str, Any]]:
    """The rows of `DIR/jsonl/{train,dev,test}.jsonl` (the job's own export)."""
    for split in C.SPLITS:
        path = dataset_dir / "jsonl" / f"{split}.jsonl"
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
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
    p.add_argument("dataset_dir", type=Path, help="an output directory of the job")
    p.add_argument("--output", type=Path, help="where to write (default: DATASET_DIR)")
    p.add_argument("--config", help="TOML config (default: the packaged faithqa_spark/defaults.toml)")
    p.add_argument("--set", action="append", default=[], metavar="SECTION.KEY=VALUE")
    args = p.parse_args(argv)
    try:
        cfg = load_config(args.config, args.set)
        report_path = args.dataset_dir / "report.json"
        report = json.loads(report_path.read_text("utf-8")) if report_path.exists() else None
        counts = write_training_exports(read_dataset_jsonl(args.dataset_dir),
                                        args.output or args.dataset_dir, cfg, report)
    except (ConfigError, OSError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(json.dumps(counts, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
