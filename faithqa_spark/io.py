"""Writing outputs atomically: a file appears under its final name complete, or not at all."""

from __future__ import annotations

import json
import os
import shutil
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


def part_files(parts_dir: str | Path) -> list[Path]:
    """Spark's part files of one output, in partition order."""
    return sorted(p for p in Path(parts_dir).iterdir()
                  if p.name.startswith("part-") and not p.name.endswith(".crc"))


def concat_parts_atomic(parts_dir: str | Path, path: str | Path,
                        frame: tuple[str, str, str] | None = None) -> None:
    """Concatenate Spark's text part files (in partition order) into one file, then remove
    them. With `frame` = (header, separator, footer) the lines are joined by the separator
    between the header and the footer (a JSON array). Streams, so the driver's memory does
    not grow with the output."""
    parts_dir, path = Path(parts_dir), Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = temp_file(path)
    try:
        with os.fdopen(fd, "wb") as out:
            if frame is None:
                for p in part_files(parts_dir):
                    with open(p, "rb") as f:
                        shutil.copyfileobj(f, out, 1 << 20)
            else:
                header, sep, footer = (x.encode("utf-8") for x in frame)
                out.write(header)
                first = True
                for p in part_files(parts_dir):
                    with open(p, "rb") as f:
                        for line in f:
                            if not first:
                                out.write(sep)
                            out.write(line.rstrip(b"\n"))
                            first = False
                out.write(footer)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    finally:
        shutil.rmtree(parts_dir, ignore_errors=True)


def swap_in(staged: Path, final: Path) -> None:
    """Move a finished file or directory to its final name, replacing what was there. The old
    one is renamed away first, so the final name only ever holds a complete output."""
    final.parent.mkdir(parents=True, exist_ok=True)
    if final.exists():
        old = final.with_name(f".{final.name}.old")
        if old.exists():
            shutil.rmtree(old) if old.is_dir() else old.unlink()
        os.replace(final, old)
        os.replace(staged, final)
        shutil.rmtree(old) if old.is_dir() else old.unlink()
    else:
        os.replace(staged, final)


def sha256_file(path: str | Path) -> str:
    import hashlib

    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()
