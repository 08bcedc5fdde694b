"""Input files named on the command line, checked on the driver before any work starts."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from faithqa_spark import fs
from faithqa_spark.config import Config
from faithqa_spark.errors import InputError
from faithqa_spark.sources import ReaderSettings, plan_parts
from faithqa_spark.sources.common import SOURCES
from faithqa_spark.sources.formats import EXTENSIONS as SUFFIXES

__all__ = ["InputError", "InputFile", "ReadPart", "SOURCES", "collect_inputs", "read_parts",
           "reader_settings"]


@dataclass(frozen=True)
class InputFile:
    source: str
    display: str  # the path as the user wrote it: what rejected rows and the report name
    # absolute path, or the URI of a remote file: what Spark's binaryFile reports
    local: str


def collect_inputs(squad: list[str] | None, triviaqa: list[str] | None,
                   storage: fs.Settings = ()) -> list[InputFile]:
    """Files per source; a directory stands for the QA files directly inside it. A path may
    be a URI of a remote filesystem (`s3a://bucket/squad.json`; `storage` configures it).

    Fails before Spark starts on a path that does not exist, a directory with no QA file,
    an unsupported suffix, or the same file given twice.
    """
    files: list[InputFile] = []
    seen: dict[str, str] = {}
    for source, paths in zip(SOURCES, (squad or [], triviaqa or [])):
        for p in paths:
            members = _local_members(source, p) if fs.is_local(p) else _remote_members(
                source, p, storage)
            for display, local in members:
                if local in seen:
                    raise InputError(f"{display}: given twice (also as {seen[local]})")
                seen[local] = display
                files.append(InputFile(source, display, local))
    if not files:
        raise InputError("no input: give --squad FILE and/or --triviaqa FILE")
    return files


def _suffix_ok(source: str, p: str, suffix: str) -> None:
    if suffix not in SUFFIXES:
        raise InputError(f"--{source}: {p}: unsupported file type '{suffix}'"
                         f" (expected one of {', '.join(SUFFIXES)})")


def _local_members(source: str, p: str) -> list[tuple[str, str]]:
    """(display, absolute path) of the QA files `p` stands for."""
    path = Path(fs.local_path(p))
    if not path.exists():
        raise InputError(f"--{source}: input path does not exist: {p}")
    if path.is_dir():
        found = sorted(q for q in path.iterdir() if q.suffix in SUFFIXES and q.is_file())
        if not found:
            raise InputError(f"--{source}: no {'/'.join(SUFFIXES)} file in directory {p}")
        return [(str(q), os.path.abspath(q)) for q in found]
    _suffix_ok(source, p, path.suffix)
    return [(p, os.path.abspath(path))]


def _remote_members(source: str, p: str, storage: fs.Settings) -> list[tuple[str, str]]:
    """(display, URI) of the QA files remote `p` stands for."""
    try:
        kind = fs.file_type(p, storage)
        found = fs.list_files(p, storage) if kind == "dir" else []
    except (OSError, ValueError) as err:
        first = str(err).splitlines()[0] if str(err) else type(err).__name__
        raise InputError(f"--{source}: cannot reach {p}: {first}") from None
    if kind == "missing":
        raise InputError(f"--{source}: input path does not exist: {p}")
    if kind == "dir":
        found = [u for u in found if os.path.splitext(u)[1] in SUFFIXES]
        if not found:
            raise InputError(f"--{source}: no {'/'.join(SUFFIXES)} file in directory {p}")
        return [(u, u) for u in found]
    _suffix_ok(source, p, os.path.splitext(p)[1])
    return [(p, p)]


def check_bank_inputs(files: list[InputFile], cfg: Config, bank_dir: str | None) -> None:
    """Without --bank the entity bank is built from the inputs of `bank.sources` only; with
    none of them every row would end `no_replacement`, so stop now and say what to pass."""
    if bank_dir or any(f.source in cfg.bank.sources for f in files):
        return
    given = sorted({f.source for f in files})
    raise InputError(
        f"no input from the entity bank's sources (bank.sources = {cfg.bank.sources}; given: "
        f"{', '.join(given)}): pass --bank DIR (an entity_bank/ directory) or build the bank "
        f"from what you give, e.g. --set 'bank.sources=[\"{given[0]}\"]'")


def reader_settings(cfg: Config, storage: fs.Settings = ()) -> ReaderSettings:
    """The readers' settings from the config; `storage` is the filesystem settings
    (`fs.hadoop_settings`, e.g. `fs.spark_hadoop_settings(spark)`) executors need to read
    evidence on a remote filesystem."""
    return ReaderSettings(
        max_context_chars=cfg.limits.max_context_chars,
        triviaqa_max_chars=cfg.triviaqa.max_context_chars,
        triviaqa_window=cfg.triviaqa.window,
        evidence_dir=cfg.input.triviaqa_evidence_dir or None,
        web_evidence_dir=cfg.input.triviaqa_web_evidence_dir or None,
        evidence=tuple(cfg.triviaqa.evidence),
        storage=storage,
    )


@dataclass(frozen=True)
class ReadPart:
    """One read task: part `part` of `n_parts` of `file` (`sources.read_file_part`)."""
    file: InputFile
    part: int
    n_parts: int


def read_parts(files: list[InputFile], bytes_per_part: int,
               storage: fs.Settings = ()) -> list[ReadPart]:
    """The read tasks of `files`: an official JSON document of S bytes is read by
    ceil(S / bytes_per_part) tasks, any other file by one (`sources.plan_parts`), in path
    order. Sizes come from the filesystem's metadata: the driver opens no input file."""
    by_local = {f.local: f for f in files}
    sizes = [(f.local, _size(f.local, storage)) for f in files]
    return [ReadPart(by_local[path], part, n) for path, part, n in
            plan_parts(sizes, bytes_per_part)]


def _size(uri: str, storage: fs.Settings) -> int:
    filesystem, path = fs.resolve(uri, storage)
    size = filesystem.get_file_info(path).size
    if size is None:  # gone since collect_inputs saw it
        raise InputError(f"input file disappeared: {uri}")
    return size
