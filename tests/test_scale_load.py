"""scripts/make_scale_load.py (the throughput load in the TriviaQA layout) and the arithmetic
of scripts/bench_scale.py (no Spark, no spaCy)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from faithqa_spark.core import fields as C
from faithqa_spark.sources import read_file

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
import bench_scale  # noqa: E402
import make_scale_load  # noqa: E402

P1 = "Tessa Varn opened the Hollin ferry in 1931. It ran twice a day to Skarn Island."
P2 = "The Grenwick lighthouse was lit by Edvin Moll until 1950, when it was automated."
P3 = "Brannick has two bridges; the older one was built by Oda Renn."
DOC = {"data": [
    {"title": "Hollin", "paragraphs": [
        {"context": P1, "qas": [
            {"id": "q1", "question": "Who opened the ferry?",
             "answers": [{"text": "Tessa Varn", "answer_start": 0},
                         {"text": "Tessa Varn", "answer_start": 0}]},
            {"id": "q2", "question": "When?", "answers": [{"text": "1931", "answer_start": 38}]}]},
        {"context": P2, "qas": [
            {"id": "q3", "question": "Who lit it?",
             "answers": [{"text": "Edvin Moll", "answer_start": 35},
                         {"text": "Moll", "answer_start": 41}]}]}]},
    {"title": "Brannick", "paragraphs": [
        {"context": P3, "qas": [
            {"id": "q4", "question": "Who built the older bridge?",
             "answers": [{"text": "Oda Renn", "answer_start": 52}]}]}]}]}


def test_records_repeat_each_question_with_distinct_ids_and_label_the_load():
    records = list(make_scale_load.load_records(DOC, 2))
    assert [(a, r, rec["QuestionId"]) for a, r, rec in records] == [
        (0, 0, "q1~r0"), (0, 0, "q2~r0"), (0, 0, "q3~r0"),
        (0, 1, "q1~r1"), (0, 1, "q2~r1"), (0, 1, "q3~r1"), (1, 0, "q4~r0"), (1, 1, "q4~r1")]
    q3 = records[2][2]
    assert q3["Answer"] == {"Value": "Edvin Moll", "Aliases": ["Edvin Moll", "Moll"],
                            "Type": "WikipediaEntity"}
    assert q3["EntityPages"][0]["Filename"] == "article-00000-r0.txt"
    assert "not TriviaQA" in q3["QuestionSource"]


def test_a_slice_is_the_first_records():
    ids = [rec["QuestionId"] for *_, rec in make_scale_load.load_records(DOC, 3, questions=4)]
    assert ids == ["q1~r0", "q2~r0", "q3~r0", "q1~r1"]
    with pytest.raises(ValueError):
        list(make_scale_load.load_records(DOC, 0))


def test_repeats_read_as_triviaqa_with_their_own_contexts(tmp_path):
    made = make_scale_load.write_load(DOC, tmp_path, times=2)
    assert (made["questions"], made["pages"]) == (8, 4)
    qa_file = Path(made["qa_file"])
    rows = list(read_file(qa_file.read_bytes(), path=str(qa_file), source="triviaqa"))
    assert [r[C.STATUS] for r in rows] == [C.OK] * 8
    for r in rows:
        assert r[C.CONTEXT][r[C.ANSWER_START]:].startswith(r[C.ANSWER])
    by_id = {r[C.ID]: r[C.CONTEXT] for r in rows}
    assert by_id["triviaqa:q1~r0"] == P1 + "\n" + P2
    assert by_id["triviaqa:q1~r1"] == P2 + "\n" + P1  # rotated: a context of its own
    assert by_id["triviaqa:q4~r0"] == by_id["triviaqa:q4~r1"] == P3  # one paragraph


@pytest.mark.parametrize("t1, t2, s", [(100, 50, 0.0), (100, 100, 1.0), (100, 60, 0.2),
                                       (100, 45, 0.0), (100, 120, 1.0)])
def test_serial_fraction_from_two_times(t1, t2, s):
    assert bench_scale.serial_fraction(t1, t2) == pytest.approx(s)


def test_projection_is_amdahls_law():
    assert bench_scale.projected_seconds(100, 0.2, 8) == pytest.approx(30.0)
    assert bench_scale.projected_seconds(100, 0.0, 64) == pytest.approx(100 / 64)
    got = bench_scale.figures(100.0, 60.0)
    assert got["speedup_2_over_1"] == pytest.approx(100 / 60)
    assert got["projection"][512] == pytest.approx(100 * (0.2 + 0.8 / 512))
