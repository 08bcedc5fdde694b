"""report.json's `audit` and `analysis` sections of a run, one place for both runners.

Each batch of rows gives partial counts, `(kind, key1, key2, key3, rows)`: for the QA rows
read OK (kind `input`) the analysis buckets of `core.analysis.input_row_buckets`; for the
dataset rows (kind `dataset`) those of `row_buckets` and the audit's `(source, flag,
value)` counts (`core.audit_summary.audit_counts`, kind `audit`). Counts are plain sums, so
the reference counts all its rows at once and the Spark job sums per-partition counts in one
aggregation, with the same sections.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Iterable, Mapping

from faithqa_spark.config import Config
from faithqa_spark.core import fields as C
from faithqa_spark.core.analysis import (INPUT_ROW_FIELDS, ROW_FIELDS, analysis_section,
                                         bucket_counts, input_row_buckets, row_buckets)
from faithqa_spark.core.audit_summary import audit_counts, audit_report
from faithqa_spark.core.gender import lexicon_available

AUDIT_SECTION, ANALYSIS_SECTION = "audit", "analysis"  # report.json's keys
INPUT, DATASET = "input", "dataset"  # which rows a batch holds
AUDIT_KIND, BUCKET_KIND = "audit", "bucket"  # which counts a partial count row holds
PartialCount = tuple[str, "str | None", str, str, int]  # kind, key1, key2, key3, rows
# The fields each kind of rows is counted from (a Spark task ships only these).
FIELDS: dict[str, list[str]] = {INPUT: list(INPUT_ROW_FIELDS),
                                DATASET: [*ROW_FIELDS, C.AUDIT]}


def partial_counts(kind: str, rows: Iterable[Mapping[str, Any]]) -> list[PartialCount]:
    """The counts of a batch of `kind` rows (INPUT: the QA rows read OK; DATASET: the
    dataset rows), sorted."""
    rows = list(rows)
    if kind == INPUT:
        return [(BUCKET_KIND, *b) for b in bucket_counts(rows, input_row_buckets)]
    if kind != DATASET:
        raise ValueError(f"unknown kind of rows {kind!r}")
    audits = audit_counts((r[C.SOURCE], r[C.AUDIT] or {}) for r in rows)
    return ([(BUCKET_KIND, *b) for b in bucket_counts(rows, row_buckets)]
            + [(AUDIT_KIND, *k, n) for k, n in sorted(audits.items(), key=_key_order)])


def quality_sections(counts: Iterable[PartialCount], cfg: Config) -> dict[str, Any]:
    """`{"audit": ..., "analysis": ...}` from partial counts (in any order, any number of
    partials per key): the `sections` argument of `core.report.build_report`."""
    audit: Counter = Counter()
    buckets: list[tuple[str, str, str, int]] = []
    for kind, a, b, c, n in counts:
        if kind == AUDIT_KIND:
            audit[(a, b, c)] += n
        else:
            buckets.append((a, b, c, n))  # type: ignore[arg-type]
    s = cfg.sampling
    # the replacement's gender comes from the name lexicon (the runs' sampling index has no
    # corpus votes); without the optional lexicon gender_conflict is never measurable
    gender = {"gender_lexicon": "gender-guesser" if lexicon_available() else None}
    return {AUDIT_SECTION: {**audit_report(audit), **gender},
            ANALYSIS_SECTION: analysis_section(
                buckets, length_ratio_bounds=(s.min_length_ratio, s.max_length_ratio))}


def _key_order(kv: tuple[tuple[Any, ...], int]) -> tuple[str, ...]:
    source, flag, value = kv[0]
    return (source or "", flag, value)
