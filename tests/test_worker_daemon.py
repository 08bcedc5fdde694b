"""The workers' daemon takes the installed pyspark's own archives off sys.path, and only
those: every task's importlib.invalidate_caches() then has no zip directory to re-read."""

from __future__ import annotations

import os
from pathlib import Path

import pyspark

from faithqa_spark.spark.worker_daemon import installed_archives

HOME = Path(pyspark.__file__).parent
SITE = str(HOME.parent)
ZIP = str(HOME / "python" / "lib" / "pyspark.zip")
PY4J = next(str(p) for p in (HOME / "python" / "lib").glob("py4j-*.zip"))
JAR = next(str(p) for p in (HOME / "jars").glob("spark-core_*.jar"))


def test_drops_the_installed_pysparks_archives_and_keeps_the_rest(tmp_path):
    foreign = tmp_path / "spark" / "python" / "lib"
    foreign.mkdir(parents=True)
    other_zip, other_jar = str(foreign / "pyspark.zip"), str(tmp_path / "udfs.jar")
    user_zip = str(tmp_path / "deps.zip")
    path = [ZIP, PY4J, JAR, other_zip, other_jar, user_zip, SITE]
    assert installed_archives(path) == [ZIP, PY4J, JAR]


def test_keeps_everything_when_pyspark_is_only_in_the_archive(tmp_path):
    # a cluster's SPARK_HOME and an interpreter without pyspark: the zip is the only copy
    assert installed_archives([ZIP, PY4J, str(tmp_path)]) == []


def test_spark_workers_import_the_installed_pyspark(spark):
    def probe(_):
        import importlib
        import sys as wsys
        import zipimport

        import pyspark as wpyspark
        importlib.invalidate_caches()
        zips = [k for k, v in wsys.path_importer_cache.items()
                if isinstance(v, zipimport.zipimporter)]
        yield wpyspark.__file__, zips, [p for p in wsys.path if p.endswith((".zip", ".jar"))]

    (origin, zips, archives), = spark.sparkContext.parallelize([0], 1).mapPartitions(probe).collect()
    assert os.path.realpath(origin) == os.path.realpath(pyspark.__file__)
    assert not any(z.startswith(str(HOME)) for z in zips), zips
    assert not any(a.startswith(str(HOME)) for a in archives), archives


def test_arrow_workers_run_single_threaded(spark):
    """pyarrow's jemalloc thread is off in the workers (faithqa_spark.threads), so a worker
    running NER is a single-threaded process."""
    import pyarrow as pa

    def threads(batches):
        import os as wos
        for _ in batches:
            names = [open(f"/proc/self/task/{t}/comm").read().strip()
                     for t in wos.listdir("/proc/self/task")]
            yield pa.RecordBatch.from_pydict({"n": [len(names)], "names": [",".join(names)]})

    (row,) = spark.range(1).mapInArrow(threads, "n long, names string").collect()
    assert row["n"] == 1, row["names"]


def test_local_masters():
    from faithqa_spark.spark.session import is_local

    assert all(map(is_local, ["local", "local[2]", "local[*]", "local[2,3]",
                              "local-cluster[2,1,1024]"]))
    assert not any(map(is_local, ["yarn", "spark://h:7077", "k8s://https://h", "localhost"]))
