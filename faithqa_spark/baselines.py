"""Baseline prediction files whose scores are known, to test the evaluator end to end.

    python -m faithqa_spark.baselines --dataset DIR --kind memory|context|first-entity --output FILE

`memory` answers with the original answer (p_o = 1, MR = 1), `context` with the faithful
answer (EM = 1, MR = 0), `first-entity` with the first entity of the answer's type that the
configured spaCy model (`ner.model`) finds in the row's context: a simple reader to compare a
model with. first-entity runs NER once per distinct context (batched `nlp.pipe`); on real
data run it under the heavy-work lock.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from faithqa_spark import ner as fner
from faithqa_spark.config import ConfigError, load_config
from faithqa_spark.core import evaluation as E
from faithqa_spark.core import fields as C
from faithqa_spark.core.records import json_line
from faithqa_spark.eval_io import EvalInputError, dataset_files, expand
from faithqa_spark.evaluate import load_rows
from faithqa_spark.io import write_lines_atomic


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m faithqa_spark.baselines", description=(
        "Write a baseline predictions file ({id, prediction} JSONL, ordered by id)."))
    p.add_argument("--dataset", metavar="DIR", help="an output directory of the job")
    p.add_argument("--records", action="append", default=[], metavar="FILE",
                   help="extra evaluation records, as for the evaluator; repeatable")
    p.add_argument("--kind", required=True, choices=E.BASELINES)
    p.add_argument("--output", required=True, metavar="FILE", help="predictions .jsonl to write")
    p.add_argument("--config", help="TOML config (default: the packaged faithqa_spark/defaults.toml); ner.* for first-entity")
    p.add_argument("--set", action="append", default=[], metavar="SECTION.KEY=VALUE")
    return p


def predictions(kind: str, rows: dict[str, dict[str, Any]], model: str, components: list[str],
                batch_size: int) -> dict[str, str]:
    """id -> prediction of the baseline `kind` for every row it has an answer for."""
    ents: dict[str, list[dict[str, Any]]] = {}
    if kind == "first-entity":
        contexts = sorted({r[C.EVAL_CONTEXT] for r in rows.values()})
        nlp = fner.load_ner(model, components)
        ents = dict(zip(contexts, fner.run_ner(nlp, contexts, batch_size)))
    out = {}
    for rid in sorted(rows):
        row = rows[rid]
        pred = E.baseline_prediction(kind, row, ents.get(row[C.EVAL_CONTEXT]))
        if pred is not None:
            out[rid] = pred
    return out


def main(argv: list[str] | None = None) -> int:
    a = parser().parse_args(argv)
    try:
        if a.dataset is None and not a.records:
            raise EvalInputError("give --dataset DIR and/or --records FILE")
        if not a.output.endswith(".jsonl"):
            raise EvalInputError(f"--output {a.output}: must be a .jsonl file")
        cfg = load_config(a.config, a.set)
        dataset_files(a.dataset)
        if a.kind == "first-entity":
            fner.resolve_model(cfg.ner.model)
        rows = load_rows(a.dataset, expand(a.records))
    except (ConfigError, EvalInputError, fner.ModelNotFoundError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    preds = predictions(a.kind, rows, cfg.ner.model, cfg.ner.components, cfg.ner.batch_size)
    n = write_lines_atomic(a.output, (json_line({C.ID: i, C.PREDICTION: p},
                                                [C.ID, C.PREDICTION]) for i, p in preds.items()))
    print(f"wrote {n:,} {a.kind} predictions for {len(rows):,} rows to {a.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
