"""Render the analysis report of an existing output directory again:

    python -m faithqa_spark.report DIR      (reads DIR/report.json, writes DIR/report/)
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from faithqa_spark.report.index import write_report


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m faithqa_spark.report",
                                description="Render DIR/report/index.html from DIR/report.json.")
    p.add_argument("dir", type=Path, help="an output directory of the job or reference runner")
    args = p.parse_args(argv)
    path = args.dir / "report.json"
    try:
        report = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        print(f"error: {path}: no such file (is {args.dir} an output directory?)",
              file=sys.stderr)
        return 2
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        print(f"error: {path}: not valid JSON: {e}", file=sys.stderr)
        return 2
    if not isinstance(report, dict) or "sources" not in report:
        print(f"error: {path}: not a faithqa-spark report (no 'sources' key)", file=sys.stderr)
        return 2
    print(write_report(report, args.dir))
    return 0


if __name__ == "__main__":
    sys.exit(main())
