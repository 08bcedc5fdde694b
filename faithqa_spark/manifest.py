"""manifest.json: what a run was made from and how long it took."""

from __future__ import annotations

import importlib.metadata as md
import platform
import time
from pathlib import Path
from typing import Any, Mapping

from faithqa_spark import __version__, io as fio
from faithqa_spark.config import Config
from faithqa_spark.inputs import InputFile


def _version(dist: str) -> str | None:
    try:
        return md.version(dist)
    except md.PackageNotFoundError:
        return None


def write_manifest(out: Path, *args: Any, **kwargs: Any) -> None:
    """Write `build_manifest(*args, **kwargs)` to OUT/manifest.json (after publishing: it
    records the whole run's time)."""
    fio.write_json(out / "manifest.json", build_manifest(*args, **kwargs))


def build_manifest(cfg: Config, files: list[InputFile], report: Mapping[str, Any],
                   stage_seconds: Mapping[str, float], *, runner: str, ner_model: str,
                   started: float, extra: Mapping[str, Any] | None = None) -> dict[str, Any]:
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
        "inputs": [{"source": f.source, "path": f.display, "bytes": Path(f.local).stat().st_size,
                    "sha256": fio.sha256_file(f.local)} for f in files],
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
