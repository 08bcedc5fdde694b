"""`read_file_part`: streaming reads of one file in parts give exactly `read_file`'s rows,
whatever the number of parts, and record_index keeps file order (the duplicate policy's)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings as hsettings, strategies as st

from faithqa_spark.core import fields as F
from faithqa_spark.core.dedupe import number_records
from faithqa_spark.sources import InputFileError, ReaderSettings, read_file
from faithqa_spark.sources.stream import read_file_part

from helpers import SAMPLE_SQUAD, SAMPLE_TRIVIAQA


def whole(data: bytes, path: str, source: str) -> list[dict[str, Any]]:
    return list(number_records(read_file(data, path=path, source=source)))


def parts(data: bytes | Any, path: str, source: str, n: int, **kw: Any) -> list[dict[str, Any]]:
    rows = [r for p in range(n) for r in read_file_part(data, path=path, source=source,
                                                        part=p, n_parts=n, **kw)]
    return sorted(rows, key=lambda r: r[F.RECORD_INDEX])


def same_rows(got: list[dict[str, Any]], want: list[dict[str, Any]]) -> None:
    """Equal rows in equal (file) order; record_index values differ, not their order."""
    strip = lambda rows: [{k: v for k, v in r.items() if k != F.RECORD_INDEX} for r in rows]
    assert strip(got) == strip(want)
    assert len({r[F.RECORD_INDEX] for r in got}) == len(got)


@pytest.mark.parametrize("n", [1, 2, 3, 7])
def test_union_of_parts_is_the_whole_read_of_the_squad_sample(n):
    data = SAMPLE_SQUAD.read_bytes()
    same_rows(parts(data, "squad.json", "squad", n), whole(data, "squad.json", "squad"))


@pytest.mark.parametrize("n", [1, 2, 5])
def test_union_of_parts_is_the_whole_read_of_the_triviaqa_sample(n):
    path = str(SAMPLE_TRIVIAQA)  # beside its evidence directory
    data = SAMPLE_TRIVIAQA.read_bytes()
    same_rows(parts(data, path, "triviaqa", n), whole(data, path, "triviaqa"))


def test_streamed_from_an_opener_and_each_part_holds_only_its_articles(tmp_path):
    path = tmp_path / "squad.json"
    path.write_bytes(SAMPLE_SQUAD.read_bytes())
    opened = []

    def opener():
        opened.append(1)
        return open(path, "rb")

    rows = list(read_file_part(opener, path=str(path), source="squad", part=1, n_parts=2))
    assert opened == [1]  # streamed once, no fallback
    articles = {int(r[F.RECORD_LOC].split("/")[0].split("=")[1]) for r in rows}
    assert articles and all(a % 2 == 1 for a in articles)


def _squad(articles: list[Any]) -> bytes:
    return json.dumps({"version": "1.1", "data": articles}).encode()


QA = {"id": "q1", "question": "Who?", "answers": [{"text": "Lida Marsh", "answer_start": 0}]}
PARA = {"context": "Lida Marsh built the bridge.", "qas": [QA]}


def _with_qa(**changes: Any) -> dict[str, Any]:
    return {"title": "T", "paragraphs": [{**PARA, "qas": [{**QA, **changes}]}]}


# Files where ijson and json could disagree, or that are broken: the same rows or error.
TRICKY = {
    "lone surrogate": _squad([_with_qa(id="a"), _with_qa(id="b", question="Who\\ud800?")]
                             ).replace(b"\\\\ud800", b"\\ud800"),
    "surrogate pair": _squad([_with_qa(question="Who \ud83d\ude00?")]),
    "raw tab in a string": _squad([_with_qa(id="a"), _with_qa(id="b")]).replace(b'"b"', b'"\tb"'),
    "huge answer_start": _squad([_with_qa(id="a"), {"title": "T", "paragraphs": [{**PARA, "qas": [
        {**QA, "answers": [{"text": "Lida Marsh", "answer_start": 10 ** 30}]}]}]}]),
    "NaN": _squad([_with_qa(id="a")]).replace(b'"answer_start": 0', b'"answer_start": NaN'),
    "BOM": b"\xef\xbb\xbf" + _squad([_with_qa()]),
    "UTF-16": _squad([_with_qa()]).decode().encode("utf-16"),
    "empty": b"   \n",
    "invalid UTF-8 late": _squad([_with_qa(id="a"), _with_qa(id="b")]).replace(b"Who?", b"Wh\xff?"),
    "syntax error at the end": _squad([_with_qa(id="a")])[:-1],
    "no data": b'{"version": "1.1"}',
    "data not a list": b'{"data": {"item": [1]}}',
    "empty data": b'{"data": []}',
    "article not an object": _squad([_with_qa(id="a"), 7, "x"]),
    "wrong top level": b"[1, 2]",
    # the key after more than the head's bytes: decided by reading on
    "data after a long key": b'{"note": "' + b"x" * 9000 + b'", ' + _squad([_with_qa()])[1:],
    "data object after a long key": b'{"note": "' + b"x" * 9000 + b'", "data": {"item": [1]}}',
}


@pytest.mark.parametrize("name", sorted(TRICKY))
@pytest.mark.parametrize("n", [1, 2])
def test_tricky_files_read_as_read_file_reads_them(name, n):
    data = TRICKY[name]
    try:
        want: Any = whole(data, "squad.json", "squad")
    except InputFileError as err:
        with pytest.raises(InputFileError) as got:
            parts(data, "squad.json", "squad", n)
        assert str(got.value) == str(err)
        return
    same_rows(parts(data, "squad.json", "squad", n), want)


def test_plan_parts_splits_only_large_json_documents():
    from faithqa_spark.sources.stream import plan_parts

    assert plan_parts([("b.json", 250), ("a.jsonl", 900), ("c.JSON", 100)], 100) == [
        ("a.jsonl", 0, 1), ("b.json", 0, 3), ("b.json", 1, 3), ("b.json", 2, 3),
        ("c.JSON", 0, 1)]
    assert plan_parts([("e.json", 0)], 100) == [("e.json", 0, 1)]
    with pytest.raises(ValueError):
        plan_parts([], 0)


def test_part_out_of_range_is_refused():
    with pytest.raises(ValueError, match="part must be in"):
        list(read_file_part(b"{}", path="s.json", source="squad", part=2, n_parts=2))


def test_flat_formats_split_by_record(tmp_path):
    lines = b"\n".join(json.dumps({"id": f"q{i}", "title": "T", "context": PARA["context"],
                                   "question": "Who?", "answers": {"text": ["Lida Marsh"],
                                                                   "answer_start": [0]}}).encode()
                       for i in range(5))
    same_rows(parts(lines, "s.jsonl", "squad", 3), whole(lines, "s.jsonl", "squad"))


_text = st.text(alphabet="ab \u00e9\u4e2d\"\\", max_size=8)


@hsettings(max_examples=40, deadline=None)
@given(st.lists(st.lists(st.lists(_text, max_size=3), max_size=3), max_size=6),
       st.integers(1, 4))
def test_union_of_parts_equals_whole_read_for_any_shape(shape, n):
    articles = [{"title": "T", "paragraphs": [
        {"context": "ctx " + "".join(qs) + " Lida", "qas": [
            {"id": f"{a}-{p}-{q}", "question": text or "?",
             "answers": [{"text": "Lida", "answer_start": None}]} for q, text in enumerate(qs)]}
        for p, qs in enumerate(paras)]} for a, paras in enumerate(shape)]
    data = _squad(articles)
    same_rows(parts(data, "squad.json", "squad", n), whole(data, "squad.json", "squad"))


def test_an_escaped_surrogate_pair_streams_without_fallback(tmp_path):
    path = tmp_path / "squad.json"
    path.write_bytes(_squad([_with_qa(question="Who \U0001F600?")]))  # json escapes the pair
    assert b"\\ud83d\\ude00" in path.read_bytes()
    opened = []

    def opener():
        opened.append(1)
        return open(path, "rb")

    row, = read_file_part(opener, path=str(path), source="squad")
    assert row[F.QUESTION] == "Who \U0001F600?" and opened == [1]
