"""report.json's `analysis`: bucket keys per row and the merged, ordered section."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, strategies as st

from faithqa_spark.core import analysis as A
from faithqa_spark.core import fields as C


def ds_row(source="squad", context="x" * 120, orig="Pellin Bay", rep="Skarn Gulf", n=1):
    return {C.SOURCE: source, C.ORIGINAL_CONTEXT: context, C.ORIGINAL_ENTITY: orig,
            C.REPLACEMENT_ENTITY: rep, C.NUM_REPLACEMENTS: n}


def qa_row(source="squad", context="y" * 60, status=C.OK):
    return {C.SOURCE: source, C.CONTEXT: context, C.STATUS: status}


def section_of(input_rows, rows, **kw):
    counts = Counter(k for r in input_rows for k in A.input_row_buckets(r))
    counts.update(k for r in rows for k in A.row_buckets(r))
    return A.analysis_section([(*k, n) for k, n in counts.items()], **kw)


def test_context_buckets_are_log_spaced_with_readable_edges():
    assert A.context_bucket(0) == "0-9"
    assert A.context_bucket(9) == "0-9"
    assert A.context_bucket(10) == "10-14"
    assert A.context_bucket(99) == "70-99"
    assert A.context_bucket(100) == "100-149"
    assert A.context_bucket(1499) == "1000-1499"
    assert A.context_bucket(1500) == "1500-1999"
    assert A.context_bucket(100_000) == "100000-149999"
    assert A.context_bucket(10 ** 8) == "7000000+"


def test_ratio_buckets_use_exact_integer_arithmetic():
    assert A.ratio_bucket("abc", "abcdefghij") == "0.3"   # exactly 0.3: the lower bound
    assert A.ratio_bucket("ab", "abcdefghij") == "0.2"
    assert A.ratio_bucket("a" * 30, "a" * 10) == "3.0"    # exactly 3.0
    assert A.ratio_bucket("a" * 7, "a" * 3) == "2.3"      # 2.333...
    assert A.ratio_bucket("Zoë", "Zoe") == "1.0"         # code points, not bytes
    assert A.ratio_bucket("x", "") is None


def test_row_buckets_of_a_dataset_row():
    row = ds_row(source="triviaqa", context="z" * 1234, orig="Tove Arlen", rep="Oda Renn", n=3)
    assert A.row_buckets(row) == [
        (A.CONTEXT_CHARS_DATASET, "triviaqa", "1000-1499"),
        (A.NUM_REPLACEMENTS, "triviaqa", "3"),
        (A.LENGTH_RATIO, "triviaqa", "0.8"),
    ]


def test_input_row_buckets_count_only_rows_read_ok():
    assert A.input_row_buckets(qa_row(context="q" * 250)) == [
        (A.CONTEXT_CHARS_INPUT, "squad", "200-299")]
    assert A.input_row_buckets(qa_row(status=C.REJECTED)) == []
    assert A.input_row_buckets({**qa_row(), C.CONTEXT: None}) == []


def test_section_fills_gaps_and_shares_buckets_across_sources():
    sec = section_of(
        [qa_row(context="a" * 60), qa_row(context="a" * 60), qa_row("triviaqa", "b" * 400)],
        [ds_row(n=1), ds_row(n=4, rep="Skarn"), ds_row("triviaqa", context="c" * 400, n=2)],
        length_ratio_bounds=(0.3, 3.0))
    assert list(sec) == [*A.SECTIONS, A.LENGTH_RATIO_BOUNDS]
    # one range for both context sections: 50-69 .. 300-499
    expected_ctx = ["50-69", "70-99", "100-149", "150-199", "200-299", "300-499"]
    assert sec[A.CONTEXT_CHARS_INPUT] == {
        "squad": dict(zip(expected_ctx, [2, 0, 0, 0, 0, 0])),
        "triviaqa": dict(zip(expected_ctx, [0, 0, 0, 0, 0, 1]))}
    assert sec[A.CONTEXT_CHARS_DATASET]["squad"] == dict(zip(expected_ctx, [0, 0, 2, 0, 0, 0]))
    assert sec[A.NUM_REPLACEMENTS] == {"squad": {"1": 1, "2": 0, "3": 0, "4": 1},
                                       "triviaqa": {"1": 0, "2": 1, "3": 0, "4": 0}}
    assert sec[A.LENGTH_RATIO]["squad"] == {"0.5": 1, "0.6": 0, "0.7": 0, "0.8": 0,
                                            "0.9": 0, "1.0": 1}
    assert sec[A.LENGTH_RATIO_BOUNDS] == {"min": 0.3, "max": 3.0}


def test_empty_counts_give_every_section_empty():
    assert A.analysis_section([]) == {s: {} for s in A.SECTIONS}


def test_unknown_section_is_an_error():
    with pytest.raises(ValueError, match="bogus"):
        A.analysis_section([("bogus", "squad", "1", 1)])


@given(st.lists(st.tuples(st.sampled_from(["squad", "triviaqa"]),
                          st.integers(0, 5000), st.integers(1, 40), st.integers(1, 40),
                          st.integers(1, 10)), max_size=40), st.randoms(use_true_random=False))
def test_section_is_independent_of_order_and_partitioning(specs, rnd: random.Random):
    rows = [ds_row(s, "c" * n, "o" * lo, "r" * lr, k) for s, n, lo, lr, k in specs]
    whole = section_of([], rows)
    # counts merged from arbitrary partitions, in arbitrary order, give the same section
    parts: list[Counter] = [Counter(), Counter(), Counter()]
    for r in rows:
        parts[rnd.randrange(3)].update(A.row_buckets(r))
    pieces = [(*k, n) for p in parts for k, n in p.items()]
    rnd.shuffle(pieces)
    assert A.analysis_section(pieces) == whole
    assert sum(sum(v.values()) for v in whole[A.NUM_REPLACEMENTS].values()) == len(rows)


def test_bucket_counts_of_batches_sum_to_the_section():
    rows = [ds_row(n=1), ds_row(n=1), ds_row("triviaqa", n=2, rep="Skarn")]
    qa = [qa_row(), qa_row(status=C.REJECTED), qa_row("triviaqa", "w" * 3000)]
    partial = A.bucket_counts(rows[:2], A.row_buckets)
    assert (A.NUM_REPLACEMENTS, "squad", "1", 2) in partial and partial == sorted(partial)
    batches = (partial + A.bucket_counts(rows[2:], A.row_buckets)
               + A.bucket_counts(qa, A.input_row_buckets))
    assert A.analysis_section(batches) == section_of(qa, rows)
    # the declared fields are all a bucket function reads
    assert A.row_buckets({k: rows[2][k] for k in A.ROW_FIELDS}) == A.row_buckets(rows[2])
    assert A.input_row_buckets({k: qa[2][k] for k in A.INPUT_ROW_FIELDS}) == \
        A.input_row_buckets(qa[2])
