"""The job on a real Spark standalone cluster (a master and two workers started by the test
from pyspark's `spark-class`, each worker its own JVM with one core): its output equals the
single-process reference runner's, byte for byte."""

from __future__ import annotations

from pathlib import Path

import pytest

from faithqa_spark.config import load_config
from faithqa_spark.inputs import collect_inputs
from faithqa_spark.reference import run_reference

from helpers import ALL_FILES, REPO, SAMPLE_SQUAD, SAMPLE_TRIVIAQA, assert_same_files, sample_args, spark_submit
from servers import standalone_cluster

pytestmark = [pytest.mark.slow, pytest.mark.cluster]


def test_job_on_a_standalone_cluster_equals_reference(ruler_model, tmp_path):
    overrides = [f'ner.model="{ruler_model}"']
    reference = tmp_path / "reference"
    run_reference(load_config(None, overrides),
                  collect_inputs([str(SAMPLE_SQUAD)], [str(SAMPLE_TRIVIAQA)]), reference)
    logs = tmp_path / "cluster"
    logs.mkdir()
    out = tmp_path / "spark"
    with standalone_cluster(logs, workers=2, cores=1, memory="1g") as master:
        proc = spark_submit(master, [*sample_args(out), "--set", overrides[0]], {
            "spark.driver.host": "127.0.0.1",
            "spark.executor.memory": "768m",
            "spark.executor.cores": "1",
            "spark.default.parallelism": "2",
            "spark.sql.shuffle.partitions": "4",
            "spark.executorEnv.PYTHONPATH": str(REPO),
        })
        used = sorted(Path(logs).glob("worker*/app-*/*/stderr"))
    assert proc.returncode == 0, proc.stderr[-3000:]
    # both workers ran an executor: the job really was spread over two JVMs
    assert {p.parts[-4] for p in used} == {"worker0", "worker1"}, used
    assert_same_files(reference, out, ALL_FILES)
