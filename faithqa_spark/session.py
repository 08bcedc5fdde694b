"""Building the SparkSession: Delta jars from the local set-up, sane defaults for this job."""

from __future__ import annotations

from pathlib import Path
from typing import Mapping

from pyspark.sql import SparkSession

from faithqa_spark.config import REPO_ROOT, Config

JARS_DIR = REPO_ROOT / ".jars"


def delta_jars() -> list[str]:
    """The Delta Lake jars that scripts/setup.sh copied into .jars/ (empty if not set up)."""
    return sorted(str(p) for p in Path(JARS_DIR).glob("*.jar"))


def build_session(cfg: Config, master: str | None = None,
                  extra: Mapping[str, str] | None = None) -> SparkSession:
    """A session for the job. Under spark-submit the master and jars given there win; when
    started from plain Python (tests, the reference comparisons) the local jars are used."""
    b = SparkSession.builder.appName(cfg.spark.app_name)
    if master:
        b = b.master(master)
    jars = delta_jars()
    conf: dict[str, str] = {
        # Python workers are reused so each loads the spaCy model once, not once per task.
        "spark.python.worker.reuse": "true",
        "spark.sql.execution.arrow.pyspark.enabled": "true",
        "spark.ui.showConsoleProgress": "false",
    }
    if jars:
        conf.update({
            "spark.jars": ",".join(jars),
            "spark.sql.extensions": "io.delta.sql.DeltaSparkSessionExtension",
            "spark.sql.catalog.spark_catalog": "org.apache.spark.sql.delta.catalog.DeltaCatalog",
        })
    conf.update(extra or {})
    for k, v in conf.items():
        b = b.config(k, v)
    spark = b.getOrCreate()
    spark.sparkContext.setLogLevel(cfg.spark.log_level)
    return spark
