"""The audit column, report.json's audit and analysis sections, the audit sample and the
analysis report, as both runners write them (the rule-based test model: fast)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from faithqa_spark.config import load_config
from faithqa_spark.core import fields as C
from faithqa_spark.core.audit_summary import audit_sample_ids
from faithqa_spark.inputs import collect_inputs
from faithqa_spark.reference import run_reference

from helpers import (ALL_FILES, DATASET_FILES, SAMPLE_SQUAD, SAMPLE_TRIVIAQA, assert_same_files,
                     export_file, session_conf)


@pytest.fixture(scope="module")
def cfg(ruler_model):
    # the paper policy swaps more of the sample's rows, so more flags apply
    return load_config(None, [f'ner.model="{ruler_model}"', 'substitution.policy="paper"'])


def sample_files():
    return collect_inputs([str(SAMPLE_SQUAD)], [str(SAMPLE_TRIVIAQA)])


@pytest.fixture(scope="module")
def reference_out(cfg, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("quality") / "reference"
    run_reference(cfg, sample_files(), out)
    return out


def dataset_rows(out: Path) -> list[dict]:
    return [json.loads(line) for f in DATASET_FILES for line in (out / f).open()]


def test_every_dataset_row_carries_its_audit(reference_out):
    rows = dataset_rows(reference_out)
    assert rows
    for r in rows:
        assert list(r) == C.DATASET_COLUMNS
        assert list(r[C.AUDIT]) == list(C.AUDIT_FLAGS)
        # the swap is there and the ratio window holds: true on every row of the dataset
        assert r[C.AUDIT]["replacement_present"] is True
        assert r[C.AUDIT]["context_modified"] is True
        assert r[C.AUDIT]["length_ratio"] is True
    table = pq.read_table(reference_out / export_file("parquet", "train"))
    assert table.column_names == C.DATASET_COLUMNS
    assert table.column(C.AUDIT).to_pylist() == [r[C.AUDIT] for r in rows if r[C.SPLIT] == "train"]


def test_report_audit_counts_the_rows_flags(reference_out):
    report = json.loads((reference_out / "report.json").read_text())
    rows = dataset_rows(reference_out)
    audit = report["audit"]
    assert audit["flags"] == list(C.AUDIT_FLAGS)
    assert audit["total"]["rows"] == len(rows) == report["total"]["success"]
    for source, section in audit["sources"].items():
        mine = [r for r in rows if r[C.SOURCE] == source]
        assert section["rows"] == len(mine) == report["sources"][source]["success"]
        for flag, v in section["flags"].items():
            values = Counter(r[C.AUDIT][flag] for r in mine)
            assert v["applies"] == values[True] + values[False]
            assert v["fails"] == values[False]
            assert v["not_measurable"] == values[None]
        # a flag of every row applies to every row; a PERSON flag only to PERSON rows
        assert section["flags"]["context_modified"]["applies"] == len(mine)
        persons = sum(r[C.ENTITY_TYPE] == "PERSON" for r in mine)
        assert section["flags"]["gender_conflict"]["applies"] <= persons
        assert section["flags"]["date_shape"]["applies"] <= sum(
            r[C.ENTITY_TYPE] == "DATE" for r in mine)


def test_report_analysis_matches_the_rows(reference_out, cfg):
    report = json.loads((reference_out / "report.json").read_text())
    rows = dataset_rows(reference_out)
    analysis = report["analysis"]
    assert analysis["length_ratio_bounds"] == {"min": cfg.sampling.min_length_ratio,
                                               "max": cfg.sampling.max_length_ratio}
    for source, s in report["sources"].items():
        n = sum(r[C.SOURCE] == source for r in rows)
        assert sum(analysis["context_chars_dataset"][source].values()) == n == s["success"]
        assert sum(analysis["length_ratio"][source].values()) == n
        replaced = Counter(str(r[C.NUM_REPLACEMENTS]) for r in rows if r[C.SOURCE] == source)
        assert {k: v for k, v in analysis["num_replacements"][source].items() if v} == replaced
        # every row read OK is counted before matching: the dataset's and the filtered ones
        assert sum(analysis["context_chars_input"][source].values()) >= s["success"] + 1


def test_audit_sample_is_the_seeded_rank_with_the_rows_flags(reference_out, cfg):
    rows = {r[C.ID]: r for r in dataset_rows(reference_out)}
    lines = (reference_out / "audit" / "sample.jsonl").read_text().splitlines()
    sample = [json.loads(line) for line in lines]
    assert [r[C.ID] for r in sample] == audit_sample_ids(rows, cfg.pipeline.seed, 200)
    for r in sample:
        assert r == rows[r[C.ID]]  # the dataset row, its audit included
    page = (reference_out / "audit" / "sample.html").read_text()
    assert all(r[C.ID] in page for r in sample)


def test_analysis_report_is_written_with_its_charts(reference_out):
    index = (reference_out / "report" / "index.html").read_text()
    pngs = sorted(p.name for p in (reference_out / "report").glob("*.png"))
    assert pngs and all(name in index for name in pngs)
    # the sections are there, so the charts that need them are drawn, not left as a note
    for chart in ("context-length", "replacements", "length-ratio", "audit"):
        assert f"{chart}.png" in pngs
    assert not list(reference_out.glob(".*staging*"))


def test_spark_writes_the_same_bytes(spark, cfg, reference_out, tmp_path):
    from faithqa_spark.spark.job import build_dataset

    with session_conf(spark, {"spark.sql.shuffle.partitions": "3"}):
        result = build_dataset(spark, cfg, sample_files(), tmp_path)
    charts = sorted(str(p.relative_to(reference_out))
                    for p in (reference_out / "report").glob("*.png"))
    assert_same_files(reference_out, tmp_path, ALL_FILES + charts)
    table = spark.read.format("delta").load(str(tmp_path / "delta" / "dataset"))
    flags = {r[C.ID]: r[C.AUDIT].asDict() for r in table.select(C.ID, C.AUDIT).collect()}
    assert flags == {r[C.ID]: r[C.AUDIT] for r in dataset_rows(reference_out)}
    assert result.report["audit"]["total"]["rows"] == len(flags)
