"""`python -m faithqa_spark.audit FILE_OR_DIR... --output DIR`: audit a dataset in the
paper's field names in one process (for small files; `jobs/audit_dataset.py` is the same
with Spark). Writes DIR/audit/report.json, sample.jsonl and sample.html, prints the table.
"""

from __future__ import annotations

import argparse
import itertools
import sys
from dataclasses import dataclass
from typing import Any

from faithqa_spark.audit_io import (
    AuditInput, AuditInputError, check_record, iter_records, read_bytes, resolve_inputs,
    sample_line, write_audit_outputs)
from faithqa_spark.config import Config, ConfigError, load_config
from faithqa_spark.core import fields as C
from faithqa_spark.core.audit import AuditBounds, audit_row
from faithqa_spark.core.audit_summary import (
    DEFAULT_SAMPLE_SIZE, audit_counts, audit_key, audit_report, gender_lookup, row_gender_votes,
    vote_counts)
from faithqa_spark.core.gender import lexicon_available


@dataclass(frozen=True)
class AuditRun:
    cfg: Config
    inputs: list[AuditInput]
    output: str
    sample_size: int
    master: str | None

    @property
    def bounds(self) -> AuditBounds:
        s = self.cfg.sampling
        return AuditBounds(s.min_length_ratio, s.max_length_ratio)

    @property
    def seed(self) -> int:
        return self.cfg.pipeline.seed


def parse_args(argv: list[str] | None, prog: str) -> AuditRun:
    """Arguments of both audit commands, checked before any work starts."""
    p = argparse.ArgumentParser(prog=prog, description=(
        "Audit a counterfactual QA dataset (the paper's field names): per-row flags, "
        "counts per source, and a seeded sample to review in a browser."))
    p.add_argument("inputs", nargs="+", metavar="FILE_OR_DIR",
                   help="JSONL, JSON list or Parquet file, a directory of them, or one of our "
                        "output directories (its jsonl/, else parquet/)")
    p.add_argument("--output", required=True, metavar="DIR", help="writes DIR/audit/")
    p.add_argument("--config", help="TOML config: the length-ratio bounds and the seed "
                                    "(default: the packaged faithqa_spark/defaults.toml)")
    p.add_argument("--set", action="append", default=[], metavar="SECTION.KEY=VALUE",
                   help="override a config key; repeatable")
    p.add_argument("--sample-size", type=int, default=DEFAULT_SAMPLE_SIZE,
                   help=f"rows in the audit sample (default {DEFAULT_SAMPLE_SIZE}, the paper's)")
    p.add_argument("--master", help="Spark master (jobs/audit_dataset.py only)")
    a = p.parse_args(argv)
    if a.sample_size < 0:
        raise AuditInputError("--sample-size must be >= 0")
    return AuditRun(load_config(a.config, a.set), resolve_inputs(a.inputs), a.output,
                    a.sample_size, a.master)


def report_meta(run: AuditRun) -> dict[str, Any]:
    """What report.json says about how the audit was made (the same in both runners)."""
    return {"inputs": [i.path for i in run.inputs], "seed": run.seed,
            "sample_size": run.sample_size,
            "length_ratio_bounds": [run.bounds.min_length_ratio, run.bounds.max_length_ratio],
            "gender_lexicon": "gender-guesser" if lexicon_available() else None}


def sample_order(seed: int, row: dict[str, Any], line: str) -> tuple[int, str, str]:
    """The sort key of the audit sample: hash rank, then id, then the line (duplicate ids)."""
    return audit_key(seed, row[C.ID]), row[C.ID], line


def read_rows(inputs: list[AuditInput]) -> list[dict[str, Any]]:
    rows = []
    for inp in inputs:
        for path, data in read_bytes(inp):
            part = AuditInput(path, inp.kind)
            rows.extend(check_record(obj, path, loc) for loc, obj in iter_records(data, part))
    return rows


def run_audit(run: AuditRun) -> str:
    """Audit in this process; returns the table printed."""
    rows = read_rows(run.inputs)
    gender_of = gender_lookup(vote_counts(itertools.chain.from_iterable(
        row_gender_votes(r) for r in rows)))
    audits = [audit_row(r, run.bounds, gender_of) for r in rows]
    report = {**report_meta(run), **audit_report(
        audit_counts((r.get(C.SOURCE), a) for r, a in zip(rows, audits)))}
    lines = [(r, sample_line(r, a)) for r, a in zip(rows, audits)]
    lines.sort(key=lambda rl: sample_order(run.seed, *rl))
    sample = [line for _, line in lines[:run.sample_size]]
    return write_audit_outputs(run.output, report, sample, title="Audit sample")


def main(argv: list[str] | None = None) -> int:
    try:
        run = parse_args(argv, "python -m faithqa_spark.audit")
        print(run_audit(run))
    except (AuditInputError, ConfigError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
