"""The Spark job's entry point (jobs/build_dataset.py is a thin wrapper around `main`)."""

from __future__ import annotations

import logging
import re
import sys
import time
from typing import Any

from faithqa_spark import ner as fner
from faithqa_spark.cli import parse
from faithqa_spark.config import ConfigError
from faithqa_spark.core.bank import BankError
from faithqa_spark.core.fields import SPLITS
from faithqa_spark.inputs import InputError

# Errors raised inside a Python worker reach the driver wrapped in Java exceptions; these are
# the ones whose message is meant for the user as it stands.
_USER_ERRORS = re.compile(r"(InputFileError|ModelNotFoundError|BankError): (.+)")


def summary(report: dict[str, Any], output_dir: str) -> str:
    lines = [f"Output: {output_dir}",
             f"  jsonl/{{{','.join(SPLITS)}}}.jsonl   the dataset",
             "  entity_bank/                the entity bank (one JSON list per type)",
             "  filtered/ rejected/         rows not in the dataset, with their reason",
             "  report.json                 counts per source, file, reason, type and split"]
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
    b = report["bank"]
    lines.append(f"entity bank: {b['total']:,} entities ({b['origin']})")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    logging.basicConfig(level=logging.WARNING, format="%(message)s")
    try:
        run = parse(argv, "build_dataset.py")
        fner.resolve_model(run.cfg.ner.model)  # fail before Spark starts if it is missing
    except (ConfigError, InputError, fner.ModelNotFoundError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    from faithqa_spark.pipeline import build_dataset
    from faithqa_spark.session import build_session

    t = time.perf_counter()
    spark = build_session(run.cfg, run.master)
    try:
        result = build_dataset(spark, run.cfg, run.files, run.output, run.bank_dir)
    except BankError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    except Exception as e:  # noqa: BLE001 - turn worker errors into one clear line
        m = _USER_ERRORS.search(str(e))
        if m is None:
            raise
        print(f"error: {m.group(2)}", file=sys.stderr)
        return 1
    finally:
        spark.stop()
    print(summary(result.report, str(result.output_dir)))
    print(f"done in {time.perf_counter() - t:.1f}s "
          f"(stages: {', '.join(f'{k} {v:.1f}s' for k, v in result.stage_seconds.items())})")
    return 0
