"""The Spark job's entry point (jobs/build_dataset.py is a thin wrapper around `main`)."""

from __future__ import annotations

import logging
import sys
import time
from typing import Any

from faithqa_spark import errors
from faithqa_spark import ner as fner
from faithqa_spark.cli import parse


OUTPUTS = [
    ("delta/", "Delta tables: dataset (by source, split), entity_bank, ner, filtered, rejected, "
               "sft, dpo, dialogues"),
    ("jsonl/", "the dataset as JSONL, per split in shards, train-00000-of-00001.jsonl (the "
               "paper's field names plus ours, audit flags included)"),
    ("parquet/", "the dataset as Parquet, in shards per split"),
    ("squad/", "the dataset as SQuAD v1.1 JSON, each shard a whole document"),
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
    ("manifest.json", "written last, marks the run complete: versions, config, input "
                      "checksums, row counts, time per stage, every file"),
]


def summary(report: dict[str, Any], output_dir: str, files: list[str],
            delta_tables: bool = False) -> str:
    """What the run wrote (`files`: as manifest.json lists them) and its counts."""
    tops = {f.split("/", 1)[0] + ("/" if "/" in f else "") for f in files}
    tops |= {"manifest.json"} | ({"delta/"} if delta_tables else set())
    lines = [f"Output: {output_dir}"]
    lines += [f"  {name:<14} {what}" for name, what in OUTPUTS if name in tops]
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
    print(summary(result.report, result.output_dir, result.files,
                  "delta" in run.cfg.output.formats))
    print(f"done in {time.perf_counter() - t:.1f}s "
          f"(stages: {', '.join(f'{k} {v:.1f}s' for k, v in result.stage_seconds.items())})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
