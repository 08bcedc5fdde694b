"""Delta tables, the NER cache, re-runs, the exports as their users read them, and a failed
write that must leave the previous table version intact."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from chispa import assert_df_equality
from delta.tables import DeltaTable

from faithqa_spark.spark import schema as S
from faithqa_spark.config import load_config
from faithqa_spark.core import fields as C
from faithqa_spark.faults import ENV as FAULT_ENV
from faithqa_spark.inputs import collect_inputs
from faithqa_spark.spark.job import build_dataset

from faithqa_spark.core.exports import FILE_EXPORTS

from helpers import DATASET_FILES, SAMPLE_SQUAD, SAMPLE_TRIVIAQA, export_file


@pytest.fixture(scope="module")
def cfg(ruler_model):
    return load_config(None, [f'ner.model="{ruler_model}"'])


def sample_files():
    return collect_inputs([str(SAMPLE_SQUAD)], [str(SAMPLE_TRIVIAQA)])


def jsonl_rows(out: Path) -> list[dict]:
    return [json.loads(line) for f in DATASET_FILES for line in (out / f).open()]


@pytest.fixture(scope="module")
def first_run(spark, cfg, tmp_path_factory):
    out = tmp_path_factory.mktemp("delta") / "out"
    result = build_dataset(spark, cfg, sample_files(), out)
    return out, result


def test_dataset_table_round_trip(spark, first_run):
    out, result = first_run
    table = spark.read.format("delta").load(str(out / "delta" / "dataset"))
    expected = spark.createDataFrame(jsonl_rows(out), S.DATASET_SCHEMA)
    assert_df_equality(table.select(*C.DATASET_COLUMNS), expected, ignore_row_order=True)
    detail = DeltaTable.forPath(spark, str(out / "delta" / "dataset")).detail().first()
    assert list(detail["partitionColumns"]) == [C.SOURCE, C.SPLIT]
    assert table.count() == result.report["total"]["success"] > 0


def test_other_tables(spark, first_run):
    out, result = first_run
    bank = spark.read.format("delta").load(str(out / "delta" / "entity_bank"))
    files = {t: json.loads((out / "entity_bank" / f"{t}.json").read_text())
             for t in result.report["bank"]["counts"]}
    want = sorted((t, s) for t, texts in files.items() for s in texts)
    assert sorted((r[C.ENTITY_TYPE], r[C.ENT_TEXT]) for r in bank.collect()) == want
    assert bank.filter(bank[C.FREQUENCY] < 1).count() == 0
    assert {r[C.ORIGIN] for r in bank.collect()} == {"built from squad contexts"}

    ner = spark.read.format("delta").load(str(out / "delta" / "ner"))
    assert ner.count() == result.report["ner"]["distinct_contexts"]
    assert {r[C.MODEL_NAME] for r in ner.collect()} == {"en_test_ruler"}

    for status in (C.FILTERED, C.REJECTED):
        t = spark.read.format("delta").load(str(out / "delta" / status))
        lines = (out / export_file(status, status)).read_text().splitlines()
        assert t.count() == len(lines) == result.report["total"][status]
        expected = spark.createDataFrame([json.loads(l) for l in lines], S.LEFTOVER_SCHEMA)
        assert_df_equality(t, expected, ignore_row_order=True)


def a_copy(first_run, tmp_path: Path) -> Path:
    """A copy of the first run's output directory: a finished run to run again over (Delta's
    log names its files relatively, so the copy is a table of its own)."""
    out = tmp_path / "out"
    shutil.copytree(first_run[0], out)
    return out


def test_rerun_overwrites_and_history_keeps_both(spark, cfg, first_run, tmp_path):
    out = a_copy(first_run, tmp_path)
    before = jsonl_rows(out)
    build_dataset(spark, cfg, sample_files(), out)
    path = str(out / "delta" / "dataset")
    table = spark.read.format("delta").load(path)
    assert table.count() == len(before)  # overwritten, not appended
    history = DeltaTable.forPath(spark, path).history().collect()
    assert sorted(h["version"] for h in history) == [0, 1]
    v0 = spark.read.format("delta").option("versionAsOf", 0).load(path)
    assert_df_equality(v0, table, ignore_row_order=True)
    assert jsonl_rows(out) == before


def test_parquet_export_reads_with_pyarrow_and_datasets(first_run, tmp_path, monkeypatch):
    out, _ = first_run
    rows = {s: [json.loads(l) for l in (out / export_file("jsonl", s)).open()] for s in C.SPLITS}
    for split in C.SPLITS:
        table = pq.read_table(out / export_file("parquet", split))
        assert table.to_pylist() == rows[split]
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    from datasets import load_dataset

    parquet = next(e for e in FILE_EXPORTS if e.format == "parquet")
    ds = load_dataset("parquet", data_files={s: str(out / parquet.pattern(s))
                                             for s in C.SPLITS if rows[s]},
                      cache_dir=str(tmp_path / "hf"))
    for split in ds:
        assert ds[split].num_rows == len(rows[split])
        assert ds[split].to_list() == rows[split]


def test_squad_export_is_valid_squad(first_run):
    out, _ = first_run
    for split in C.SPLITS:
        doc = json.loads((out / export_file("squad", split)).read_text())
        assert doc["version"] == "1.1"
        qas = [(p["context"], qa) for a in doc["data"] for p in a["paragraphs"] for qa in p["qas"]]
        want = [json.loads(l) for l in (out / export_file("jsonl", split)).open()]
        assert [qa["id"] for _, qa in qas] == [r["id"] for r in want]
        for context, qa in qas:
            assert qa["answers"], qa["id"]
            for ans in qa["answers"]:
                start = ans["answer_start"]
                assert context[start:start + len(ans["text"])] == ans["text"]


def test_squad_export_reads_back_with_our_squad_reader(first_run):
    from faithqa_spark.sources import ReaderSettings, read_file

    out, _ = first_run
    path = out / export_file("squad", "train")
    rows = list(read_file(path.read_bytes(), path=str(path), source="squad",
                          settings=ReaderSettings()))
    assert rows and all(r[C.STATUS] == C.OK and r[C.DETAIL] is None for r in rows)


def test_ner_cache_skips_known_contexts(spark, cfg, first_run, tmp_path):
    _, clean = first_run
    cache = str(tmp_path / "ner_cache")
    small = json.loads(SAMPLE_SQUAD.read_text())
    small["data"] = small["data"][:2]
    small_path = tmp_path / "in" / "squad_sample.json"  # same name: same input_file shape
    small_path.parent.mkdir()
    small_path.write_text(json.dumps(small))

    r1 = build_dataset(spark, cfg, collect_inputs([str(small_path)], None), tmp_path / "o1",
                       ner_cache=cache)
    n_small = r1.report["ner"]["distinct_contexts"]
    assert r1.report["ner"]["sent_to_ner"] == n_small > 0

    # the whole sample: the small file's contexts come from the cache, only the others go to
    # NER, and the rows are those of a run without a cache
    r2 = build_dataset(spark, cfg, sample_files(), tmp_path / "o2", ner_cache=cache)
    assert r2.report["ner"]["sent_to_ner"] == clean.report["ner"]["distinct_contexts"] - n_small
    assert r2.report["ner"]["from_cache"] == n_small
    for f in DATASET_FILES:
        assert (tmp_path / "o2" / f).read_bytes() == (first_run[0] / f).read_bytes()
    cached = spark.read.format("delta").load(cache)
    assert cached.count() == clean.report["ner"]["distinct_contexts"]
    assert cached.select(C.CONTEXT_ID).distinct().count() == cached.count()


def test_failed_delta_write_leaves_previous_version(spark, cfg, first_run, tmp_path,
                                                    monkeypatch):
    out = a_copy(first_run, tmp_path)
    path = str(out / "delta" / "dataset")
    before = spark.read.format("delta").load(path).collect()
    jsonl_before = (out / DATASET_FILES[0]).read_bytes()
    monkeypatch.setenv(FAULT_ENV, "delta-write")
    with pytest.raises(Exception, match="fault injected"):
        build_dataset(spark, cfg, sample_files(), out)
    monkeypatch.delenv(FAULT_ENV)
    table = DeltaTable.forPath(spark, path)
    assert [h["version"] for h in table.history().collect()] == [0]
    assert sorted(map(tuple, spark.read.format("delta").load(path).collect())) == \
        sorted(map(tuple, before))
    assert (out / DATASET_FILES[0]).read_bytes() == jsonl_before
    assert not [p for p in out.iterdir() if p.name.startswith(".staging")]
