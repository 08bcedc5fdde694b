"""Benchmark of the Spark job against its NER floor and the single-process reference runner.

    .venv/bin/python scripts/bench.py [SQUAD_FILE] [--master local[2]] [--skip-scaling]
                                      [--skip-reference] [--keep] [--fractions 0.25,0.5,1]
    .venv/bin/python scripts/bench.py --scale [SQUAD_FILE] [--scale-times 2]
                                      [--scale-questions N] [--scale-memory MB] [--bank DIR]

`--scale` runs only the scale run instead (scripts/bench_scale.py): the job over a
TriviaQA-layout throughput load made from the file's articles on local-cluster with 1 and
2 executors, the speed-up, Amdahl's serial fraction and a projection to more cores.

SQUAD_FILE defaults to ../shared/data/squad/train-v1.1.reconstructed.json (relative to the
repo root). One run measures:

* the NER floor: `nlp.pipe` over the distinct contexts in a process of its own that does
  nothing else, with the job's model, components and batch size, no Spark, and the
  single-threaded environment of faithqa_spark.threads (as the job's workers have);
  `floor_s` is that time divided by the cores of the master (2 for local[2]): no job on
  those cores can do NER faster than that;
* the job: `./scripts/submit.sh --master M jobs/build_dataset.py --squad FILE --output TMP`
  end to end, its wall time and its time per stage (from the `stage_seconds` and
  `wall_seconds` of the manifest.json it writes);
* the reference runner (`python -m faithqa_spark.reference`) on the same file: wall time, and
  whether its jsonl/*.jsonl and report.json are byte-identical to the job's;
* scaling: the job on slices of the input (whole articles, first ones first) written to a
  temp dir, seconds per 1,000 questions for each, and max/min of those; each slice's own
  NER floor, and the marginal cost from the largest fraction below 1 to all of the input
  (`marginal`: the job's extra wall seconds over the floor's extra seconds);
* memory: peak RSS per process of the job's process tree (the driver JVM, the driver Python
  process and every Python worker, i.e. processes whose cmdline holds `pyspark.daemon` or
  `pyspark.worker`), sampled every 0.2 s with psutil; and the reference runner's peak RSS.

Progress goes to stderr; stdout gets a table and, as its last line, one JSON object with all
the figures. Temp files live under the system temp dir (never in the repo) and are removed
at the end unless --keep is given.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

DEFAULT_SQUAD = REPO.parent / "shared" / "data" / "squad" / "train-v1.1.reconstructed.json"
VENV_PYTHON = REPO / ".venv" / "bin" / "python"
SAMPLE_EVERY_S = 0.2
MB = 1024 * 1024

WORKER_MARKERS = ("pyspark.daemon", "pyspark.worker")


def log(msg: str) -> None:
    print(f"[bench {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


# ---------------------------------------------------------------- pure helpers

def parse_cores(master: str, nproc: int | None = None) -> int:
    """Cores a Spark master URL gives the job: local -> 1, local[N] / local[N,F] -> N,
    local[*] -> nproc, local-cluster[E,C,M] -> E*C. Other masters (yarn, spark://, k8s)
    do not say, so they are an error."""
    m = master.strip()
    cpus = nproc if nproc is not None else (os.cpu_count() or 1)
    if m == "local":
        return 1
    hit = re.fullmatch(r"local\[(\*|\d+)(?:\s*,\s*\d+)?\]", m)
    if hit:
        n = cpus if hit.group(1) == "*" else int(hit.group(1))
        if n < 1:
            raise ValueError(f"master {master!r} has no cores")
        return n
    hit = re.fullmatch(r"local-cluster\[\s*(\d+)\s*,\s*(\d+)\s*,\s*\d+\s*\]", m)
    if hit:
        return int(hit.group(1)) * int(hit.group(2))
    raise ValueError(f"cannot tell the number of cores of master {master!r}; "
                     f"use local, local[N], local[*] or local-cluster[E,C,M]")


def parse_fractions(text: str) -> list[float]:
    """'0.25,0.5,1' -> [0.25, 0.5, 1.0]: each in (0, 1], sorted, no duplicates."""
    out: set[float] = set()
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        f = float(part)
        if not 0 < f <= 1:
            raise ValueError(f"fraction {part} is not in (0, 1]")
        out.add(f)
    if not out:
        raise ValueError("no fractions given")
    return sorted(out)


def run_times(output: Path) -> tuple[float | None, dict[str, float]]:
    """A run's time inside the runner (`wall_seconds`) and its seconds per stage, in order,
    from the manifest.json both runners write under their output directory."""
    path = output / "manifest.json"
    if not path.is_file():
        return None, {}
    manifest = json.loads(path.read_text(encoding="utf-8"))
    return manifest.get("wall_seconds"), dict(manifest.get("stage_seconds", {}))


def count_questions(doc: dict[str, Any]) -> int:
    """Questions (qa records) of an official SQuAD document."""
    return sum(len(p.get("qas", [])) for a in doc.get("data", [])
               for p in a.get("paragraphs", []))


def article_questions(article: dict[str, Any]) -> int:
    return sum(len(p.get("qas", [])) for p in article.get("paragraphs", []))


def slice_squad(doc: dict[str, Any], fraction: float) -> dict[str, Any]:
    """The first whole articles of `doc` that hold at least `fraction` of its questions
    (at least one article); other top-level keys (`version`) are kept."""
    if not 0 < fraction <= 1:
        raise ValueError(f"fraction {fraction} is not in (0, 1]")
    articles = doc.get("data", [])
    target = fraction * count_questions(doc)
    taken, n = [], 0
    for a in articles:
        if taken and n >= target:
            break
        taken.append(a)
        n += article_questions(a)
    return {**doc, "data": taken}


def classify_process(cmdline: Sequence[str], name: str = "", parent_name: str = "") -> str:
    """Role of a process in a spark-submit tree: 'worker' (Python daemon or worker, forked
    children included), 'jvm' (the driver JVM), 'driver_python' (the Python driver program)
    or 'other' (the launch scripts, spark-class's command builder, and the JVM's short-lived
    forks that still show its cmdline and RSS before they exec a helper such as chmod)."""
    joined = " ".join(cmdline)
    if any(m in joined for m in WORKER_MARKERS):
        return "worker"
    if "org.apache.spark.launcher.Main" in joined:
        return "other"
    if name == "java" and "org.apache.spark.deploy.SparkSubmit" in joined:
        return "other" if parent_name == "java" else "jvm"
    if name.startswith("python") or Path(cmdline[0] if cmdline else "").name.startswith("python"):
        return "driver_python"
    return "other"


def ratio(a: float | None, b: float | None) -> float | None:
    if a is None or b is None or b == 0:
        return None
    return a / b


def marginal(scaling: Sequence[dict[str, Any]]) -> dict[str, Any] | None:
    """The cost of the last part of the input: from the largest fraction below 1 to all of
    it, the job's extra wall seconds over the floor's extra seconds (fixed costs, such as
    starting Spark and committing tables, cancel out). None without both runs."""
    whole = next((r for r in scaling if r["fraction"] == 1), None)
    part = max((r for r in scaling if r["fraction"] < 1 and r.get("floor_s") is not None),
               key=lambda r: r["fraction"], default=None)
    if whole is None or part is None or whole.get("floor_s") is None:
        return None
    job_s = whole["wall_s"] - part["wall_s"]
    floor_s = whole["floor_s"] - part["floor_s"]
    return {"from": part["fraction"], "job_s": job_s, "floor_s": floor_s,
            "ratio": ratio(job_s, floor_s) if floor_s > 0 else None}


def flatness(values: Iterable[float]) -> float | None:
    vals = [v for v in values if v is not None]
    if not vals or min(vals) <= 0:
        return None
    return max(vals) / min(vals)


def compare_outputs(a: Path, b: Path) -> tuple[bool, list[str]]:
    """Whether jsonl/*.jsonl and report.json are byte-identical under `a` and `b`, and the
    relative paths that differ or exist on one side only."""
    def files(root: Path) -> set[str]:
        found = {str(p.relative_to(root)) for p in (root / "jsonl").glob("*.jsonl")}
        if (root / "report.json").is_file():
            found.add("report.json")
        return found

    names = files(a) | files(b)
    diff = sorted(n for n in names
                  if not ((a / n).is_file() and (b / n).is_file() and _digest(a / n) == _digest(b / n)))
    return (bool(names) and not diff), diff


def _digest(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def fmt_s(x: float | None) -> str:
    return "-" if x is None else f"{x:.1f}s"


def fmt_x(x: float | None) -> str:
    return "-" if x is None else f"{x:.2f}x"


def fmt_mb(x: float | None) -> str:
    return "-" if x is None else f"{x:,.0f} MB"


def rnd(x: float | None, nd: int = 3) -> float | None:
    return None if x is None else round(x, nd)


# ---------------------------------------------------------------- memory sampling

@dataclass
class ProcPeak:
    pid: int
    role: str
    cmd: str
    peak_rss: int = 0


@dataclass
class MemorySampler:
    """Samples RSS of a process and all its descendants every `every` seconds in a thread."""

    root_pid: int
    every: float = SAMPLE_EVERY_S
    procs: dict[tuple[int, str], ProcPeak] = field(default_factory=dict)
    peak_driver: int = 0  # JVM + driver Python, summed within one sample
    peak_workers_total: int = 0  # all workers, summed within one sample
    samples: int = 0
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None

    def start(self) -> "MemorySampler":
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()

    def _run(self) -> None:
        import psutil

        try:
            root = psutil.Process(self.root_pid)
        except psutil.NoSuchProcess:
            return
        while not self._stop.is_set():
            try:
                tree = [root, *root.children(recursive=True)]
            except psutil.NoSuchProcess:
                break
            sums: dict[str, int] = {}
            names: dict[int, str] = {}  # parents come before their children in `tree`
            for p in tree:
                try:
                    cmdline = p.cmdline()
                    name = p.name()
                    rss = p.memory_info().rss
                    parent = names.get(p.ppid(), "")
                except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess):
                    continue
                names[p.pid] = name
                role = classify_process(cmdline, name, parent)
                key = (p.pid, role)
                peak = self.procs.get(key)
                if peak is None:
                    peak = self.procs[key] = ProcPeak(p.pid, role, _short_cmd(cmdline))
                peak.peak_rss = max(peak.peak_rss, rss)
                sums[role] = sums.get(role, 0) + rss
            self.peak_driver = max(self.peak_driver,
                                   sums.get("jvm", 0) + sums.get("driver_python", 0))
            self.peak_workers_total = max(self.peak_workers_total, sums.get("worker", 0))
            self.samples += 1
            self._stop.wait(self.every)

    def peak_of(self, role: str) -> int | None:
        vals = [p.peak_rss for p in self.procs.values() if p.role == role]
        return max(vals) if vals else None

    def summary(self) -> dict[str, Any]:
        def mb(x: int | None) -> float | None:
            return None if x is None else round(x / MB, 1)

        return {
            "peak_driver_rss_mb": mb(self.peak_driver or None),
            "peak_jvm_rss_mb": mb(self.peak_of("jvm")),
            "peak_driver_python_rss_mb": mb(self.peak_of("driver_python")),
            "peak_worker_rss_mb": mb(self.peak_of("worker")),
            "peak_workers_total_rss_mb": mb(self.peak_workers_total or None),
            "worker_processes": sum(1 for p in self.procs.values() if p.role == "worker"),
            "samples": self.samples,
            "processes": [
                {"pid": p.pid, "role": p.role, "peak_rss_mb": mb(p.peak_rss), "cmd": p.cmd}
                for p in sorted(self.procs.values(), key=lambda p: (p.role, p.pid))
                if p.role != "other" and p.peak_rss > 0],
        }


def _short_cmd(cmdline: Sequence[str], limit: int = 70) -> str:
    """A readable form of a command line: program name plus main class/module/script."""
    if not cmdline:
        return ""
    prog = Path(cmdline[0]).name
    rest = [a for a in cmdline[1:] if not a.startswith("-") and "/" not in a[:1] and len(a) < 80]
    for marker in (*WORKER_MARKERS, "org.apache.spark.deploy.SparkSubmit"):
        if marker in cmdline:
            rest = [marker]
            break
    script = next((a for a in cmdline[1:] if a.endswith(".py")), None)
    text = " ".join([prog, *([Path(script).name] if script else rest[:2])])
    return text[:limit]


# ---------------------------------------------------------------- running things

@dataclass
class Proc:
    rc: int
    wall_s: float
    stdout: str
    stderr: str
    memory: dict[str, Any]
    load_1m: float  # 1-minute load average when it started: how busy the machine was


def run_measured(cmd: list[str], label: str, echo: Callable[[str], bool]) -> Proc:
    """Run `cmd` in the repo root, timing it and sampling its process tree's memory;
    stderr lines for which `echo` is true are relayed to our stderr as they come."""
    load = os.getloadavg()[0]
    log(f"{label} (load {load:.1f}): {' '.join(cmd)}")
    t = time.perf_counter()
    p = subprocess.Popen(cmd, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, bufsize=1)
    sampler = MemorySampler(p.pid).start()
    out: list[str] = []
    err: list[str] = []

    def pump(stream: Any, sink: list[str], relay: bool) -> None:
        for line in stream:
            sink.append(line)
            if relay and echo(line):
                print(f"    {label}: {line.rstrip()}", file=sys.stderr, flush=True)

    # spark-submit's PythonRunner merges the Python driver's stderr into its stdout, so the
    # job's progress lines arrive on stdout: relay both streams.
    threads = [threading.Thread(target=pump, args=(p.stdout, out, True), daemon=True),
               threading.Thread(target=pump, args=(p.stderr, err, True), daemon=True)]
    for th in threads:
        th.start()
    rc = p.wait()
    wall = time.perf_counter() - t
    sampler.stop()
    for th in threads:
        th.join()
    result = Proc(rc, wall, "".join(out), "".join(err), sampler.summary(), load)
    if rc != 0:
        tail = "\n".join((result.stdout + result.stderr).splitlines()[-40:])
        raise RuntimeError(f"{label} failed with exit status {rc}:\n{tail}")
    log(f"{label}: done in {wall:.1f}s")
    return result


def is_progress(line: str) -> bool:
    return "[faithqa]" in line


def job_command(master: str, squad: Path, output: Path, config: str | None = None
                ) -> list[str]:
    return ["./scripts/submit.sh", "--master", master, "jobs/build_dataset.py",
            "--squad", str(squad), "--output", str(output),
            *(["--config", config] if config else [])]


def reference_command(squad: Path, output: Path) -> list[str]:
    return [str(VENV_PYTHON), "-m", "faithqa_spark.reference",
            "--squad", str(squad), "--output", str(output)]


def run_job(master: str, squad: Path, output: Path, label: str,
            config: str | None = None) -> dict[str, Any]:
    r = run_measured(job_command(master, squad, output, config), label, is_progress)
    in_job, stages = run_times(output)
    return {"wall_s": r.wall_s, "in_job_s": in_job, "stages": stages, "memory": r.memory,
            "output": str(output), "load_1m": r.load_1m}


def run_reference(squad: Path, output: Path) -> dict[str, Any]:
    r = run_measured(reference_command(squad, output), "reference", is_progress)
    in_run, stages = run_times(output)
    return {"wall_s": r.wall_s, "in_run_s": in_run, "stages": stages,
            "peak_rss_mb": r.memory["peak_driver_python_rss_mb"]
            or max((p["peak_rss_mb"] for p in r.memory["processes"]), default=None),
            "output": str(output), "load_1m": r.load_1m}


def distinct_contexts(squad: Path, cfg: Any) -> tuple[list[str], int]:
    """The distinct contexts of the file's answerable rows, deduplicated by `context_id` as
    the job does, in first-seen order; and the number of input records."""
    from faithqa_spark.core import fields as C
    from faithqa_spark.core.text import context_id
    from faithqa_spark.inputs import reader_settings
    from faithqa_spark.sources import read_file

    seen: dict[str, str] = {}
    n = 0
    for row in read_file(squad.read_bytes(), path=str(squad), source="squad",
                         settings=reader_settings(cfg)):
        n += 1
        if row[C.STATUS] == C.OK:
            seen.setdefault(context_id(row[C.CONTEXT]), row[C.CONTEXT])
    return list(seen.values()), n


FLOOR_CHILD = "--floor-child"


def floor_child(contexts_file: Path) -> int:
    """The floor's NER in a process of its own (run as `bench.py --floor-child FILE`): the
    model loaded, then `nlp.pipe` over the contexts in FILE (a JSON list), timed apart.
    Nothing but NER happens in it (no pyarrow, no sampler thread), and it runs with the
    environment that keeps a NER process single-threaded (faithqa_spark.threads), as the
    job's workers and the reference runner do: the fastest single process there is."""
    from faithqa_spark import ner as fner
    from faithqa_spark.config import load_config

    cfg = load_config()
    contexts = json.loads(contexts_file.read_text(encoding="utf-8"))
    t = time.perf_counter()
    nlp = fner.load_ner(cfg.ner.model, cfg.ner.components)
    load_s = time.perf_counter() - t
    t = time.perf_counter()
    ents = fner.run_ner(nlp, contexts, cfg.ner.batch_size)
    ner_s = time.perf_counter() - t
    print(json.dumps({"load_s": load_s, "single_process_s": ner_s,
                      "entities": sum(map(len, ents)), "model_id": fner.model_id(nlp),
                      "pipes": list(nlp.pipe_names), "threads": threading.active_count(),
                      "pyarrow_loaded": "pyarrow" in sys.modules}))
    return 0


def measure_floor(squad: Path, cores: int, tmp: Path) -> dict[str, Any]:
    """Single-process NER over the distinct contexts (model load timed apart), in a child
    process (`floor_child`)."""
    from faithqa_spark.config import load_config
    from faithqa_spark.threads import single_threaded_env

    cfg = load_config()
    load = os.getloadavg()[0]
    contexts, records = distinct_contexts(squad, cfg)
    log(f"floor: {len(contexts):,} distinct contexts of {records:,} records; "
        f"{cfg.ner.model} {list(cfg.ner.components)} in a process of its own")
    path = tmp / "floor-contexts.json"
    path.write_text(json.dumps(contexts), encoding="utf-8")
    child = subprocess.run([sys.executable, str(Path(__file__).resolve()), FLOOR_CHILD, str(path)],
                           cwd=REPO, capture_output=True, text=True,
                           env=single_threaded_env(dict(os.environ)))
    if child.returncode != 0:
        raise RuntimeError(f"floor process failed ({child.returncode}):\n{child.stderr[-3000:]}")
    r = json.loads(child.stdout.strip().splitlines()[-1])
    log(f"floor: model loaded in {r['load_s']:.1f}s (pipes {r['pipes']}); nlp.pipe "
        f"{r['single_process_s']:.1f}s -> floor {r['single_process_s'] / cores:.1f}s on "
        f"{cores} cores")
    return {"contexts": len(contexts), "context_chars": sum(map(len, contexts)),
            "records": records, "entities": r["entities"], "model": cfg.ner.model,
            "model_id": r["model_id"], "pipes": r["pipes"], "batch_size": cfg.ner.batch_size,
            "load_s": r["load_s"], "single_process_s": r["single_process_s"],
            "floor_s": r["single_process_s"] / cores, "load_1m": load,
            "floor_process_threads": r["threads"], "floor_process_pyarrow": r["pyarrow_loaded"]}


def write_slices(doc: dict[str, Any], fractions: list[float], tmp: Path) -> list[dict[str, Any]]:
    """Write the slice of each fraction below 1 under `tmp`/slices; one entry per fraction."""
    out = []
    for f in fractions:
        part = slice_squad(doc, f)
        path = None
        if f < 1:  # the whole input is the input file itself
            path = tmp / "slices" / f"squad-{f:g}.json"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(part), encoding="utf-8")
        out.append({"fraction": f, "path": path, "articles": len(part["data"]),
                    "questions": count_questions(part)})
    return out


def machine_info() -> dict[str, Any]:
    import psutil

    cpu = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    versions: dict[str, str | None] = {}
    for mod in ("pyspark", "spacy", "pyarrow"):
        try:
            versions[mod] = __import__(mod).__version__
        except ImportError:
            versions[mod] = None
    try:
        java = subprocess.run(["java", "-version"], capture_output=True, text=True).stderr
        java_v = java.splitlines()[0] if java else None
    except OSError:
        java_v = None
    return {"nproc": os.cpu_count(), "usable_cpus": len(os.sched_getaffinity(0)),
            "memory_gb": round(psutil.virtual_memory().total / 1024 ** 3, 1),
            "cpu_model": cpu, "python": platform.python_version(),
            "spark": versions["pyspark"], "spacy": versions["spacy"],
            "pyarrow": versions["pyarrow"], "java": java_v,
            "load_avg_at_start": [round(x, 2) for x in os.getloadavg()]}


# ---------------------------------------------------------------- report

def table(rows: list[list[str]], header: list[str]) -> str:
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    def line(r: list[str]) -> str:
        return "  ".join(str(c).ljust(w) if i == 0 else str(c).rjust(w)
                         for i, (c, w) in enumerate(zip(r, widths)))
    return "\n".join([line(header), "  ".join("-" * w for w in widths), *map(line, rows)])


def render(res: dict[str, Any]) -> str:
    m, fl, job = res["machine"], res["floor"], res["job"]
    cores = res["cores"]
    out = [f"faithqa-spark benchmark: {res['input']}",
           f"machine: {m['nproc']} CPUs ({m['cpu_model']}), {m['memory_gb']} GB; Python "
           f"{m['python']}, Spark {m['spark']}, spaCy {m['spacy']}; load at start "
           f"{m['load_avg_at_start']}",
           f"input: {fl['records']:,} questions, {fl['contexts']:,} distinct contexts "
           f"({fl['context_chars']:,} chars); master {res['master']} = {cores} cores", ""]
    out.append(f"NER floor ({fl['model_id']}, pipes {fl['pipes']}, batch {fl['batch_size']}): "
               f"model load {fl['load_s']:.1f}s, nlp.pipe {fl['single_process_s']:.1f}s in one "
               f"process -> floor {fl['floor_s']:.1f}s on {cores} cores (load {fl['load_1m']:.1f})")
    out.append("")
    ref = res.get("reference")
    stage_names = list(job["stages"])
    rows = []
    for s in stage_names:
        js = job["stages"][s]
        rs = ref["stages"].get(s) if ref else None
        rows.append([s, fmt_s(js), f"{js / job['wall_s']:.0%}", fmt_s(rs),
                     f"{rs / ref['wall_s']:.0%}" if rs is not None else "-"])
    other = job["wall_s"] - sum(job["stages"].values())
    ref_other = (ref["wall_s"] - sum(ref["stages"].values())) if ref else None
    rows.append(["start-up/other", fmt_s(other), f"{other / job['wall_s']:.0%}",
                 fmt_s(ref_other), f"{ref_other / ref['wall_s']:.0%}" if ref else "-"])
    rows.append(["TOTAL (wall)", fmt_s(job["wall_s"]), "100%",
                 fmt_s(ref["wall_s"] if ref else None), "100%" if ref else "-"])
    out.append(table(rows, ["stage", f"job {res['master']}", "share", "reference", "share"]))
    out.append(f"  (1-minute load average at the start: job {job['load_1m']:.1f}, reference "
               f"{ref['load_1m']:.1f})" if ref else
               f"  (1-minute load average at the start: job {job['load_1m']:.1f})")
    out.append(f"  (job: {fmt_s(job['in_job_s'])} inside build_dataset, the manifest's "
               f"wall_seconds; the rest is spark-submit/JVM/Python start-up, session start "
               f"and stop)")
    out.append("")
    s = res["summary"]
    out.append(table([
        ["job wall", fmt_s(s["job_wall_s"])],
        ["NER floor (single process / cores)", fmt_s(s["floor_s"])],
        ["job / floor", fmt_x(s["floor_ratio"])],
        ["audit stages (share of job wall)",
         f"{fmt_s(s['audit_s'])} ({s['audit_share']:.1%})" if s["audit_share"] is not None
         else "-"],
        ["job ner stage / floor", fmt_x(s["ner_stage_vs_floor"])],
        ["reference wall", fmt_s(s["reference_wall_s"])],
        ["speed-up vs reference", fmt_x(s["speedup_vs_reference"])],
        ["reference / single-core floor", fmt_x(s["reference_vs_single_core_floor"])],
        ["identical to reference", {True: "yes", False: "NO", None: "-"}[s["identical_to_reference"]]
         + (f" (differ: {', '.join(res['differences'])})" if res.get("differences") else "")],
    ], ["summary", "value"]))
    cmp = res.get("compare")
    if cmp:
        mine = cmp["job_stages"]
        names = list(dict.fromkeys([*mine, *cmp["stages"]]))
        rows = [[n, fmt_s(mine.get(n)), fmt_s(cmp["stages"].get(n)),
                 fmt_x(ratio(mine.get(n), cmp["stages"].get(n)))] for n in names]
        rows.append(["TOTAL (wall)", fmt_s(cmp["job_wall_s"]), fmt_s(cmp["wall_s"]),
                     fmt_x(cmp["job_over_compare"])])
        out.append("")
        if len(cmp["pairs"]) > 1:
            out.append(table([[str(i + 1), fmt_s(p["job_wall_s"]), fmt_s(p["compare_wall_s"]),
                               fmt_x(p["ratio"])] for i, p in enumerate(cmp["pairs"])],
                             ["pair", "job (default config)", f"job ({cmp['config']})",
                              "ratio"]))
            out.append("  (the median pair, stage by stage, below)")
        out.append(table(rows, ["stage", "job (default config)", f"job ({cmp['config']})",
                                "ratio"]))
    if res["scaling"]:
        out.append("")
        out.append(table([[f"{r['fraction']:g}", f"{r['articles']}", f"{r['questions']:,}",
                           fmt_s(r["wall_s"]), fmt_s(r["in_job_s"]), fmt_s(r["ner_s"]),
                           f"{r['s_per_1000_questions']:.2f}s",
                           f"{r['in_job_s_per_1000_questions']:.2f}s"
                           if r["in_job_s_per_1000_questions"] is not None else "-",
                           f"{r['load_1m']:.1f}"]
                          for r in res["scaling"]],
                         ["fraction", "articles", "questions", "wall", "in job", "ner",
                          "wall/1000 q", "in job/1000 q", "load"]))
        if any(r["reused_main_run"] for r in res["scaling"]):
            out.append("  (fraction 1 is the main job run above, not a second run)")
        out.append(f"  scaling flatness (max/min wall per 1000 questions): "
                   f"{fmt_x(s['scaling_flatness'])}")
        m = s["marginal"]
        if m:
            out.append(f"  marginal cost from {m['from']:g} to all of the input: job "
                       f"+{m['job_s']:.1f}s, floor +{m['floor_s']:.1f}s -> {fmt_x(m['ratio'])} "
                       f"the floor's")
    out.append("")
    mem = job["memory"]
    out.append(table([[p["role"], str(p["pid"]), p["cmd"], fmt_mb(p["peak_rss_mb"])]
                      for p in mem["processes"]], ["process", "pid", "command", "peak RSS"]))
    out.append(f"  driver (JVM + driver Python, same sample) {fmt_mb(mem['peak_driver_rss_mb'])}; "
               f"max worker {fmt_mb(mem['peak_worker_rss_mb'])}; all workers at once "
               f"{fmt_mb(mem['peak_workers_total_rss_mb'])} ({mem['worker_processes']} worker "
               f"processes, {mem['samples']} samples); reference "
               f"{fmt_mb(ref['peak_rss_mb'] if ref else None)}")
    out.append("  (RSS counts pages shared by the forked workers once per process)")
    return "\n".join(out)


AUDIT_STAGES = ("audit", "audit files")  # the job's stage names (spark/job.py)


def audit_seconds(stages: dict[str, float]) -> float:
    """Seconds the job spent in the audit's stages (report.json's audit and analysis
    sections; the audit sample and the HTML report)."""
    return sum(stages.get(s, 0.0) for s in AUDIT_STAGES)


def summarise(res: dict[str, Any]) -> dict[str, Any]:
    job, fl, ref = res["job"], res["floor"], res.get("reference")
    ref_wall = ref["wall_s"] if ref else None
    scaling = [{k: (rnd(v) if isinstance(v, float) else v) for k, v in r.items()}
               for r in res["scaling"]]
    return {
        "input": res["input"], "master": res["master"], "cores": res["cores"],
        "questions": fl["records"], "distinct_contexts": fl["contexts"],
        "job_wall_s": rnd(job["wall_s"]), "job_in_driver_s": rnd(job["in_job_s"]),
        "job_stages_s": job["stages"],
        "floor_s": rnd(fl["floor_s"]), "ner_single_process_s": rnd(fl["single_process_s"]),
        "ner_model_load_s": rnd(fl["load_s"]),
        "floor_ratio": rnd(ratio(job["wall_s"], fl["floor_s"])),
        # the audit's two stages run after the dataset is materialised, each a driver-side
        # barrier, so their seconds are exactly what the audit adds to the wall time
        "audit_s": rnd(audit_seconds(job["stages"])),
        "audit_share": rnd(ratio(audit_seconds(job["stages"]), job["wall_s"]), 4),
        "ner_stage_vs_floor": rnd(ratio(job["stages"].get("ner"), fl["floor_s"])),
        "reference_wall_s": rnd(ref_wall),
        "reference_stages_s": ref["stages"] if ref else None,
        "speedup_vs_reference": rnd(ratio(ref_wall, job["wall_s"])),
        "reference_vs_single_core_floor": rnd(ratio(ref_wall, fl["floor_s"] * res["cores"])),
        "identical_to_reference": res.get("identical"),
        "peak_worker_rss_mb": job["memory"]["peak_worker_rss_mb"],
        "peak_driver_rss_mb": job["memory"]["peak_driver_rss_mb"],
        "peak_jvm_rss_mb": job["memory"]["peak_jvm_rss_mb"],
        "peak_driver_python_rss_mb": job["memory"]["peak_driver_python_rss_mb"],
        "peak_workers_total_rss_mb": job["memory"]["peak_workers_total_rss_mb"],
        "worker_processes": job["memory"]["worker_processes"],
        "reference_peak_rss_mb": ref["peak_rss_mb"] if ref else None,
        "scaling": scaling,
        "scaling_flatness": rnd(flatness(r["s_per_1000_questions"] for r in res["scaling"])),
        "marginal": {k: rnd(v) if isinstance(v, float) else v
                     for k, v in (marginal(res["scaling"]) or {}).items()} or None,
        "load_1m_at_start": {"floor": rnd(fl["load_1m"], 2), "job": rnd(job["load_1m"], 2),
                             "reference": rnd(ref["load_1m"], 2) if ref else None},
        "machine": res["machine"],
    }


# ---------------------------------------------------------------- main

def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="scripts/bench.py", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("squad", nargs="?", default=str(DEFAULT_SQUAD),
                   help="official SQuAD JSON file (default: %(default)s)")
    p.add_argument("--master", default="local[2]", help="Spark master (default: %(default)s)")
    p.add_argument("--skip-scaling", action="store_true", help="do not run the scaling slices")
    p.add_argument("--skip-reference", action="store_true", help="do not run the reference runner")
    p.add_argument("--keep", action="store_true", help="keep the temp dir with all outputs")
    p.add_argument("--compare-config", metavar="TOML",
                   help="also run the job with this config right after the main run (e.g. "
                        "conf/paper.toml) and report its wall time and stages beside it")
    p.add_argument("--compare-rounds", type=int, default=1, metavar="N",
                   help="with --compare-config: N side-by-side pairs, each pair's order the "
                        "other way round from the one before (job, compare; compare, job; "
                        "...); the ratio reported is the median of the pairs' (default 1)")
    p.add_argument("--fractions", default="0.25,0.5,1",
                   help="input fractions for the scaling runs (default: %(default)s)")
    scale = p.add_argument_group("scale run (scripts/bench_scale.py)")
    scale.add_argument("--scale", action="store_true",
                       help="run only the scale run: 1 and 2 executors over a throughput load")
    scale.add_argument("--scale-times", type=int, default=2,
                       help="the load repeats each question this many times (default 2)")
    scale.add_argument("--scale-questions", type=int, metavar="N",
                       help="run on the first N questions of the load (a slice)")
    scale.add_argument("--scale-memory", type=int, default=1536, metavar="MB",
                       help="memory of each local-cluster worker (default %(default)s)")
    scale.add_argument("--bank", help="entity bank for the scale run (default: the paper's, "
                                      "if present, else built from the load)")
    args = p.parse_args(argv)
    if args.compare_rounds < 1:
        p.error("--compare-rounds must be 1 or more")
    try:
        args.cores = parse_cores(args.master)
        args.fraction_list = parse_fractions(args.fractions)
    except ValueError as e:
        p.error(str(e))
    args.squad = Path(args.squad).expanduser()
    if not args.squad.is_absolute():
        # relative paths are taken from where the command is run, then from the repo root
        args.squad = (Path.cwd() / args.squad if (Path.cwd() / args.squad).exists()
                      else REPO / args.squad)
    args.squad = args.squad.resolve()
    if not args.squad.is_file():
        p.error(f"no such file: {args.squad}")
    return args


def compare_rounds(args: argparse.Namespace, tmp: Path, job: dict[str, Any]) -> dict[str, Any]:
    """The job beside the job under --compare-config, in `args.compare_rounds` pairs: side
    by side, so that a ratio is not two machines' moods, and in alternating order, so that a
    drift of the machine's speed during the run does not favour one. The pair whose ratio
    is the median is the one reported stage by stage; every pair's walls are kept."""
    pairs: list[tuple[dict[str, Any], dict[str, Any]]] = []
    for n in range(args.compare_rounds):
        def other() -> dict[str, Any]:
            return run_job(args.master, args.squad, tmp / f"job-compare-{n}",
                           f"job (compare {n + 1})", args.compare_config)

        def again() -> dict[str, Any]:
            return run_job(args.master, args.squad, tmp / f"job-{n}", f"job ({n + 1})")
        if n % 2:  # the compare job first
            theirs = other()
            pair = (again(), theirs)
        else:  # the job first: the main run is the first pair's
            pair = (job if n == 0 else again(), other())
        pairs.append(pair)
        log(f"pair {n + 1}: job / job with {args.compare_config}: "
            f"{ratio(pair[0]['wall_s'], pair[1]['wall_s']):.3f}")
    ranked = sorted(pairs, key=lambda p: ratio(p[0]["wall_s"], p[1]["wall_s"]))
    mine, theirs = ranked[(len(ranked) - 1) // 2]  # the lower median of an even count
    return {"config": args.compare_config, "wall_s": theirs["wall_s"],
            "stages": theirs["stages"], "job_wall_s": mine["wall_s"],
            "job_stages": mine["stages"],
            "job_over_compare": ratio(mine["wall_s"], theirs["wall_s"]),
            "pairs": [{"job_wall_s": a["wall_s"], "compare_wall_s": b["wall_s"],
                       "ratio": ratio(a["wall_s"], b["wall_s"])} for a, b in pairs]}


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.scale:
        import bench_scale  # scripts/ is on sys.path: this script's directory

        return bench_scale.main(args)
    tmp = Path(tempfile.mkdtemp(prefix="faithqa-bench-"))
    log(f"temp dir {tmp}")
    res: dict[str, Any] = {"input": str(args.squad), "master": args.master,
                           "cores": args.cores, "machine": machine_info(), "scaling": []}
    try:
        res["floor"] = measure_floor(args.squad, args.cores, tmp)
        res["job"] = run_job(args.master, args.squad, tmp / "job", "job")
        if args.compare_config:
            res["compare"] = compare_rounds(args, tmp, res["job"])
        if not args.skip_reference:
            res["reference"] = run_reference(args.squad, tmp / "reference")
            res["identical"], res["differences"] = compare_outputs(tmp / "job", tmp / "reference")
            log(f"outputs identical: {res['identical']}"
                + (f" (differ: {res['differences']})" if res["differences"] else ""))
        if not args.skip_scaling:
            doc = json.loads(args.squad.read_text(encoding="utf-8"))
            for sl in write_slices(doc, args.fraction_list, tmp):
                if sl["fraction"] == 1:  # the whole input: the main job run above
                    run, sl["path"] = res["job"], args.squad
                    sl["questions"] = res["floor"]["records"]
                    floor_s = res["floor"]["floor_s"]
                else:
                    run = run_job(args.master, sl["path"], tmp / f"job-{sl['fraction']:g}",
                                  f"job {sl['fraction']:g}")
                    # the slice's own floor, for the marginal cost (`marginal`)
                    floor_s = measure_floor(sl["path"], args.cores, tmp)["floor_s"]
                q = sl["questions"]
                res["scaling"].append({
                    "fraction": sl["fraction"], "articles": sl["articles"], "questions": q,
                    "wall_s": run["wall_s"], "in_job_s": run["in_job_s"], "floor_s": floor_s,
                    "ner_s": run["stages"].get("ner"),
                    "s_per_1000_questions": run["wall_s"] / q * 1000,
                    "in_job_s_per_1000_questions": ratio(run["in_job_s"], q / 1000),
                    "peak_worker_rss_mb": run["memory"]["peak_worker_rss_mb"],
                    "load_1m": run["load_1m"], "reused_main_run": sl["fraction"] == 1})
        res["summary"] = summarise(res)
        print(render(res))
        if "compare" in res:
            res["summary"]["compare"] = res["compare"]
        print(json.dumps(res["summary"], sort_keys=False))
        return 0
    except RuntimeError as e:  # a run failed: its output tail is in the message
        print(f"error: {e}", file=sys.stderr)
        return 1
    finally:
        if args.keep:
            log(f"kept {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == FLOOR_CHILD:
        sys.exit(floor_child(Path(sys.argv[2])))
    sys.exit(main())
