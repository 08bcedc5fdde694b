"""The training exports as the runners write them: the Spark job's sft/, dpo/, dialogues/
and README.md equal the reference runner's byte for byte; report.json's `training` counts
the written records; no id is in two splits; `datasets.load_dataset` reads every config of a
Spark output directory; the Delta tables hold the files' records."""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from pathlib import Path

import pytest

from faithqa_spark.config import load_config
from faithqa_spark.core import fields as C
from faithqa_spark.core.training import row_id_of
from faithqa_spark.core.training_exports import EXPORTS, shard_path
from faithqa_spark.inputs import collect_inputs
from faithqa_spark.reference import run_reference
from faithqa_spark.spark.job import build_dataset

from helpers import (ALL_FILES, DATASET_FILES, SAMPLE_SQUAD, SAMPLE_TRIVIAQA,
                     assert_same_files)


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text("utf-8").splitlines()]


@pytest.fixture(scope="module")
def outputs(spark, ruler_model, tmp_path_factory) -> tuple[Path, Path]:
    """(reference dir, Spark dir) of the sample. The paper policy and high control shares
    give every kind of record from the sample's few rows; they are not under test."""
    cfg = load_config(None, [f'ner.model="{ruler_model}"', 'substitution.policy="paper"',
                             "training.factual_share=0.5", "training.abstention_share=0.5"])
    files = collect_inputs([str(SAMPLE_SQUAD)], [str(SAMPLE_TRIVIAQA)])
    ref, out = tmp_path_factory.mktemp("ref"), tmp_path_factory.mktemp("spark")
    run_reference(cfg, files, ref)
    build_dataset(spark, cfg, files, out)
    return ref, out


def test_spark_writes_the_reference_bytes(outputs) -> None:
    ref, out = outputs
    assert_same_files(ref, out, ALL_FILES)  # TRAINING_FILES among them


def test_report_counts_the_written_records_of_every_kind(outputs) -> None:
    _, out = outputs
    training = json.loads((out / "report.json").read_text())["training"]
    for export in EXPORTS:
        found: Counter[tuple[str, str]] = Counter()
        for split in C.SPLITS:
            recs = _lines(out / shard_path(export, split))
            assert [r[C.ID] for r in recs] == sorted(r[C.ID] for r in recs)
            found.update((r[C.KIND], r[C.SPLIT]) for r in recs)
            assert {r[C.SPLIT] for r in recs} <= {split}
        kinds = training[export]["kinds"]
        assert found == Counter({(k, s): n for k, by in kinds.items() for s, n in by.items()
                                 if n})
        assert all(sum(by.values()) > 0 for by in kinds.values()), (export, kinds)


def test_every_record_has_its_rows_split_and_no_id_is_in_two_splits(outputs) -> None:
    _, out = outputs
    row_split = {r[C.ID]: r[C.SPLIT] for f in DATASET_FILES for r in _lines(out / f)}
    splits: dict[str, set[str]] = defaultdict(set)
    for export in EXPORTS:
        for split in C.SPLITS:
            for r in _lines(out / shard_path(export, split)):
                splits[r[C.ID]].add(r[C.SPLIT])
                assert row_split[row_id_of(r[C.ID])] == r[C.SPLIT], r[C.ID]
    assert splits and all(len(s) == 1 for s in splits.values())


def test_load_dataset_reads_every_config_of_a_spark_output(outputs, tmp_path) -> None:
    datasets = pytest.importorskip("datasets")
    _, out = outputs
    report = json.loads((out / "report.json").read_text())
    hub = {v: k for k, v in C.HUB_SPLITS.items()}
    ds = datasets.load_dataset(str(out), cache_dir=str(tmp_path / "cache"))
    rows: Counter[str] = Counter()
    for src in report["sources"].values():
        rows.update(src["splits"])
    assert {hub[s]: len(d) for s, d in ds.items()} == dict(+rows)  # + drops empty splits
    for export in EXPORTS:
        d = datasets.load_dataset(str(out), export, cache_dir=str(tmp_path / "cache"))
        assert {hub[s]: len(x) for s, x in d.items()} == {
            s: n for s, n in report["training"][export]["splits"].items() if n}


def test_delta_tables_hold_the_files_records(spark, outputs) -> None:
    _, out = outputs
    for export in EXPORTS:
        table = spark.read.format("delta").load(str(out / "delta" / export))
        got = sorted((r[C.ID], r[C.SPLIT]) for r in table.select(C.ID, C.SPLIT).collect())
        want = sorted((r[C.ID], r[C.SPLIT]) for s in C.SPLITS
                      for r in _lines(out / shard_path(export, s)))
        assert got == want
        first = table.orderBy(C.ID).first().asDict(recursive=True)
        assert first == min((r for s in C.SPLITS for r in _lines(out / shard_path(export, s))),
                            key=lambda r: r[C.ID])
