"""What both runners share around the core: stage timing, the result, publishing outputs."""

from __future__ import annotations

import logging
import shutil
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from faithqa_spark import io as fio
from faithqa_spark.core import fields as C
from faithqa_spark.core.process import Provenance

log = logging.getLogger("faithqa_spark")


@dataclass
class RunResult:
    output_dir: Path
    report: dict[str, Any]
    stage_seconds: dict[str, float] = field(default_factory=dict)


class Stages:
    """Wall time per stage, logged as the job goes so long runs show progress."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}
        self._t = time.perf_counter()

    def done(self, name: str, what: str = "") -> None:
        now = time.perf_counter()
        self.seconds[name] = round(now - self._t, 3)
        self._t = now
        log.warning("[faithqa] %-8s %7.1fs %s", name, self.seconds[name], what)


STAGING_PREFIX = ".staging-"


def new_staging(out: Path) -> Path:
    """A fresh staging directory inside `out`, after removing any left by a killed run (one
    run at a time per output directory)."""
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob(f"{STAGING_PREFIX}*"):
        shutil.rmtree(old, ignore_errors=True)
    return Path(tempfile.mkdtemp(prefix=STAGING_PREFIX, dir=out))


def publish(staging: Path, out: Path) -> None:
    """Move each finished output from the staging directory to its final name, so no final
    path ever shows a partial file."""
    for item in sorted(staging.iterdir()):
        fio.swap_in(item, out / item.name)


@contextmanager
def staged(out: Path) -> Iterator[Path]:
    """A staging directory inside `out` for a run's outputs: published into `out` when the
    block ends normally, removed in any case (a failed run leaves the previous outputs)."""
    staging = new_staging(out)
    try:
        yield staging
        publish(staging, out)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def provenance_dict(prov: Provenance) -> dict[str, str]:
    return {C.PIPELINE_VERSION: prov.pipeline_version, C.CONFIG_HASH: prov.config_hash,
            C.NER_MODEL: prov.ner_model}
