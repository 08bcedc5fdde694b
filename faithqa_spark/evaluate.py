"""Score model predictions against a Faithfulness-QA dataset, in one process.

    python -m faithqa_spark.evaluate --dataset DIR --predictions FILE [--output EVAL_DIR]

`spark-submit jobs/evaluate.py` takes the same flags and gives the same metrics.json
(faithqa_spark.eval_spark). The metrics are defined in faithqa_spark.core.metrics.
"""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

from faithqa_spark.config import Config, ConfigError, load_config
from faithqa_spark.core import evaluation as E
from faithqa_spark.core import fields as C
from faithqa_spark.eval_io import (EvalInputError, dataset_files, eval_rows, expand,
                                   file_format, predictions)
from faithqa_spark.eval_output import format_table, write_outputs


@dataclass(frozen=True)
class EvalRun:
    cfg: Config
    dataset: str | None
    predictions: list[str]  # files as read (Parquet directories expanded)
    records: list[str]
    output: Path
    master: str | None

    def inputs(self) -> dict[str, Any]:
        """What metrics.json says it scored (the paths as given)."""
        return {"dataset": self.dataset, "predictions": self.predictions,
                "records": self.records}


def parser(prog: str) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog=prog, description=(
        "Score predictions ({id, prediction} as JSONL or Parquet) against a Faithfulness-QA "
        "dataset: EM/F1, p_s, p_o, memorization ratio, abstention, grounding."))
    p.add_argument("--dataset", metavar="DIR", help="an output directory of the job")
    p.add_argument("--predictions", action="append", required=True, metavar="FILE",
                   help="predictions file (.jsonl, .parquet or a directory of .parquet); "
                        "repeatable")
    p.add_argument("--records", action="append", default=[], metavar="FILE",
                   help="extra evaluation records (controls with id, kind, context, answer; "
                        "without --dataset: all rows); repeatable")
    p.add_argument("--output", metavar="EVAL_DIR",
                   help="where metrics.json and evaluation.html go (default DIR/evaluation)")
    p.add_argument("--config", help="TOML config (default: the packaged faithqa_spark/defaults.toml)")
    p.add_argument("--set", action="append", default=[], metavar="SECTION.KEY=VALUE",
                   help="override a config key, e.g. --set evaluate.sentence_support_threshold=1.0")
    p.add_argument("--master", help="Spark master when not started by spark-submit "
                                    "(the in-process evaluator ignores it)")
    return p


def parse(argv: list[str] | None, prog: str) -> EvalRun:
    """Check every argument and input file's type before any work."""
    a = parser(prog).parse_args(argv)
    if a.dataset is None and not a.records:
        raise EvalInputError("give --dataset DIR and/or --records FILE")
    cfg = load_config(a.config, a.set)
    dataset_files(a.dataset)  # fails early on a directory with no export
    for f in a.records:
        file_format(f)
    output = a.output or (str(Path(a.dataset) / "evaluation") if a.dataset else None)
    if output is None:
        raise EvalInputError("give --output EVAL_DIR (there is no --dataset to put it in)")
    preds, records = expand(a.predictions), expand(a.records)
    for files in (preds, records):
        seen = [os.path.abspath(f) for f in files]
        twice = [f for i, f in enumerate(files) if seen[i] in seen[:i]]
        if twice:
            raise EvalInputError(f"{twice[0]}: given twice")
    return EvalRun(cfg, a.dataset, preds, records, Path(output), a.master)


def settings(cfg: Config) -> E.Settings:
    return E.Settings(tuple(cfg.evaluate.refusal_phrases),
                      cfg.evaluate.sentence_support_threshold)


def load_rows(dataset: str | None, records: list[str]) -> dict[str, dict[str, Any]]:
    """Evaluation rows by id: the dataset's, then the controls (sft/ and --records), each
    control completed from its dataset row. An id twice is an error."""
    data_files, control_files = dataset_files(dataset)
    rows: dict[str, dict[str, Any]] = {}
    where: dict[str, str] = {}

    def add(it: Iterator[dict[str, Any]], path: str) -> None:
        for row in it:
            if row[C.ID] in rows:
                raise EvalInputError(f"{path}: id {row[C.ID]} appears twice "
                                     f"(also in {where[row[C.ID]]})")
            rows[row[C.ID]], where[row[C.ID]] = row, path

    for f in data_files:
        add(eval_rows(Path(f).read_bytes(), f), f)
    base = dict(rows)
    for f in control_files + records:
        controls = eval_rows(Path(f).read_bytes(), f, controls_only=dataset is not None)
        add((E.inherit(r, base.get(r[C.SOURCE_ID] or "")) for r in controls), f)
    return rows


def evaluate(run: EvalRun) -> dict[str, Any]:
    """The metrics.json object of one run, computed in this process."""
    rows = load_rows(run.dataset, run.records)
    s = settings(run.cfg)
    pairs: list[tuple[E.Key, dict[str, int]]] = []
    predicted: dict[str, str] = {}
    for f in run.predictions:  # file order, then position: the first copy of an id wins
        for pid, text, _ in predictions(Path(f).read_bytes(), f):
            if pid in predicted:
                pairs += E.contributions(rows.get(pid), text, True, s)
            else:
                predicted[pid] = text
    for rid, row in rows.items():
        pairs += E.contributions(row, predicted.get(rid), False, s)
    for pid, text in predicted.items():
        if pid not in rows:
            pairs += E.contributions(None, text, False, s)
    return result(run, E.add_up(pairs))


def result(run: EvalRun, totals: dict[E.Key, Any]) -> dict[str, Any]:
    """metrics.json: the metrics of the totals, then what was scored with which settings."""
    out = E.metrics(totals)
    out["inputs"] = run.inputs()
    out["settings"] = {"refusal_phrases": list(run.cfg.evaluate.refusal_phrases),
                       "sentence_support_threshold":
                           run.cfg.evaluate.sentence_support_threshold}
    return out


def finish(run: EvalRun, metrics: dict[str, Any]) -> None:
    """Write metrics.json (and the HTML page), print the table."""
    written = write_outputs(metrics, run.output, run.dataset)
    print(format_table(metrics))
    print("wrote " + ", ".join(str(p) for p in written))


def main(argv: list[str] | None = None) -> int:
    try:
        run = parse(argv, "python -m faithqa_spark.evaluate")
        metrics = evaluate(run)
    except (ConfigError, EvalInputError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    finish(run, metrics)
    return 0


if __name__ == "__main__":
    sys.exit(main())
