"""No dataset row passes through the driver: the job on the SQuAD train file (87,599
questions, from ../shared/data) finishes with a 512 MB driver heap.

The driver's memory does not depend on how the entities are found, only on how many rows
and entities the run has: NER here is a rule-based pipeline whose patterns are the
published bank's 60,000 capitalised names, dates and figures (about 12 entities per
context, against the md model's 14), so the test runs every stage on the whole file in
a few minutes rather than spending most of them in the statistical model. Without the
published bank it uses the configured model."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from faithqa_spark.config import load_config
from faithqa_spark.core import bank as cbank
from faithqa_spark.core.training_exports import data_files_pattern

from conftest import SHARED_DATA
from helpers import DATASET_FILES, save_ruler, spark_submit

TRAIN = SHARED_DATA / "squad" / "train-v1.1.reconstructed.json"
PAPER_BANK = SHARED_DATA.parent / "reference" / "paper_entity_bank"

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not TRAIN.exists(), reason="../shared/data not present")]


def bank_ruler(bank_dir: Path, dest: Path) -> str:
    """A ruler whose patterns are the capitalised or numeric texts of a bank of the paper's
    format (`core.bank.load`), saved to `dest`."""
    bank = cbank.load(bank_dir, load_config().bank.types)
    return save_ruler(((etype, text) for etype, texts in sorted(bank.entities.items())
                       for text in texts if text[:1].isupper() or text[:1].isdigit()),
                      dest, "bank_ruler")


def test_squad_train_with_a_512m_driver(tmp_path):
    args = ["--squad", str(TRAIN), "--output", str(tmp_path / "out")]
    if PAPER_BANK.is_dir():
        args += ["--set", f'ner.model="{bank_ruler(PAPER_BANK, tmp_path / "ruler")}"']
    proc = spark_submit("local[2]", args, {"spark.driver.memory": "512m"}, timeout=3600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = tmp_path / "out"
    report = json.loads((out / "report.json").read_text())
    squad = report["sources"]["squad"]
    assert squad["input_records"] == 87_599
    lines = sum(1 for rel in DATASET_FILES for _ in (out / rel).open())
    assert lines == squad["success"] > 40_000
    # the training exports (their cached lines are the widest rows of the run) all written
    for export, counts in report["training"].items():
        for split, n in counts["splits"].items():
            files = sorted(out.glob(data_files_pattern(export, split)))
            assert files and sum(1 for f in files for _ in f.open()) == n > 0, (export, split)
