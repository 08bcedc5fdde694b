"""Parse time and peak memory of reading one official JSON input file: the whole-document
read the job does today (`read_file` on the file's bytes, one task) against the streaming
part reader (`read_file_part`, ijson) for 1 and N parts. Each measurement runs in a fresh
process so its peak resident memory is its own; the figure printed is the peak minus the
process's resident memory after imports (what the read itself added).

    .venv/bin/python scripts/bench_read.py [FILE] [--source squad] [--parts 4]
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DEFAULT = REPO.parent / "shared" / "data" / "squad" / "train-v1.1.reconstructed.json"


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KB on Linux


def child(path: str, source: str, mode: str, part: int, n_parts: int) -> None:
    """One measurement; prints a JSON line."""
    from faithqa_spark.sources import read_file
    from faithqa_spark.sources.stream import read_file_part

    base = _rss_mb()
    t = time.perf_counter()
    if mode == "whole":
        with open(path, "rb") as f:
            rows = sum(1 for _ in read_file(f.read(), path=path, source=source))
    else:
        rows = sum(1 for _ in read_file_part(lambda: open(path, "rb"), path=path,
                                             source=source, part=part, n_parts=n_parts))
    seconds = time.perf_counter() - t
    print(json.dumps({"rows": rows, "seconds": seconds, "peak_mb": _rss_mb() - base}))


def measure(path: str, source: str, mode: str, part: int = 0, n_parts: int = 1) -> dict:
    out = subprocess.run([sys.executable, __file__, path, "--source", source, "--child", mode,
                          str(part), str(n_parts)], check=True, capture_output=True, text=True,
                         cwd=REPO)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("file", nargs="?", default=str(DEFAULT))
    p.add_argument("--source", default="squad")
    p.add_argument("--parts", type=int, default=4)
    p.add_argument("--child", nargs=3, metavar=("MODE", "PART", "N"), help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.child:
        child(args.file, args.source, args.child[0], int(args.child[1]), int(args.child[2]))
        return 0
    size = Path(args.file).stat().st_size / 2**20
    print(f"{args.file} ({size:.1f} MB)")
    print(f"{'reader':<34}{'rows':>8}{'seconds':>10}{'peak MB':>10}")
    whole = measure(args.file, args.source, "whole")
    print(f"{'read_file (whole document)':<34}{whole['rows']:>8}{whole['seconds']:>10.2f}"
          f"{whole['peak_mb']:>10.0f}")
    one = measure(args.file, args.source, "part", 0, 1)
    print(f"{'read_file_part, 1 part':<34}{one['rows']:>8}{one['seconds']:>10.2f}"
          f"{one['peak_mb']:>10.0f}")
    parts = [measure(args.file, args.source, "part", i, args.parts) for i in range(args.parts)]
    for i, m in enumerate(parts):
        print(f"{f'read_file_part, part {i} of {args.parts}':<34}{m['rows']:>8}"
              f"{m['seconds']:>10.2f}{m['peak_mb']:>10.0f}")
    assert sum(m["rows"] for m in parts) == whole["rows"] == one["rows"]
    slowest = max(m["seconds"] for m in parts)
    print(f"{args.parts} parts side by side: wall time bounded by the slowest part, "
          f"{slowest:.2f}s ({whole['seconds'] / slowest:.1f}x faster than one whole read, "
          f"given {args.parts} cores)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
