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


def order_key(row: dict[str, Any]) -> tuple[str, int]:
    return row[C.INPUT_FILE], row[C.RECORD_INDEX]


def duplicate_detail(first_file: str, first_loc: str) -> str:
    return f"{DUPLICATE_OF}{first_file} {first_loc}"


def mark_in_order(rows: Iterable[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """The policy over rows streamed in `order_key` order (one file's rows in file order
    are): the first row with an id is the one kept, and only each id's first place is
    held, never the rows. The Spark job runs it in each read task, then applies it across
    files to the ids seen in more than one (`spark.transforms.with_duplicates_rejected`)."""
    first: dict[str, tuple[str, str]] = {}
    for row in rows:
        kept = first.get(row[C.ID])
        if kept is None:
            first[row[C.ID]] = (row[C.INPUT_FILE], row[C.RECORD_LOC])
        elif row[C.STATUS] != C.REJECTED:
            row[C.STATUS] = C.REJECTED
            row[C.REASON] = reasons.DUPLICATE_ID
            row[C.DETAIL] = duplicate_detail(*kept)
        yield row


def mark_duplicates(rows: list[dict[str, Any]]) -> int:
    """Reject, in place, every row whose id an earlier row (by `order_key`) has; returns how
    many were marked. Rows already rejected keep their own reason."""
    before = sum(1 for r in rows if r[C.REASON] == reasons.DUPLICATE_ID)
    for _ in mark_in_order(sorted(rows, key=order_key)):
        pass
    return sum(1 for r in rows if r[C.REASON] == reasons.DUPLICATE_ID) - before
