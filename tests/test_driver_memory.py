"""No dataset row passes through the driver: the job on the SQuAD train file (87,599
questions, from ../shared/data) finishes with a 512 MB driver heap."""

from __future__ import annotations

import json

import pytest

from conftest import SHARED_DATA
from helpers import DATASET_FILES, spark_submit

TRAIN = SHARED_DATA / "squad" / "train-v1.1.reconstructed.json"

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not TRAIN.exists(), reason="../shared/data not present")]


# Passed before the training exports were wired in (239 s). Now the driver JVM (which runs the
# tasks in local mode) runs out of heap in the abstention pools' window, which sorts every
# distinct context of a (source, split) in one task; issue 13 stays open until that is bounded.
@pytest.mark.xfail(strict=False, reason="the 512 MB driver run fails since the audit, the coherent "
                   "policy and the training exports were wired in (issue 13, open)")
def test_squad_train_with_a_512m_driver(tmp_path):
    proc = spark_submit("local[2]", ["--squad", str(TRAIN), "--output", str(tmp_path)],
                        {"spark.driver.memory": "512m"}, timeout=3600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    report = json.loads((tmp_path / "report.json").read_text())
    squad = report["sources"]["squad"]
    assert squad["input_records"] == 87_599
    lines = sum(1 for rel in DATASET_FILES for _ in (tmp_path / rel).open())
    assert lines == squad["success"] > 40_000
