"""The file exports, declared once for both runners: which rows, in which files, serialised
by which core function.

Each `FileExport` turns the rows of one table (the dataset, the leftovers: filtered and
rejected rows, or the training-export lines), in id order, into files per group (a split,
or a status), cut into shards with Hugging Face's names (`core.shards`):
`DIR/jsonl/train-00000-of-00001.jsonl`. A file holds one line per row, optionally framed by
a header, separator and footer (a JSON document, each shard a whole one), or the rows as
Parquet. The Spark job (`spark.shards`) and the reference runner (`local_outputs`) both loop
over `FILE_EXPORTS` and write each shard with `shard_io.ShardWriter`; a new export is one
entry here, written by both runners with no change to either.

File names carry the Hub's split names (train, validation, test: `C.HUB_SPLITS`), the
records their own `split` (train, dev, test).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any, Callable, Mapping

from faithqa_spark.core import fields as C
from faithqa_spark.core.records import json_line, squad_document_frame, squad_paragraph
from faithqa_spark.core.shards import shard_glob, shard_name

DATASET = "dataset"
LEFTOVERS = "leftovers"
TRAINING = "training"  # the training-export lines (C.TRAINING_LINE_FIELDS)
Frame = tuple[str, str, str]  # header, separator between lines, footer


@dataclass(frozen=True)
class FileExport:
    """One export of `table`: for each value of `group` in `groups`, the shards
    `directory/<stem>-<i>-of-<n><suffix>` holding its rows in id order, each row as
    `line(row)` (framed by `frame(group)` when set) or, with no `line`, as a Parquet row of
    `fields`."""

    format: str | None  # the output.formats entry that selects it; None = always written
    table: str  # DATASET, LEFTOVERS or TRAINING
    group: str  # the column that picks a file's rows
    groups: tuple[str, ...]
    directory: str  # relative to the output directory
    suffix: str
    columns: tuple[str, ...]  # what `line` reads (the Spark side ships only these)
    line: Callable[[Mapping[str, Any]], str] | None = None
    frame: Callable[[str], Frame] | None = None  # group -> frame; None = plain lines
    fields: tuple[tuple[str, str], ...] = ()  # the Parquet schema, when `line` is None

    def stem(self, group: str) -> str:
        """A group's name in its files: the Hub's split name, or the group itself."""
        return C.HUB_SPLITS.get(group, group)

    def file(self, group: str, index: int = 0, count: int = 1) -> str:
        """Shard `index` of `count` of a group, relative to the output directory."""
        return f"{self.directory}/{shard_name(self.stem(group), index, count, self.suffix)}"

    def pattern(self, group: str) -> str:
        """The glob matching every shard of a group (what the dataset card declares)."""
        return f"{self.directory}/{shard_glob(self.stem(group), self.suffix)}"


def _dataset_parquet() -> FileExport:
    return FileExport("parquet", DATASET, C.SPLIT, C.SPLITS, "parquet", ".parquet",
                      tuple(C.DATASET_COLUMNS), fields=tuple(C.DATASET_FIELDS))


FILE_EXPORTS: tuple[FileExport, ...] = (
    FileExport("jsonl", DATASET, C.SPLIT, C.SPLITS, "jsonl", ".jsonl",
               tuple(C.DATASET_COLUMNS), partial(json_line, columns=C.DATASET_COLUMNS)),
    FileExport("squad", DATASET, C.SPLIT, C.SPLITS, "squad", ".json",
               (C.ID, C.QUESTION, C.MODIFIED_CONTEXT, C.FAITHFUL_ANSWER, C.ANSWER_STARTS),
               squad_paragraph, squad_document_frame),
    _dataset_parquet(),
    FileExport(None, LEFTOVERS, C.STATUS, (C.FILTERED,), "filtered", ".jsonl",
               tuple(C.LEFTOVER_COLUMNS), partial(json_line, columns=C.LEFTOVER_COLUMNS)),
    FileExport(None, LEFTOVERS, C.STATUS, (C.REJECTED,), "rejected", ".jsonl",
               tuple(C.LEFTOVER_COLUMNS), partial(json_line, columns=C.LEFTOVER_COLUMNS)),
)


def selected(formats: set[str] | frozenset[str]) -> list[FileExport]:
    """The exports of the dataset and the leftovers that `output.formats` asks for (plus
    those always written)."""
    return [e for e in FILE_EXPORTS if e.format is None or e.format in formats]


def by_export(formats: set[str] | frozenset[str], table: str) -> list[FileExport]:
    return [e for e in selected(formats) if e.table == table]


def framed_text(lines: list[str], frame: Frame) -> str:
    """A framed file's whole text (the writers stream the same bytes)."""
    header, sep, footer = frame
    return header + sep.join(lines) + footer
