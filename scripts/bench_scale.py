"""The scale run of scripts/bench.py (`bench.py --scale`): the job over a THROUGHPUT LOAD in
the TriviaQA layout made from the SQuAD train articles (scripts/make_scale_load.py; not
TriviaQA), on `local-cluster[E,1,MEM]` with E = 1 and then E = 2 executors of one core each.

From the two wall times T1 and T2 (spark-submit to exit, start-up included) it reports the
speed-up T1 / T2 and the serial fraction s of Amdahl's law, T(n) = T1 (s + (1 - s) / n),
solved from T2: s = 2 T2 / T1 - 1 (clamped to [0, 1]). From s it PROJECTS the time on 8, 64
and 512 cores. That is arithmetic on two measurements, not a measurement: it assumes the
parallel work splits evenly, that nothing but the serial part grows, and executors of one
core; on a slice of the load (`--scale-questions`) it projects that slice.

On a machine with few cores (2 here) the one-executor run is not a one-core run: the
driver's and the executor's JVMs work beside the Python worker on the other core. So the
second executor gains less than it would where each has a core of its own, the serial
fraction measured is an overestimate, and the projection pessimistic.

    .venv/bin/python scripts/bench.py --scale [SQUAD_FILE] [--scale-times 2]
        [--scale-questions N] [--scale-memory 1536] [--bank DIR] [--keep]

The load has no SQuAD input, so the job needs a bank: `--bank DIR` (default: the paper's
published bank when it is there), else the load's own contexts build one
(`bank.sources=["triviaqa"]`).
"""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path
from typing import Any

import bench
import make_scale_load

PROJECTED_CORES = (8, 64, 512)
DEFAULT_BANK = bench.REPO.parent / "shared" / "reference" / "paper_entity_bank"


def serial_fraction(t1: float, t2: float) -> float:
    """Amdahl's serial fraction from the times on 1 and 2 cores: T2 = T1 (s + (1 - s) / 2),
    clamped to [0, 1] (noise can put a measurement outside)."""
    return min(1.0, max(0.0, 2 * t2 / t1 - 1))


def projected_seconds(t1: float, s: float, cores: int) -> float:
    """Amdahl's law: the time on `cores` cores of work that takes `t1` on one."""
    return t1 * (s + (1 - s) / cores)


def scale_command(executors: int, memory_mb: int, qa_file: str, output: Path,
                  bank: str | None) -> list[str]:
    """spark-submit of the job over the load on `executors` executors of one core."""
    bank_args = ["--bank", bank] if bank else ["--set", 'bank.sources=["triviaqa"]']
    return ["./scripts/submit.sh", "--master", f"local-cluster[{executors},1,{memory_mb}]",
            "jobs/build_dataset.py", "--triviaqa", qa_file, "--output", str(output),
            *bank_args]


def run_scale(squad: Path, times: int, questions: int | None, memory_mb: int,
              bank: str | None, keep: bool) -> dict[str, Any]:
    """Make the load, run the job on 1 and 2 executors, and work out the figures."""
    tmp = Path(tempfile.mkdtemp(prefix="faithqa-scale-"))
    bench.log(f"scale: temp dir {tmp}")
    try:
        doc = json.loads(squad.read_text(encoding="utf-8"))
        load = make_scale_load.write_load(doc, tmp / "load", times, questions)
        bench.log(f"scale: {load['questions']:,} questions, {load['pages']:,} evidence pages "
                  f"({make_scale_load.LABEL})")
        runs = []
        for executors in (1, 2):
            out = tmp / f"job-{executors}"
            r = bench.run_measured(
                scale_command(executors, memory_mb, load["qa_file"], out, bank),
                f"scale, {executors} executor(s)", bench.is_progress)
            in_job, stages = bench.run_times(out)
            report = json.loads((out / "report.json").read_text(encoding="utf-8"))
            runs.append({"executors": executors, "wall_s": r.wall_s, "in_job_s": in_job,
                         "stages": stages, "ner": report.get("ner"),
                         "dataset_rows": _successes(report), "load_1m": r.load_1m,
                         "peak_worker_rss_mb": r.memory["peak_worker_rss_mb"]})
        return {"load": load, "bank": bank or 'bank.sources=["triviaqa"]',
                "memory_mb": memory_mb, "runs": runs, **figures(runs[0]["wall_s"],
                                                                runs[1]["wall_s"])}
    finally:
        if keep:
            bench.log(f"kept {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)


def _successes(report: dict[str, Any]) -> int:
    return sum(f.get("success", 0) for s in report.get("sources", {}).values()
               for f in s.get("files", {}).values())


def figures(t1: float, t2: float) -> dict[str, Any]:
    """Speed-up, serial fraction and the projection from the two wall times."""
    s = serial_fraction(t1, t2)
    return {"speedup_2_over_1": t1 / t2, "serial_fraction": s,
            "projection": {n: projected_seconds(t1, s, n) for n in PROJECTED_CORES}}


def render(res: dict[str, Any]) -> str:
    load, runs = res["load"], res["runs"]
    out = [f"SCALE RUN: {load['questions']:,} questions of a {make_scale_load.LABEL} "
           f"(x{load['times']}), {load['pages']:,} evidence pages; bank: {res['bank']}"]
    names = list(dict.fromkeys(k for r in runs for k in r["stages"]))  # the job's order
    rows = [[f"local-cluster[{r['executors']},1,{res['memory_mb']}]", bench.fmt_s(r["wall_s"]),
             *[bench.fmt_s(r["stages"].get(n)) for n in names],
             f"{(r['ner'] or {}).get('distinct_contexts', '?'):,}", f"{r['dataset_rows']:,}"]
            for r in runs]
    out.append(bench.table(rows, ["master", "wall", *names, "contexts", "rows"]))
    out.append(f"  speed-up 1 -> 2 executors: {res['speedup_2_over_1']:.2f}x; serial fraction "
               f"(Amdahl, from the two wall times): {res['serial_fraction']:.3f}")
    out.append("  PROJECTION (Amdahl's law from these two measurements, not measured):")
    for n, t in res["projection"].items():
        out.append(f"    {n:>4} cores: {t:8.1f} s  ({runs[0]['wall_s'] / t:.1f}x one core)")
    return "\n".join(out)


def main(args: Any) -> int:
    """Run from bench.py's --scale (its parsed arguments)."""
    bank = args.bank if args.bank else (str(DEFAULT_BANK) if DEFAULT_BANK.is_dir() else None)
    try:
        res = run_scale(args.squad, args.scale_times, args.scale_questions, args.scale_memory,
                        bank, args.keep)
    except RuntimeError as e:  # a run failed: its output tail is in the message
        print(f"error: {e}")
        return 1
    print(render(res))
    print(json.dumps(res, default=str))
    return 0
