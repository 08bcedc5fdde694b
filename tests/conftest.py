"""Shared fixtures: one Spark session for the whole run, and a tiny rule-based NER model."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from hypothesis import settings

REPO = Path(__file__).resolve().parents[1]
# the real data sets beside the checkout; FAITHQA_SHARED_DATA points elsewhere (a worktree
# whose parent directory has no shared/)
SHARED_DATA = Path(os.environ.get("FAITHQA_SHARED_DATA", REPO.parent / "shared" / "data"))
SAMPLE = REPO / "faithqa_spark" / "sample"

# Hypothesis draws the same examples on every run ("derandomize"), so a gate on main never
# fails on a draw no earlier run made; HYPOTHESIS_PROFILE=explore draws fresh ones to hunt.
settings.register_profile("gate", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "gate"))

# Spark's Python workers must run the same interpreter as the tests (the .venv one).
os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)

# Entity patterns of the fictional sample world, for a fast, exact rule-based NER in tests.
RULER_PATTERNS = [
    ("ORG", "Velmora Rail Company"), ("GPE", "Ostrava Nova"), ("LOC", "Pellin Bay"),
    ("GPE", "Karsland"), ("PERSON", "Lida Marsh"), ("LOC", "Tarrow River"),
    ("DATE", "1907"), ("DATE", "1921"), ("DATE", "1961"), ("PERCENT", "12 percent"),
    ("PERSON", "Marek Tolla"), ("GPE", "Grenwick"), ("PERSON", "Anna Velt"),
    ("GPE", "Brannick"), ("LOC", "Skarn Island"), ("PERSON", "Halvard Quist"),
    ("PERSON", "Oda Renn"), ("ORG", "Hjelm"), ("CARDINAL", "121"), ("PERSON", "Sanna Morrow"),
    ("DATE", "1934"), ("DATE", "1952"), ("GPE", "Hollin"), ("PERSON", "Tove Arlen"),
]


@pytest.fixture(scope="session")
def spark():
    from faithqa_spark.config import load_config
    from faithqa_spark.spark.session import build_session
    from servers import S3A_JARS_DIR

    extra = {
        "spark.sql.shuffle.partitions": "4",
        "spark.default.parallelism": "2",
        "spark.ui.enabled": "false",
        "spark.driver.memory": "2g",
    }
    if any(S3A_JARS_DIR.glob("hadoop-aws-*.jar")):
        # S3A (hadoop-aws and the AWS SDK modules of `scripts/setup.sh --test`), so that the
        # object-store tests can run the job in this session (local mode: the driver's class
        # path is the executors')
        extra["spark.driver.extraClassPath"] = str(S3A_JARS_DIR / "*")
    s = build_session(load_config(), master="local[2]", extra=extra)
    yield s
    s.stop()


@pytest.fixture(scope="session")
def ruler_model(tmp_path_factory) -> str:
    """A blank English pipeline with an entity_ruler of RULER_PATTERNS, saved to disk so
    Spark workers load it by path exactly like a real model."""
    from helpers import save_ruler

    return save_ruler(RULER_PATTERNS, tmp_path_factory.mktemp("models") / "ruler",
                      "test_ruler")


@pytest.fixture(scope="session")
def reference_sample(tmp_path_factory) -> Path:
    """The reference runner's output for the bundled sample (both sources, default config):
    what every Spark run of the sample must equal, byte for byte (test_equivalence.py), and
    so what a run that survived a fault must equal too (test_faults.py)."""
    from faithqa_spark.config import load_config
    from faithqa_spark.inputs import collect_inputs
    from faithqa_spark.reference import run_reference

    out = tmp_path_factory.mktemp("reference")
    files = collect_inputs([str(SAMPLE / "squad_sample.json")],
                           [str(SAMPLE / "triviaqa" / "qa" / "wikipedia-sample.json")])
    run_reference(load_config(), files, out)
    return out
