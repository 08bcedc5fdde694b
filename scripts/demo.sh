#!/usr/bin/env bash
# From a fresh clone: set everything up, then run the Spark job in local[*] on the bundled
# sample and say where the output is and what it holds.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
./scripts/setup.sh
OUT="${1:-$ROOT/output/demo}"
SAMPLE=faithqa_spark/sample
echo "[demo] running the job on the bundled sample (SQuAD + TriviaQA) in local[*]"
./scripts/submit.sh --master 'local[*]' jobs/build_dataset.py --config conf/local.toml \
  --squad "$SAMPLE/squad_sample.json" \
  --triviaqa "$SAMPLE/triviaqa/qa/wikipedia-sample.json" \
  --output "$OUT"
echo
echo "[demo] first dataset row ($OUT/jsonl/train-00000-of-00001.jsonl), around its first replaced span:"
.venv/bin/python scripts/show_row.py "$OUT/jsonl/train-00000-of-00001.jsonl"
