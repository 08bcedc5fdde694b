"""report.json's `analysis`: the distributions the report's charts need beyond the counts.

Each row maps to a few bucket keys `(section, source, bucket)`; the runners count the keys
(the reference with a Counter, the Spark job with one groupBy) and `analysis_section` turns
the counts into report.json's `analysis` key. Counts are plain sums, so any partitioning
gives the same section.

Sections (the keys of `analysis`, each `{source: {bucket: rows}}`):
- `context_chars_input`: the context of every QA row read OK (before matching), by length;
- `context_chars_dataset`: the original context of every dataset row, by length (set beside
  the input's, it shows how success depends on the length);
- `num_replacements`: how many occurrences of the original entity each dataset row replaced;
- `length_ratio`: len(replacement) / len(original entity), in steps of 0.1.

Lengths are in Unicode code points (Python's `len`), the unit the pipeline's checks use.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import defaultdict
from typing import Any, Callable, Iterable, Mapping

from faithqa_spark.core import fields as C

Bucket = tuple[str, str, str]  # section, source, bucket label
BucketCount = tuple[str, str, str, int]  # section, source, bucket label, rows

CONTEXT_CHARS_INPUT = "context_chars_input"
CONTEXT_CHARS_DATASET = "context_chars_dataset"
NUM_REPLACEMENTS = "num_replacements"
LENGTH_RATIO = "length_ratio"
LENGTH_RATIO_BOUNDS = "length_ratio_bounds"  # the configured window, when given
SECTIONS = (CONTEXT_CHARS_INPUT, CONTEXT_CHARS_DATASET, NUM_REPLACEMENTS, LENGTH_RATIO)
# The fields each bucket function reads (a Spark task ships only these).
INPUT_ROW_FIELDS = [C.SOURCE, C.CONTEXT, C.STATUS]
ROW_FIELDS = [C.SOURCE, C.ORIGINAL_CONTEXT, C.ORIGINAL_ENTITY, C.REPLACEMENT_ENTITY,
              C.NUM_REPLACEMENTS]

# Log-spaced lower edges, 1-1.5-2-3-5-7 per decade: readable labels, about 1.4x apart.
CONTEXT_EDGES: tuple[int, ...] = (0,) + tuple(
    m * 10 ** k for k in range(0, 6) for m in (10, 15, 20, 30, 50, 70))
RATIO_STEPS_PER_UNIT = 10  # buckets of 0.1


def context_bucket(n_chars: int) -> str:
    """The label of the log-spaced bucket that holds a context of `n_chars` chars."""
    return _context_label(bisect_right(CONTEXT_EDGES, max(n_chars, 0)) - 1)


def ratio_bucket(replacement: str, original: str) -> str | None:
    """The 0.1-wide bucket of len(replacement)/len(original), labelled by its lower edge
    ("0.7" holds [0.7, 0.8)); integer arithmetic, so no float rounding decides a bucket.
    None when the original is empty (no ratio)."""
    if not original:
        return None
    return ratio_label(len(replacement) * RATIO_STEPS_PER_UNIT // len(original))


def input_row_buckets(row: Mapping[str, Any]) -> list[Bucket]:
    """The keys of one unified QA row: call it for every row read OK (status ok), before
    matching. Rows that were rejected carry no trustworthy context and are not counted."""
    if row.get(C.STATUS, C.OK) != C.OK or row.get(C.CONTEXT) is None:
        return []
    return [(CONTEXT_CHARS_INPUT, row[C.SOURCE], context_bucket(len(row[C.CONTEXT])))]


def row_buckets(row: Mapping[str, Any]) -> list[Bucket]:
    """The keys of one dataset row (the paper's fields plus `num_replacements`)."""
    source = row[C.SOURCE]
    keys: list[Bucket] = [
        (CONTEXT_CHARS_DATASET, source, context_bucket(len(row[C.ORIGINAL_CONTEXT]))),
        (NUM_REPLACEMENTS, source, str(row[C.NUM_REPLACEMENTS])),
    ]
    ratio = ratio_bucket(row[C.REPLACEMENT_ENTITY], row[C.ORIGINAL_ENTITY])
    if ratio is not None:
        keys.append((LENGTH_RATIO, source, ratio))
    return keys


def bucket_counts(rows: Iterable[Mapping[str, Any]],
                  buckets: Callable[[Mapping[str, Any]], list[Bucket]]) -> list[BucketCount]:
    """Partial counts of a batch of rows (`buckets` is input_row_buckets or row_buckets),
    sorted: a Spark task emits these per batch; analysis_section sums the partials."""
    counts: dict[Bucket, int] = defaultdict(int)
    for row in rows:
        for key in buckets(row):
            counts[key] += 1
    return [(*key, n) for key, n in sorted(counts.items())]


def analysis_section(counts: Iterable[BucketCount], *,
                     length_ratio_bounds: tuple[float, float] | None = None) -> dict[str, Any]:
    """report.json's `analysis`: `{section: {source: {bucket: rows}}}` for every section of
    SECTIONS, sources sorted by name, buckets in ascending order. Within a kind of bucket
    (context lengths, replacements, ratios) every source of every section gets the same
    contiguous range of buckets, missing ones as 0, so that charts can set them side by side.
    `length_ratio_bounds` (the configured min and max ratio) is kept for the charts."""
    merged: dict[str, dict[str, dict[str, int]]] = {s: defaultdict(lambda: defaultdict(int))
                                                    for s in SECTIONS}
    for section, source, bucket, n in counts:
        if section not in merged:
            raise ValueError(f"analysis: unknown section {section!r}")
        merged[section][source][bucket] += n
    out: dict[str, Any] = {}
    for kind, sections in _KINDS.items():
        order, span = _ORDER[kind]
        seen = {b for s in sections for per in merged[s].values() for b in per}
        labels = span(min(seen, key=order), max(seen, key=order)) if seen else []
        for s in sections:
            out[s] = {src: {b: merged[s][src].get(b, 0) for b in labels}
                      for src in sorted(merged[s])}
    result = {s: out[s] for s in SECTIONS}
    if length_ratio_bounds is not None:
        lo, hi = length_ratio_bounds
        result[LENGTH_RATIO_BOUNDS] = {"min": lo, "max": hi}
    return result


# ---- bucket labels and their order ----

def _context_label(i: int) -> str:
    lo = CONTEXT_EDGES[i]
    return f"{lo}-{CONTEXT_EDGES[i + 1] - 1}" if i + 1 < len(CONTEXT_EDGES) else f"{lo}+"


def _context_index(label: str) -> int:
    return CONTEXT_EDGES.index(int(label.split("-")[0].rstrip("+")))


def ratio_label(steps: int) -> str:
    """The label of the ratio bucket [steps/10, steps/10 + 0.1)."""
    return f"{steps // RATIO_STEPS_PER_UNIT}.{steps % RATIO_STEPS_PER_UNIT}"


def ratio_steps(label: str) -> int:
    """The inverse of ratio_label."""
    whole, tenth = label.split(".")
    return int(whole) * RATIO_STEPS_PER_UNIT + int(tenth)


def _index_span(first: str, last: str) -> list[str]:
    return [_context_label(i) for i in range(_context_index(first), _context_index(last) + 1)]


def _int_span(first: str, last: str) -> list[str]:
    return [str(n) for n in range(int(first), int(last) + 1)]


def _ratio_span(first: str, last: str) -> list[str]:
    return [ratio_label(k) for k in range(ratio_steps(first), ratio_steps(last) + 1)]


_KINDS: dict[str, tuple[str, ...]] = {
    "context": (CONTEXT_CHARS_INPUT, CONTEXT_CHARS_DATASET),
    "count": (NUM_REPLACEMENTS,),
    "ratio": (LENGTH_RATIO,),
}
_ORDER: dict[str, tuple[Callable[[str], int], Callable[[str, str], list[str]]]] = {
    "context": (_context_index, _index_span),
    "count": (int, _int_span),
    "ratio": (ratio_steps, _ratio_span),
}
