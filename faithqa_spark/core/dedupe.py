"""Duplicate ids, within and across files. One policy for both runners: the record that
comes first by (input file path, position in the file) keeps its outcome; every other record
with that id is rejected as `duplicate_id`, naming where the kept one is. Ordering by path
rather than by command-line order keeps the result independent of the order files are given.
"""

from __future__ import annotations

from typing import Any, Iterable, Iterator

from faithqa_spark.core import fields as C
from faithqa_spark.core import reasons

DUPLICATE_OF = "duplicate of the record at "


def number_records(rows: Iterable[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Set each row's ordinal in its file (the rows of one file, in file order)."""
    for i, row in enumerate(rows):
        row[C.RECORD_INDEX] = i
        yield row


def mark_file_duplicates(rows: Iterable[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """`mark_duplicates` for the rows of one file, streamed in file order: the first row
    with an id is the one kept, so only each id's first location is held, never the rows.
    Across several files the Spark job then applies the policy to the ids seen in more than
    one file (`pipeline.with_duplicates_rejected`)."""
    first: dict[str, str] = {}
    for row in rows:
        kept = first.get(row[C.ID])
        if kept is None:
            first[row[C.ID]] = row[C.RECORD_LOC]
        elif row[C.STATUS] != C.REJECTED:
            row[C.STATUS] = C.REJECTED
            row[C.REASON] = reasons.DUPLICATE_ID
            row[C.DETAIL] = duplicate_detail(row[C.INPUT_FILE], kept)
        yield row


def order_key(row: dict[str, Any]) -> tuple[str, int]:
    return row[C.INPUT_FILE], row[C.RECORD_INDEX]


def duplicate_detail(first_file: str, first_loc: str) -> str:
    return f"{DUPLICATE_OF}{first_file} {first_loc}"


def mark_duplicates(rows: list[dict[str, Any]]) -> int:
    """Reject, in place, every row whose id an earlier row (by `order_key`) has; returns how
    many were marked. Rows already rejected keep their own reason."""
    first: dict[str, dict[str, Any]] = {}
    for row in rows:
        kept = first.get(row[C.ID])
        if kept is None or order_key(row) < order_key(kept):
            first[row[C.ID]] = row
    marked = 0
    for row in rows:
        kept = first[row[C.ID]]
        if row is not kept and row[C.STATUS] != C.REJECTED:
            row[C.STATUS] = C.REJECTED
            row[C.REASON] = reasons.DUPLICATE_ID
            row[C.DETAIL] = duplicate_detail(kept[C.INPUT_FILE], kept[C.RECORD_LOC])
            marked += 1
    return marked
