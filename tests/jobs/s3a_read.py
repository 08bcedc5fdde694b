"""Test driver (spark-submit): read input files from a URI with Spark's binaryFile source,
turn them into QA rows with the readers inside the executors, and write the rows as Parquet
to another URI. Used by tests/test_object_store.py with s3a:// on a local S3 server.

    spark-submit ... tests/jobs/s3a_read.py SOURCE INPUT_URI OUTPUT_URI
"""

from __future__ import annotations

import sys

from pyspark.sql import SparkSession


def main(argv: list[str]) -> None:
    source, src, dst = argv
    spark = SparkSession.builder.getOrCreate()
    from faithqa_spark.core import fields as F
    from faithqa_spark.spark.schema import QA_SCHEMA
    from faithqa_spark.sources import read_file

    def rows(pairs):
        for path, content in pairs:
            for row in read_file(bytes(content), path=path, source=source):
                yield tuple(row[name] for name, _ in F.QA_FIELDS)

    raw = spark.read.format("binaryFile").load(src).select("path", "content")
    qa = spark.createDataFrame(raw.rdd.mapPartitions(rows), QA_SCHEMA)
    qa.coalesce(1).write.mode("overwrite").parquet(dst)
    print("rows written:", spark.read.parquet(dst).count())
    spark.stop()


if __name__ == "__main__":
    main(sys.argv[1:])
