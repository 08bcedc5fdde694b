"""Faults: a Python worker killed while writing a shard, and a job killed while writing,
staged (a local disk) or in place (as on an object store); each ends with the same output as
a clean run, no partial file is ever visible under a final path, and a killed run never
looks complete (no manifest.json: readers refuse it). A worker killed during NER, on a
standalone cluster of two workers: `test_standalone_cluster`."""

from __future__ import annotations

import os

import pytest

from faithqa_spark import evaluate
from faithqa_spark.faults import ENV as FAULT_ENV, EXIT_CODE
from faithqa_spark.report.__main__ import main as report_main

from helpers import (ALL_FILES, assert_same_files, sample_args, spark_submit,
                     submit_with_a_worker_killed)

pytestmark = [pytest.mark.slow, pytest.mark.cluster]


@pytest.fixture(scope="module")
def clean_run(reference_sample):
    # what a clean run writes: the reference runner's bytes, which every Spark run of the
    # sample equals (test_equivalence.py, spark-submit on local[1] and on two executors)
    return reference_sample


def visible_files(root):
    """Every path a reader would see: nothing whose name starts with a dot."""
    out = set()
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if not d.startswith(".") and d != "_delta_log"]
        for f in filenames:
            if not f.startswith(".") and not f.endswith(".crc"):
                out.add(os.path.relpath(os.path.join(dirpath, f), root))
    return out


def test_job_killed_during_write_then_rerun(clean_run, tmp_path):
    out = tmp_path / "out"
    os.environ[FAULT_ENV] = "write"
    try:
        killed = spark_submit("local[2]", sample_args(out))
    finally:
        del os.environ[FAULT_ENV]
    assert killed.returncode == EXIT_CODE
    # killed before publishing: no final output path exists, only the hidden staging area
    assert visible_files(out) <= {f for f in visible_files(out) if f.startswith("delta/")}
    assert not (out / "jsonl").exists() and not (out / "report.json").exists()

    # the rerun on one core, with parallelism and shuffle partitions unlike the killed run's
    # and the reference's: the spark-submit job on local[1] equals the reference runner
    rerun = spark_submit("local[1]", sample_args(out), {"spark.default.parallelism": "3",
                                                        "spark.sql.shuffle.partitions": "5"})
    assert rerun.returncode == 0, rerun.stderr[-3000:]
    assert "Output:" in rerun.stdout
    assert_same_files(clean_run, out, ALL_FILES)
    assert not [p for p in out.iterdir() if p.name.startswith(".staging")]


def test_worker_killed_while_writing_a_shard_is_retried(clean_run, tmp_path):
    # one executor with task retries ("local[2,4]": 4 tries, where plain local mode gives
    # each task one): the dead worker is the same Python process as on a cluster, and a
    # retry on another executor is what the standalone cluster's NER kill shows
    out = tmp_path / "out"
    submit_with_a_worker_killed("local[2,4]", "shard-write", tmp_path / "killed-once",
                                sample_args(out))
    assert_same_files(clean_run, out, ALL_FILES)
    # the dead task's half-written temporary file is not left behind
    assert not [p for p in out.rglob(".*") if "delta" not in p.parts]


def test_job_killed_while_writing_in_place_is_incomplete_then_rerun(clean_run, tmp_path,
                                                                    capsys):
    """output.publish="direct", the object-store way: files go to their names at once, so
    the killed run leaves some, but no manifest.json; the readers refuse the directory and
    the next run replaces it."""
    out = tmp_path / "out"
    direct = [*sample_args(out), "--set", 'output.publish="direct"']
    os.environ[FAULT_ENV] = "write"
    try:
        killed = spark_submit("local[2]", direct)
    finally:
        del os.environ[FAULT_ENV]
    assert killed.returncode == EXIT_CODE
    assert (out / "entity_bank").is_dir()  # written in place before the kill
    assert not (out / "manifest.json").exists()
    assert report_main([str(out)]) == 2
    preds = tmp_path / "p.jsonl"
    preds.write_text('{"id": "squad:x", "prediction": "Hollin"}\n')
    assert evaluate.main(["--dataset", str(out), "--predictions", str(preds),
                          "--output", str(tmp_path / "e")]) == 2
    err = capsys.readouterr().err
    assert err.count("an incomplete run (no manifest.json") == 2, err

    rerun = spark_submit("local[2]", direct)
    assert rerun.returncode == 0, rerun.stderr[-3000:]
    assert_same_files(clean_run, out, ALL_FILES)
    assert (out / "manifest.json").exists()
