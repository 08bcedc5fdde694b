"""The job on a real Spark standalone cluster (a master and two workers started by the test
from pyspark's `spark-class`, each worker its own JVM with one core), with one Python worker
killed at the start of a NER task: the task is retried, and the output equals the
single-process reference runner's, byte for byte. (One run shows both: a clean run is a run
whose fault never fires.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from faithqa_spark.config import load_config
from faithqa_spark.inputs import collect_inputs
from faithqa_spark.reference import run_reference

from helpers import (ALL_FILES, REPO, SAMPLE_SQUAD, SAMPLE_TRIVIAQA, assert_same_files,
                     sample_args, submit_with_a_worker_killed)
from servers import standalone_cluster

pytestmark = [pytest.mark.slow, pytest.mark.cluster]


def test_job_on_a_standalone_cluster_survives_a_dead_worker_and_equals_reference(
        ruler_model, tmp_path):
    overrides = [f'ner.model="{ruler_model}"']
    reference = tmp_path / "reference"
    run_reference(load_config(None, overrides),
                  collect_inputs([str(SAMPLE_SQUAD)], [str(SAMPLE_TRIVIAQA)]), reference)
    logs = tmp_path / "cluster"
    logs.mkdir()
    out = tmp_path / "spark"
    with standalone_cluster(logs, workers=2, cores=1, memory="1g") as master:
        # the fault fires once: the first NER task's worker dies, and the task is retried
        proc = submit_with_a_worker_killed(master, "ner", tmp_path / "killed-once", [
            *sample_args(out), "--set", overrides[0]], {
            "spark.driver.host": "127.0.0.1",
            "spark.executor.memory": "768m",
            "spark.executor.cores": "1",
            "spark.default.parallelism": "2",
            "spark.sql.shuffle.partitions": "4",
            "spark.executorEnv.PYTHONPATH": str(REPO),
        })
        used = sorted(Path(logs).glob("worker*/app-*/*/stderr"))
    assert "Lost task" in proc.stderr or "failed" in proc.stderr.lower()
    # both workers ran an executor: the job really was spread over two JVMs
    assert {p.parts[-4] for p in used} == {"worker0", "worker1"}, used
    assert_same_files(reference, out, ALL_FILES)
