"""Unit tests of the input readers (faithqa_spark.sources): no Spark, inline fixtures.

All fixture text is invented (the fictional town of Velmora and its surroundings).
"""

from __future__ import annotations

import io
import json
import pickle
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import given, settings as hyp_settings, strategies as st

from faithqa_spark.core import fields as F
from faithqa_spark.core import reasons as R
from faithqa_spark.core.text import context_id, literal_pattern
from faithqa_spark.sources import (
    FORMATS, InputFileError, ReaderSettings, detect_format, read_file, select_triviaqa_context,
)
from faithqa_spark.sources.containers import PARQUET_BATCH_ROWS

from helpers import only, read_rows, read_trivia, trivia_file

REPO = Path(__file__).resolve().parents[1]
QA_KEYS = [name for name, _ in F.QA_FIELDS]

CTX_A = ("Velmora is a harbour town on the river Quillan. It was founded in 1712 by the "
         "weaver Odile Marsk, and its lighthouse is painted green.")
CTX_B = "The Quillan Bridge links Velmora with the hamlet of Tarn Ebbe, three miles north."
ODILE, WEAVER, YEAR = CTX_A.index("Odile Marsk"), CTX_A.index("the weaver"), CTX_A.index("1712")
HAMLET, THREE = CTX_B.index("the hamlet"), CTX_B.index("three miles")


# ---------------------------------------------------------------- helpers

read, one = read_rows, only


def qa(qid: str | None = "q1", question: Any = "Who founded Velmora?",
       answers: Any = None, **extra: Any) -> dict[str, Any]:
    record: dict[str, Any] = {"question": question,
                              "answers": answers if answers is not None else
                              [{"text": "Odile Marsk", "answer_start": CTX_A.index("Odile")}]}
    if qid is not None:
        record["id"] = qid
    record.update(extra)
    return record


def squad_doc(*paragraphs: tuple[Any, list[Any]], version: str = "1.1") -> bytes:
    """Official layout: one article holding (context, qas) paragraphs."""
    paras = [{"context": c, "qas": q} for c, q in paragraphs]
    return json.dumps({"version": version,
                       "data": [{"title": "Velmora", "paragraphs": paras}]}).encode()


def squad_one(record: Any, context: Any = CTX_A, **settings: Any) -> dict[str, Any]:
    return one(read(squad_doc((context, [record])), **settings))


def assert_rejected(row: dict[str, Any], reason: str, *detail_words: str) -> None:
    assert list(row) == QA_KEYS
    assert (row[F.STATUS], row[F.REASON]) == (F.REJECTED, reason), row
    for word in detail_words:
        assert word in row[F.DETAIL], row[F.DETAIL]


def jsonl(*records: Any) -> bytes:
    return "".join(json.dumps(r) + "\n" for r in records).encode()


def hf_squad(qid: str = "h1", context: str = CTX_A, question: str = "Who founded Velmora?",
             texts: tuple[str, ...] = ("Odile Marsk",), starts: tuple[int, ...] | None = None
             ) -> dict[str, Any]:
    starts = tuple(context.index(t) for t in texts) if starts is None else starts
    return {"id": qid, "title": "Velmora", "context": context, "question": question,
            "answers": {"text": list(texts), "answer_start": list(starts)}}


SQUAD_HF_SCHEMA = pa.schema([
    ("id", pa.string()), ("title", pa.string()), ("context", pa.string()),
    ("question", pa.string()),
    ("answers", pa.struct([("text", pa.list_(pa.string())),
                           ("answer_start", pa.list_(pa.int32()))])),
])
TRIVIA_HF_SCHEMA = pa.schema([
    ("question", pa.string()), ("question_id", pa.string()),
    ("answer", pa.struct([("aliases", pa.list_(pa.string())), ("value", pa.string())])),
    ("entity_pages", pa.struct([("title", pa.list_(pa.string())),
                                ("wiki_context", pa.list_(pa.string()))])),
])


def parquet_bytes(records: list[dict[str, Any]], schema: pa.Schema) -> bytes:
    sink = io.BytesIO()
    pq.write_table(pa.Table.from_pylist(records, schema=schema), sink)
    return sink.getvalue()


def without(row: dict[str, Any], *keys: str) -> dict[str, Any]:
    return {k: v for k, v in row.items() if k not in keys}


# ---------------------------------------------------------------- settings, formats

def test_reader_settings_defaults_match_the_paper_and_reject_nonsense() -> None:
    s = ReaderSettings()
    assert (s.max_context_chars, s.triviaqa_max_chars, s.triviaqa_window, s.evidence_dir) == (
        100_000, 2000, 800, None)
    with pytest.raises(ValueError, match="triviaqa_window"):
        ReaderSettings(triviaqa_window=-1)
    with pytest.raises(ValueError, match="max_context_chars"):
        ReaderSettings(max_context_chars=0)


@pytest.mark.parametrize(("path", "source", "head", "expected"), [
    ("d/train-v1.1.json", "squad", b'{"version": "1.1", "data": []}', "squad_json"),
    ("d/dev-v2.0.JSON", "squad", b'{"data": [], "version": "v2.0"}', "squad_json"),
    ("d/part-0.jsonl", "squad", b'{"id": "x"}', "squad_hf"),
    ("d/train.parquet", "squad", b"PAR1", "squad_hf"),
    # Hugging Face's Dataset.to_json writes JSON Lines under a .json name.
    ("d/squad.json", "squad", b'{"id": "5733", "title": "T"}\n', "squad_hf"),
    ("qa/wikipedia-dev.json", "triviaqa", b'\xef\xbb\xbf{\n  "Data": [', "triviaqa_json"),
    ("qa/verified.json", "triviaqa", b'{"Domain": "Wikipedia"', "triviaqa_json"),
    ("rc/train.json", "triviaqa", b'{"question": "Q?", "question_id": "tc_1"}', "triviaqa_hf"),
    ("rc/validation-00000-of-00001.parquet", "triviaqa", b"PAR1", "triviaqa_hf"),
    ("file:/data/rc/x.jsonl", "triviaqa", b"", "triviaqa_hf"),
])
def test_detect_format(path: str, source: str, head: bytes, expected: str) -> None:
    assert detect_format(path, source, head) == expected
    assert expected in FORMATS


def test_detect_format_rejects_unknown_extension_and_source() -> None:
    with pytest.raises(ValueError, match=r"notes/velmora\.csv.*\.json, \.jsonl, \.parquet"):
        detect_format("notes/velmora.csv", "squad", b"id,question")
    with pytest.raises(ValueError, match="unknown source 'natural_questions'"):
        detect_format("nq.json", "natural_questions", b"{}")
    with pytest.raises(ValueError, match="velmora.txt"):
        read(b"{}", path="velmora.txt")


# ---------------------------------------------------------------- SQuAD official JSON

def test_squad_v11_rows_and_locations() -> None:
    doc = {"version": "1.1", "data": [
        {"title": "Velmora", "paragraphs": [
            {"context": CTX_A, "qas": [
                qa("a1", answers=[{"text": "Odile Marsk", "answer_start": ODILE},
                                  {"text": "the weaver Odile Marsk", "answer_start": WEAVER},
                                  {"text": "Odile Marsk", "answer_start": ODILE}]),
                qa("a2", "When was Velmora founded?", [{"text": "1712", "answer_start": YEAR}]),
            ]},
            {"context": CTX_B, "qas": [qa("b1", "What does the Quillan Bridge link Velmora with?",
                                          [{"text": "the hamlet of Tarn Ebbe", "answer_start": HAMLET}])]},
        ]},
        {"title": "Empty", "paragraphs": []},
        {"title": "Tarn Ebbe", "paragraphs": [{"context": CTX_B, "qas": [
            qa("c1", "How far north is Tarn Ebbe?", [{"text": "three miles", "answer_start": THREE}])]}]},
    ]}
    rows = read(json.dumps(doc), path="data/squad.json")
    assert [r[F.ID] for r in rows] == ["squad:a1", "squad:a2", "squad:b1", "squad:c1"]
    assert [r[F.RECORD_LOC] for r in rows] == [
        "article=0/paragraph=0/qa=0", "article=0/paragraph=0/qa=1",
        "article=0/paragraph=1/qa=0", "article=2/paragraph=0/qa=0"]
    first = rows[0]
    assert list(first) == QA_KEYS
    assert first == {
        F.ID: "squad:a1", F.SOURCE: "squad", F.QUESTION: "Who founded Velmora?",
        F.CONTEXT: CTX_A, F.CONTEXT_ID: context_id(CTX_A), F.ANSWER: "Odile Marsk",
        F.ANSWER_START: ODILE, F.ALIASES: ["Odile Marsk", "the weaver Odile Marsk"],
        F.INPUT_FILE: "data/squad.json", F.RECORD_LOC: "article=0/paragraph=0/qa=0",
        F.RECORD_INDEX: None, F.STATUS: F.OK, F.REASON: None, F.DETAIL: None,
    }
    assert CTX_A[ODILE:ODILE + 11] == "Odile Marsk"
    assert [r[F.ANSWER_START] for r in rows] == [ODILE, YEAR, HAMLET, THREE]
    assert rows[2][F.CONTEXT_ID] == rows[3][F.CONTEXT_ID] == context_id(CTX_B)
    assert all(r[F.STATUS] == F.OK for r in rows)


def test_squad_v20_unanswerable_is_filtered_with_context_kept() -> None:
    impossible = qa("v2", "Who painted the lighthouse red?", answers=[], is_impossible=True,
                    plausible_answers=[{"text": "Odile Marsk", "answer_start": ODILE}])
    answerable = qa("v1", is_impossible=False)
    rows = read(squad_doc((CTX_A, [impossible, answerable]), version="v2.0"))
    assert rows[0][F.STATUS] == F.FILTERED and rows[0][F.REASON] == R.UNANSWERABLE
    assert rows[0][F.ID] == "squad:v2"
    assert rows[0][F.CONTEXT] == CTX_A and rows[0][F.CONTEXT_ID] == context_id(CTX_A)
    assert rows[0][F.QUESTION] == "Who painted the lighthouse red?"
    assert rows[0][F.ANSWER] is None and rows[0][F.ALIASES] == []
    assert rows[1][F.STATUS] == F.OK and rows[1][F.ANSWER] == "Odile Marsk"


def test_squad_empty_answers_without_impossible_flag_is_no_answer() -> None:
    assert_rejected(squad_one(qa(answers=[])), R.NO_ANSWER, "answers")
    row = squad_one(qa(answers=[], is_impossible=False))
    assert_rejected(row, R.NO_ANSWER, "is_impossible is false")
    assert row[F.CONTEXT] == CTX_A  # validated before the failure, so kept


@pytest.mark.parametrize(("record", "reason", "words"), [
    (qa(question=None), R.MISSING_FIELD, ["'question'", "null"]),
    ({"id": "q1", "answers": []}, R.MISSING_FIELD, ["'question'", "missing"]),
    (qa(question=42), R.WRONG_TYPE, ["'question'", "number"]),
    (qa(question="   \n"), R.EMPTY_FIELD, ["'question'"]),
    (qa(answers={"text": "Odile Marsk"}), R.WRONG_TYPE, ["'answers'", "object", "list"]),
    (qa(answers=["Odile Marsk"]), R.WRONG_TYPE, ["answers[0]", "string"]),
    (qa(answers=[{"answer_start": ODILE}]), R.MISSING_FIELD, ["answers[0].text"]),
    (qa(answers=[{"text": 1712, "answer_start": YEAR}]), R.WRONG_TYPE, ["answers[0].text", "number"]),
    (qa(answers=[{"text": " ", "answer_start": YEAR}]), R.EMPTY_FIELD, ["answers[0].text"]),
    (qa(answers=[{"text": "Odile Marsk", "answer_start": str(ODILE)}]), R.WRONG_TYPE,
     ["answers[0].answer_start", "string"]),
    # a bool is not an int, though Python says isinstance(True, int)
    (qa(answers=[{"text": "Odile Marsk", "answer_start": True}]), R.WRONG_TYPE,
     ["answer_start", "bool"]),
    (qa(answers=[{"text": "Odile Marsk", "answer_start": float(ODILE)}]), R.WRONG_TYPE, ["answer_start"]),
    (qa(answers=[{"text": "Odile Marsk", "answer_start": ODILE}, {"text": None}]), R.MISSING_FIELD,
     ["answers[1].text"]),
    (qa(answers=[{"text": "Brask Harbour", "answer_start": 0}]), R.ANSWER_NOT_IN_CONTEXT,
     ["'Brask Harbour'"]),
    (qa(is_impossible="no"), R.WRONG_TYPE, ["is_impossible", "bool"]),
    ("Who founded Velmora?", R.WRONG_TYPE, ["qa record", "string"]),
])
def test_squad_malformed_records_are_rejected(record: Any, reason: str, words: list[str]) -> None:
    row = squad_one(record)
    assert_rejected(row, reason, *words)
    assert row[F.INPUT_FILE] == "squad.json" and row[F.RECORD_LOC] == "article=0/paragraph=0/qa=0"


def test_squad_rejected_row_keeps_known_values_and_nulls_the_rest() -> None:
    row = squad_one(qa(answers=[{"text": "Brask Harbour", "answer_start": 0}]))
    assert row[F.ID] == "squad:q1" and row[F.QUESTION] == "Who founded Velmora?"
    assert row[F.ANSWER] == "Brask Harbour" and row[F.ALIASES] == ["Brask Harbour"]
    assert row[F.ANSWER_START] is None
    row = squad_one(qa(question=7))
    assert row[F.QUESTION] is None and row[F.CONTEXT] is None and row[F.CONTEXT_ID] is None
    assert row[F.ANSWER] is None and row[F.ALIASES] == []


@pytest.mark.parametrize(("context", "reason"), [
    (None, R.MISSING_FIELD), ("", R.EMPTY_FIELD), (" \t\n", R.EMPTY_FIELD),
    (["Velmora"], R.WRONG_TYPE), (12, R.WRONG_TYPE),
])
def test_squad_bad_context_is_rejected(context: Any, reason: str) -> None:
    assert_rejected(squad_one(qa(), context=context), reason, "'context'")


def test_squad_context_over_the_limit_is_rejected() -> None:
    row = squad_one(qa(), max_context_chars=50)
    assert_rejected(row, R.CONTEXT_TOO_LONG, f"{len(CTX_A)} chars", "limit of 50")
    assert row[F.CONTEXT] is None
    assert squad_one(qa(), max_context_chars=len(CTX_A))[F.STATUS] == F.OK


@pytest.mark.parametrize("bad_id", [None, 17, "  "])
def test_squad_unusable_id_gets_a_unique_fallback(bad_id: Any) -> None:
    records = [qa(None), qa(None, "When was Velmora founded?", [{"text": "1712", "answer_start": YEAR}])]
    if bad_id is not None:
        for r in records:
            r["id"] = bad_id
    rows = read(squad_doc((CTX_A, records)), path="/mnt/in/dev.json")
    assert [r[F.ID] for r in rows] == ["squad:dev.json@article=0/paragraph=0/qa=0",
                                       "squad:dev.json@article=0/paragraph=0/qa=1"]
    expected = {None: R.MISSING_FIELD, 17: R.WRONG_TYPE, "  ": R.EMPTY_FIELD}[bad_id]
    for row in rows:
        assert_rejected(row, expected, "'id'")


@pytest.mark.parametrize(("start", "expected", "note"), [
    (999, ODILE, f"answer_start 999 repaired to {ODILE}"),
    (-4, ODILE, f"answer_start -4 repaired to {ODILE}"),
    (0, ODILE, f"answer_start 0 repaired to {ODILE}"),      # points at "Velmora", not the answer
    (None, ODILE, f"answer_start missing, set to {ODILE}"),
    (ODILE, ODILE, None),
])
def test_squad_wrong_answer_start_is_repaired_not_rejected(start: Any, expected: int,
                                                           note: str | None) -> None:
    answer: dict[str, Any] = {"text": "odile marsk"}  # case differs from the context
    if start is not None:
        answer["answer_start"] = start
    row = squad_one(qa(answers=[answer]))
    assert row[F.STATUS] == F.OK and row[F.REASON] is None
    assert row[F.ANSWER] == "odile marsk" and row[F.ANSWER_START] == expected
    assert row[F.DETAIL] == note


def test_squad_valid_later_occurrence_is_kept() -> None:
    context = "Velmora has a green lighthouse. Brask has a green lighthouse too."
    row = squad_one(qa(answers=[{"text": "green lighthouse", "answer_start": 44}]), context=context)
    assert row[F.ANSWER_START] == 44 and row[F.DETAIL] is None


def test_squad_control_characters_are_kept_as_is() -> None:
    context = "Velmora\x00 lies\x07 on the Quillan.\x1b"
    row = squad_one(qa(question="Where\x00 is Velmora?",
                       answers=[{"text": "Quillan.\x1b", "answer_start": 22}]), context=context)
    assert row[F.STATUS] == F.OK
    assert row[F.CONTEXT] == context and row[F.QUESTION] == "Where\x00 is Velmora?"
    assert row[F.ANSWER_START] == 22 == context.index("Quillan")


def test_squad_broken_containers_are_bad_layout_and_the_rest_still_reads() -> None:
    doc = {"version": "1.1", "data": [
        "not an article",
        {"title": "No paragraphs"},
        {"title": "T", "paragraphs": [
            {"context": CTX_A, "qas": "nope"},
            [CTX_A],
            {"context": CTX_A, "qas": [qa("ok1")]},
        ]},
    ]}
    rows = read(json.dumps(doc), path="in/squad.json")
    assert [(r[F.RECORD_LOC], r[F.STATUS], r[F.REASON]) for r in rows] == [
        ("article=0", F.REJECTED, R.BAD_LAYOUT),
        ("article=1", F.REJECTED, R.BAD_LAYOUT),
        ("article=2/paragraph=0", F.REJECTED, R.BAD_LAYOUT),
        ("article=2/paragraph=1", F.REJECTED, R.BAD_LAYOUT),
        ("article=2/paragraph=2/qa=0", F.OK, None),
    ]
    assert "'paragraphs' of the article at article=1 is missing" in rows[1][F.DETAIL]
    assert "'qas'" in rows[2][F.DETAIL] and "string" in rows[2][F.DETAIL]
    assert rows[0][F.ID] == "squad:squad.json@article=0"
    assert len({r[F.ID] for r in rows}) == 5


# ---------------------------------------------------------------- whole-file errors

def test_invalid_json_names_file_line_column_and_byte() -> None:
    data = b'{"version": "1.1",\n "data": [\n  {"title": "Velmora" "paragraphs": []}]}'
    with pytest.raises(InputFileError) as info:
        read(data, path="in/squad.json")
    err = info.value
    assert str(err) == ("in/squad.json: invalid JSON at line 3 column 23 (byte 52): "
                        "Expecting ',' delimiter")
    assert err.path == "in/squad.json" and err.position == "line 3 column 23 (byte 52)"
    # the byte offset points at the token the parser choked on: '"paragraphs"'
    assert data[52:64] == b'"paragraphs"' and isinstance(err, ValueError)


def test_invalid_json_byte_offset_counts_multibyte_characters() -> None:
    data = '{"data": [{"title": "Vélmorä", }]}'.encode()
    with pytest.raises(InputFileError, match=r"line 1 column 32 \(byte 33\)"):
        read(data)
    assert data[33:34] == b"}"  # two 2-byte characters before it: byte 33, character 31


def test_invalid_utf8_in_official_file_names_the_byte() -> None:
    data = b'{"version": "1.1",\n"data": [{"title": "Velm\xffra"}]}'
    with pytest.raises(InputFileError) as info:
        read(data, path="squad.json")
    assert "squad.json: invalid UTF-8 at byte 43 (line 2)" in str(info.value)
    assert "0xff" in str(info.value) and data[43] == 0xFF


@pytest.mark.parametrize("data", [b"", b"  \n\t\n", b"\xef\xbb\xbf\n"])
@pytest.mark.parametrize("path", ["squad.json", "squad.jsonl"])
def test_empty_file_raises(data: bytes, path: str) -> None:
    with pytest.raises(InputFileError, match=rf"^{path}: empty file \(no content at byte 0\)$"):
        read(data, path=path)


@pytest.mark.parametrize(("doc", "source", "words"), [
    ([], "squad", ["top level", "a JSON list", "'data'"]),
    ({"version": "1.1"}, "squad", ["'data' is missing", "'version'"]),
    ({"data": {"title": "Velmora"}}, "squad", ["'data' is a object, not a list"]),
    ({"data": []}, "triviaqa", ["'Data' is missing", "TriviaQA", "'data'"]),
    ("Velmora", "triviaqa", ["a JSON string"]),
])
def test_wrong_top_level_layout_raises(doc: Any, source: str, words: list[str]) -> None:
    with pytest.raises(InputFileError) as info:
        read(json.dumps(doc), path=f"in/{source}.json", source=source)
    assert str(info.value).startswith(f"in/{source}.json: bad layout at top level")
    assert info.value.position == "top level"
    for word in words:
        assert word in str(info.value)


@pytest.mark.parametrize("data", [b"", b"PAR1 but not really parquet", b'{"id": "x"}'])
def test_unreadable_parquet_raises(data: bytes) -> None:
    with pytest.raises(InputFileError, match=r"^in/train\.parquet: unreadable Parquet file"):
        read(data, path="in/train.parquet")


def test_input_file_error_survives_pickling() -> None:
    err = InputFileError("a.json", "byte 0", "empty file")
    back = pickle.loads(pickle.dumps(err))
    assert (back.path, back.position, back.message, str(back)) == (
        "a.json", "byte 0", "empty file", "a.json: empty file")


def test_official_file_errors_raise_when_read_file_is_called() -> None:
    # Eager: a bad file is reported before any row is consumed.
    with pytest.raises(InputFileError):
        read_file(b"[", path="squad.json", source="squad")


# ---------------------------------------------------------------- SQuAD HF layout

def test_squad_hf_jsonl_rows() -> None:
    data = jsonl(hf_squad("h1", texts=("Odile Marsk", "the weaver Odile Marsk")),
                 hf_squad("h2", CTX_B, "What links Velmora with Tarn Ebbe?", ("The Quillan Bridge",)))
    rows = read(data, path="hf/train.jsonl")
    assert [(r[F.ID], r[F.RECORD_LOC], r[F.ANSWER], r[F.ANSWER_START]) for r in rows] == [
        ("squad:h1", "line=1", "Odile Marsk", ODILE), ("squad:h2", "line=2", "The Quillan Bridge", 0)]
    assert rows[0][F.ALIASES] == ["Odile Marsk", "the weaver Odile Marsk"]
    assert rows[1][F.CONTEXT_ID] == context_id(CTX_B)
    assert all(list(r) == QA_KEYS and r[F.STATUS] == F.OK for r in rows)


def test_squad_hf_empty_answers_is_unanswerable() -> None:
    row = one(read(jsonl(hf_squad(texts=(), starts=())), path="v2.jsonl"))
    assert (row[F.STATUS], row[F.REASON]) == (F.FILTERED, R.UNANSWERABLE)
    assert row[F.CONTEXT] == CTX_A and row[F.ID] == "squad:h1"


@pytest.mark.parametrize(("answers", "reason", "word"), [
    (None, R.MISSING_FIELD, "'answers'"),
    (["Odile Marsk"], R.WRONG_TYPE, "'answers'"),
    ({"answer_start": [ODILE]}, R.MISSING_FIELD, "answers.text"),
    ({"text": "Odile Marsk", "answer_start": [ODILE]}, R.WRONG_TYPE, "answers.text"),
    ({"text": [1712], "answer_start": [YEAR]}, R.WRONG_TYPE, "answers.text[0]"),
    ({"text": [""], "answer_start": [0]}, R.EMPTY_FIELD, "answers.text[0]"),
    ({"text": ["Odile Marsk"], "answer_start": [str(ODILE)]}, R.WRONG_TYPE, "answers.answer_start[0]"),
    ({"text": ["Odile Marsk"], "answer_start": ODILE}, R.WRONG_TYPE, "answers.answer_start"),
    ({"text": ["Tarn Ebbe"], "answer_start": [0]}, R.ANSWER_NOT_IN_CONTEXT, "'Tarn Ebbe'"),
])
def test_squad_hf_malformed_answers(answers: Any, reason: str, word: str) -> None:
    record = hf_squad()
    record["answers"] = answers
    assert_rejected(one(read(jsonl(record), path="x.jsonl")), reason, word)


def test_squad_hf_missing_answer_start_is_repaired() -> None:
    row = one(read(jsonl(hf_squad(starts=())), path="x.jsonl"))
    assert row[F.STATUS] == F.OK and row[F.ANSWER_START] == ODILE
    assert row[F.DETAIL] == f"answer_start missing, set to {ODILE}"


def test_jsonl_bad_lines_are_rejected_one_by_one() -> None:
    good = json.dumps(hf_squad("h1")).encode()
    data = b"\n".join([
        good,
        b"",                                   # blank: ignored but counted
        b'{"id": "h2", "question": ',          # truncated object
        b"[1, 2, 3]",                          # JSON, but not an object
        b'{"id": "h3", "question": "Caf\xe9?"}',  # Latin-1 byte, not UTF-8
        b"   ",
        json.dumps(hf_squad("h4", CTX_B, "What is north?", ("Tarn Ebbe",))).encode(),
    ]) + b"\n"
    rows = read(data, path="in/part-0.jsonl")
    assert [(r[F.RECORD_LOC], r[F.STATUS], r[F.REASON]) for r in rows] == [
        ("line=1", F.OK, None),
        ("line=3", F.REJECTED, R.INVALID_JSON),
        ("line=4", F.REJECTED, R.INVALID_JSON),
        ("line=5", F.REJECTED, R.BAD_ENCODING),
        ("line=7", F.OK, None),
    ]
    assert rows[1][F.ID] == "squad:part-0.jsonl@line=3"
    assert rows[1][F.DETAIL].startswith("line 3 column 26: Expecting value")
    assert rows[2][F.DETAIL] == "line 4 is a JSON list, expected an object"
    assert "line 5: invalid UTF-8 at byte 29 of the line" in rows[3][F.DETAIL]
    assert all(list(r) == QA_KEYS for r in rows)
    assert rows[4][F.ID] == "squad:h4"


def test_jsonl_crlf_bom_and_no_final_newline() -> None:
    data = b"\xef\xbb\xbf" + json.dumps(hf_squad("h1")).encode() + b"\r\n" + json.dumps(
        hf_squad("h2")).encode()
    rows = read(data, path="win.jsonl")
    assert [(r[F.ID], r[F.RECORD_LOC], r[F.STATUS]) for r in rows] == [
        ("squad:h1", "line=1", F.OK), ("squad:h2", "line=2", F.OK)]


def test_jsonl_and_parquet_give_the_same_rows_except_location() -> None:
    records = [
        hf_squad("h1", texts=("Odile Marsk", "Odile Marsk")),
        hf_squad("h2", CTX_B, "What links Velmora with Tarn Ebbe?", ("The Quillan Bridge",)),
        hf_squad("h3", texts=(), starts=()),
        hf_squad("h4", texts=("green",), starts=(3,)),     # repaired
        hf_squad("h5", texts=("purple",), starts=(0,)),    # not in context
        hf_squad("h6", question=" "),                      # empty question
    ]
    from_jsonl = read(jsonl(*records), path="hf/train.jsonl")
    from_parquet = read(parquet_bytes(records, SQUAD_HF_SCHEMA), path="hf/train.parquet")
    assert [r[F.RECORD_LOC] for r in from_jsonl] == [f"line={i}" for i in range(1, 7)]
    assert [r[F.RECORD_LOC] for r in from_parquet] == [f"row={i}" for i in range(6)]
    assert [without(r, F.RECORD_LOC, F.INPUT_FILE) for r in from_jsonl] == [
        without(r, F.RECORD_LOC, F.INPUT_FILE) for r in from_parquet]
    assert [r[F.STATUS] for r in from_parquet] == [
        F.OK, F.OK, F.FILTERED, F.OK, F.REJECTED, F.REJECTED]
    assert from_parquet[3][F.DETAIL] == f"answer_start 3 repaired to {CTX_A.index('green')}"


def test_parquet_reads_across_record_batches() -> None:
    n = PARQUET_BATCH_ROWS * 2 + 7
    records = [hf_squad(f"h{i}") for i in range(n)]
    rows = read(parquet_bytes(records, SQUAD_HF_SCHEMA), path="big.parquet")
    assert [r[F.ID] for r in rows] == [f"squad:h{i}" for i in range(n)]
    assert [r[F.RECORD_LOC] for r in rows] == [f"row={i}" for i in range(n)]
    assert {r[F.STATUS] for r in rows} == {F.OK}


def test_parquet_missing_column_and_nulls_are_per_row_rejects() -> None:
    schema = pa.schema([("id", pa.string()), ("context", pa.string()), ("question", pa.string())])
    rows = read(parquet_bytes([{"id": "p1", "context": CTX_A, "question": "Who?"},
                               {"id": None, "context": CTX_A, "question": "Who?"}], schema),
                path="p.parquet")
    assert_rejected(rows[0], R.MISSING_FIELD, "'answers' is missing")
    assert_rejected(rows[1], R.MISSING_FIELD, "'id' is null")
    assert rows[1][F.ID] == "squad:p.parquet@row=1"


def test_read_file_accepts_bytearray_like_spark_binaryfile() -> None:
    rows = list(read_file(bytearray(jsonl(hf_squad())), path="file:/in/a.jsonl", source="squad",
                          settings=ReaderSettings()))
    assert one(rows)[F.STATUS] == F.OK and rows[0][F.INPUT_FILE] == "file:/in/a.jsonl"


# ---------------------------------------------------------------- TriviaQA selection

TEXTS = [
    "Odile Marsk was a weaver from the north.",
    "Velmora, on the Quillan, was founded by ODILE MARSK in 1712.",
]


def test_select_first_text_with_the_value_case_insensitively() -> None:
    assert select_triviaqa_context(TEXTS, "odile marsk", ["Marsk"], 2000, 800) == (
        TEXTS[0], "odile marsk", 0)
    assert select_triviaqa_context(TEXTS, "Quillan", [], 2000, 800) == (TEXTS[1], "Quillan", 16)


def test_select_value_beats_an_alias_in_an_earlier_text() -> None:
    assert select_triviaqa_context(TEXTS, "1712", ["weaver"], 2000, 800) == (TEXTS[1], "1712", 55)


def test_select_falls_back_to_the_first_alias_found_alias_order_first() -> None:
    # "Velmora" is an earlier alias than "weaver": it wins though its text comes later.
    chosen = select_triviaqa_context(TEXTS, "Brask", ["Harbour", "VELMORA", "weaver"], 2000, 800)
    assert chosen == (TEXTS[1], "VELMORA", 0)  # the alias as the record writes it
    assert select_triviaqa_context(TEXTS, "Brask", ["Harbour", "Weaver"], 2000, 800) == (
        TEXTS[0], "Weaver", 18)


def test_select_skips_blank_aliases_and_returns_none_without_a_match() -> None:
    assert select_triviaqa_context(TEXTS, "Brask", [" ", ""], 2000, 800) is None
    assert select_triviaqa_context([], "Velmora", ["Velmora"], 2000, 800) is None


def test_select_cuts_long_texts_to_a_window_around_the_answer() -> None:
    text = "a" * 3000 + "Velmora" + "b" * 3000
    context, answer, start = select_triviaqa_context([text], "velmora", [], 2000, 800)
    assert context == "a" * 800 + "Velmora" + "b" * 800
    assert (answer, start) == ("velmora", 800)
    # near the start the window is clipped at 0
    text = "xx Velmora " + "c" * 2500
    context, _, start = select_triviaqa_context([text], "Velmora", [], 2000, 800)
    assert context == text[: 3 + 7 + 800] and start == 3
    # a text of exactly max_chars is not cut
    text = "d" * 1993 + "Velmora"
    assert select_triviaqa_context([text], "Velmora", [], 2000, 800) == (text, "Velmora", 1993)


@hyp_settings(max_examples=200, deadline=None)
@given(texts=st.lists(st.text(max_size=60), max_size=4),
       value=st.text(min_size=1, max_size=5), aliases=st.lists(st.text(max_size=5), max_size=3),
       max_chars=st.integers(1, 40), window=st.integers(0, 10))
def test_select_property_answer_is_at_answer_start(texts: list[str], value: str,
                                                   aliases: list[str], max_chars: int,
                                                   window: int) -> None:
    chosen = select_triviaqa_context(texts, value, aliases, max_chars, window)
    if chosen is None:
        return
    context, answer, start = chosen
    assert answer in [value, *aliases] and answer.strip()
    assert literal_pattern(answer, False).match(context, start)
    assert any(context in text for text in texts)
    # either an uncut text within the limit, or a cut of at most window + answer + window
    assert len(context) <= max(max_chars, 2 * window + len(answer))


# ---------------------------------------------------------------- TriviaQA official JSON

def trivia_record(qid: str | None = "tq_1", value: Any = "Odile Marsk",
                  aliases: Any = ("Marsk",), pages: Any = ("Velmora.txt",),
                  question: Any = "Who founded the town of Velmora?") -> dict[str, Any]:
    record: dict[str, Any] = {
        "Question": question,
        "Answer": {"Value": value, "Aliases": list(aliases), "NormalizedValue": "odile marsk",
                   "Type": "WikipediaEntity"},
        "EntityPages": None if pages is None else [
            {"DocSource": "TagMe", "Filename": p, "Title": p[:-4]} for p in pages],
        "SearchResults": [],
    }
    if qid is not None:
        record["QuestionId"] = qid
    return record


VELMORA_PAGE = "Velmora is a harbour town. It was founded by Odile Marsk in 1712."
QUILLAN_PAGE = "The Quillan is a slow river. Marsk built a mill on it."


@pytest.mark.parametrize("layout", ["rc", "beside", "flat"])
def test_triviaqa_official_finds_evidence_dir_and_selects(tmp_path: Path, layout: str) -> None:
    path = trivia_file(tmp_path, [trivia_record(pages=("Quillan.txt", "Velmora.txt"))],
                       {"Velmora.txt": VELMORA_PAGE, "Quillan.txt": QUILLAN_PAGE}, layout)
    row = one(read_trivia(path))
    assert list(row) == QA_KEYS
    assert row == {
        F.ID: "triviaqa:tq_1", F.SOURCE: "triviaqa",
        F.QUESTION: "Who founded the town of Velmora?", F.CONTEXT: VELMORA_PAGE,
        F.CONTEXT_ID: context_id(VELMORA_PAGE), F.ANSWER: "Odile Marsk",
        F.ANSWER_START: VELMORA_PAGE.index("Odile"), F.ALIASES: ["Marsk"],
        F.INPUT_FILE: str(path), F.RECORD_LOC: "question=0",
        F.RECORD_INDEX: None, F.STATUS: F.OK, F.REASON: None, F.DETAIL: None,
    }


def test_triviaqa_official_alias_fallback_and_truncation(tmp_path: Path) -> None:
    long_page = "w" * 1500 + " the Marsk mill " + "z" * 1500
    path = trivia_file(tmp_path, [
        trivia_record("tq_1", pages=("Quillan.txt",)),
        trivia_record("tq_2", pages=("Long.txt",)),
    ], {"Quillan.txt": QUILLAN_PAGE, "Long.txt": long_page})
    rows = read_trivia(path, triviaqa_window=10)
    assert [r[F.RECORD_LOC] for r in rows] == ["question=0", "question=1"]
    assert (rows[0][F.ANSWER], rows[0][F.ANSWER_START]) == ("Marsk", QUILLAN_PAGE.index("Marsk"))
    assert rows[0][F.CONTEXT] == QUILLAN_PAGE
    # 10 chars either side of "Marsk"
    assert rows[1][F.CONTEXT] == "w" * 5 + " the Marsk mill " + "z" * 4
    assert rows[1][F.ANSWER_START] == 10 and rows[1][F.ANSWER] == "Marsk"
    assert rows[1][F.CONTEXT_ID] == context_id(rows[1][F.CONTEXT])


def test_triviaqa_official_explicit_evidence_dir(tmp_path: Path) -> None:
    elsewhere = tmp_path / "pages"
    elsewhere.mkdir()
    (elsewhere / "Velmora.txt").write_text(VELMORA_PAGE)
    path = trivia_file(tmp_path, [trivia_record()], {})
    assert one(read_trivia(path))[F.REASON] == R.MISSING_EVIDENCE_FILE
    row = one(read_trivia(path, evidence_dir=str(elsewhere)))
    assert row[F.STATUS] == F.OK and row[F.CONTEXT] == VELMORA_PAGE


def test_triviaqa_official_missing_evidence_file(tmp_path: Path) -> None:
    path = trivia_file(tmp_path, [
        trivia_record("tq_1", pages=("Gone.txt", "Velmora.txt")),
        trivia_record("tq_2", pages=("Gone.txt", "Lost.txt")),
        trivia_record("tq_3", pages=("Gone.txt", "Quillan.txt"), aliases=()),
    ], {"Velmora.txt": VELMORA_PAGE, "Quillan.txt": QUILLAN_PAGE})
    ok, missing, unseen = read_trivia(path)
    assert ok[F.STATUS] == F.OK and ok[F.CONTEXT] == VELMORA_PAGE
    assert ok[F.DETAIL] == "skipped evidence: Gone.txt not found"
    assert_rejected(missing, R.MISSING_EVIDENCE_FILE, "Gone.txt not found", "Lost.txt not found",
                    str(tmp_path / "rc" / "evidence" / "wikipedia"))
    assert missing[F.ANSWER] == "Odile Marsk" and missing[F.CONTEXT] is None
    # a readable page without the answer does not make it "no evidence": a missing page
    # might have held it
    assert_rejected(unseen, R.MISSING_EVIDENCE_FILE, "Gone.txt not found")


def test_triviaqa_official_without_evidence_directory(tmp_path: Path) -> None:
    path = tmp_path / "lonely.json"
    path.write_text(json.dumps({"Data": [trivia_record()]}))
    row = one(read_trivia(path))
    assert_rejected(row, R.MISSING_EVIDENCE_FILE, "Velmora.txt not found",
                    "no evidence directory found", str(tmp_path / "evidence" / "wikipedia"))


def test_triviaqa_official_file_uri_path(tmp_path: Path) -> None:
    path = trivia_file(tmp_path, [trivia_record()], {"Velmora.txt": VELMORA_PAGE})
    uri = "file:" + str(path)
    row = one(read(path.read_bytes(), path=uri, source="triviaqa"))
    assert row[F.STATUS] == F.OK and row[F.INPUT_FILE] == uri


def test_triviaqa_official_no_evidence_context(tmp_path: Path) -> None:
    path = trivia_file(tmp_path, [
        trivia_record("tq_1", pages=()),
        trivia_record("tq_2", pages=None),
        trivia_record("tq_3", value="Brask", aliases=("Harbourmaster", " "),
                      pages=("Velmora.txt", "Quillan.txt")),
    ], {"Velmora.txt": VELMORA_PAGE, "Quillan.txt": QUILLAN_PAGE})
    rows = read_trivia(path)
    assert [(r[F.STATUS], r[F.REASON]) for r in rows] == [(F.FILTERED, R.NO_EVIDENCE_CONTEXT)] * 3
    assert rows[0][F.DETAIL] == "no EntityPages"
    assert "found in 2 evidence text(s)" in rows[2][F.DETAIL]
    assert rows[2][F.ALIASES] == ["Harbourmaster", " "] and rows[2][F.CONTEXT] is None


def test_triviaqa_official_bad_encoding_evidence(tmp_path: Path) -> None:
    path = trivia_file(tmp_path, [trivia_record()], {"Velmora.txt": b"Odile Marsk \xff"})
    assert_rejected(one(read_trivia(path)), R.BAD_ENCODING, "Velmora.txt has invalid UTF-8 at byte 12")


@pytest.mark.parametrize(("record", "reason", "word"), [
    (trivia_record(value=None), R.MISSING_FIELD, "Answer.Value"),
    ({**trivia_record(), "Answer": {"Aliases": ["Marsk"]}}, R.MISSING_FIELD, "Answer.Value"),
    ({**trivia_record(), "Answer": "Odile Marsk"}, R.WRONG_TYPE, "'Answer'"),
    (trivia_record(value=1712), R.WRONG_TYPE, "Answer.Value"),
    (trivia_record(value="  "), R.EMPTY_FIELD, "Answer.Value"),
    (trivia_record(aliases=("Marsk", 3)), R.WRONG_TYPE, "Answer.Aliases[1]"),
    (trivia_record(question=""), R.EMPTY_FIELD, "'Question'"),
    (trivia_record(question=["Who?"]), R.WRONG_TYPE, "'Question'"),
    ({**trivia_record(), "EntityPages": "Velmora.txt"}, R.WRONG_TYPE, "'EntityPages'"),
    ({**trivia_record(), "EntityPages": [{"Title": "Velmora"}]}, R.MISSING_FIELD,
     "EntityPages[0].Filename"),
    ({**trivia_record(), "EntityPages": ["Velmora.txt"]}, R.WRONG_TYPE, "EntityPages[0]"),
    (["not", "a", "record"], R.WRONG_TYPE, "question record"),
])
def test_triviaqa_official_malformed_records(tmp_path: Path, record: Any, reason: str,
                                             word: str) -> None:
    path = trivia_file(tmp_path, [record, trivia_record("tq_ok")], {"Velmora.txt": VELMORA_PAGE})
    bad, good = read_trivia(path)
    assert_rejected(bad, reason, word)
    assert good[F.STATUS] == F.OK and good[F.RECORD_LOC] == "question=1"


def test_triviaqa_official_missing_id_and_context_limit(tmp_path: Path) -> None:
    path = trivia_file(tmp_path, [trivia_record(None), trivia_record("tq_2")],
                       {"Velmora.txt": VELMORA_PAGE})
    no_id, too_long = read_trivia(path, max_context_chars=20)
    assert no_id[F.ID] == "triviaqa:wikipedia-dev.json@question=0"
    assert_rejected(no_id, R.MISSING_FIELD, "'QuestionId'")
    assert_rejected(too_long, R.CONTEXT_TOO_LONG, "limit of 20")
    assert too_long[F.ANSWER] == "Odile Marsk"


def test_triviaqa_official_missing_aliases_are_tolerated(tmp_path: Path) -> None:
    record = trivia_record()
    del record["Answer"]["Aliases"]
    path = trivia_file(tmp_path, [record], {"Velmora.txt": VELMORA_PAGE})
    row = one(read_trivia(path))
    assert row[F.STATUS] == F.OK and row[F.ALIASES] == []


# ---------------------------------------------------------------- TriviaQA HF layout

def hf_trivia(qid: str = "tq_1", value: str = "Odile Marsk", aliases: tuple[str, ...] = ("Marsk",),
              contexts: tuple[str, ...] | None = (QUILLAN_PAGE, VELMORA_PAGE)) -> dict[str, Any]:
    record: dict[str, Any] = {
        "question": "Who founded the town of Velmora?", "question_id": qid,
        "answer": {"aliases": list(aliases), "value": value},
    }
    if contexts is not None:
        record["entity_pages"] = {"title": [f"p{i}" for i in range(len(contexts))],
                                  "wiki_context": list(contexts)}
    return record


def test_triviaqa_hf_jsonl_and_parquet_agree() -> None:
    long_page = "k" * 2500 + "Odile Marsk" + "k" * 2500
    records = [
        hf_trivia("tq_1"),
        hf_trivia("tq_2", value="Brask", aliases=("Brask Harbour", "MARSK")),
        hf_trivia("tq_3", contexts=(long_page,)),
        hf_trivia("tq_4", contexts=()),
        hf_trivia("tq_5", value="Brask", aliases=()),
    ]
    from_jsonl = read(jsonl(*records), path="rc/validation.jsonl", source="triviaqa")
    from_parquet = read(parquet_bytes(records, TRIVIA_HF_SCHEMA), path="rc/validation.parquet",
                        source="triviaqa")
    assert [without(r, F.RECORD_LOC, F.INPUT_FILE) for r in from_jsonl] == [
        without(r, F.RECORD_LOC, F.INPUT_FILE) for r in from_parquet]
    assert [r[F.RECORD_LOC] for r in from_parquet] == [f"row={i}" for i in range(5)]
    first, alias, cut, empty, absent = from_jsonl
    assert (first[F.CONTEXT], first[F.ANSWER], first[F.ANSWER_START]) == (
        VELMORA_PAGE, "Odile Marsk", VELMORA_PAGE.index("Odile"))
    assert first[F.ID] == "triviaqa:tq_1" and first[F.ALIASES] == ["Marsk"]
    assert (alias[F.CONTEXT], alias[F.ANSWER], alias[F.ANSWER_START]) == (
        QUILLAN_PAGE, "MARSK", QUILLAN_PAGE.index("Marsk"))
    assert cut[F.CONTEXT] == "k" * 800 + "Odile Marsk" + "k" * 800 and cut[F.ANSWER_START] == 800
    assert (empty[F.STATUS], empty[F.REASON]) == (F.FILTERED, R.NO_EVIDENCE_CONTEXT)
    assert (absent[F.STATUS], absent[F.REASON]) == (F.FILTERED, R.NO_EVIDENCE_CONTEXT)
    assert "'Brask'" in absent[F.DETAIL]


@pytest.mark.parametrize(("mutate", "status", "reason", "word"), [
    (lambda r: r.pop("entity_pages"), F.FILTERED, R.NO_EVIDENCE_CONTEXT, "wiki_context"),
    (lambda r: r.update(entity_pages=["page"]), F.REJECTED, R.WRONG_TYPE, "'entity_pages'"),
    (lambda r: r["entity_pages"].update(wiki_context=[VELMORA_PAGE, 7]), F.REJECTED,
     R.WRONG_TYPE, "entity_pages.wiki_context[1]"),
    (lambda r: r["answer"].pop("value"), F.REJECTED, R.MISSING_FIELD, "answer.value"),
    (lambda r: r.update(answer="Odile Marsk"), F.REJECTED, R.WRONG_TYPE, "'answer'"),
    (lambda r: r.update(question_id=33), F.REJECTED, R.WRONG_TYPE, "'question_id'"),
    (lambda r: r.pop("question"), F.REJECTED, R.MISSING_FIELD, "'question'"),
])
def test_triviaqa_hf_malformed_records(mutate: Any, status: str, reason: str, word: str) -> None:
    record = hf_trivia()
    mutate(record)
    row = one(read(jsonl(record), path="rc/x.jsonl", source="triviaqa"))
    assert list(row) == QA_KEYS
    assert (row[F.STATUS], row[F.REASON]) == (status, reason)
    assert word in row[F.DETAIL]


def test_triviaqa_hf_invalid_json_line() -> None:
    data = jsonl(hf_trivia("tq_1")) + b"{oops}\n" + jsonl(hf_trivia("tq_3"))
    rows = read(data, path="rc/x.jsonl", source="triviaqa")
    assert [(r[F.ID], r[F.STATUS]) for r in rows] == [
        ("triviaqa:tq_1", F.OK), ("triviaqa:x.jsonl@line=2", F.REJECTED), ("triviaqa:tq_3", F.OK)]
    assert rows[1][F.REASON] == R.INVALID_JSON


# ---------------------------------------------------------------- robustness

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 300) | st.floats(allow_nan=False)
    | st.text(max_size=12),
    lambda children: st.one_of(st.lists(children, max_size=3),
                               st.dictionaries(st.text(max_size=6), children, max_size=3)),
    max_leaves=8,
)


@hyp_settings(max_examples=150, deadline=None)
@given(source=st.sampled_from(["squad", "triviaqa"]),
       record=st.fixed_dictionaries({}, optional={
           "id": JSON_VALUES, "question_id": JSON_VALUES, "question": JSON_VALUES,
           "context": JSON_VALUES, "answers": JSON_VALUES, "answer": JSON_VALUES,
           "entity_pages": JSON_VALUES}))
def test_any_json_record_gives_exactly_one_well_formed_row(source: str,
                                                           record: dict[str, Any]) -> None:
    row = one(read(jsonl(record), path="fuzz.jsonl", source=source))
    assert list(row) == QA_KEYS
    assert row[F.STATUS] in (F.OK, F.FILTERED, F.REJECTED)
    assert (row[F.REASON] is None) == (row[F.STATUS] == F.OK)
    assert row[F.ID].startswith(f"{source}:")
    if row[F.STATUS] == F.OK:
        assert literal_pattern(row[F.ANSWER], False).match(row[F.CONTEXT], row[F.ANSWER_START])


# ---------------------------------------------------------------- real data

@pytest.mark.slow
def test_real_squad_dev_v11_reads_clean() -> None:
    path = REPO / ".." / "shared" / "data" / "squad" / "dev-v1.1.json"
    if not path.exists():
        pytest.skip(f"{path} not present")
    rows = read(path.read_bytes(), path="../shared/data/squad/dev-v1.1.json")
    assert len(rows) == 10_570
    assert len({r[F.ID] for r in rows}) == 10_570
    assert sum(r[F.STATUS] == F.REJECTED for r in rows) == 0
    assert all(r[F.STATUS] == F.OK for r in rows)
    assert len({r[F.CONTEXT_ID] for r in rows}) == 2_067
    for r in rows[:500]:
        assert r[F.CONTEXT][r[F.ANSWER_START]:].lower().startswith(r[F.ANSWER].lower())
