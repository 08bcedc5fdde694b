"""Writing outputs atomically: a file appears under its final name complete, or not at all."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any, Iterable
from urllib.parse import urlparse


def local_path(uri_or_path: str) -> str:
    """'file:/a/b' or 'file:///a/b' -> '/a/b'; plain paths unchanged."""
    if uri_or_path.startswith("file:"):
        return urlparse(uri_or_path).path
    return uri_or_path


def write_text_atomic(path: str | Path, text: str) -> None:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


def write_json(path: str | Path, obj: Any) -> None:
    write_text_atomic(path, json.dumps(obj, indent=2, ensure_ascii=False) + "\n")


def write_lines_atomic(path: str | Path, lines: Iterable[str]) -> int:
    """Write one line per item; returns the number of lines."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
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


def concat_parts_atomic(parts_dir: str | Path, path: str | Path) -> None:
    """Concatenate Spark's part files (in partition order) into one file, then remove them.

    Streams bytes, so the driver's memory does not grow with the output."""
    parts_dir, path = Path(parts_dir), Path(path)
    parts = sorted(p for p in parts_dir.iterdir() if p.name.startswith("part-"))
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            for p in parts:
                with open(p, "rb") as f:
                    shutil.copyfileobj(f, out, 1 << 20)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    finally:
        shutil.rmtree(parts_dir, ignore_errors=True)
