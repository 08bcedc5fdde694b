"""Building the SparkSession: Delta jars from the local set-up, sane defaults for this job."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Mapping

from pyspark import SparkConf, SparkContext
from pyspark.sql import SparkSession

from faithqa_spark.config import Config
from faithqa_spark.threads import SINGLE_THREADED_ENV

# where scripts/setup.sh puts the Delta jars in a checkout (absent in an installed wheel:
# spark-submit --packages or --jars then provides them)
JARS_DIR = Path(__file__).resolve().parents[2] / ".jars"
DELTA_CONF = {
    "spark.sql.extensions": "io.delta.sql.DeltaSparkSessionExtension",
    "spark.sql.catalog.spark_catalog": "org.apache.spark.sql.delta.catalog.DeltaCatalog",
}


def delta_jars() -> list[str]:
    """The Delta Lake jars that scripts/setup.sh copied into .jars/ (empty if not set up)."""
    return sorted(str(p) for p in Path(JARS_DIR).glob("*.jar"))


def started_by_spark_submit() -> bool:
    """Under spark-submit the JVM already runs with its own classpath: jars and static SQL
    settings must come from the spark-submit command line (scripts/submit.sh adds them)."""
    return "PYSPARK_GATEWAY_PORT" in os.environ


def is_local(master: str) -> bool:
    """local, local[N], local[*], local[N,F] and local-cluster[...]: every executor runs on
    this machine with this Python."""
    return master == "local" or master.startswith(("local[", "local-cluster["))


def build_session(cfg: Config, master: str | None = None,
                  extra: Mapping[str, str] | None = None) -> SparkSession:
    """A session for the job. Under spark-submit the master, jars and Delta settings given
    there win; started from plain Python (tests, notebooks) it adds the local Delta jars."""
    b = SparkSession.builder.appName(cfg.spark.app_name)
    if master:
        b = b.master(master)
    conf: dict[str, str] = {
        # Python workers are reused so each loads the spaCy model once, not once per task.
        "spark.python.worker.reuse": "true",
        "spark.sql.execution.arrow.pyspark.enabled": "true",
        "spark.ui.showConsoleProgress": "false",
        # NER in the Python workers runs faster single-threaded (see faithqa_spark.threads);
        # the executors' environment reaches their Python daemon and its workers
        **{f"spark.executorEnv.{k}": v for k, v in SINGLE_THREADED_ENV.items()},
        # A cached batch's column buffers grow by doubling in the heap until the batch is
        # complete, unseen by Spark's memory manager; with rows of 1-5 KB (contexts, training
        # lines) Spark's 10,000 rows per batch is 30-150 MB per task, which ran a 512 MB
        # driver (local mode: the tasks' JVM) out of heap. Fewer rows bound it.
        "spark.sql.inMemoryColumnarStorage.batchSize": str(cfg.spark.cache_batch_rows),
        # A cached partition is serialized (MEMORY_AND_DISK) batch by batch by Java
        # serialization, whose stream keeps every object written in its handle table until
        # it is reset, by default every 100 objects: all the batches of a partition, which a
        # heap dump of the 512 MB run found holding 108 MB. Reset after each batch.
        "spark.serializer.objectStreamReset": "1",
    }
    given = SparkConf(loadDefaults=False)
    if started_by_spark_submit():
        # what spark-submit's --conf set wins over these defaults; its JVM is already up
        SparkContext._ensure_initialized()
        given = SparkConf()
    known_master = master or given.get("spark.master", None)
    if known_master and is_local(known_master):
        # workers import the installed pyspark, not pyspark.zip (see worker_daemon); only
        # where the executors' Python is known to be this one, with faithqa_spark installed
        conf["spark.python.daemon.module"] = "faithqa_spark.spark.worker_daemon"
    conf = {k: v for k, v in conf.items() if not given.contains(k)}
    jars = delta_jars()
    if jars and not started_by_spark_submit():
        conf["spark.jars"] = ",".join(jars)
        conf.update(DELTA_CONF)
    conf.update(extra or {})
    for k, v in conf.items():
        b = b.config(k, v)
    spark = b.getOrCreate()
    spark.sparkContext.setLogLevel(cfg.spark.log_level)
    # Spark's default of 200 shuffle partitions means 200 tasks per stage; each Python task
    # pays a fixed start-up cost, which dominated the non-NER stages on a small machine.
    # Delta rebuilds a table's snapshot from its log in 50 tasks by default, a fixed cost on
    # every write to and read of a small table. A few tasks per core for both, unless the
    # user chose otherwise.
    parts = str(max(spark.sparkContext.defaultParallelism * cfg.spark.min_partitions_per_core, 1))
    for key in ("spark.sql.shuffle.partitions", "spark.databricks.delta.snapshotPartitions"):
        if not spark.sparkContext.getConf().contains(key):
            spark.conf.set(key, parts)
    return spark
