"""An output directory on any filesystem, by URI (`fs.py`): a local path, `file:`, `s3a://`,
`hdfs://`, ... Plain data (a URI and the filesystem settings), so it pickles to executors,
which write their shards through it straight into the output filesystem.

Every file is written whole or not at all under its name (`fs.open_output`): the driver's
small files (report.json, the card, the audit sample, the charts) and the executors' shards
alike. Nothing is staged on a local disk and copied.
"""

from __future__ import annotations

import json
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Iterable

from faithqa_spark import fs


@dataclass(frozen=True)
class OutDir:
    uri: str  # as given: a local path or a URI (never through pathlib: s3a://b -> s3a:/b)
    settings: fs.Settings = ()  # fs.hadoop_settings, e.g. fs.spark_hadoop_settings(spark)

    def path(self, rel: str) -> str:
        """The URI (or local path) of `rel`, a '/'-separated path inside this directory."""
        return fs.join(self.uri, *rel.split("/"))

    def sub(self, rel: str) -> OutDir:
        return OutDir(self.path(rel), self.settings)

    def open(self, rel: str) -> AbstractContextManager[IO[bytes]]:
        """A stream that becomes the file `rel` when its block ends without error."""
        return fs.open_output(self.path(rel), self.settings)

    def write_bytes(self, rel: str, data: bytes) -> None:
        fs.write_bytes(self.path(rel), data, self.settings)

    def write_text(self, rel: str, text: str) -> None:
        self.write_bytes(rel, text.encode("utf-8"))

    def write_json(self, rel: str, obj: Any) -> None:
        self.write_text(rel, json.dumps(obj, indent=2, ensure_ascii=False) + "\n")

    def write_lines(self, rel: str, lines: Iterable[str]) -> int:
        """One line per item, each ended by a newline; returns the number of lines."""
        n = 0
        with self.open(rel) as f:
            for line in lines:
                f.write(line.encode("utf-8") + b"\n")
                n += 1
        return n

    def remove(self, rel: str) -> None:
        """Delete the file or directory `rel`, if there is one."""
        fs.remove(self.path(rel), self.settings)

    def exists(self, rel: str) -> bool:
        return fs.exists(self.path(rel), self.settings)


def as_outdir(where: OutDir | str | Path) -> OutDir:
    """An OutDir for a directory given as a local path (str or Path) or a URI."""
    return where if isinstance(where, OutDir) else OutDir(str(where))
