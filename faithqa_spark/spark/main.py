"""The Spark job's entry point (jobs/build_dataset.py is a thin wrapper around `main`)."""

from __future__ import annotations

import logging
import sys
import time
from pathlib import Path
from typing import Any

from faithqa_spark import errors
from faithqa_spark import ner as fner
from faithqa_spark.cli import parse


OUTPUTS = [
    ("delta/", "Delta tables: dataset (by source, split), entity_bank, ner, filtered, rejected, "
               "sft, dpo, dialogues"),
    ("jsonl/", "the dataset as JSONL, one file per split (the paper's field names plus ours, "
               "audit flags included)"),
    ("parquet/", "the dataset as Parquet, a directory per split"),
    ("squad/", "the dataset as SQuAD v1.1 JSON, one file per split"),
    ("sft/", "training records, TRL's conversational SFT format (+ factual, abstention)"),
    ("dpo/", "the same examples in TRL's preference format (prompt, chosen, rejected)"),
    ("dialogues/", "clarification and correction dialogues"),
    ("README.md", "the dataset card: load_dataset(DIR) and load_dataset(DIR, \"sft\")"),
    ("entity_bank/", "the entity bank: one sorted JSON list per type, summary.json"),
    ("filtered/", "rows the pipeline filtered, with their reason"),
    ("rejected/", "malformed input records, with reason, file and location"),
    ("audit/", "the seeded 200-row audit sample: sample.jsonl, sample.html (every row's flags)"),
    ("report/", "the analysis report: index.html and its PNG charts"),
    ("report.json", "counts per source and file: reasons, types, strategies, splits, audit, "
                    "analysis"),
    ("manifest.json", "versions, config, input checksums, row counts, time per stage"),
]


def summary(report: dict[str, Any], output_dir: str) -> str:
    lines = [f"Output: {output_dir}"]
    lines += [f"  {name:<14} {what}" for name, what in OUTPUTS
              if (Path(output_dir) / name).exists()]
    for source, s in report["sources"].items():
        splits = ", ".join(f"{k} {v:,}" for k, v in s["splits"].items())
        lines.append(f"{source}: {s['input_records']:,} records -> {s['success']:,} samples "
                     f"({s['success_rate']:.1%}); {splits}")
        top = ", ".join(f"{k} {v:,}" for k, v in list(s["filtered_by_reason"].items())[:4])
        if top:
            lines.append(f"  filtered {s['filtered']:,}: {top}")
        if s["rejected"]:
            lines.append(f"  rejected {s['rejected']:,}: "
                         + ", ".join(f"{k} {v:,}" for k, v in s["rejected_by_reason"].items()))
    for export, t in report.get("training", {}).items():
        lines.append(f"{export}: " + ", ".join(
            f"{kind} {sum(by_split.values()):,}" for kind, by_split in t["kinds"].items()))
    b = report["bank"]
    lines.append(f"entity bank: {b['total']:,} entities ({b['origin']})")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Parse and check everything, start Spark, run the job; every user-facing failure is
    one `error: ...` line with its exit status (errors.py), a bug keeps its traceback."""
    logging.basicConfig(level=logging.WARNING, format="%(message)s")
    try:
        run = parse(argv, "build_dataset.py")
        fner.resolve_model(run.cfg.ner.model)  # fail before Spark starts if it is missing
    except Exception as e:  # noqa: BLE001 - see errors.report
        return errors.report(e)
    from faithqa_spark.spark.job import build_dataset
    from faithqa_spark.spark.session import build_session

    t = time.perf_counter()
    spark = build_session(run.cfg, run.master)
    try:
        result = build_dataset(spark, run.cfg, run.files, run.output, run.bank_dir, run.ner_cache)
    except Exception as e:  # noqa: BLE001 - see errors.report
        return errors.report(e)
    finally:
        spark.stop()
    print(summary(result.report, str(result.output_dir)))
    print(f"done in {time.perf_counter() - t:.1f}s "
          f"(stages: {', '.join(f'{k} {v:.1f}s' for k, v in result.stage_seconds.items())})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
