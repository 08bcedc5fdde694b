"""Render the analysis report of an existing output directory again:

    python -m faithqa_spark.report DIR      (reads DIR/report.json, writes DIR/report/)
"""

from __future__ import annotations

import argparse
import json
import sys

from faithqa_spark import fs
from faithqa_spark.report.index import write_report
from faithqa_spark.runs import IncompleteRunError, is_run_dir, require_complete


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m faithqa_spark.report",
                                description="Render DIR/report/index.html from DIR/report.json.")
    p.add_argument("dir", help="an output directory of the job or reference runner (a path "
                               "or a URI)")
    args = p.parse_args(argv)
    path = fs.join(args.dir, "report.json")
    try:
        if is_run_dir(args.dir):
            require_complete(args.dir)  # a killed run's report.json may not be its last
        report = json.loads(fs.read_bytes(path).decode("utf-8"))
    except IncompleteRunError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
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
