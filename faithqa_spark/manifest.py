"""manifest.json: what a run was made from, how long it took and the files it wrote;
written last, it marks the run complete (runs.py)."""

from __future__ import annotations

import hashlib
import importlib.metadata as md
import platform
import time
from typing import Any, Mapping

from faithqa_spark import __version__, fs
from faithqa_spark.config import Config
from faithqa_spark.inputs import InputFile
from faithqa_spark.runs import RunDir


def _version(dist: str) -> str | None:
    try:
        return md.version(dist)
    except md.PackageNotFoundError:
        return None


def write_manifest(run: RunDir, *args: Any, **kwargs: Any) -> list[str]:
    """Write `build_manifest(*args, **kwargs)` to DIR/manifest.json, last: it records the
    whole run's time and the files, and marks the run complete (`runs.RunDir.complete`).
    Returns the files' paths."""
    return run.complete(build_manifest(*args, storage=run.out.settings, **kwargs))


def _input_file(f: InputFile, storage: fs.Settings) -> dict[str, Any]:
    """Size and checksum of an input, streamed (a local path or a URI)."""
    h, size = hashlib.sha256(), 0
    with fs.open_input(f.local, storage) as stream:
        for chunk in iter(lambda: stream.read(1 << 20), b""):
            h.update(chunk)
            size += len(chunk)
    return {"source": f.source, "path": f.display, "bytes": size, "sha256": h.hexdigest()}


def build_manifest(cfg: Config, files: list[InputFile], report: Mapping[str, Any],
                   stage_seconds: Mapping[str, float], *, runner: str, ner_model: str,
                   started: float, extra: Mapping[str, Any] | None = None,
                   storage: fs.Settings = ()) -> dict[str, Any]:
    return {
        "runner": runner,
        "started_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(started)),
        "wall_seconds": round(time.time() - started, 3),
        "stage_seconds": dict(stage_seconds),
        "versions": {
            "faithqa_spark": __version__, "python": platform.python_version(),
            "pyspark": _version("pyspark"), "delta_spark": _version("delta-spark"),
            "spacy": _version("spacy"), "ner_model": ner_model,
        },
        "config_hash": cfg.config_hash,
        "config": cfg.to_dict(),
        "inputs": [_input_file(f, storage) for f in files],
        "rows": {
            "input_records": report["total"]["input_records"],
            "dataset": report["total"]["success"],
            "filtered": report["total"]["filtered"],
            "rejected": report["total"]["rejected"],
            "per_source": {s: {k: v[k] for k in ("input_records", "success", "filtered",
                                                 "rejected")}
                           for s, v in report["sources"].items()},
            "splits": {s: v["splits"] for s, v in report["sources"].items()},
        },
        **(extra or {}),
    }
