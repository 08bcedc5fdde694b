"""Spark and the job on an object store: an S3-compatible server (moto) started by the test
on 127.0.0.1, reached through Hadoop's S3A connector (hadoop-aws and the AWS SDK modules
that `scripts/setup.sh --test` fetches) with path-style access and dummy credentials."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pyarrow.parquet as pq
import pytest

from faithqa_spark import fs
from faithqa_spark.config import load_config
from faithqa_spark.inputs import collect_inputs
from faithqa_spark.reference import run_reference

from helpers import ALL_FILES, REPO, SAMPLE_SQUAD, read_rows
from servers import S3A_JARS_DIR, moto_s3, s3a_jars

pytestmark = [pytest.mark.slow]


def submit(script: str, args: list[str], conf: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """spark-submit through scripts/submit.sh with the S3A jars on the class path."""
    s3a_jars()  # a clear failure when the set-up step was not run
    classpath = str(S3A_JARS_DIR / "*")
    cmd = [str(REPO / "scripts" / "submit.sh"), "--master", "local[2]",
           "--conf", f"spark.driver.extraClassPath={classpath}",
           "--conf", f"spark.executor.extraClassPath={classpath}"]
    for k, v in conf.items():
        cmd += ["--conf", f"{k}={v}"]
    env = {**os.environ, "PYSPARK_PYTHON": sys.executable}
    return subprocess.run([*cmd, script, *args], cwd=REPO, env=env, capture_output=True,
                          text=True, timeout=600)


def test_spark_reads_input_from_s3a_and_writes_rows_back():
    with moto_s3() as server:
        server.create_bucket("faithqa")
        settings = fs.hadoop_settings(server.hadoop_conf())
        src = "s3a://faithqa/in/squad_sample.json"
        fs.write_bytes(src, SAMPLE_SQUAD.read_bytes(), settings)
        proc = submit(str(REPO / "tests" / "jobs" / "s3a_read.py"),
                      ["squad", "s3a://faithqa/in/", "s3a://faithqa/rows"], server.spark_conf())
        assert proc.returncode == 0, proc.stderr[-3000:]
        s3, path = fs.resolve("s3a://faithqa/rows", settings)
        got = pq.read_table(path, filesystem=s3).to_pylist()
    want = read_rows(SAMPLE_SQUAD.read_bytes(), path=src)
    assert len(want) > 0
    assert sorted(got, key=lambda r: r["record_loc"]) == sorted(want, key=lambda r: r["record_loc"])


def test_job_reads_squad_from_s3a_and_writes_every_output_there(ruler_model, tmp_path):
    """The whole job against the object store: every file a local run writes is there, with
    the same bytes (but for the input's name, which report.json and the rejected rows
    carry), listed by a manifest.json written last; the Delta tables are committed there."""
    overrides = ["--set", f'ner.model="{ruler_model}"']
    local = tmp_path / "local"
    ref = run_reference(load_config(None, [overrides[1]]),
                        collect_inputs([str(SAMPLE_SQUAD)], None), local)
    src = "s3a://faithqa/in/squad_sample.json"
    with moto_s3() as server:
        server.create_bucket("faithqa")
        settings = fs.hadoop_settings(server.hadoop_conf())
        fs.write_bytes(src, SAMPLE_SQUAD.read_bytes(), settings)
        proc = submit(str(REPO / "jobs" / "build_dataset.py"),
                      ["--squad", src, "--output", "s3a://faithqa/out", *overrides],
                      server.spark_conf())
        assert proc.returncode == 0, proc.stderr[-3000:]
        manifest = json.loads(fs.read_bytes("s3a://faithqa/out/manifest.json", settings))
        listed = {f["path"]: f["bytes"] for f in manifest["files"]}
        assert sorted(listed) == sorted(ref.files)
        assert set(ALL_FILES) <= set(listed)
        for rel in ref.files:
            got = fs.read_bytes(f"s3a://faithqa/out/{rel}", settings)
            assert len(got) == listed[rel], rel
            assert got.replace(src.encode(), str(SAMPLE_SQUAD).encode()) == \
                (local / rel).read_bytes(), rel
        assert set(manifest["delta_tables"]) >= {"dataset", "entity_bank", "ner", "sft"}
        for table in manifest["delta_tables"]:
            log = fs.list_files(f"s3a://faithqa/out/delta/{table}/_delta_log", settings)
            assert any(u.endswith("00000000000000000000.json") for u in log), table
