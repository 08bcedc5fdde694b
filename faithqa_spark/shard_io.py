"""Writing one shard: the files of every export of a group for one contiguous range of its
rows, straight into the output directory (`outdir.OutDir`, any filesystem).

The same code writes a shard in a Spark task (`spark.shards`, the executors) and in the
reference runner (`local_outputs`), so the two give the same bytes by construction: the
same lines, frames and Parquet row groups (`row_group_rows` rows each, whatever Arrow
batches the rows came in).
"""

from __future__ import annotations

from contextlib import ExitStack
from dataclasses import dataclass
from typing import IO, Any, Mapping, Sequence

import pyarrow.parquet as pq

from faithqa_spark.arrow import arrow_batch, arrow_schema
from faithqa_spark.config import Config
from faithqa_spark.core.exports import FileExport
from faithqa_spark.core.shards import chunks, shard_count
from faithqa_spark.outdir import OutDir

Target = tuple[FileExport, str]  # an export and the group whose rows it writes


@dataclass(frozen=True)
class Layout:
    """How rows are cut into files (output.shard_rows, output.parquet_row_group_rows)."""
    shard_rows: int
    row_group_rows: int


class _File:
    """One export's file of the shard, open for writing."""

    def __init__(self, stream: IO[bytes], export: FileExport, group: str,
                 row_group_rows: int) -> None:
        self.stream, self.export, self.rows = stream, export, 0
        self.frame = export.frame(group) if export.frame else None
        self.parquet = (pq.ParquetWriter(stream, arrow_schema(list(export.fields)))
                        if export.line is None else None)
        self.row_group_rows, self.buffer = row_group_rows, []  # Parquet rows not yet written
        if self.frame:
            stream.write(self.frame[0].encode("utf-8"))

    def add(self, rows: Sequence[Mapping[str, Any]]) -> None:
        if self.parquet is not None:
            self.buffer.extend(rows)
            while len(self.buffer) >= self.row_group_rows:
                self._row_group(self.buffer[:self.row_group_rows])
                self.buffer = self.buffer[self.row_group_rows:]
        elif rows:
            line = self.export.line
            assert line is not None
            if self.frame:
                sep = self.frame[1]
                text = (sep if self.rows else "") + sep.join(line(r) for r in rows)
            else:
                text = "".join(line(r) + "\n" for r in rows)
            self.stream.write(text.encode("utf-8"))
        self.rows += len(rows)

    def _row_group(self, rows: list[Any]) -> None:
        assert self.parquet is not None
        self.parquet.write_batch(arrow_batch(rows, list(self.export.fields)))

    def finish(self) -> None:
        if self.parquet is not None:
            if self.buffer:
                self._row_group(self.buffer)
            self.parquet.close()  # the footer; the stream is closed by its owner
        elif self.frame:
            self.stream.write(self.frame[2].encode("utf-8"))


class ShardWriter:
    """The files of shard `index` of `count` of each target, as a context manager: rows go
    in with `add` (in export order); each file appears whole when the block ends without
    error, and `written` then lists (path, rows) of each."""

    def __init__(self, out: OutDir, targets: Sequence[Target], index: int, count: int,
                 layout: Layout) -> None:
        self.out, self.targets, self.layout = out, targets, layout
        self.index, self.count = index, count
        self.written: list[tuple[str, int]] = []
        self._stack = ExitStack()
        self._files: list[tuple[str, _File]] = []

    def __enter__(self) -> ShardWriter:
        with ExitStack() as stack:
            for export, group in self.targets:
                rel = export.file(group, self.index, self.count)
                stream = stack.enter_context(self.out.open(rel))
                self._files.append((rel, _File(stream, export, group,
                                               self.layout.row_group_rows)))
            self._stack = stack.pop_all()
        return self

    def add(self, rows: Sequence[Mapping[str, Any]]) -> None:
        for _, f in self._files:
            f.add(rows)

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> bool | None:
        if exc_type is None:
            for _, f in self._files:
                f.finish()
        self._stack.__exit__(exc_type, exc, tb)  # each file appears now, or not at all
        if exc_type is None:
            self.written = [(rel, f.rows) for rel, f in self._files]
        return None


def layout_of(cfg: Config) -> Layout:
    return Layout(cfg.output.shard_rows, cfg.output.parquet_row_group_rows)


def targets_by_group(exports: Sequence[FileExport]) -> dict[str, list[Target]]:
    """The exports of one table by group value: the files a group's shard writes together
    (the dataset's train shard: its jsonl, squad and parquet files)."""
    out: dict[str, list[Target]] = {}
    for export in exports:
        for group in export.groups:
            out.setdefault(group, []).append((export, group))
    return out


def write_groups(out: OutDir, targets: Sequence[Target], rows: Sequence[Mapping[str, Any]],
                 layout: Layout) -> list[tuple[str, int]]:
    """Every shard of one group's `rows` (all in export order, the targets sharing the
    group): what the reference runner calls, and what the Spark side writes with one
    `ShardWriter` per shard, in several tasks."""
    written: list[tuple[str, int]] = []
    count = shard_count(len(rows), layout.shard_rows)
    for index, chunk in enumerate(chunks(rows, layout.shard_rows)):
        with ShardWriter(out, targets, index, count, layout) as w:
            w.add(chunk)
        written += w.written
    return written
