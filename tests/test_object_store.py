"""Spark and the job on an object store: an S3-compatible server (moto) started by the test
on 127.0.0.1, reached through Hadoop's S3A connector (hadoop-aws and the AWS SDK modules
that `scripts/setup.sh --test` fetches) with path-style access and dummy credentials."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from faithqa_spark import fs
from faithqa_spark.config import load_config
from faithqa_spark.inputs import collect_inputs
from faithqa_spark.reference import run_reference

from helpers import ALL_FILES, DATASET_FILES, REPO, SAMPLE_SQUAD, read_rows
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


# ------------------------------------------------- --bank and --ner-cache on s3a, in-process

@pytest.fixture(scope="module")
def s3(spark):
    """A moto server for this module, its S3A settings set on the shared session's Hadoop
    configuration (where `fs.spark_hadoop_settings` finds them) and unset after."""
    s3a_jars()
    hconf = spark.sparkContext._jsc.hadoopConfiguration()
    with moto_s3() as server:
        conf = server.hadoop_conf()
        for k, v in conf.items():
            hconf.set(k, v)
        try:
            yield server
        finally:
            for k in conf:
                hconf.unset(k)


def test_bank_and_ner_cache_on_s3a(spark, s3, ruler_model, tmp_path):
    from faithqa_spark.core import bank as cbank
    from faithqa_spark.spark.job import build_dataset

    cfg = load_config(None, [f'ner.model="{ruler_model}"'])
    files = collect_inputs([str(SAMPLE_SQUAD)], None)
    settings = fs.spark_hadoop_settings(spark)
    s3.create_bucket("faithqa-bank")  # its own bucket: S3A caches a filesystem per bucket
    built = Path(run_reference(cfg, files, tmp_path / "built").output_dir) / "entity_bank"
    bank_uri, cache_uri = "s3a://faithqa-bank/bank", "s3a://faithqa-bank/ner-cache"
    cbank.save(cbank.load(built, cfg.bank.types), bank_uri, settings)
    assert cbank.load(bank_uri, cfg.bank.types, settings).entities == \
        cbank.load(built, cfg.bank.types).entities
    want = run_reference(cfg, files, tmp_path / "ref", bank_dir=str(built))
    runs = [build_dataset(spark, cfg, files, tmp_path / name, bank_uri, cache_uri)
            for name in ("first", "second")]
    for run in runs:
        assert run.report["bank"]["origin"] == bank_uri
        for rel in DATASET_FILES:
            assert (Path(run.output_dir) / rel).read_bytes() == \
                (Path(want.output_dir) / rel).read_bytes()
    first, second = (run.report["ner"] for run in runs)
    assert first["sent_to_ner"] == first["distinct_contexts"] > 0  # the cache was empty
    assert fs.is_dir(cache_uri + "/_delta_log", settings)  # ... and is now on S3
    assert second == {**first, "sent_to_ner": 0, "from_cache": first["distinct_contexts"]}


def test_a_missing_bank_on_s3a_is_one_line_naming_it(spark, s3):
    from faithqa_spark.core import bank as cbank
    from faithqa_spark.errors import BankError

    s3.create_bucket("faithqa-nobank")
    uri = "s3a://faithqa-nobank/bank"
    with pytest.raises(BankError, match=f"^entity bank directory not found: {uri}$"):
        cbank.load(uri, ["PERSON"], fs.spark_hadoop_settings(spark))
