#!/usr/bin/env bash
# From a fresh clone: set everything up, then run the whole test suite (slow tests included:
# they use the real spaCy model and, where present, the data sets in ../shared/data).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
./scripts/setup.sh --test  # --test: also the S3A jars of the tests on a local S3 server
export PYSPARK_PYTHON="$ROOT/.venv/bin/python"
exec .venv/bin/python -m pytest tests "$@"
