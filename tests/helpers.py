"""Helpers for the tests that run the job end to end."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterable, Iterator, Mapping

from faithqa_spark.core.exports import FILE_EXPORTS
from faithqa_spark.core.fields import FILTERED, REJECTED, SPLITS
from faithqa_spark.core.training_exports import EXPORTS, shard_path

REPO = Path(__file__).resolve().parents[1]
SAMPLE = REPO / "faithqa_spark" / "sample"
SAMPLE_SQUAD = SAMPLE / "squad_sample.json"
SAMPLE_TRIVIAQA = SAMPLE / "triviaqa" / "qa" / "wikipedia-sample.json"


@contextmanager
def session_conf(spark: Any, settings: Mapping[str, str]) -> Iterator[None]:
    """Spark SQL settings for the block, each put back to its value before it. The session
    is the whole run's (conftest.py): `conf.unset` would leave Spark's own default for every
    later test (200 shuffle partitions where the session has 4: a sample run took minutes)."""
    before = {k: spark.conf.get(k, None) for k in settings}
    for k, v in settings.items():
        spark.conf.set(k, v)
    try:
        yield
    finally:
        for k, v in before.items():
            if v is None:
                spark.conf.unset(k)
            else:
                spark.conf.set(k, v)


def save_ruler(patterns: Iterable[tuple[str, str]], dest: Path, name: str) -> str:
    """A blank English pipeline whose entity_ruler has the (label, text) `patterns`, saved
    to `dest` so that Spark workers load it by path exactly like a real model."""
    import spacy

    nlp = spacy.blank("en")
    nlp.add_pipe("entity_ruler").add_patterns(
        [{"label": label, "pattern": text} for label, text in patterns])
    nlp.meta["name"], nlp.meta["version"] = name, "0.0.1"
    nlp.to_disk(dest)
    return str(dest)


def export_file(fmt: str, group: str) -> str:
    """The one shard of a small export's group, e.g. jsonl/validation-00000-of-00001.jsonl."""
    return next(e for e in FILE_EXPORTS if e.format == fmt or e.directory == fmt).file(group)


DATASET_FILES = [export_file("jsonl", s) for s in SPLITS]
SQUAD_FILES = [export_file("squad", s) for s in SPLITS]
PARQUET_FILES = [export_file("parquet", s) for s in SPLITS]
FILTERED_FILE, REJECTED_FILE = export_file(FILTERED, FILTERED), export_file(REJECTED, REJECTED)
BANK_FILES = [f"entity_bank/{t}.json" for t in
              ("PERSON", "GPE", "ORG", "DATE", "CARDINAL", "NORP", "LOC", "EVENT")]
# the training exports (sft/, dpo/, dialogues/) at their shard paths, and the dataset card
TRAINING_FILES = [shard_path(e, s) for e in EXPORTS for s in SPLITS] + ["README.md"]
# the audit sample and the analysis report (its charts are drawn from report.json alone)
QUALITY_FILES = ["audit/sample.jsonl", "audit/sample.html", "report/index.html"]
ALL_FILES = DATASET_FILES + SQUAD_FILES + PARQUET_FILES + BANK_FILES + TRAINING_FILES + [
    "entity_bank/summary.json", FILTERED_FILE, REJECTED_FILE, "report.json"] + QUALITY_FILES


def sample_args(output: Path) -> list[str]:
    return ["--squad", str(SAMPLE_SQUAD), "--triviaqa", str(SAMPLE_TRIVIAQA),
            "--output", str(output)]


def spark_submit(master: str, args: list[str], conf: dict[str, str] | None = None,
                 timeout: int = 600) -> subprocess.CompletedProcess[str]:
    """Run the job exactly as a user would, with spark-submit from the virtualenv."""
    cmd = [str(REPO / "scripts" / "submit.sh"), "--master", master]
    for k, v in (conf or {}).items():
        cmd += ["--conf", f"{k}={v}"]
    cmd += [str(REPO / "jobs" / "build_dataset.py"), *args]
    env = {**os.environ, "PYSPARK_PYTHON": sys.executable}
    return subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True,
                          timeout=timeout)


def submit_with_a_worker_killed(master: str, point: str, marker: Path, args: list[str],
                                conf: dict[str, str] | None = None
                                ) -> subprocess.CompletedProcess[str]:
    """spark-submit of the job (`args`, `conf`) whose Python worker is killed once at the
    fault point `point` (`faithqa_spark.faults`, fired once: `marker` is created then), with
    task retries; asserts the fault fired and the job still succeeded."""
    from faithqa_spark.faults import ENV

    proc = spark_submit(master, args, {f"spark.executorEnv.{ENV}": f"{point}:{marker}",
                                       "spark.task.maxFailures": "4", **(conf or {})})
    assert marker.exists(), "the fault never fired"
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc


def read_bytes(root: Path, rel: str) -> bytes:
    return (root / rel).read_bytes()


def assert_same_files(a: Path, b: Path, files: list[str]) -> None:
    for rel in files:
        assert read_bytes(a, rel) == read_bytes(b, rel), f"{rel} differs between {a} and {b}"


def read_rows(data: bytes | str, path: str = "squad.json", source: str = "squad",
              **settings: Any) -> list[dict[str, Any]]:
    """All rows the readers make of `data` (the reader tests' one entry point)."""
    from faithqa_spark.sources import ReaderSettings, read_file

    if isinstance(data, str):
        data = data.encode("utf-8")
    return list(read_file(data, path=path, source=source, settings=ReaderSettings(**settings)))


def only(rows: list[dict[str, Any]]) -> dict[str, Any]:
    assert len(rows) == 1, rows
    return rows[0]


def trivia_file(tmp_path: Path, records: list[Any], evidence: dict[str, str | bytes],
                layout: str = "rc") -> Path:
    """Write the released layout: rc/qa/<file>.json next to rc/evidence/wikipedia/."""
    qa_dir = tmp_path / "rc" / "qa"
    qa_dir.mkdir(parents=True)
    ev_dir = {"rc": tmp_path / "rc" / "evidence" / "wikipedia",
              "beside": qa_dir / "evidence" / "wikipedia",
              "flat": qa_dir / "evidence"}[layout]
    ev_dir.mkdir(parents=True, exist_ok=True)
    for name, content in evidence.items():
        (ev_dir / name).write_bytes(content if isinstance(content, bytes) else content.encode())
    path = qa_dir / "wikipedia-dev.json"
    path.write_text(json.dumps({"Data": records, "Domain": "Wikipedia", "Version": 1.0}))
    return path


def read_trivia(path: Path, **settings: Any) -> list[dict[str, Any]]:
    return read_rows(path.read_bytes(), path=str(path), source="triviaqa", **settings)
