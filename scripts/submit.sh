#!/usr/bin/env bash
# spark-submit from the project's .venv with the Delta jars that scripts/setup.sh fetched, so
# no run resolves packages over the network:
#   ./scripts/submit.sh [--master local[*]] jobs/build_dataset.py --squad FILE --output DIR
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export PYSPARK_PYTHON="${PYSPARK_PYTHON:-$ROOT/.venv/bin/python}"
JARS="$(ls "$ROOT"/.jars/*.jar 2>/dev/null | paste -sd, -)"
[[ -n "$JARS" ]] || { echo "no Delta jars in $ROOT/.jars: run ./scripts/setup.sh" >&2; exit 2; }
exec "$ROOT/.venv/bin/spark-submit" --jars "$JARS" \
  --conf spark.sql.extensions=io.delta.sql.DeltaSparkSessionExtension \
  --conf spark.sql.catalog.spark_catalog=org.apache.spark.sql.delta.catalog.DeltaCatalog \
  --driver-java-options "-Dlog4j.configurationFile=$ROOT/conf/log4j2.properties" \
  "$@"
