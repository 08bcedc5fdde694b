"""The daemon that forks Spark's Python workers (`spark.python.daemon.module`): pyspark's
own daemon, with pyspark imported from the installed package rather than from pyspark.zip.

Spark puts $SPARK_HOME/python/lib/pyspark.zip, py4j's zip and spark-core's jar first on
the workers' PYTHONPATH. Every task then calls `importlib.invalidate_caches()`
(`pyspark.worker_util.setup_spark_files`), and every zipimporter (one per package imported
from an archive, and one for the jar's 5,000 entries) re-reads its archive's directory in
Python: py-spy measured 0.03-0.1 s of CPU per task on that alone, and a fresh worker also
compiled pyspark from the archive's source. When the archives are the ones inside the
pyspark package this interpreter has installed (the pip install that scripts/setup.sh
makes), the installed copy is the same code with compiled bytecode, so the archives are
taken off `sys.path`. Anywhere else (a cluster's own SPARK_HOME) nothing changes.
"""

from __future__ import annotations

import importlib.machinery
import os
import sys


def installed_archives(path: list[str]) -> list[str]:
    """The archives on `path` that belong to the pyspark installed outside them: the
    pyspark/py4j zips in its python/lib, and its own jars (Spark puts spark-core's jar on
    the path too; it holds no Python here, and each zipimporter of it re-reads 5,000
    entries per task)."""
    archives = [p for p in path if p.endswith((".zip", ".jar"))]
    if not archives:
        return []
    rest = [p for p in path if p not in archives]
    spec = importlib.machinery.PathFinder.find_spec("pyspark", rest)
    if spec is None or not spec.origin:
        return []
    home = os.path.realpath(os.path.dirname(spec.origin))
    has_py4j = importlib.machinery.PathFinder.find_spec("py4j", rest) is not None

    def belongs(archive: str) -> bool:
        where, name = os.path.split(os.path.realpath(archive))
        if where == os.path.join(home, "jars"):
            return name.endswith(".jar")
        if where == os.path.join(home, "python", "lib"):
            return name.startswith("pyspark") or (name.startswith("py4j") and has_py4j)
        return False

    return [a for a in archives if belongs(a)]


def drop_installed_archives() -> list[str]:
    """Take the archives `installed_archives` names off `sys.path` (and their cached
    importers) before pyspark is imported; returns what was dropped."""
    drop = installed_archives(sys.path)
    for archive in drop:
        sys.path.remove(archive)
        for key in [k for k in sys.path_importer_cache if k.startswith(archive)]:
            del sys.path_importer_cache[key]
    return drop


def main() -> None:
    try:
        drop_installed_archives()
    except Exception:  # noqa: BLE001 - an optimisation must never stop the workers
        pass
    from pyspark import daemon

    daemon.manager()


if __name__ == "__main__":
    main()
