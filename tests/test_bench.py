"""The pure helpers of scripts/bench.py (no Spark, no spaCy)."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "scripts" / "bench.py"


def _load_bench():
    spec = importlib.util.spec_from_file_location("faithqa_bench", BENCH)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look the module up by name
    spec.loader.exec_module(module)
    return module


bench = _load_bench()


def test_run_times_come_from_the_manifest(tmp_path):
    assert bench.run_times(tmp_path) == (None, {})
    (tmp_path / "manifest.json").write_text(json.dumps({
        "runner": "spark", "wall_seconds": 140.3,
        "stage_seconds": {"read": 8.0, "ner": 113.2, "bank": 2.5, "process": 9.1,
                          "split": 1.0, "report": 0.6, "write": 4.4}}))
    total, stages = bench.run_times(tmp_path)
    assert total == 140.3
    assert list(stages.items()) == [("read", 8.0), ("ner", 113.2), ("bank", 2.5),
                                    ("process", 9.1), ("split", 1.0), ("report", 0.6),
                                    ("write", 4.4)]


@pytest.mark.parametrize("master, cores", [
    ("local", 1), ("local[2]", 2), ("local[16]", 16), ("local[*]", 8), ("local[3,2]", 3),
    ("local[*,4]", 8), ("local-cluster[2,1,1024]", 2), ("local-cluster[3, 2, 512]", 6),
])
def test_parse_cores(master, cores):
    assert bench.parse_cores(master, nproc=8) == cores


@pytest.mark.parametrize("master", ["yarn", "spark://host:7077", "local[0]", "local[x]"])
def test_parse_cores_rejects(master):
    with pytest.raises(ValueError):
        bench.parse_cores(master, nproc=8)


def test_parse_fractions():
    assert bench.parse_fractions("0.25,0.5,1") == [0.25, 0.5, 1.0]
    assert bench.parse_fractions("1, 0.5,0.5") == [0.5, 1.0]
    for bad in ("0", "1.5", "", "-0.1"):
        with pytest.raises(ValueError):
            bench.parse_fractions(bad)


def _doc(questions_per_article: list[int]) -> dict:
    return {"version": "1.1", "data": [
        {"title": f"a{i}", "paragraphs": [
            {"context": f"context {i}", "qas": [{"id": f"{i}-{q}"} for q in range(n)]}]}
        for i, n in enumerate(questions_per_article)]}


def test_slice_squad_by_whole_articles():
    doc = _doc([4, 4, 4, 4])
    quarter = bench.slice_squad(doc, 0.25)
    assert [a["title"] for a in quarter["data"]] == ["a0"]
    assert quarter["version"] == "1.1"
    assert bench.count_questions(quarter) == 4
    assert [a["title"] for a in bench.slice_squad(doc, 0.5)["data"]] == ["a0", "a1"]
    assert bench.slice_squad(doc, 1) == doc
    assert doc["data"][3]["title"] == "a3"  # the input is not changed


def test_slice_squad_uneven_articles():
    doc = _doc([1, 10, 1, 1])  # 13 questions
    # the first articles holding at least the fraction of the questions, never a part of one
    assert [a["title"] for a in bench.slice_squad(doc, 0.05)["data"]] == ["a0"]
    assert [a["title"] for a in bench.slice_squad(doc, 0.25)["data"]] == ["a0", "a1"]
    assert bench.count_questions(bench.slice_squad(doc, 0.9)) == 12
    with pytest.raises(ValueError):
        bench.slice_squad(doc, 0)


def test_classify_process():
    c = bench.classify_process
    assert c(["/v/bin/python", "-m", "pyspark.daemon"], "python") == "worker"
    assert c(["/v/bin/python", "-m", "pyspark.worker"], "python3") == "worker"
    jvm = ["/usr/bin/java", "-cp", "x", "org.apache.spark.deploy.SparkSubmit", "job.py"]
    assert c(jvm, "java") == "jvm"
    assert c(jvm, "java", parent_name="java") == "other"  # a fork about to exec a helper
    assert c(["bash", "spark-class", "org.apache.spark.deploy.SparkSubmit"], "bash") == "other"
    assert c(["/usr/bin/java", "org.apache.spark.launcher.Main"], "java") == "other"
    assert c(["/v/bin/python", "/repo/jobs/build_dataset.py", "--squad", "f"],
             "python") == "driver_python"


def test_ratio_and_flatness():
    assert bench.ratio(10.0, 4.0) == 2.5
    assert bench.ratio(None, 4.0) is None and bench.ratio(1.0, 0) is None
    assert bench.flatness([2.0, 3.0, 4.0]) == 2.0
    assert bench.flatness([]) is None


def test_compare_outputs(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    for root in (a, b):
        (root / "jsonl").mkdir(parents=True)
        (root / "jsonl" / "train.jsonl").write_bytes(b'{"id": 1}\n')
        (root / "report.json").write_bytes(b"{}")
    assert bench.compare_outputs(a, b) == (True, [])
    (b / "report.json").write_bytes(b"{ }")
    (b / "jsonl" / "dev.jsonl").write_bytes(b"")
    assert bench.compare_outputs(a, b) == (False, ["jsonl/dev.jsonl", "report.json"])
    assert bench.compare_outputs(tmp_path / "x", tmp_path / "y") == (False, [])


def test_marginal_cost_is_the_last_part_s_extra_seconds_over_the_floor_s():
    rows = [{"fraction": 0.25, "wall_s": 60.0, "floor_s": 30.0},
            {"fraction": 0.5, "wall_s": 100.0, "floor_s": 60.0},
            {"fraction": 1, "wall_s": 190.0, "floor_s": 120.0}]
    m = bench.marginal(rows)
    assert m == {"from": 0.5, "job_s": 90.0, "floor_s": 60.0, "ratio": 1.5}
    assert bench.marginal(rows[:2]) is None  # no run of the whole input
    assert bench.marginal([rows[2]]) is None  # no part to start from


def test_compare_rounds_alternate_the_order_and_report_the_median_pair(monkeypatch, tmp_path):
    import argparse

    walls = iter([110.0, 100.0, 120.0, 100.0, 101.0])  # compare 2, job 2, job 3, compare 3
    order: list[str] = []

    def run_job(master, squad, output, label, config=None):
        order.append(label)
        return {"wall_s": next(walls), "stages": {"process": 1.0}}

    monkeypatch.setattr(bench, "run_job", run_job)
    args = argparse.Namespace(master="local[2]", squad=tmp_path / "f.json",
                              compare_config="conf/paper.toml", compare_rounds=3)
    first = {"wall_s": 105.0, "stages": {"process": 2.0}}
    got = bench.compare_rounds(args, tmp_path, first)
    assert order == ["job (compare 1)", "job (compare 2)", "job (2)", "job (3)",
                     "job (compare 3)"]
    assert [p["ratio"] for p in got["pairs"]] == pytest.approx([105 / 110, 120 / 100,
                                                                100 / 101])
    # the median pair is the third: its walls and its job's stages are reported
    assert got["job_over_compare"] == pytest.approx(100 / 101)
    assert (got["job_wall_s"], got["wall_s"], got["job_stages"]) == (100.0, 101.0,
                                                                     {"process": 1.0})
    args.compare_rounds = 1  # one pair: the main run beside one compare run
    walls = iter([104.0])
    got = bench.compare_rounds(args, tmp_path, first)
    assert (got["job_over_compare"], got["job_stages"]) == (pytest.approx(105 / 104),
                                                            {"process": 2.0})
