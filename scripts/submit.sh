#!/usr/bin/env bash
# spark-submit from the project's .venv with the Delta jars that scripts/setup.sh fetched, so
# no run resolves packages over the network:
#   ./scripts/submit.sh [--master local[*]] jobs/build_dataset.py --squad FILE --output DIR
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export PYSPARK_PYTHON="${PYSPARK_PYTHON:-$ROOT/.venv/bin/python}"
JARS="$(ls "$ROOT"/.jars/*.jar 2>/dev/null | paste -sd, -)"
[[ -n "$JARS" ]] || { echo "no Delta jars in $ROOT/.jars: run ./scripts/setup.sh" >&2; exit 2; }
# The driver's JVM runs with the parallel (throughput) collector instead of G1. In local mode
# it is also the executor, and on a small machine G1's concurrent work competes with the
# tasks: side by side on the SQuAD train file (local[2]), the job took 158 s against 164 s,
# and with every context in the NER cache 73-84 s against 81-95 s (README, "Speed and
# memory"). On a cluster the executors keep Spark's default collector.
JAVA_OPTS="-Dlog4j.configurationFile=$ROOT/conf/log4j2.properties -XX:+UseParallelGC"
exec "$ROOT/.venv/bin/spark-submit" --jars "$JARS" \
  --conf spark.sql.extensions=io.delta.sql.DeltaSparkSessionExtension \
  --conf spark.sql.catalog.spark_catalog=org.apache.spark.sql.delta.catalog.DeltaCatalog \
  --driver-java-options "$JAVA_OPTS" \
  "$@"
