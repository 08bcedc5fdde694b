from __future__ import annotations

from chispa import assert_df_equality

from faithqa_spark.spark import schema as S
from faithqa_spark.core import fields as C
from faithqa_spark.core.dedupe import mark_duplicates, mark_in_order
from faithqa_spark.spark.transforms import with_duplicates_rejected


def row(i, file, idx, status=C.OK, reason=None):
    return {C.ID: f"squad:{i}", C.SOURCE: "squad", C.QUESTION: "Q?", C.CONTEXT: "C " * 30,
            C.CONTEXT_ID: "c", C.ANSWER: "C", C.ANSWER_START: 0, C.ALIASES: [],
            C.INPUT_FILE: file, C.RECORD_LOC: f"line={idx + 1}", C.RECORD_INDEX: idx,
            C.STATUS: status, C.REASON: reason, C.DETAIL: None}


ROWS = [row("a", "b.jsonl", 0), row("a", "a.jsonl", 5), row("a", "a.jsonl", 7),
        row("b", "a.jsonl", 1), row("c", "b.jsonl", 3, C.REJECTED, "empty_field"),
        row("c", "b.jsonl", 4), row("d", "a.jsonl", 2, C.FILTERED, "unanswerable"),
        row("d", "a.jsonl", 9), row("a", "b.jsonl", 6)]


def test_first_by_path_and_position_wins():
    rows = [dict(r) for r in ROWS]
    assert mark_duplicates(rows) == 5
    got = {(r[C.ID], r[C.INPUT_FILE], r[C.RECORD_INDEX]): (r[C.STATUS], r[C.REASON]) for r in rows}
    assert got[("squad:a", "a.jsonl", 5)] == (C.OK, None)
    assert got[("squad:a", "a.jsonl", 7)] == (C.REJECTED, "duplicate_id")
    assert got[("squad:a", "b.jsonl", 0)] == (C.REJECTED, "duplicate_id")
    assert got[("squad:b", "a.jsonl", 1)] == (C.OK, None)
    # an already rejected first copy still counts as first; the later one is the duplicate
    assert got[("squad:c", "b.jsonl", 3)] == (C.REJECTED, "empty_field")
    assert got[("squad:c", "b.jsonl", 4)] == (C.REJECTED, "duplicate_id")
    assert got[("squad:d", "a.jsonl", 9)] == (C.REJECTED, "duplicate_id")
    dup = next(r for r in rows if r[C.INPUT_FILE] == "b.jsonl" and r[C.ID] == "squad:a")
    assert dup[C.DETAIL] == "duplicate of the record at a.jsonl line=6"


def in_file_order(rows):
    return sorted((dict(r) for r in rows), key=lambda r: (r[C.INPUT_FILE], r[C.RECORD_INDEX]))


def test_streamed_within_one_file_equals_core():
    rows = [r for r in in_file_order(ROWS) if r[C.INPUT_FILE] == "a.jsonl"]
    want = [dict(r) for r in rows]
    mark_duplicates(want)
    assert list(mark_in_order(rows)) == want
    assert [r[C.RECORD_INDEX] for r in want if r[C.REASON] == "duplicate_id"] == [7, 9]


def test_spark_policy_equals_core(spark):
    want = in_file_order(ROWS)
    mark_duplicates(want)
    # as the job runs it: each read task marks its own file, Spark then looks across files;
    # b.jsonl's second "a" was marked naming b.jsonl's first and must end naming a.jsonl's
    streamed = [r for f in ("a.jsonl", "b.jsonl")
                for r in mark_in_order(x for x in in_file_order(ROWS) if x[C.INPUT_FILE] == f)]
    assert next(r for r in streamed if r[C.INPUT_FILE] == "b.jsonl" and r[C.RECORD_INDEX] == 6
                )[C.DETAIL] == "duplicate of the record at b.jsonl line=1"
    got = with_duplicates_rejected(spark.createDataFrame(streamed, S.QA_SCHEMA))
    assert_df_equality(got, spark.createDataFrame(want, S.QA_SCHEMA), ignore_row_order=True)
