"""No dataset row passes through the driver: the job on the SQuAD train file (87,599
questions, from ../shared/data) finishes with a 512 MB driver heap."""

from __future__ import annotations

import json

import pytest

from faithqa_spark.core.training_exports import data_files_pattern

from conftest import SHARED_DATA
from helpers import DATASET_FILES, spark_submit

TRAIN = SHARED_DATA / "squad" / "train-v1.1.reconstructed.json"

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not TRAIN.exists(), reason="../shared/data not present")]


def test_squad_train_with_a_512m_driver(tmp_path):
    proc = spark_submit("local[2]", ["--squad", str(TRAIN), "--output", str(tmp_path)],
                        {"spark.driver.memory": "512m"}, timeout=3600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    report = json.loads((tmp_path / "report.json").read_text())
    squad = report["sources"]["squad"]
    assert squad["input_records"] == 87_599
    lines = sum(1 for rel in DATASET_FILES for _ in (tmp_path / rel).open())
    assert lines == squad["success"] > 40_000
    # the training exports (their cached lines are the widest rows of the run) all written
    for export, counts in report["training"].items():
        for split, n in counts["splits"].items():
            files = sorted(tmp_path.glob(data_files_pattern(export, split)))
            assert files and sum(1 for f in files for _ in f.open()) == n > 0, (export, split)
