"""The read step on one official JSON input file, as one read task and as N, side by side in
one run:

* per task, each in a fresh process (so its peak resident memory is its own): the read task
  the job had before it read in parts (`read_file` on the file's bytes, duplicate marks,
  Arrow batches), and the job's read task (`spark.tasks.read_task`: `read_file_part` streaming the
  file, duplicate marks, Arrow batches) for the file as 1 part and for each of N parts. The
  figure is the peak RSS minus the process's RSS after its imports (what the read added);
* the job's read stage (`spark.job.read_stage`: the read tasks, the duplicate check across
  parts, the per-file counts) in one Spark session (`--master`, default local[2]) with the
  file as 1 part and as N parts, in 3 rounds after a warm-up (the fastest time is shown),
  with the peak RSS of the largest Python worker process (sampled every 0.2 s; workers are
  reused, as in the job, so a worker that ran two tasks shows the larger).

    .venv/bin/python scripts/bench_read.py [FILE] [--source squad] [--parts 2,4]
                                           [--master local[2]] [--skip-spark]

FILE defaults to the SQuAD train file. Wrap it in `flock /tmp/faithqa-heavy.lock`.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))
DEFAULT = REPO.parent / "shared" / "data" / "squad" / "train-v1.1.reconstructed.json"
REPEATS = 3


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KB on Linux


def _config(path: str, n_parts: int) -> Any:
    """The default config with `input.read_part_bytes` set so that `path` is `n_parts` parts."""
    from faithqa_spark.config import load_config

    size = max(1, Path(path).stat().st_size)
    return load_config(overrides=[f"input.read_part_bytes={-(-size // n_parts)}"])


def child(path: str, source: str, mode: str, part: int, n_parts: int) -> None:
    """One per-task measurement (run as `bench_read.py FILE --child MODE PART N`); prints a
    JSON line."""
    import pyarrow as pa

    from faithqa_spark.arrow import arrow_batch, arrow_batches
    from faithqa_spark.core import fields as C
    from faithqa_spark.core.dedupe import mark_in_order, number_records
    from faithqa_spark.sources.common import blank_row
    from faithqa_spark.inputs import collect_inputs, read_parts
    from faithqa_spark.sources import read_file
    from faithqa_spark.spark.tasks import read_task

    files = collect_inputs([path] if source == "squad" else None,
                           [path] if source == "triviaqa" else None)
    parts = read_parts(files, _config(path, n_parts).input.read_part_bytes)
    task = read_task(parts, _config(path, n_parts))
    # pyarrow's first conversion maps ~50 MB of its library (once per process, and every
    # Spark Python worker has paid it): paid before the baseline, so the figure is the read's
    arrow_batch([blank_row(source, path, "-")], C.QA_FIELDS)
    base = _rss_mb()
    t = time.perf_counter()
    if mode == "whole":  # the read task before the parts: whole bytes, one parse
        with open(path, "rb") as f:
            rows = sum(b.num_rows for b in arrow_batches(mark_in_order(number_records(
                read_file(f.read(), path=path, source=source))), C.QA_FIELDS))
    else:
        ids = pa.RecordBatch.from_arrays([pa.array([part], pa.int64())], ["id"])
        rows = sum(batch.num_rows for batch in task(iter([ids])))
    seconds = time.perf_counter() - t
    print(json.dumps({"rows": rows, "seconds": seconds, "peak_mb": _rss_mb() - base}))


def measure(path: str, source: str, mode: str, part: int = 0, n_parts: int = 1) -> dict:
    out = subprocess.run([sys.executable, __file__, path, "--source", source, "--child", mode,
                          str(part), str(n_parts)], check=True, capture_output=True, text=True,
                         cwd=REPO)
    return json.loads(out.stdout.strip().splitlines()[-1])


def per_task(path: str, source: str, ns: list[int]) -> list[tuple[str, dict]]:
    rows = [("whole document, 1 task (before)", measure(path, source, "whole")),
            ("read task, 1 part", measure(path, source, "part", 0, 1))]
    rows += [(f"read task, part {i} of {n}", measure(path, source, "part", i, n))
             for n in ns for i in range(n)]
    return rows


class _Persisting:
    """The two calls `read_stage` makes on the job's OutputPlan, with no outputs."""

    def keep(self, df: Any) -> Any:
        from pyspark import StorageLevel

        return df.persist(StorageLevel.MEMORY_AND_DISK)

    def release(self, df: Any) -> None:
        df.unpersist()


def _timed_read(spark: Any, cfg: Any, files: list) -> tuple[float, float, int]:
    """(seconds, peak RSS MB of the largest Python worker, rows) of one read stage."""
    from bench import MemorySampler  # scripts/bench.py: the job bench's RSS sampler

    from faithqa_spark.runs import Stages
    from faithqa_spark.spark.job import read_stage

    sampler = MemorySampler(os.getpid()).start()
    t = time.perf_counter()
    plan = _Persisting()
    qa, counts = read_stage(spark, plan, cfg, files, Stages())
    seconds = time.perf_counter() - t
    sampler.stop()
    plan.release(qa)
    return seconds, sampler.summary()["peak_worker_rss_mb"] or 0.0, sum(n for _, n in counts)


def spark_stage(path: str, source: str, ns: list[int], master: str) -> list[dict[str, Any]]:
    """The job's read stage with the file as 1 part and as each of `ns` parts, in one
    session."""
    from faithqa_spark.inputs import collect_inputs
    from faithqa_spark.spark.session import build_session

    spark = build_session(_config(path, 1), master=master, extra={"spark.ui.enabled": "false"})
    files = collect_inputs([path] if source == "squad" else None,
                           [path] if source == "triviaqa" else None)
    configs = sorted({1, *ns}, reverse=True)
    times: dict[int, list[float]] = {n: [] for n in configs}
    peaks: dict[int, float] = {}
    rows: dict[int, int] = {}
    try:
        spark.range(0, 4, 1, 4).mapInArrow(lambda b: b, "id long").count()  # start the workers
        _timed_read(spark, _config(path, configs[0]), files)  # JIT and caches warm, discarded
        # rounds over the configurations, so a slow moment of the machine does not fall on one
        # only; most parts first: a reused worker keeps its high-water mark, so in the first
        # round each run's bigger tasks show their own peak
        for round_ in range(REPEATS):
            for n_parts in configs:
                seconds, peak, rows[n_parts] = _timed_read(spark, _config(path, n_parts), files)
                times[n_parts].append(seconds)
                if round_ == 0:
                    peaks[n_parts] = peak
        return [{"parts": n, "rows": rows[n], "seconds": min(times[n]), "all_seconds": times[n],
                 "peak_worker_mb": peaks[n]} for n in sorted(configs)]
    finally:
        spark.stop()


def main(argv: list[str] | None = None) -> int:
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)  # workers: this Python
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("file", nargs="?", default=str(DEFAULT))
    p.add_argument("--source", default="squad", choices=["squad", "triviaqa"])
    p.add_argument("--parts", default="2,4", help="the numbers of parts to compare with 1")
    p.add_argument("--master", default="local[2]")
    p.add_argument("--skip-spark", action="store_true")
    p.add_argument("--child", nargs=3, metavar=("MODE", "PART", "N"), help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.child:
        child(args.file, args.source, args.child[0], int(args.child[1]), int(args.child[2]))
        return 0
    size = Path(args.file).stat().st_size / 2**20
    ns = [int(n) for n in args.parts.split(",")]
    print(f"{args.file} ({size:.1f} MB), 1 part against {', '.join(map(str, ns))}")
    tasks = per_task(args.file, args.source, ns)
    print(f"\nper task, each in a fresh process\n{'task':<38}{'rows':>8}{'seconds':>10}"
          f"{'peak RSS added MB':>19}")
    for name, m in tasks:
        print(f"{name:<38}{m['rows']:>8}{m['seconds']:>10.2f}{m['peak_mb']:>19.0f}")
    for n in ns:
        split = [m for name, m in tasks if name.endswith(f" of {n}")]
        assert sum(m["rows"] for m in split) == tasks[0][1]["rows"] == tasks[1][1]["rows"]
    summary: dict[str, Any] = {"file": args.file, "mb": round(size, 1), "parts": ns,
                               "per_task": {name: m for name, m in tasks}}
    if not args.skip_spark:
        stage = spark_stage(args.file, args.source, ns, args.master)
        print(f"\nthe job's read stage on {args.master} (the fastest of {REPEATS} runs)\n"
              f"{'read tasks':<38}{'rows':>8}{'seconds':>10}{'peak worker RSS MB':>19}")
        for m in sorted(stage, key=lambda m: m["parts"]):
            print(f"{m['parts']:<38}{m['rows']:>8}{m['seconds']:>10.2f}"
                  f"{m['peak_worker_mb']:>19.0f}")
        summary["spark_stage"] = stage
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
