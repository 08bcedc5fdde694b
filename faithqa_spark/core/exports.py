"""The text exports, declared once for both runners: which rows, in which files, serialised
by which core function.

Each `LineExport` turns the rows of one table (the dataset, or the leftovers: filtered and
rejected rows), in id order, into one text file per group (a split, or a status): one line
per row, optionally framed by a header, separator and footer (a JSON document). The Spark
job (`spark.outputs`) and the reference runner (`reference`) both loop over `LINE_EXPORTS`;
a new text export, e.g. a training format with one JSON line per dataset row, is one entry
here, written by both runners with no change to either.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any, Callable, Mapping

from faithqa_spark.core import fields as C
from faithqa_spark.core.records import json_line, squad_document_frame, squad_paragraph

DATASET = "dataset"
LEFTOVERS = "leftovers"
Frame = tuple[str, str, str]  # header, separator between lines, footer


@dataclass(frozen=True)
class LineExport:
    """One text export of `table`: for each value of `group` in `groups`, the file
    `path.format(group=...)` holding `line(row)` for each of its rows, in id order."""

    format: str | None  # the output.formats entry that selects it; None = always written
    table: str  # DATASET or LEFTOVERS
    group: str  # the column that picks a file's rows
    groups: tuple[str, ...]
    path: str  # relative to the output directory, with {group}
    columns: tuple[str, ...]  # what `line` reads (the Spark side ships only these)
    line: Callable[[Mapping[str, Any]], str]
    frame: Callable[[str], Frame] | None = None  # group -> frame; None = plain lines

    def file(self, group: str) -> str:
        return self.path.format(group=group)


LINE_EXPORTS: tuple[LineExport, ...] = (
    LineExport("jsonl", DATASET, C.SPLIT, C.SPLITS, "jsonl/{group}.jsonl",
               tuple(C.DATASET_COLUMNS), partial(json_line, columns=C.DATASET_COLUMNS)),
    LineExport("squad", DATASET, C.SPLIT, C.SPLITS, "squad/{group}.json",
               (C.ID, C.QUESTION, C.MODIFIED_CONTEXT, C.FAITHFUL_ANSWER, C.ANSWER_STARTS),
               squad_paragraph, squad_document_frame),
    LineExport(None, LEFTOVERS, C.STATUS, (C.FILTERED,), "filtered/{group}.jsonl",
               tuple(C.LEFTOVER_COLUMNS), partial(json_line, columns=C.LEFTOVER_COLUMNS)),
    LineExport(None, LEFTOVERS, C.STATUS, (C.REJECTED,), "rejected/{group}.jsonl",
               tuple(C.LEFTOVER_COLUMNS), partial(json_line, columns=C.LEFTOVER_COLUMNS)),
)


def selected(formats: set[str] | frozenset[str]) -> list[LineExport]:
    """The line exports that `output.formats` asks for (plus those always written)."""
    return [e for e in LINE_EXPORTS if e.format is None or e.format in formats]


def framed_text(lines: list[str], frame: Frame) -> str:
    """A framed export's whole text (the reference; the Spark side streams the same bytes)."""
    header, sep, footer = frame
    return header + sep.join(lines) + footer
