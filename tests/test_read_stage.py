"""The job's read step in parts (`inputs.read_parts`, `spark.transforms.read_qa`): several
tasks read one official JSON file, each streaming its articles, and the records, their
locations and indexes and the duplicate marks are exactly the reference runner's."""

from __future__ import annotations

import json
from typing import Any

import pytest
from chispa import assert_df_equality

from faithqa_spark.config import load_config
from faithqa_spark.core import fields as C
from faithqa_spark.core import reasons
from faithqa_spark.inputs import collect_inputs, read_parts
from faithqa_spark.reference import read_inputs, run_reference
from faithqa_spark.runs import Stages
from faithqa_spark.spark import schema as S
from faithqa_spark.spark.job import build_dataset, read_stage
from faithqa_spark.spark.transforms import read_qa
from faithqa_spark.sources import read_file
from faithqa_spark.sources.formats import HEAD_BYTES
from faithqa_spark.sources.stream import read_file_part

from helpers import ALL_FILES, SAMPLE_SQUAD, SAMPLE_TRIVIAQA, assert_same_files

CTX = "Oda Renn rowed from Grenwick to Hollin in 1931 and back in 1932."


def _qa(qid: str, question: str = "Who rowed?") -> dict[str, Any]:
    return {"id": qid, "question": question, "answers": [{"text": "Oda Renn", "answer_start": 0}]}


def _article(*qas: dict[str, Any]) -> dict[str, Any]:
    return {"title": "T", "paragraphs": [{"context": CTX, "qas": list(qas)}]}


# Duplicates across parts (a in articles 0 and 3), within one article (b), one already
# rejected for its own reason (the blank question of a), and one across files (c).
ARTICLES = [_article(_qa("a"), _qa("c")), _article(_qa("d")), _article(_qa("e")),
            _article(_qa("a"), _qa("f")), _article(_qa("b"), _qa("b")),
            _article(_qa("a", question=" ")), _article(_qa("g"))]


class CountingStream:
    """A binary stream over bytes that counts what was read from it."""

    def __init__(self, data: bytes) -> None:
        self.data, self.pos = data, 0

    def read(self, n: int = -1) -> bytes:
        end = len(self.data) if n is None or n < 0 else self.pos + n
        out, self.pos = self.data[self.pos:end], min(end, len(self.data))
        return out

    def __enter__(self) -> CountingStream:
        return self

    def __exit__(self, *exc: Any) -> None:
        pass


def test_json_lines_under_a_json_name_is_read_whole_by_part_0_only():
    lines = "\n".join(json.dumps({"id": f"q{i}", "title": "T", "context": CTX, "question": "Who?",
                                  "answers": {"text": ["Oda Renn"], "answer_start": [0]}})
                       for i in range(400)).encode()  # more than the head's bytes
    streams: list[CountingStream] = []

    def opener() -> CountingStream:
        streams.append(CountingStream(lines))
        return streams[-1]

    parts = [list(read_file_part(opener, path="hf.json", source="squad", part=p, n_parts=3))
             for p in range(3)]
    strip = lambda rows: [{k: v for k, v in r.items() if k != C.RECORD_INDEX} for r in rows]
    assert strip(parts[0]) == strip(read_file(lines, path="hf.json", source="squad"))
    assert [r[C.RECORD_INDEX] for r in parts[0]] == list(range(400))
    assert parts[1] == parts[2] == []
    assert [s.pos for s in streams] == [len(lines), HEAD_BYTES, HEAD_BYTES]


class KeepAll:
    """The two calls read_stage makes on an OutputPlan, without outputs; notes what is kept."""

    def __init__(self) -> None:
        self.kept: list[Any] = []

    def keep(self, df: Any) -> Any:
        self.kept.append(df)
        return df

    def release(self, df: Any) -> None:
        pass


@pytest.fixture
def inputs(tmp_path):
    squad = tmp_path / "squad.json"
    squad.write_text(json.dumps({"version": "1.1", "data": ARTICLES}))
    lines = tmp_path / "extra.jsonl"
    lines.write_text(json.dumps({"id": "c", "title": "T", "context": CTX, "question": "Who?",
                                 "answers": {"text": ["Oda Renn"], "answer_start": [0]}}) + "\n")
    return collect_inputs([str(squad), str(lines)], None), squad.stat().st_size


def test_only_large_official_json_files_are_split(inputs):
    files, size = inputs
    parts = read_parts(files, -(-size // 3))
    assert [(p.file.display.rsplit("/", 1)[1], p.part, p.n_parts) for p in parts] == [
        ("extra.jsonl", 0, 1), ("squad.json", 0, 3), ("squad.json", 1, 3), ("squad.json", 2, 3)]
    assert len(read_parts(files, size)) == 2  # at the size: one task per file


@pytest.mark.parametrize("n_parts", [1, 3, 7])
def test_read_stage_in_parts_equals_the_reference_records(spark, inputs, n_parts):
    files, size = inputs
    cfg = load_config(overrides=[f"input.read_part_bytes={-(-size // n_parts)}"])
    parts = read_parts(files, cfg.input.read_part_bytes)
    assert len(parts) == n_parts + 1
    assert read_qa(spark, files, cfg, parts).rdd.getNumPartitions() == len(parts)
    got, counts = read_stage(spark, KeepAll(), cfg, files, Stages())
    want = read_inputs(cfg, files)
    assert_df_equality(got, spark.createDataFrame(want, S.QA_SCHEMA), ignore_row_order=True)
    marks = {r[C.RECORD_LOC]: (r[C.ID], r[C.REASON]) for r in want
             if r[C.INPUT_FILE].endswith("squad.json")}
    dup = reasons.DUPLICATE_ID
    assert [loc for loc, (_, reason) in sorted(marks.items()) if reason == dup] == [
        "article=0/paragraph=0/qa=1", "article=3/paragraph=0/qa=0",
        "article=4/paragraph=0/qa=1"]
    assert marks["article=5/paragraph=0/qa=0"] == ("squad:a", reasons.EMPTY_FIELD)
    assert sorted(counts) == [(("squad", files[1].display), 1), (("squad", files[0].display), 10)]


def test_without_duplicates_the_parts_are_not_joined_again(spark, tmp_path):
    squad = tmp_path / "squad.json"
    articles = [_article(_qa(f"q{i}"), _qa(f"r{i}")) for i in range(6)]
    squad.write_text(json.dumps({"version": "1.1", "data": articles}))
    files = collect_inputs([str(squad)], None)
    cfg = load_config(overrides=[f"input.read_part_bytes={squad.stat().st_size // 3}"])
    plan = KeepAll()
    got, _ = read_stage(spark, plan, cfg, files, Stages())
    assert len(plan.kept) == 2 and got is plan.kept[0]  # the parsed rows and the (no) dups
    want = read_inputs(cfg, files)
    assert_df_equality(got, spark.createDataFrame(want, S.QA_SCHEMA), ignore_row_order=True)
    assert {r[C.STATUS] for r in want} == {C.OK}


def test_the_job_with_every_file_in_parts_writes_the_references_bytes(spark, ruler_model,
                                                                       tmp_path):
    # the sample's SQuAD file in 7 parts, its TriviaQA file (evidence read by each part) in 2
    cfg = load_config(None, [f'ner.model="{ruler_model}"', "input.read_part_bytes=2500"])
    files = collect_inputs([str(SAMPLE_SQUAD)], [str(SAMPLE_TRIVIAQA)])
    assert sorted(p.n_parts for p in read_parts(files, 2500)) == [2, 2] + [7] * 7
    run_reference(cfg, files, tmp_path / "ref")
    build_dataset(spark, cfg, files, tmp_path / "spark")
    assert_same_files(tmp_path / "ref", tmp_path / "spark", ALL_FILES)
