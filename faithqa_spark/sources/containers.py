"""The three file containers: one JSON document, JSON Lines, Parquet.

Each turns raw file bytes into Python objects and says where each one came from; the
format modules (squad, triviaqa) give those objects meaning. Whole-file problems raise
`InputFileError` here, eagerly, so a caller learns of a bad file when it asks to read it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from faithqa_spark.core import reasons as R
from faithqa_spark.sources.common import InputFileError, RecordOutcome, reject, type_name

BOM = b"\xef\xbb\xbf"
# Rows per Parquet record batch: big enough to amortise Arrow calls, small enough that a
# file of long TriviaQA evidence texts never sits in memory as Python objects at once.
PARQUET_BATCH_ROWS = 256

# (record_loc, parsed object or None, outcome or None): exactly one of the last two is set.
Record = tuple[str, Any, RecordOutcome | None]


def _strip_bom(data: bytes) -> tuple[bytes, int]:
    """Drop a UTF-8 byte order mark (some Windows tools write one); return the offset."""
    return (data[len(BOM):], len(BOM)) if data.startswith(BOM) else (data, 0)


def _line_of(data: bytes, byte: int) -> int:
    return data.count(b"\n", 0, byte) + 1


# Byte order marks of the encodings a JSON file is sometimes saved in by mistake (UTF-32
# first: its little-endian mark starts with UTF-16's). Without this check a UTF-16 JSON
# Lines file turns into one misleading "Expecting value" reject per line.
_WIDE_BOMS = ((b"\xff\xfe\x00\x00", "UTF-32LE"), (b"\x00\x00\xfe\xff", "UTF-32BE"),
              (b"\xff\xfe", "UTF-16LE"), (b"\xfe\xff", "UTF-16BE"))


def _check_utf8_not_empty(body: bytes, path: str) -> None:
    for bom, encoding in _WIDE_BOMS:
        if body.startswith(bom):
            raise InputFileError(
                path, "byte 0",
                f"{encoding} byte order mark at byte 0: the file is {encoding}, expected UTF-8",
            )
    if not body.strip():
        raise InputFileError(path, "byte 0", "empty file (no content at byte 0)")


def load_json_document(data: bytes, path: str) -> Any:
    """Parse a whole file as one JSON value, or raise InputFileError saying where it broke."""
    body, offset = _strip_bom(data)
    _check_utf8_not_empty(body, path)
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as err:
        byte = offset + err.start
        position = f"byte {byte} (line {_line_of(data, byte)})"
        raise InputFileError(
            path, position, f"invalid UTF-8 at {position}: byte 0x{data[byte]:02x}, {err.reason}"
        ) from None
    try:
        # strict=False: a raw tab or NUL inside a string is kept rather than failing the file
        return json.loads(text, strict=False)
    except json.JSONDecodeError as err:
        # err.pos counts characters; people and tools (dd, hexdump) want bytes.
        byte = offset + len(text[: err.pos].encode("utf-8"))
        position = f"line {err.lineno} column {err.colno} (byte {byte})"
        raise InputFileError(path, position, f"invalid JSON at {position}: {err.msg}") from None
    except RecursionError:
        raise InputFileError(path, None, "JSON nested too deeply to parse") from None


def require_top_list(doc: Any, key: str, layout: str, path: str) -> list[Any]:
    """The official layouts keep their records in one top-level list, `doc[key]`."""
    if not isinstance(doc, dict):
        raise InputFileError(
            path, "top level",
            f"bad layout at top level: a JSON {type_name(doc)}, expected an object with a "
            f"'{key}' list ({layout})",
        )
    value = doc.get(key)
    if not isinstance(value, list):
        found = ", ".join(repr(k) for k in list(doc)[:10]) or "none"
        what = "missing" if value is None else f"a {type_name(value)}, not a list"
        raise InputFileError(
            path, "top level",
            f"bad layout at top level: '{key}' is {what} ({layout}; top-level keys: {found})",
        )
    return value


# ---------------------------------------------------------------- JSON Lines

def jsonl_records(data: bytes, path: str) -> Iterator[Record]:
    """Check the file is not empty now, then yield one Record per non-blank line."""
    body, _ = _strip_bom(data)
    _check_utf8_not_empty(body, path)
    return _iter_jsonl(body)


def _iter_lines(data: bytes) -> Iterator[tuple[int, bytes]]:
    """(1-based line number, line bytes) without building a list of all lines at once.

    Split on b"\\n" only: str.splitlines would also split at U+2028 and friends, which
    may legally sit inside a JSON string.
    """
    start, number = 0, 0
    while start < len(data):
        end = data.find(b"\n", start)
        end = len(data) if end < 0 else end
        number += 1
        yield number, data[start:end]
        start = end + 1


def _iter_jsonl(data: bytes) -> Iterator[Record]:
    for number, raw in _iter_lines(data):
        loc = f"line={number}"
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as err:
            detail = f"line {number}: invalid UTF-8 at byte {err.start} of the line ({err.reason})"
            yield loc, None, reject(R.BAD_ENCODING, detail)
            continue
        if not line.strip():
            continue  # blank lines (often a trailing one) carry no record
        yield _parse_line(line, number, loc)


def _parse_line(line: str, number: int, loc: str) -> Record:
    try:
        obj = json.loads(line, strict=False)  # raw control characters in strings are kept
    except json.JSONDecodeError as err:
        return loc, None, reject(R.INVALID_JSON, f"line {number} column {err.colno}: {err.msg}")
    except RecursionError:
        return loc, None, reject(R.INVALID_JSON, f"line {number}: JSON nested too deeply")
    if not isinstance(obj, dict):
        return loc, None, reject(
            R.INVALID_JSON, f"line {number} is a JSON {type_name(obj)}, expected an object"
        )
    return loc, obj, None


# ---------------------------------------------------------------- Parquet

def parquet_records(data: bytes, path: str) -> Iterator[Record]:
    """Open the file now (raising InputFileError if unreadable), then yield its rows."""
    try:
        parquet = pq.ParquetFile(pa.BufferReader(data))
    except (pa.ArrowException, OSError) as err:
        raise InputFileError(path, None, f"unreadable Parquet file: {err}") from None
    return _iter_parquet(parquet, path)


def _iter_parquet(parquet: pq.ParquetFile, path: str) -> Iterator[Record]:
    row = 0
    try:
        for batch in parquet.iter_batches(batch_size=PARQUET_BATCH_ROWS):
            try:
                objs = batch.to_pylist()
            except UnicodeDecodeError:
                # Parquet does not validate its string columns, so invalid UTF-8 only shows
                # when Arrow turns a value into a str: find the rows and reject only them.
                objs = None
            if objs is not None:
                for obj in objs:
                    yield f"row={row}", obj, None
                    row += 1
            else:
                for i in range(batch.num_rows):
                    yield _parquet_row(batch.slice(i, 1), row)
                    row += 1
    except (pa.ArrowException, OSError) as err:
        raise InputFileError(
            path, f"row {row}", f"unreadable Parquet data at row {row}: {err}"
        ) from None


def _parquet_row(one_row: pa.RecordBatch, row: int) -> Record:
    """One row of a batch that failed to decode: the record, or BAD_ENCODING naming the column."""
    loc = f"row={row}"
    try:
        return loc, one_row.to_pylist()[0], None
    except UnicodeDecodeError as err:
        column = next((name for name in one_row.schema.names
                       if not _decodes(one_row.column(name))), "?")
        detail = (f"row {row}: invalid UTF-8 in column '{column}' at byte {err.start} of the "
                  f"value ({err.reason})")
        return loc, None, reject(R.BAD_ENCODING, detail)


def _decodes(column: pa.Array) -> bool:
    try:
        column.to_pylist()
    except UnicodeDecodeError:
        return False
    return True
