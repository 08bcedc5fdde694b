from __future__ import annotations

from chispa import assert_df_equality

from faithqa_spark import schema as S
from faithqa_spark.core import fields as C
from faithqa_spark.core.dedupe import mark_duplicates
from faithqa_spark.pipeline import with_duplicates_rejected


def row(i, file, idx, status=C.OK, reason=None):
    return {C.ID: f"squad:{i}", C.SOURCE: "squad", C.QUESTION: "Q?", C.CONTEXT: "C " * 30,
            C.CONTEXT_ID: "c", C.ANSWER: "C", C.ANSWER_START: 0, C.ALIASES: [],
            C.INPUT_FILE: file, C.RECORD_LOC: f"line={idx + 1}", C.RECORD_INDEX: idx,
            C.STATUS: status, C.REASON: reason, C.DETAIL: None}


ROWS = [row("a", "b.jsonl", 0), row("a", "a.jsonl", 5), row("a", "a.jsonl", 7),
        row("b", "a.jsonl", 1), row("c", "b.jsonl", 3, C.REJECTED, "empty_field"),
        row("c", "b.jsonl", 4), row("d", "a.jsonl", 2, C.FILTERED, "unanswerable"),
        row("d", "a.jsonl", 9)]


def test_first_by_path_and_position_wins():
    rows = [dict(r) for r in ROWS]
    assert mark_duplicates(rows) == 4
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


def test_spark_policy_equals_core(spark):
    want = [dict(r) for r in ROWS]
    mark_duplicates(want)
    got = with_duplicates_rejected(spark.createDataFrame(ROWS, S.QA_SCHEMA))
    assert_df_equality(got, spark.createDataFrame(want, S.QA_SCHEMA), ignore_row_order=True)
