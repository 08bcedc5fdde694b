"""The determinism contract: the Spark job's output equals the reference runner's, byte for
byte, whatever the master, partitioning or input order.

Here: local[2] in this session with 7 shuffle partitions and many NER partitions, and
reordered input. The job run with spark-submit is held to the same bytes where it also
survives a fault, so that each such run (about a minute) proves both: on one core with odd
parallelism (`test_faults.test_job_killed_during_write_then_rerun`), on two cores with task
retries (`test_faults`' other runs), and on a standalone cluster of two worker JVMs
(`test_standalone_cluster`)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from faithqa_spark.config import load_config
from faithqa_spark.inputs import collect_inputs
from faithqa_spark.spark.job import build_dataset

from helpers import (ALL_FILES, BANK_FILES, DATASET_FILES, SAMPLE_SQUAD, SAMPLE_TRIVIAQA,
                     assert_same_files, session_conf)

pytestmark = pytest.mark.slow  # the real en_core_web_md model


@pytest.fixture(scope="module")
def reference_out(reference_sample) -> Path:
    return reference_sample


def test_reference_output_is_complete(reference_out):
    report = json.loads((reference_out / "report.json").read_text())
    sq = report["sources"]["squad"]
    assert sq["input_records"] == sum(1 for _ in _sample_questions())
    assert sq["success"] > 0 and sq["filtered"] > 0 and sq["rejected"] > 0
    # the coherent policy keeps fewer of the sample's rows; every strategy is a known one
    assert sq["match_strategies"] and set(sq["match_strategies"]) <= {
        "exact", "substring", "positional"}
    rows = [json.loads(l) for f in DATASET_FILES for l in (reference_out / f).open()]
    assert len(rows) == report["total"]["success"]
    for r in rows:
        for s in r["answer_starts"]:
            assert r["modified_context"][s:s + len(r["faithful_answer"])] == r["faithful_answer"]
        # the coherent policy swaps name parts too: each region holds the replacement or
        # one of its words
        pieces = {r["replacement_entity"], *r["replacement_entity"].split()}
        for span in r["modified_spans"]:
            assert r["modified_context"][span["start"]:span["end"]] in pieces


def _sample_questions():
    d = json.loads(SAMPLE_SQUAD.read_text())
    for a in d["data"]:
        for p in a["paragraphs"]:
            yield from p["qas"]


def test_spark_local2_with_7_shuffle_partitions_equals_reference(spark, reference_out, tmp_path):
    with session_conf(spark, {"spark.sql.shuffle.partitions": "7"}):
        cfg = load_config(None, ["spark.chars_per_ner_partition=900"])  # many NER partitions
        files = collect_inputs([str(SAMPLE_SQUAD)], [str(SAMPLE_TRIVIAQA)])
        build_dataset(spark, cfg, files, tmp_path)
    assert_same_files(reference_out, tmp_path, ALL_FILES)


def test_reordered_input_gives_the_same_dataset(spark, reference_out, tmp_path):
    d = json.loads(SAMPLE_SQUAD.read_text())
    rng = random.Random(7)
    rng.shuffle(d["data"])
    for a in d["data"]:
        rng.shuffle(a["paragraphs"])
        for p in a["paragraphs"]:
            rng.shuffle(p["qas"])
    shuffled = tmp_path / "in" / "squad_shuffled.json"
    shuffled.parent.mkdir()
    shuffled.write_text(json.dumps(d))
    files = collect_inputs([str(shuffled)], [str(SAMPLE_TRIVIAQA)])
    build_dataset(spark, load_config(), files, tmp_path / "out")
    assert_same_files(reference_out, tmp_path / "out", DATASET_FILES + BANK_FILES)
    # the per-file accounting names the shuffled file and still adds up
    report = json.loads((tmp_path / "out" / "report.json").read_text())
    assert list(report["sources"]["squad"]["files"]) == [str(shuffled)]
