"""The Spark job's sharded exports against the reference runner's, with a shard size small
enough that every split is several files: the same files, byte for byte (lines, SQuAD
documents, Parquet row groups), whatever the partitioning; and the job writing in place
(output.publish = "direct", as on an object store)."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow.parquet as pq
import pytest
import yaml
from pyspark.sql import functions as F

from faithqa_spark.config import load_config
from faithqa_spark.inputs import collect_inputs
from faithqa_spark.reference import run_reference
from faithqa_spark.runs import require_complete
from faithqa_spark.spark.job import build_dataset
from faithqa_spark.spark.shards import partition_keys, shard_placement, spark_int_hash

from helpers import SAMPLE_SQUAD, SAMPLE_TRIVIAQA, session_conf

SMALL = ["output.shard_rows=2", "output.parquet_row_group_rows=1",
         'output.formats=["jsonl", "parquet", "squad", "sft", "dpo", "dialogues", "card"]']


@pytest.fixture(scope="module")
def cfg(ruler_model):
    return load_config(None, [f'ner.model="{ruler_model}"', *SMALL])


def sample_files():
    return collect_inputs([str(SAMPLE_SQUAD)], [str(SAMPLE_TRIVIAQA)])


@pytest.fixture(scope="module")
def reference(cfg, tmp_path_factory):
    out = tmp_path_factory.mktemp("ref") / "out"
    return out, run_reference(cfg, sample_files(), out)


def test_spark_writes_the_references_shards(spark, cfg, reference, tmp_path):
    ref_out, ref = reference
    direct = cfg.replace(output={"publish": "direct"})
    with session_conf(spark, {"spark.sql.shuffle.partitions": "3"}):
        got = build_dataset(spark, direct, sample_files(), tmp_path / "out")
    require_complete(str(tmp_path / "out"))
    assert sorted(got.files) == sorted(ref.files)
    for rel in ref.files:
        assert (tmp_path / "out" / rel).read_bytes() == (ref_out / rel).read_bytes(), rel
    train = sorted(f for f in ref.files if f.startswith("squad/train-"))
    assert len(train) > 1 and train[-1].endswith(f"-of-{len(train):05d}.json")
    # every shard is a whole SQuAD document; together they hold the split's rows in id order
    ids = [qa["id"] for f in train for p in json.loads((ref_out / f).read_text())["data"][0][
        "paragraphs"] for qa in p["qas"]]
    assert ids == sorted(ids) and len(ids) == ref.report["total"]["success"] - sum(
        s["splits"]["dev"] + s["splits"]["test"] for s in ref.report["sources"].values())
    parquet = [f for f in ref.files if f.startswith("parquet/train-")]
    assert [pq.ParquetFile(ref_out / f).metadata.num_row_groups for f in parquet] == [
        pq.ParquetFile(ref_out / f).metadata.num_rows for f in parquet]  # 1 row per group
    header = yaml.safe_load((ref_out / "README.md").read_text().split("---\n")[1])
    paths = {c["config_name"]: [f["path"] for f in c["data_files"]] for c in header["configs"]}
    assert paths["default"][0] == "jsonl/train-*.jsonl"  # every shard of the split
    assert paths["sft"][0] == "sft/train-*.jsonl"


def test_a_rerun_with_fewer_shards_leaves_no_stale_file(spark, cfg, reference, tmp_path):
    out = tmp_path / "out"
    build_dataset(spark, cfg, sample_files(), out)
    again = build_dataset(spark, cfg.replace(output={"shard_rows": 1000}), sample_files(), out)
    assert sorted(str(p.relative_to(out)) for p in (out / "jsonl").iterdir()) == [
        f for f in again.files if f.startswith("jsonl/")] == [
        "jsonl/test-00000-of-00001.jsonl", "jsonl/train-00000-of-00001.jsonl",
        "jsonl/validation-00000-of-00001.jsonl"]
    listed = {f["path"] for f in json.loads((out / "manifest.json").read_text())["files"]}
    assert listed == set(again.files) and all(Path(out / f).is_file() for f in listed)


def test_each_shard_gets_a_partition_of_its_own(spark):
    values = [*range(-50, 500), 2**31 - 1, -2**31]
    hashed = spark.createDataFrame([(v,) for v in values], "v int").select(F.hash("v")).collect()
    assert [r[0] for r in hashed] == [spark_int_hash(v) for v in values]
    for n in (1, 2, 3, 9, 40):
        assert sorted(spark_int_hash(k) % n for k in partition_keys(n)) == list(range(n))
        rows = (spark.createDataFrame([(i,) for i in range(n)], "_shard int")
                .repartition(n, shard_placement(n))
                .select(F.spark_partition_id().alias("p"), "_shard").collect())
        assert all(r["p"] == r["_shard"] for r in rows)
