"""TriviaQA evidence pages of the official layout, read safely from any filesystem.

The released archive keeps `qa/<domain>-<split>.json` next to `evidence/wikipedia/` (the
pages `EntityPages[].Filename` name) and `evidence/web/` (the pages `SearchResults[].
Filename` name). The evidence directory may be a local path or a URI (`s3a://...`,
`hdfs://...`): executors read pages through `faithqa_spark.fs`, so evidence need not sit
on a shared POSIX filesystem.

Security: a `Filename` comes from the input file. A name that is absolute, holds `..`, or
resolves outside the evidence directory (through symbolic links too, for local paths) is
refused before anything is opened (`unsafe_evidence_path`).
"""

from __future__ import annotations

import os
import posixpath
import re
from functools import lru_cache

from faithqa_spark import fs
from faithqa_spark.core import reasons as R

# Evidence kinds, as `[triviaqa] evidence` names them: (record field, evidence subdirectory).
KINDS = {"wikipedia": ("EntityPages", "wikipedia"), "web": ("SearchResults", "web")}
# Evidence pages are shared by many questions; this many decoded pages are kept per file
# read (a Wikipedia page is tens of KB, so the cache stays in the low MBs).
EVIDENCE_CACHE_PAGES = 128

# (text, None, None) or (None, reason, problem)
Page = tuple[str | None, str | None, str | None]


def unsafe_evidence_name(filename: str) -> bool:
    """A `Filename` that could name a file outside the evidence directory, whatever the
    directory: empty, absolute (POSIX or Windows), or with a `..` component. The names in
    the released files are plain relative paths such as `Wikipedia/Page.txt`."""
    parts = re.split(r"[\\/]", filename)
    return (not filename.strip() or "\x00" in filename or filename.startswith(("/", "\\"))
            or bool(re.match(r"^[A-Za-z]:", filename)) or ".." in parts)


def safe_evidence_path(directory: str, filename: str) -> str | None:
    """The path of evidence page `filename` inside local `directory`, or None when the name
    is unsafe or resolves (through symbolic links too) outside the directory. Nothing is
    opened before this check passes: an input file must never make the job read another
    file the executors can read."""
    if unsafe_evidence_name(filename):
        return None
    root = os.path.realpath(directory)
    path = os.path.realpath(os.path.join(root, filename))
    if os.path.commonpath([root, path]) != root or path == root:
        return None
    return path


def safe_evidence_name(filename: str) -> str | None:
    """For a directory on a remote filesystem (object stores have no symbolic links): the
    page's name, normalised, when it stays strictly inside the directory; else None. The
    name is joined to the directory as a path, never parsed as a URI, so `?`, `#` and `%`
    in page names stay literal."""
    if unsafe_evidence_name(filename):
        return None
    name = posixpath.normpath(filename.replace("\\", "/"))
    if name in (".", "..") or name.startswith("../"):
        return None
    return name


def evidence_candidates(path: str, kind: str = "wikipedia") -> list[str]:
    """Where the evidence of `kind` for official file `path` is looked for, in order."""
    sub = KINDS[kind][1]
    base = fs.parent(path)
    if fs.scheme_of(path) == "":
        return [os.path.join(base, "evidence", sub),
                os.path.normpath(os.path.join(base, "..", "evidence", sub)),
                os.path.join(base, "evidence")]
    return [fs.join(base, "evidence", sub), fs.join(fs.parent(base), "evidence", sub),
            fs.join(base, "evidence")]


class EvidenceStore:
    """Reads evidence pages `<directory>/<Filename>` (UTF-8), remembering recent ones."""

    def __init__(self, directory: str | None, searched: list[str],
                 storage: fs.Settings = ()) -> None:
        self.directory = directory
        self.searched = searched
        self.storage = storage
        self.read = lru_cache(maxsize=EVIDENCE_CACHE_PAGES)(self._read)

    @classmethod
    def for_file(cls, path: str, configured: str | None, kind: str = "wikipedia",
                 storage: fs.Settings = ()) -> EvidenceStore:
        """The store for official file `path`: the configured dir, else the first found."""
        if configured:
            return cls(configured, [configured], storage)
        searched = evidence_candidates(path, kind)
        found = next((d for d in searched if _is_dir(d, storage)), None)
        return cls(found, searched, storage)

    def where(self) -> str:
        """Where pages were looked for, for details."""
        if self.directory is None:
            return "no evidence directory found; looked in " + ", ".join(self.searched)
        return f"evidence directory: {self.directory}"

    def _read(self, filename: str) -> Page:
        if self.directory is None:
            return None, R.MISSING_EVIDENCE_FILE, f"{filename} not found"
        local = fs.is_local(self.directory)
        name = (safe_evidence_path(fs.local_path(self.directory), filename) if local
                else safe_evidence_name(filename))
        if name is None:
            return None, R.UNSAFE_EVIDENCE_PATH, f"{filename!r} is outside the evidence directory"
        try:
            raw = _read_local(name) if local else self._read_remote(name)
        except FileNotFoundError:
            return None, R.MISSING_EVIDENCE_FILE, f"{filename} not found"
        except OSError as err:
            why = err.strerror or str(err).splitlines()[0]
            return None, R.MISSING_EVIDENCE_FILE, f"{filename} unreadable ({why})"
        try:
            return raw.decode("utf-8"), None, None
        except UnicodeDecodeError as err:
            return None, R.BAD_ENCODING, f"{filename} has invalid UTF-8 at byte {err.start}"

    def _read_remote(self, name: str) -> bytes:
        filesystem, base = fs.resolve(self.directory or "", self.storage)
        with filesystem.open_input_stream(posixpath.join(base, name)) as f:
            return f.read()


def _read_local(path: str) -> bytes:
    with open(path, "rb") as f:
        return f.read()


def _is_dir(uri: str, storage: fs.Settings) -> bool:
    try:
        return fs.is_dir(uri, storage)
    except OSError:  # an unreachable store is "not found here"; the rows say where we looked
        return False
