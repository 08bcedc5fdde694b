"""Input files named on the command line, checked on the driver before any work starts."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from faithqa_spark.config import Config
from faithqa_spark.errors import InputError
from faithqa_spark.sources import ReaderSettings
from faithqa_spark.sources.common import SOURCES
from faithqa_spark.sources.formats import EXTENSIONS as SUFFIXES

__all__ = ["InputError", "InputFile", "SOURCES", "collect_inputs", "reader_settings"]


@dataclass(frozen=True)
class InputFile:
    source: str
    display: str  # the path as the user wrote it: what rejected rows and the report name
    local: str  # absolute path, to match what Spark's binaryFile reports


def collect_inputs(squad: list[str] | None, triviaqa: list[str] | None) -> list[InputFile]:
    """Files per source; a directory stands for the QA files directly inside it.

    Fails before Spark starts on a path that does not exist, a directory with no QA file,
    an unsupported suffix, or the same file given twice.
    """
    files: list[InputFile] = []
    seen: dict[str, str] = {}
    for source, paths in zip(SOURCES, (squad or [], triviaqa or [])):
        for p in paths:
            path = Path(p)
            if not path.exists():
                raise InputError(f"--{source}: input path does not exist: {p}")
            if path.is_dir():
                found = sorted(q for q in path.iterdir() if q.suffix in SUFFIXES and q.is_file())
                if not found:
                    raise InputError(f"--{source}: no {'/'.join(SUFFIXES)} file in directory {p}")
                members = [(str(q), q) for q in found]
            else:
                if path.suffix not in SUFFIXES:
                    raise InputError(f"--{source}: {p}: unsupported file type '{path.suffix}'"
                                     f" (expected one of {', '.join(SUFFIXES)})")
                members = [(p, path)]
            for display, q in members:
                local = os.path.abspath(q)
                if local in seen:
                    raise InputError(f"{display}: given twice (also as {seen[local]})")
                seen[local] = display
                files.append(InputFile(source, display, local))
    if not files:
        raise InputError("no input: give --squad FILE and/or --triviaqa FILE")
    return files


def reader_settings(cfg: Config) -> ReaderSettings:
    return ReaderSettings(
        max_context_chars=cfg.limits.max_context_chars,
        triviaqa_max_chars=cfg.triviaqa.max_context_chars,
        triviaqa_window=cfg.triviaqa.window,
        evidence_dir=cfg.input.triviaqa_evidence_dir or None,
    )
