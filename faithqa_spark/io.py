"""Writing local files atomically: a file appears under its final name complete, or not at
all (the run's outputs on any filesystem: outdir.py)."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any, Iterable


FILE_MODE, DIR_MODE = 0o644, 0o755  # mkstemp/mkdtemp make 0600/0700: outputs are for others too


def temp_file(path: Path, suffix: str = "") -> tuple[int, str]:
    """A hidden temporary file beside `path` (renamed onto it when complete), readable by
    everyone like any other output file."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=suffix, dir=path.parent)
    os.fchmod(fd, FILE_MODE)
    return fd, tmp


def temp_dir(parent: Path, prefix: str) -> Path:
    """A hidden temporary directory in `parent` (renamed into place when complete), with
    the permissions of an ordinary output directory."""
    tmp = Path(tempfile.mkdtemp(prefix=prefix, dir=parent))
    tmp.chmod(DIR_MODE)
    return tmp


def write_text_atomic(path: str | Path, text: str) -> None:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = temp_file(path)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


def write_json(path: str | Path, obj: Any) -> None:
    write_text_atomic(path, json.dumps(obj, indent=2, ensure_ascii=False) + "\n")


def write_lines_atomic(path: str | Path, lines: Iterable[str]) -> int:
    """Write one line per item; returns the number of lines."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = temp_file(path)
    n = 0
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            for line in lines:
                f.write(line)
                f.write("\n")
                n += 1
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return n
