"""Bad input for the readers (faithqa_spark.sources): no Spark, inline fixtures.

Each test is one kind of bad input and asserts on the rows produced (status, reason,
record_loc, detail) or on the InputFileError (file and position). Cases that
tests/test_sources.py already covers are not repeated here.

All fixture text is invented (the fictional town of Velmora).
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import given, settings, strategies as st

from faithqa_spark.core import fields as F
from faithqa_spark.core import reasons as R
from faithqa_spark.core.text import context_id, literal_pattern
from faithqa_spark.sources import InputFileError
from faithqa_spark.sources.containers import PARQUET_BATCH_ROWS

from helpers import only, read_rows, read_trivia, trivia_file

QA_KEYS = [name for name, _ in F.QA_FIELDS]
CTX = "Velmora is a harbour town on the river Quillan. It was founded by Odile Marsk in 1712."
ODILE = CTX.index("Odile Marsk")

# Answers a regex-based reader could get wrong: metacharacters, quotes, combining accents
# (decomposed), right-to-left text, emoji (astral, ZWJ sequences), digits and spaces.
TRICKY = [
    "C++ (v2.0) [beta]?",
    "$5.00 ^x|y\\d+ {3}*",
    "a.b*c",
    "\"Quoted\" 'single' \u201ccurly\u201d",
    "Jose\u0301 Marti\u0301",                      # decomposed accents
    "Ren\u00e9e",                                   # precomposed accent
    "\u0627\u0644\u0642\u0627\u0647\u0631\u0629",  # Arabic: al-Qahira
    "\u05ea\u05dc \u05d0\u05d1\u05d9\u05d1",        # Hebrew: Tel Aviv
    "\U0001F680 launch \U0001F469\u200d\U0001F469\u200d\U0001F467",
    "1712\u20131713",
    "  padded  answer ",
]


# ---------------------------------------------------------------- helpers

read, one = read_rows, only


def qa(qid: Any = "q1", question: Any = "Who founded Velmora?", text: Any = "Odile Marsk",
       start: Any = ODILE) -> dict[str, Any]:
    return {"id": qid, "question": question, "answers": [{"text": text, "answer_start": start}]}


def squad_doc(*paragraphs: tuple[Any, list[Any]], **dump: Any) -> bytes:
    paras = [{"context": c, "qas": q} for c, q in paragraphs]
    return json.dumps({"version": "1.1", "data": [{"title": "Velmora", "paragraphs": paras}]},
                      **dump).encode()


def hf_squad(qid: Any = "h1", context: Any = CTX, question: Any = "Who founded Velmora?",
             texts: Any = ("Odile Marsk",), starts: Any = None) -> dict[str, Any]:
    if starts is None:
        starts = [context.index(t) for t in texts]
    return {"id": qid, "title": "Velmora", "context": context, "question": question,
            "answers": {"text": list(texts), "answer_start": list(starts)}}


def jsonl(*records: Any, ensure_ascii: bool = True) -> bytes:
    return "".join(json.dumps(r, ensure_ascii=ensure_ascii) + "\n" for r in records).encode()


SQUAD_HF_SCHEMA = pa.schema([
    ("id", pa.string()), ("title", pa.string()), ("context", pa.string()),
    ("question", pa.string()),
    ("answers", pa.struct([("text", pa.list_(pa.string())),
                           ("answer_start", pa.list_(pa.int32()))])),
])


def parquet_bytes(table: pa.Table) -> bytes:
    sink = io.BytesIO()
    pq.write_table(table, sink)
    return sink.getvalue()


def raw_string_array(values: list[bytes]) -> pa.Array:
    """A string array holding arbitrary bytes: Arrow does not validate UTF-8 here, and neither
    does Parquet, so a file written by another tool can carry such values."""
    offsets = [0]
    for v in values:
        offsets.append(offsets[-1] + len(v))
    return pa.Array.from_buffers(pa.string(), len(values), [
        None, pa.array(offsets, pa.int32()).buffers()[1], pa.py_buffer(b"".join(values))])


def assert_rejected(row: dict[str, Any], reason: str, *words: str) -> None:
    assert list(row) == QA_KEYS
    assert (row[F.STATUS], row[F.REASON]) == (F.REJECTED, reason), row
    for word in words:
        assert word in row[F.DETAIL], row[F.DETAIL]


def answer_at(row: dict[str, Any]) -> bool:
    """The row's answer occurs (case-insensitively, as literal text) at its answer_start."""
    pattern = literal_pattern(row[F.ANSWER], False)
    return pattern.match(row[F.CONTEXT], row[F.ANSWER_START]) is not None


POSITION = re.compile(r"at line (\d+) column (\d+) \(byte (\d+)\)")


def trivia_record(qid: str = "tq_1", value: Any = "Odile Marsk", aliases: Any = ("Marsk",),
                  pages: Any = ("Velmora.txt",)) -> dict[str, Any]:
    return {"Question": "Who founded Velmora?", "QuestionId": qid,
            "Answer": {"Value": value, "Aliases": list(aliases), "Type": "WikipediaEntity"},
            "EntityPages": [{"DocSource": "TagMe", "Filename": p, "Title": p} for p in pages],
            "SearchResults": []}


def hf_trivia(qid: str = "tq_1", value: str = "Odile Marsk", aliases: Any = ("Marsk",),
              contexts: Any = (CTX,)) -> dict[str, Any]:
    return {"question": "Who founded Velmora?", "question_id": qid,
            "answer": {"aliases": list(aliases), "value": value},
            "entity_pages": {"title": [f"p{i}" for i in range(len(contexts))],
                             "wiki_context": list(contexts)}}


# ---------------------------------------------------------------- invalid JSON

OFFICIAL = squad_doc((CTX, [qa("q1"), qa("q2", "When?", "1712", CTX.index("1712"))]), indent=1)


@pytest.mark.parametrize("cut", [1, 2, 15, len(OFFICIAL) // 3, len(OFFICIAL) // 2,
                                 len(OFFICIAL) - 2, len(OFFICIAL) - 1])
def test_truncated_official_json_names_file_line_column_and_byte(cut: int) -> None:
    data = OFFICIAL[:cut]
    with pytest.raises(InputFileError) as info:
        read(data, path="in/train-v1.1.json")
    err = info.value
    assert str(err).startswith("in/train-v1.1.json: invalid JSON at line ")
    line, column, byte = map(int, POSITION.search(err.message).groups())
    assert err.position == f"line {line} column {column} (byte {byte})"
    # the position is inside what was read, and line/column agree with the byte offset
    assert 0 <= byte <= len(data)
    assert line == data.count(b"\n", 0, byte) + 1
    assert column == byte - (data.rfind(b"\n", 0, byte) + 1) + 1


def test_truncated_triviaqa_official_json_names_the_file(tmp_path: Path) -> None:
    data = json.dumps({"Data": [trivia_record()], "Domain": "Wikipedia"}).encode()[:-1]
    with pytest.raises(InputFileError) as info:
        read(data, path=str(tmp_path / "wikipedia-dev.json"), source="triviaqa")
    assert str(info.value).startswith(f"{tmp_path / 'wikipedia-dev.json'}: invalid JSON at line 1")
    assert info.value.position == f"line 1 column {len(data) + 1} (byte {len(data)})"


def test_official_json_cut_inside_a_multibyte_character() -> None:
    doc = squad_doc(("Velmora \u2014 a harbour town \u2014 founded by Odile Marsk.", [qa()]),
                    ensure_ascii=False)
    cut = doc.index("\u2014".encode()) + 2  # two of the dash's three bytes
    with pytest.raises(InputFileError) as info:
        read(doc[:cut], path="squad.json")
    byte = cut - 2
    assert info.value.position == f"byte {byte} (line 1)"
    assert str(info.value) == (f"squad.json: invalid UTF-8 at byte {byte} (line 1): byte 0xe2, "
                               "unexpected end of data")


def test_raw_control_character_in_official_json_is_kept() -> None:
    # JSON forbids unescaped control characters inside strings; real files have them, and
    # the reader keeps them rather than refusing the whole file.
    ctx = CTX.replace("harbour town", "harbour\ttown")
    data = squad_doc((ctx, [qa()])).replace(b"\\t", b"\t")
    assert b"\t" in data
    rows = read(data, path="squad.json")
    assert [(r[F.STATUS], r[F.CONTEXT]) for r in rows] == [(F.OK, ctx)]


def test_raw_control_character_in_a_jsonl_line_is_kept() -> None:
    ctx = CTX.replace("harbour town", "harbour\x00town")
    bad = json.dumps(hf_squad("h2", ctx)).encode().replace(b"\\u0000", b"\x00")
    assert b"\x00" in bad
    data = jsonl(hf_squad("h1")) + bad + b"\n" + jsonl(hf_squad("h3"))
    rows = read(data, path="part-0.jsonl")
    assert [(r[F.RECORD_LOC], r[F.STATUS]) for r in rows] == [
        ("line=1", F.OK), ("line=2", F.OK), ("line=3", F.OK)]
    assert rows[1][F.CONTEXT] == ctx


# ---------------------------------------------------------------- encodings

@pytest.mark.parametrize("path", ["squad.json", "squad.jsonl"])
@pytest.mark.parametrize(("codec", "name"), [
    ("utf-16-le", "UTF-16LE"), ("utf-16-be", "UTF-16BE"), ("utf-32-le", "UTF-32LE"),
    ("utf-32-be", "UTF-32BE")])
def test_utf16_and_utf32_files_are_named_as_such(path: str, codec: str, name: str) -> None:
    # Without the check a UTF-16 JSON Lines file gave one reject per line, most of them a
    # misleading "invalid_json: Expecting value" (the NUL bytes are valid UTF-8).
    text = (squad_doc((CTX, [qa()])) if path.endswith(".json") else jsonl(hf_squad())).decode()
    data = ("\ufeff" + text).encode(codec)  # as Windows tools save "Unicode" text
    with pytest.raises(InputFileError) as info:
        read(data, path=path)
    assert str(info.value) == (f"{path}: {name} byte order mark at byte 0: the file is {name}, "
                               "expected UTF-8")
    assert info.value.position == "byte 0"


def test_parquet_invalid_utf8_rejects_only_that_row() -> None:
    n = PARQUET_BATCH_ROWS + 10
    bad = {3, PARQUET_BATCH_ROWS + 4}  # one in each record batch
    contexts = [b"Velmora was founded by Odile \xff Marsk." if i in bad else CTX.encode()
                for i in range(n)]
    good = pa.Table.from_pylist([hf_squad(f"h{i}") for i in range(n)], schema=SQUAD_HF_SCHEMA)
    table = good.set_column(2, "context", raw_string_array(contexts))
    rows = read(parquet_bytes(table), path="in/train.parquet")
    assert [r[F.RECORD_LOC] for r in rows] == [f"row={i}" for i in range(n)]
    for i, row in enumerate(rows):
        if i in bad:
            assert_rejected(row, R.BAD_ENCODING,
                            f"row {i}: invalid UTF-8 in column 'context' at byte 29")
            assert row[F.ID] == f"squad:train.parquet@row={i}"
        else:
            assert row[F.STATUS] == F.OK and row[F.ID] == f"squad:h{i}" and answer_at(row)


def test_parquet_invalid_utf8_in_a_nested_answer_column() -> None:
    answers = pa.StructArray.from_arrays(
        [pa.ListArray.from_arrays(pa.array([0, 1, 2], pa.int32()),
                                  raw_string_array([b"Odile Marsk", b"Odile \xc3"])),
         pa.array([[ODILE], [ODILE]], pa.list_(pa.int32()))],
        names=["text", "answer_start"])
    table = pa.table({"id": ["h1", "h2"], "title": ["V", "V"], "context": [CTX, CTX],
                      "question": ["Who?", "Who?"], "answers": answers})
    ok, bad = read(parquet_bytes(table), path="p.parquet")
    assert ok[F.STATUS] == F.OK and ok[F.ANSWER_START] == ODILE
    assert_rejected(bad, R.BAD_ENCODING, "row 1: invalid UTF-8 in column 'answers'",
                    "unexpected end of data")


@pytest.mark.parametrize(("make", "field"), [
    (lambda: squad_doc((CTX + " \ud800", [qa()])), "'context'"),
    (lambda: squad_doc((CTX, [qa(question="Who\udfff founded Velmora?")])), "'question'"),
    (lambda: squad_doc((CTX, [qa(text="Odile Marsk\udc80")])), "'answers[0].text'"),
    (lambda: squad_doc((CTX, [qa(qid="q\ud83d")])), "'id'"),
    (lambda: jsonl(hf_squad() | {
        "answers": {"text": ["Odile Marsk", "Mar\udbffsk"], "answer_start": [ODILE]}}),
     "'answers.text[1]'"),
])
def test_lone_surrogate_escapes_are_bad_encoding_not_a_crash(make: Any, field: str) -> None:
    # "\ud800" is valid JSON syntax but no character: the string cannot be encoded as UTF-8,
    # so hashing the context, Arrow and the JSONL writer would all fail on it later.
    data = make()
    assert b"\\ud" in data  # json.dumps writes the lone surrogate as an escape
    path = "x.jsonl" if data.startswith(b'{"id"') else "x.json"
    row = one(read(data, path=path))
    assert_rejected(row, R.BAD_ENCODING, field, "lone surrogate U+D", "not encodable as UTF-8")
    assert row[F.CONTEXT_ID] is None or row[F.CONTEXT_ID] == context_id(CTX)


def test_lone_surrogates_in_triviaqa_records(tmp_path: Path) -> None:
    hf = read(jsonl(hf_trivia("tq_1", contexts=(CTX, "Page \udfff two")),
                    hf_trivia("tq_2", aliases=("Marsk", "\ud800")),
                    hf_trivia("tq_3")), path="rc/x.jsonl", source="triviaqa")
    assert_rejected(hf[0], R.BAD_ENCODING, "'entity_pages.wiki_context[1]'", "U+DFFF at char 5")
    assert_rejected(hf[1], R.BAD_ENCODING, "'answer.aliases[1]'", "U+D800 at char 0")
    assert hf[2][F.STATUS] == F.OK and answer_at(hf[2])
    path = trivia_file(tmp_path, [trivia_record("tq_1", pages=("Velm\udc80ra.txt",)),
                                  trivia_record("tq_2")], {"Velmora.txt": CTX})
    bad, good = read_trivia(path)
    assert_rejected(bad, R.BAD_ENCODING, "'EntityPages[0].Filename'", "U+DC80")
    assert good[F.STATUS] == F.OK and good[F.CONTEXT] == CTX


def test_escaped_surrogate_pairs_are_valid_characters() -> None:
    # json.dumps writes astral characters as surrogate-pair escapes: they must read fine
    context = "The \U0001F680 rocket festival of Velmora was started by Odile Marsk."
    doc = squad_doc((context, [qa(text="\U0001F680 rocket", start=4)]))
    assert b"\\ud83d\\ude80" in doc
    row = one(read(doc))
    assert row[F.STATUS] == F.OK and row[F.ANSWER] == "\U0001F680 rocket"
    assert row[F.ANSWER_START] == 4 and row[F.CONTEXT] == context and row[F.DETAIL] is None


# ---------------------------------------------------------------- answer_start

@pytest.mark.parametrize("start", [10**30, -(10**30), 2**63, 2**31, len(CTX), len(CTX) + 1])
def test_answer_start_far_out_of_range_is_repaired_not_a_crash(start: int) -> None:
    # re raises OverflowError for positions beyond a C ssize_t; the reader must not
    official = one(read(squad_doc((CTX, [qa(start=start)]))))
    hf = one(read(jsonl(hf_squad(starts=(start,))), path="x.jsonl"))
    for row in (official, hf):
        assert row[F.STATUS] == F.OK and row[F.ANSWER_START] == ODILE and answer_at(row)
        assert row[F.DETAIL] == f"answer_start {start} repaired to {ODILE}"


# ---------------------------------------------------------------- missing, mistyped, empty (HF)

@pytest.mark.parametrize(("mutate", "reason", "words"), [
    (lambda r: r.pop("context"), R.MISSING_FIELD, ["'context' is missing"]),
    (lambda r: r.update(context=None), R.MISSING_FIELD, ["'context' is null"]),
    (lambda r: r.update(context=1712), R.WRONG_TYPE, ["'context'", "number", "string"]),
    (lambda r: r.update(context=""), R.EMPTY_FIELD, ["'context' is empty"]),
    (lambda r: r.update(context=" \t\n\u00a0"), R.EMPTY_FIELD, ["'context' is empty"]),
    (lambda r: r.pop("question"), R.MISSING_FIELD, ["'question' is missing"]),
    (lambda r: r.update(question="\t \n"), R.EMPTY_FIELD, ["'question' is empty"]),
    (lambda r: r.update(question=["Who?"]), R.WRONG_TYPE, ["'question'", "list"]),
    (lambda r: r.update(id=7.5), R.WRONG_TYPE, ["'id'", "number"]),
    (lambda r: r["answers"].update(answer_start=[True]), R.WRONG_TYPE,
     ["answers.answer_start[0]", "bool"]),
])
def test_hf_squad_missing_mistyped_or_blank_fields(mutate: Any, reason: str,
                                                   words: list[str]) -> None:
    record = hf_squad("h2")
    mutate(record)
    rows = read(jsonl(hf_squad("h1"), record, hf_squad("h3")), path="in/part-0.jsonl")
    assert [r[F.STATUS] for r in rows] == [F.OK, F.REJECTED, F.OK]
    assert_rejected(rows[1], reason, *words)
    assert rows[1][F.RECORD_LOC] == "line=2" and rows[1][F.INPUT_FILE] == "in/part-0.jsonl"


# ---------------------------------------------------------------- control characters

CONTROL_CTX = ("Velmora\x00 lies\x07 on the \x1b[1mQuillan\x7f,\u2028a river\u2029of "
               "the north\x85 founded by Odile\x0c Marsk.")
CONTROL_ANSWER = "Odile\x0c Marsk"


@pytest.mark.parametrize("container", ["jsonl-escaped", "jsonl-raw-unicode", "parquet"])
def test_control_and_line_separator_characters_are_kept(container: str) -> None:
    records = [hf_squad("h1", CONTROL_CTX, "Who\x00 founded\x1b Velmora?", (CONTROL_ANSWER,)),
               hf_squad("h2")]
    if container == "parquet":
        data = parquet_bytes(pa.Table.from_pylist(records, schema=SQUAD_HF_SCHEMA))
        path = "x.parquet"
    else:
        # ensure_ascii=False writes U+2028/U+2029/U+0085 raw: they must not split the line
        data, path = jsonl(*records, ensure_ascii=container == "jsonl-escaped"), "x.jsonl"
        assert data.count(b"\n") == 2
    first, second = read(data, path=path)
    assert first[F.STATUS] == F.OK and first[F.DETAIL] is None
    assert first[F.CONTEXT] == CONTROL_CTX and first[F.QUESTION] == "Who\x00 founded\x1b Velmora?"
    assert first[F.ANSWER] == CONTROL_ANSWER
    assert first[F.ANSWER_START] == CONTROL_CTX.index(CONTROL_ANSWER) and answer_at(first)
    assert first[F.CONTEXT_ID] == context_id(CONTROL_CTX)
    assert second[F.STATUS] == F.OK and second[F.RECORD_LOC] in ("line=2", "row=1")


def test_triviaqa_evidence_with_control_characters_and_crlf_is_kept(tmp_path: Path) -> None:
    page = "Velmora\r\nis a harbour\x00 town.\r\n\x0cIt was founded by Odile Marsk\x1b.\r\n"
    path = trivia_file(tmp_path, [trivia_record()], {"Velmora.txt": page.encode()})
    row = one(read_trivia(path))
    assert row[F.STATUS] == F.OK and row[F.CONTEXT] == page
    assert row[F.ANSWER_START] == page.index("Odile Marsk") and answer_at(row)


# ---------------------------------------------------------------- TriviaQA evidence

def test_triviaqa_evidence_name_that_is_a_directory(tmp_path: Path) -> None:
    path = trivia_file(tmp_path, [trivia_record(pages=("Folder.txt",)),
                                  trivia_record("tq_2", pages=("Folder.txt", "Velmora.txt"))],
                       {"Velmora.txt": CTX})
    (tmp_path / "rc" / "evidence" / "wikipedia" / "Folder.txt").mkdir()
    unreadable, skipped = read_trivia(path)
    assert_rejected(unreadable, R.MISSING_EVIDENCE_FILE, "Folder.txt unreadable (Is a directory)")
    assert unreadable[F.RECORD_LOC] == "question=0"
    assert skipped[F.STATUS] == F.OK and skipped[F.CONTEXT] == CTX
    assert skipped[F.DETAIL] == "skipped evidence: Folder.txt unreadable (Is a directory)"


# ---------------------------------------------------------------- empty input

@pytest.mark.parametrize(("doc", "source"), [
    ({"version": "1.1", "data": []}, "squad"),
    ({"version": "1.1", "data": [{"title": "Velmora", "paragraphs": []}]}, "squad"),
    ({"version": "1.1", "data": [{"title": "V", "paragraphs": [{"context": CTX, "qas": []}]}]},
     "squad"),
    ({"Data": [], "Domain": "Wikipedia", "Version": 1.0}, "triviaqa"),
])
def test_well_formed_file_without_records_gives_no_rows(doc: Any, source: str,
                                                        tmp_path: Path) -> None:
    assert read(json.dumps(doc), path=str(tmp_path / "in.json"), source=source) == []


def test_empty_triviaqa_file_raises(tmp_path: Path) -> None:
    # (the SQuAD .json / .jsonl and Parquet cases are in test_sources)
    for name in ("wikipedia-dev.json", "validation.jsonl"):
        with pytest.raises(InputFileError, match=r"empty file \(no content at byte 0\)$") as info:
            read(b"\n \n", path=str(tmp_path / name), source="triviaqa")
        assert info.value.path == str(tmp_path / name) and info.value.position == "byte 0"


# ---------------------------------------------------------------- tricky answer texts

def tricky_context(answer: str) -> str:
    return f"Before {answer} came the harbour; after {answer.upper()}, Velmora grew."


@pytest.mark.parametrize("answer", TRICKY)
def test_tricky_answers_official_hf_and_parquet_agree_with_right_offsets(answer: str) -> None:
    context = tricky_context(answer)
    first, second = context.index(answer), context.rindex(answer.upper())
    starts = {"kept": second, "repaired": second + 1, "missing": None}
    records = [hf_squad(f"h_{k}", context, f"Which {answer}?", (answer,),
                        () if s is None else (s,)) for k, s in starts.items()]
    official = read(squad_doc((context, [{"id": r["id"], "question": r["question"], "answers": [
        {"text": answer} if s is None else {"text": answer, "answer_start": s}]}
        for r, s in zip(records, starts.values())])))
    from_jsonl = read(jsonl(*records, ensure_ascii=False), path="x.jsonl")
    from_parquet = read(parquet_bytes(pa.Table.from_pylist(records, schema=SQUAD_HF_SCHEMA)),
                        path="x.parquet")
    for rows in (official, from_jsonl, from_parquet):
        assert [r[F.STATUS] for r in rows] == [F.OK] * 3
        assert [r[F.ANSWER] for r in rows] == [answer] * 3
        assert [r[F.QUESTION] for r in rows] == [f"Which {answer}?"] * 3
        # a start at an occurrence (even the upper-cased second one) is kept; others are
        # repaired to the first occurrence
        assert [r[F.ANSWER_START] for r in rows] == [second, first, first]
        assert all(answer_at(r) for r in rows)
        assert [r[F.DETAIL] for r in rows] == [
            None, f"answer_start {second + 1} repaired to {first}",
            f"answer_start missing, set to {first}"]


@pytest.mark.parametrize("alias", TRICKY)
def test_tricky_triviaqa_values_and_aliases(alias: str, tmp_path: Path) -> None:
    page = f"The record of Velmora names {alias} once, and Odile Marsk never."
    long_page = "x" * 3000 + f" {alias} " + "y" * 3000
    records = [
        # the value holds metacharacters that must not act as a pattern ("a.b*c" must not
        # match "axbbbc"); it is absent, so the alias is chosen
        trivia_record("tq_1", value="Ve.+a|(?i)x", aliases=("[Nope]", alias),
                      pages=("Page.txt",)),
        trivia_record("tq_2", value=alias, aliases=(), pages=("Long.txt",)),
    ]
    path = trivia_file(tmp_path, records, {"Page.txt": page, "Long.txt": long_page})
    by_alias, cut = read_trivia(path)
    assert by_alias[F.STATUS] == F.OK and by_alias[F.ANSWER] == alias
    assert by_alias[F.ANSWER_START] == page.index(alias) and answer_at(by_alias)
    assert by_alias[F.ALIASES] == ["[Nope]", alias]
    assert cut[F.STATUS] == F.OK and cut[F.ANSWER_START] == 800 and answer_at(cut)
    assert cut[F.CONTEXT] == "x" * 799 + f" {alias} " + "y" * 799
    hf = one(read(jsonl(hf_trivia(value="Ve.+a|(?i)x", aliases=("[Nope]", alias),
                                  contexts=(CTX, page))), path="rc/x.jsonl", source="triviaqa"))
    assert {k: hf[k] for k in (F.CONTEXT, F.ANSWER, F.ANSWER_START)} == {
        k: by_alias[k] for k in (F.CONTEXT, F.ANSWER, F.ANSWER_START)}


def test_answer_in_other_unicode_normal_form_is_not_found() -> None:
    # No Unicode normalisation: a precomposed answer does not match decomposed context text
    # (nor the other way round); such a record is rejected, never matched at a wrong place.
    context = "The baker Jose\u0301 Marti\u0301 opened a shop in Velmora in 1712."
    row = one(read(squad_doc((context, [qa(text="Jos\u00e9 Mart\u00ed", start=10)]))))
    assert_rejected(row, R.ANSWER_NOT_IN_CONTEXT, "not found in the context")
    assert row[F.CONTEXT] == context and row[F.ANSWER_START] is None


TRICKY_ALPHABET = ("abcXYZ019 _-,.^$*+?{}[]\\|()\"'\u201c\u2019\u0301\u00e9\u0627\u0644\u05d0"
                   "\u05d1\U0001F680\u200d\u00df\u0130\u212a\x00\x1b\u2028\t")


@settings(max_examples=200, deadline=None)
@given(prefix=st.text(TRICKY_ALPHABET, max_size=30), suffix=st.text(TRICKY_ALPHABET, max_size=30),
       answer=st.text(TRICKY_ALPHABET, min_size=1, max_size=12).filter(lambda s: s.strip()),
       start=st.one_of(st.none(), st.integers(-5, 80), st.just(10**20)),
       container=st.sampled_from(["json", "jsonl"]))
def test_any_embedded_answer_is_located(prefix: str, suffix: str, answer: str, start: Any,
                                        container: str) -> None:
    context = prefix + answer + suffix
    if container == "json":
        data, path = squad_doc((context, [qa(text=answer, start=start)])), "x.json"
    else:
        data, path = jsonl(hf_squad("h1", context, "Q?", (answer,),
                                    () if start is None else (start,))), "x.jsonl"
    row = one(read(data, path=path))
    assert row[F.STATUS] == F.OK and row[F.CONTEXT] == context and row[F.ANSWER] == answer
    assert answer_at(row)
    if start is not None and 0 <= start <= len(context) and literal_pattern(
            answer, False).match(context, start):
        assert row[F.ANSWER_START] == start and row[F.DETAIL] is None
    else:
        assert row[F.ANSWER_START] <= len(prefix) and row[F.DETAIL] is not None
