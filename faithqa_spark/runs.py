"""What both runners share around the core: stage timing, the result, and the run directory
(where a run's files are written, how they are published, and when the run is complete).

The completion rule, on every filesystem: a run directory is complete when it holds
`manifest.json`, which a run writes last (listing every file it wrote). A run removes the old
manifest before it changes anything the old one lists, so a killed run never leaves a
directory that looks complete; readers (`require_complete`) refuse one without it, and the
next run into it cleans it.

How the files get there (`output.publish`):
- "auto" on a filesystem with an atomic rename (a local disk, HDFS): under a hidden staging
  directory `DIR/.staging-*`, then renamed into place entry by entry once all are written, so
  a failed run leaves the last complete run as it was.
- "auto" on an object store (no rename: a "rename" is a copy), and "direct" everywhere: in
  place. The old run's manifest and files are removed first; a failed run leaves an
  incomplete directory, which the next run cleans.
Delta tables under DIR/delta/ are Delta's own: each write is one commit, in place.
"""

from __future__ import annotations

import logging
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

from faithqa_spark import errors, fs
from faithqa_spark.core import fields as C
from faithqa_spark.core.exports import FILE_EXPORTS
from faithqa_spark.core.process import Provenance
from faithqa_spark.core.training_exports import EXPORTS
from faithqa_spark.outdir import OutDir

log = logging.getLogger("faithqa_spark")

MANIFEST = "manifest.json"
DELTA = "delta"
STAGING_PREFIX = ".staging-"
OLD_SUFFIX = ".old"  # an entry being replaced, for the moment between two renames
# Every entry a run writes at the top of its directory, besides delta/ and the manifest: what
# a run replaces, and what marks a directory as a run's.
RUN_ENTRIES: tuple[str, ...] = tuple(sorted(
    {e.directory for e in FILE_EXPORTS} | set(EXPORTS)
    | {"entity_bank", "audit", "report", "README.md", "report.json"}))


class IncompleteRunError(errors.FaithqaError, ValueError):
    """A run directory without its manifest.json: killed, failed, or still running."""

    exit_status = errors.USAGE


@dataclass
class RunResult:
    output_dir: str  # a local path or a URI, as given
    report: dict[str, Any]
    stage_seconds: dict[str, float] = field(default_factory=dict)
    files: list[str] = field(default_factory=list)  # as manifest.json lists them


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


class RunDir:
    """One run's output directory `uri` (any filesystem `fs.py` reaches). One run at a time
    per directory: a run removes what another left there."""

    def __init__(self, uri: str, settings: fs.Settings = (), publish: str = "auto") -> None:
        self.out = OutDir(uri, settings)
        self.staged = publish == "auto" and fs.supports_rename(uri)
        self._root: OutDir | None = None

    @property
    def root(self) -> OutDir:
        """Where the run's files go (staging, or the directory itself), made ready on first
        use: once every input has parsed, so a bad input changes nothing under DIR."""
        if self._root is None:
            for name in fs.list_names(self.out.uri, self.out.settings):
                if name.startswith(STAGING_PREFIX) or _moved_away(name):  # a killed run's
                    self.out.remove(name)
            if self.staged:
                self._root = self.out.sub(f"{STAGING_PREFIX}{uuid.uuid4().hex}")
            else:
                self._clear()
                self._root = self.out
        return self._root

    def _clear(self, keep: frozenset[str] = frozenset()) -> None:
        """Mark DIR incomplete (the manifest goes first), then remove the run entries."""
        self.out.remove(MANIFEST)
        for name in RUN_ENTRIES:
            if name not in keep:
                self.out.remove(name)

    def publish(self) -> None:
        """Bring the staged files into place (nothing to do when written in place). Old
        entries that this run did not write go too: a directory holds one run's files."""
        if not self.staged or self._root is None:
            return
        staging = self._root
        new = fs.list_names(staging.uri, staging.settings)
        self._clear(keep=frozenset(new))
        for name in new:
            if self.out.exists(name):  # replaced: moved away, so the name is never partial
                old = f".{name}{OLD_SUFFIX}"
                self.out.remove(old)
                fs.move(self.out.path(name), self.out.path(old), self.out.settings)
                fs.move(staging.path(name), self.out.path(name), self.out.settings)
                self.out.remove(old)
            else:
                fs.move(staging.path(name), self.out.path(name), self.out.settings)
        fs.remove(staging.uri, staging.settings)
        self._root = self.out

    def discard(self) -> None:
        """After a failure: drop the staging directory (files written in place stay, with no
        manifest, until the next run cleans them)."""
        if self.staged and self._root is not None and self._root is not self.out:
            fs.remove(self._root.uri, self._root.settings)
            self._root = None

    def complete(self, manifest: dict[str, Any]) -> list[str]:
        """Write manifest.json, last: with the list of the run's files, it marks the run
        complete. Returns the files' paths (relative to DIR)."""
        files = [{"path": f"{name}/{rel}" if rel else name, "bytes": size}
                 for name in RUN_ENTRIES for rel, size in self._entry_files(name)]
        self.out.write_json(MANIFEST, {**manifest, "files": files})
        return [f["path"] for f in files]

    def _entry_files(self, name: str) -> list[tuple[str, int]]:
        """The files of one run entry; hidden ones (the temporary file of a task that died
        mid-write, `fs.open_output`) are removed, not listed."""
        fsys, path = fs.resolve(self.out.path(name), self.out.settings)
        info = fsys.get_file_info(path)
        if info.type == fs.pafs.FileType.File:
            return [("", info.size)]
        files = []
        for rel, size in fs.list_tree(self.out.path(name), self.out.settings):
            if any(part.startswith(".") for part in rel.split("/")):
                self.out.remove(f"{name}/{rel}")
            else:
                files.append((rel, size))
        return files


def _moved_away(name: str) -> bool:
    return name.startswith(".") and name.endswith(OLD_SUFFIX) and name[1:-len(OLD_SUFFIX)] in (
        *RUN_ENTRIES, MANIFEST)


def is_run_dir(uri: str, settings: fs.Settings = ()) -> bool:
    """Whether `uri` is a directory a run wrote into (complete or not)."""
    names = set(fs.list_names(uri, settings))
    return MANIFEST in names or bool(names & set(RUN_ENTRIES))


def require_complete(uri: str, settings: fs.Settings = ()) -> None:
    """Readers of a run directory call this first: a one-line error unless it is complete."""
    if not fs.exists(fs.join(uri, MANIFEST), settings):
        raise IncompleteRunError(
            f"{uri}: an incomplete run (no {MANIFEST}: the run was killed, failed or is still "
            f"going); run the job into it again")


def run_files(uri: str, directory: str, suffix: str, settings: fs.Settings = ()) -> list[str]:
    """The files with `suffix` under `directory` of a complete run, sorted (a one-line error
    for an incomplete run)."""
    require_complete(uri, settings)
    base = fs.join(uri, directory)
    return [fs.join(base, *rel.split("/")) for rel, _ in fs.list_tree(base, settings)
            if rel.endswith(suffix) and not rel.rsplit("/", 1)[-1].startswith(".")]


def provenance_dict(prov: Provenance) -> dict[str, str]:
    return {C.PIPELINE_VERSION: prov.pipeline_version, C.CONFIG_HASH: prov.config_hash,
            C.NER_MODEL: prov.ner_model}
