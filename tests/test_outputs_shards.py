"""The output layer without Spark: shard boundaries and names, the shard writer (the same
bytes however the rows arrive), and the run directory's completion rule in both publish
modes, on a local directory."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from faithqa_spark import fs
from faithqa_spark.core import fields as C
from faithqa_spark.core.exports import FILE_EXPORTS
from faithqa_spark.core.shards import chunks, partition_offsets, shard_count, shard_name
from faithqa_spark.outdir import OutDir
from faithqa_spark.runs import (MANIFEST, IncompleteRunError, RunDir, require_complete,
                                run_files)
from faithqa_spark.shard_io import Layout, ShardWriter, targets_by_group, write_groups

JSONL, SQUAD, PARQUET = (next(e for e in FILE_EXPORTS if e.format == f)
                         for f in ("jsonl", "squad", "parquet"))


def dataset_row(i: int, split: str = "train") -> dict:
    """A dataset row with every column (invented text)."""
    row = {name: None for name in C.DATASET_COLUMNS}
    ctx = f"Marta Ilves rowed to Harrow Isle in {1900 + i}."
    row.update({C.ID: f"squad:r{i:03d}", C.QUESTION: f"Who rowed in {1900 + i}?",
                C.ORIGINAL_CONTEXT: ctx, C.MODIFIED_CONTEXT: ctx.replace("Marta", "Oda"),
                C.ORIGINAL_ANSWER: "Marta Ilves", C.FAITHFUL_ANSWER: "Oda Ilves",
                C.ANSWER_STARTS: [0], C.MODIFIED_SPANS: [{"start": 0, "end": 3}],
                C.SOURCE: "squad", C.SPLIT: split, C.NUM_REPLACEMENTS: 1})
    return row


# ---------------------------------------------------------------- boundaries and names

def test_shard_names_and_counts():
    assert shard_name("train", 3, 12, ".jsonl") == "train-00003-of-00012.jsonl"
    assert [shard_count(n, 10) for n in (0, 1, 10, 11, 25)] == [1, 1, 1, 2, 3]
    assert [list(c) for c in chunks(list(range(5)), 2)] == [[0, 1], [2, 3], [4]]
    assert [list(c) for c in chunks([], 2)] == [[]]  # an empty group is one empty file


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from("abc"), max_size=40), st.data())
def test_partition_offsets_number_rows_as_their_position_in_the_group(keys, data):
    """Any cut of the sorted rows into partitions numbers each row by its index within its
    group, as the reference runner's list does."""
    rows = sorted((k, i) for i, k in enumerate(keys))
    cuts = sorted(data.draw(st.lists(st.integers(0, len(rows)), max_size=5)))
    bounds = [0, *cuts, len(rows)]
    parts = [rows[a:b] for a, b in zip(bounds, bounds[1:])]
    counts = [(p, k, sum(1 for r in part if r[0] == k))
              for p, part in enumerate(parts) for k in sorted({r[0] for r in part})]
    offsets, totals = partition_offsets(reversed(counts))  # any order of the counts
    got = []
    for p, part in enumerate(parts):
        at: dict[str, int] = {}
        for k, _ in part:
            i = at.get(k, offsets[(p, k)])
            at[k] = i + 1
            got.append(i)
    assert got == [[r for r in rows if r[0] == k].index((k, i)) for k, i in rows]
    assert totals == {k: keys.count(k) for k in set(keys)}


# ---------------------------------------------------------------- the shard writer

@settings(max_examples=15, deadline=None)
@given(n=st.integers(0, 9), batch_sizes=st.lists(st.integers(1, 4), max_size=6))
def test_a_shard_has_the_same_bytes_however_its_rows_arrive(n, batch_sizes, tmp_path_factory):
    """The Spark tasks feed a shard Arrow batch by batch, the reference runner all at once:
    the files (lines, the SQuAD frame, Parquet row groups) are the same."""
    rows = [dataset_row(i) for i in range(n)]
    layout = Layout(shard_rows=100, row_group_rows=3)
    targets = [(JSONL, "train"), (SQUAD, "train"), (PARQUET, "train")]
    a, b = (OutDir(str(tmp_path_factory.mktemp(x))) for x in "ab")
    write_groups(a, targets, rows, layout)
    with ShardWriter(b, targets, 0, 1, layout) as w:
        at = 0
        for size in batch_sizes + [len(rows)]:
            w.add(rows[at:at + size])
            at += size
    assert w.written == [(e.file("train"), n) for e, _ in targets]
    for export, _ in targets:
        rel = export.file("train")
        assert Path(b.path(rel)).read_bytes() == Path(a.path(rel)).read_bytes(), rel
    doc = json.loads(Path(a.path(SQUAD.file("train"))).read_text())
    assert [p["qas"][0]["id"] for p in doc["data"][0]["paragraphs"]] == [r[C.ID] for r in rows]
    table = pq.read_table(a.path(PARQUET.file("train")))
    assert table.num_rows == n and table.column(C.ID).to_pylist() == [r[C.ID] for r in rows]


def test_groups_are_cut_into_contiguous_shards(tmp_path):
    rows = [dataset_row(i, "dev") for i in range(5)]
    out = OutDir(str(tmp_path))
    targets = targets_by_group([JSONL, PARQUET])
    assert targets["dev"] == [(JSONL, "dev"), (PARQUET, "dev")]
    written = write_groups(out, targets["dev"], rows, Layout(shard_rows=2, row_group_rows=2))
    assert sorted(written) == sorted(
        [(f"jsonl/validation-0000{i}-of-00003.jsonl", n) for i, n in enumerate((2, 2, 1))]
        + [(f"parquet/validation-0000{i}-of-00003.parquet", n) for i, n in enumerate((2, 2, 1))])
    ids = [json.loads(line)[C.ID] for i in range(3)
           for line in (tmp_path / f"jsonl/validation-0000{i}-of-00003.jsonl").open()]
    assert ids == [r[C.ID] for r in rows]
    write_groups(out, [(SQUAD, "dev")], rows, Layout(shard_rows=2, row_group_rows=2))
    docs = [json.loads((tmp_path / SQUAD.file("dev", i, 3)).read_text()) for i in range(3)]
    assert [len(d["data"][0]["paragraphs"]) for d in docs] == [2, 2, 1]  # each one document


def test_a_failed_shard_leaves_no_file_under_its_name(tmp_path):
    out = OutDir(str(tmp_path))
    (tmp_path / "jsonl").mkdir()
    old = tmp_path / JSONL.file("train")
    old.write_text("the previous file\n")
    with pytest.raises(RuntimeError, match="boom"):
        with ShardWriter(out, [(JSONL, "train"), (SQUAD, "train")], 0, 1,
                         Layout(10, 10)) as w:
            w.add([dataset_row(1)])
            raise RuntimeError("boom")
    assert old.read_text() == "the previous file\n"
    assert not (tmp_path / SQUAD.file("train")).exists()
    assert [p.name for p in (tmp_path / "jsonl").iterdir()] == [old.name]  # no temp file


# ---------------------------------------------------------------- the run directory

def fake_run(run: RunDir, files: dict[str, str]) -> None:
    root = run.root
    for rel, text in files.items():
        root.write_text(rel, text)
    run.publish()
    run.complete({"runner": "test"})


@pytest.mark.parametrize("publish", ["auto", "direct"])
def test_a_run_is_complete_when_its_manifest_is_written_last(tmp_path, publish):
    out = str(tmp_path / "out")
    first = RunDir(out, publish=publish)
    fake_run(first, {"jsonl/train-00000-of-00002.jsonl": "a\n",
                     "jsonl/train-00001-of-00002.jsonl": "b\n", "report.json": "{}"})
    manifest = json.loads((tmp_path / "out" / MANIFEST).read_text())
    assert [f["path"] for f in manifest["files"]] == [
        "jsonl/train-00000-of-00002.jsonl", "jsonl/train-00001-of-00002.jsonl", "report.json"]
    require_complete(out)
    assert run_files(out, "jsonl", ".jsonl") == [
        fs.join(out, "jsonl", f"train-0000{i}-of-00002.jsonl") for i in range(2)]

    second = RunDir(out, publish=publish)
    second.root.write_text("jsonl/train-00000-of-00001.jsonl", "c\n")
    # written in place, the old run is gone and the directory is incomplete at once; staged,
    # the old run stays complete until the new one publishes
    assert (tmp_path / "out" / MANIFEST).exists() == (publish == "auto")
    second.publish()
    with pytest.raises(IncompleteRunError, match="an incomplete run"):
        require_complete(out)  # between publishing and the manifest: not complete
    second.complete({"runner": "test"})
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["jsonl", MANIFEST]
    assert [p.name for p in (tmp_path / "out" / "jsonl").iterdir()] == [
        "train-00000-of-00001.jsonl"]  # the old shards went: no stale file matches a glob


def test_a_failed_staged_run_leaves_the_last_complete_run(tmp_path):
    out = str(tmp_path / "out")
    fake_run(RunDir(out), {"report.json": '{"n": 1}'})
    failed = RunDir(out)
    failed.root.write_text("report.json", '{"n": 2}')
    failed.discard()
    require_complete(out)
    assert (tmp_path / "out" / "report.json").read_text() == '{"n": 1}'
    assert [p.name for p in (tmp_path / "out").iterdir() if p.name.startswith(".")] == []


def test_a_killed_runs_leftovers_are_cleaned_by_the_next_run(tmp_path):
    out = tmp_path / "out"
    (out / ".staging-dead").mkdir(parents=True)
    (out / ".staging-dead" / "report.json").write_text("{}")
    (out / "jsonl").mkdir()
    (out / "jsonl" / "train-00000-of-00003.jsonl").write_text("partial")  # in place, killed
    (out / "notes.txt").write_text("not ours")
    run = RunDir(str(out), publish="direct")
    fake_run(run, {"report.json": "{}"})
    assert sorted(p.name for p in out.iterdir()) == [MANIFEST, "notes.txt", "report.json"]


def test_a_dead_tasks_temporary_file_is_not_part_of_the_run(tmp_path):
    run = RunDir(str(tmp_path / "out"), publish="direct")
    run.root.write_text("jsonl/train-00000-of-00001.jsonl", "a\n")
    (tmp_path / "out" / "jsonl" / ".train-00000-of-00001.jsonl.k2x9").write_text("half")
    assert run.complete({}) == ["jsonl/train-00000-of-00001.jsonl"]
    assert [p.name for p in (tmp_path / "out" / "jsonl").iterdir()] == [
        "train-00000-of-00001.jsonl"]
