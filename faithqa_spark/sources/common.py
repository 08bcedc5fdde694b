"""Shared pieces of the input readers: settings, errors, row building and field checks.

Pure Python (no pyspark): the Spark job and the single-process reference runner both call
the readers, which is what keeps their outputs identical.

Record-level problems travel as `RecordOutcome` exceptions inside this package only; the
public reader API turns every one of them into a FILTERED or REJECTED row and never lets
them escape. Only whole-file problems escape, as `InputFileError`.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from faithqa_spark.core import fields as F
from faithqa_spark.core import reasons as R
from faithqa_spark.core.text import context_id, find_ci, literal_pattern
from faithqa_spark import errors

SOURCES = ("squad", "triviaqa")


@dataclass(frozen=True)
class ReaderSettings:
    """Limits and locations the readers need; plain data so it pickles to executors."""

    # Contexts longer than this are rejected (CONTEXT_TOO_LONG): they would blow up NER.
    max_context_chars: int = 100_000
    # TriviaQA: a chosen evidence text longer than this is cut ...
    triviaqa_max_chars: int = 2000
    # ... to this many chars either side of the answer (the paper's 800).
    triviaqa_window: int = 800
    # TriviaQA official layout: the dir holding the wikipedia .txt evidence; None = auto.
    evidence_dir: str | None = None
    # ... the dir holding the web evidence (`SearchResults`, evidence/web); None = auto.
    web_evidence_dir: str | None = None
    # which evidence the official layout reads, in order: "wikipedia" (EntityPages) and/or
    # "web" (SearchResults)
    evidence: tuple[str, ...] = ("wikipedia",)
    # filesystem settings (fs.hadoop_settings) for evidence on a remote filesystem
    storage: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        for name in ("max_context_chars", "triviaqa_max_chars"):
            if getattr(self, name) <= 0:
                raise ValueError(f"ReaderSettings.{name} must be positive")
        if self.triviaqa_window < 0:
            raise ValueError("ReaderSettings.triviaqa_window must be >= 0")
        if not self.evidence or not set(self.evidence) <= {"wikipedia", "web"}:
            raise ValueError("ReaderSettings.evidence must name 'wikipedia' and/or 'web'")


class InputFileError(errors.InputFileError):
    """A whole input file cannot be read: not parseable, empty, or not the expected layout.

    `str(err)` is "<path>: <message>"; `message` already says where (`position`), e.g.
    "squad.json: invalid JSON at line 3 column 17 (byte 52): Expecting ','". `position` is
    kept separately (or None when the problem has no single place) for programs.
    """

    def __init__(self, path: str, position: str | None, message: str) -> None:
        super().__init__(f"{path}: {message}")
        self.path = path
        self.position = position
        self.message = message

    def __reduce__(self) -> tuple[Any, ...]:
        # The default reduce would call __init__ with the formatted string only.
        return (type(self), (self.path, self.position, self.message))


class RecordOutcome(Exception):
    """Internal control flow: this record ends FILTERED or REJECTED for `reason`."""

    def __init__(self, status: str, reason: str, detail: str) -> None:
        super().__init__(detail)
        self.status = status
        self.reason = reason
        self.detail = detail


def reject(reason: str, detail: str) -> RecordOutcome:
    """The outcome for malformed input (raise it)."""
    return RecordOutcome(F.REJECTED, reason, detail)


def filtered(reason: str, detail: str) -> RecordOutcome:
    """The outcome for well-formed input that cannot become a dataset row (raise it)."""
    return RecordOutcome(F.FILTERED, reason, detail)


def check_source(source: str) -> None:
    """Raise ValueError unless `source` is one the readers know."""
    if source not in SOURCES:
        raise ValueError(f"unknown source {source!r}; expected one of {', '.join(SOURCES)}")


# ---------------------------------------------------------------- rows

def fallback_id(source: str, path: str, loc: str) -> str:
    """Id for a record whose own id is unusable: file name + location keeps it unique.

    The basename, not the full path, so the id does not depend on where the data is
    mounted (the output must be a pure function of the input files).
    """
    return f"{source}:{posixpath.basename(path)}@{loc}"


def blank_row(source: str, path: str, loc: str) -> dict[str, Any]:
    """A row with every QA field, unknown values None, ready to be filled by a parser."""
    row: dict[str, Any] = {name: None for name, _ in F.QA_FIELDS}
    row[F.ID] = fallback_id(source, path, loc)
    row[F.SOURCE] = source
    row[F.ALIASES] = []
    row[F.INPUT_FILE] = path
    row[F.RECORD_LOC] = loc
    return row


# Consecutive records usually share a context (SQuAD paragraphs, HF rows of one article),
# so a small cache saves most of the hashing; the result does not depend on it.
_context_id = lru_cache(maxsize=64)(context_id)


def finish(row: dict[str, Any], outcome: RecordOutcome | None) -> dict[str, Any]:
    """Set status/reason/detail (OK keeps any repair note in detail) and the context id."""
    if outcome is None:
        row[F.STATUS] = F.OK
    else:
        row[F.STATUS], row[F.REASON], row[F.DETAIL] = outcome.status, outcome.reason, outcome.detail
    if row[F.CONTEXT] is not None:
        row[F.CONTEXT_ID] = _context_id(row[F.CONTEXT])
    return row


def rows_from_records(records: Iterable[tuple[str, Any, RecordOutcome | None]],
                      parse: Callable[..., None], *, path: str, source: str,
                      settings: ReaderSettings) -> Iterator[dict[str, Any]]:
    """Rows of flat records (JSON Lines, Parquet): `parse(row, record, source, settings)`.

    A record the container could not parse already carries its outcome.
    """
    for loc, record, outcome in records:
        row = blank_row(source, path, loc)
        if outcome is not None:
            yield finish(row, outcome)
        else:
            yield build_row(row, parse, record, source, settings)


def build_row(row: dict[str, Any], parse: Callable[..., None], *args: Any) -> dict[str, Any]:
    """Run `parse(row, *args)`, which fills `row` in place, and turn its outcome into status.

    Fields validated before a failure stay filled; the rest stay None.
    """
    try:
        parse(row, *args)
    except RecordOutcome as outcome:
        return finish(row, outcome)
    return finish(row, None)


# ---------------------------------------------------------------- field checks

# A JSON escape such as "\ud800" that is not half of a valid pair decodes to a lone
# surrogate: a Python str that no UTF-8 encoder accepts, so it would crash hashing
# (context_id), Arrow/Spark and the JSONL writer far from the input. Raw UTF-8 bytes can
# never produce one (the decoder rejects encoded surrogates); only escapes can.
_SURROGATE = re.compile("[\ud800-\udfff]")


def check_encodable(value: str, label: str) -> None:
    """A string read from JSON must be valid Unicode (no lone surrogate): else BAD_ENCODING."""
    if value.isascii():  # O(1) for CPython's compact strings; most fields are ASCII
        return
    bad = _SURROGATE.search(value)
    if bad is not None:
        raise reject(
            R.BAD_ENCODING,
            f"field '{label}' holds a lone surrogate U+{ord(bad.group()):04X} at char "
            f"{bad.start()} (an invalid \\u escape; not encodable as UTF-8)",
        )


def type_name(value: Any) -> str:
    """The JSON name of a value's type, for details a person reads."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, (list, tuple)):
        return "list"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


def is_int(value: Any) -> bool:
    """True for a real integer: JSON `true` parses as a bool, which Python calls an int."""
    return isinstance(value, int) and not isinstance(value, bool)


def require_object(value: Any, label: str) -> dict[str, Any]:
    """`value` itself must be an object (a record, an answer, a page)."""
    if not isinstance(value, dict):
        raise reject(R.WRONG_TYPE, f"{label} is a {type_name(value)}, expected an object")
    return value


def get_present(obj: dict[str, Any], key: str, label: str) -> Any:
    """`obj[key]`, which must be present and not null."""
    if key not in obj:
        raise reject(R.MISSING_FIELD, f"field '{label}' is missing")
    value = obj[key]
    if value is None:
        raise reject(R.MISSING_FIELD, f"field '{label}' is null")
    return value


def get_str(obj: dict[str, Any], key: str, label: str, *, allow_blank: bool = False) -> str:
    """A required string field; blank (empty or whitespace-only) is EMPTY_FIELD."""
    value = get_present(obj, key, label)
    if not isinstance(value, str):
        raise reject(R.WRONG_TYPE, f"field '{label}' is a {type_name(value)}, expected a string")
    check_encodable(value, label)
    if not allow_blank and not value.strip():
        raise reject(R.EMPTY_FIELD, f"field '{label}' is empty")
    return value


def get_object(obj: dict[str, Any], key: str, label: str) -> dict[str, Any]:
    """A required object field."""
    value = get_present(obj, key, label)
    if not isinstance(value, dict):
        raise reject(R.WRONG_TYPE, f"field '{label}' is a {type_name(value)}, expected an object")
    return value


def get_list(obj: dict[str, Any], key: str, label: str, *, optional: bool = False) -> list[Any]:
    """A list field; with `optional`, missing or null reads as []."""
    if optional and obj.get(key) is None:
        return []
    value = get_present(obj, key, label)
    if not isinstance(value, list):
        raise reject(R.WRONG_TYPE, f"field '{label}' is a {type_name(value)}, expected a list")
    return value


def str_items(items: list[Any], label: str) -> list[str]:
    """Every element of a list field must be a string (blank allowed)."""
    for i, item in enumerate(items):
        if not isinstance(item, str):
            raise reject(R.WRONG_TYPE,
                         f"field '{label}[{i}]' is a {type_name(item)}, expected a string")
        check_encodable(item, f"{label}[{i}]")
    return items


def int_or_none(value: Any, label: str) -> int | None:
    """An int or None; anything else (a bool, a float, "12") is WRONG_TYPE."""
    if value is None or is_int(value):
        return value
    raise reject(R.WRONG_TYPE, f"field '{label}' is a {type_name(value)}, expected an integer")


def optional_int(obj: dict[str, Any], key: str, label: str) -> int | None:
    """An int field that may be missing or null (then None)."""
    return int_or_none(obj.get(key), label)


def dedupe(items: list[str]) -> list[str]:
    """Items without repeats, first occurrence order (dict keeps insertion order)."""
    return list(dict.fromkeys(items))


def set_id(row: dict[str, Any], source: str, record: dict[str, Any], key: str) -> None:
    """Source-qualified id from `record[key]`; on failure the row keeps its fallback id."""
    row[F.ID] = f"{source}:{get_str(record, key, key)}"


def set_context(row: dict[str, Any], context: str, settings: ReaderSettings) -> None:
    """Store the context unless it is over the length limit (then it is left out)."""
    if len(context) > settings.max_context_chars:
        raise reject(
            R.CONTEXT_TOO_LONG,
            f"context is {len(context)} chars, over the limit of {settings.max_context_chars}",
        )
    row[F.CONTEXT] = context


def shorten(text: str, limit: int = 80) -> str:
    """`text` as a repr, cut so details stay one readable line."""
    return repr(text if len(text) <= limit else text[:limit] + "...")


def locate_answer(context: str, answer: str, start: int | None) -> tuple[int, str | None]:
    """The answer's start in the context, and a repair note when the given start was wrong.

    A start where the answer occurs (case-insensitively) is kept as is: it names the
    occurrence the annotator meant, even when an earlier one exists. Otherwise the first
    case-insensitive occurrence is used; none at all is ANSWER_NOT_IN_CONTEXT.
    """
    # match(), not search(): only an occurrence exactly at `start` counts. The range guard
    # matters both ways: a negative pos means 0 to re, and a JSON integer beyond a C
    # ssize_t (e.g. 10**30) makes re raise OverflowError instead of just not matching.
    # The exact text at `start` (most records) matches without a pattern to compile: one
    # per distinct answer was most of the read's time.
    if (start is not None and 0 <= start <= len(context)
            and (context.startswith(answer, start)
                 or literal_pattern(answer, False).match(context, start))):
        return start, None
    found = find_ci(context, answer)
    if found < 0:
        raise reject(R.ANSWER_NOT_IN_CONTEXT, f"answer {shorten(answer)} not found in the context")
    if start is None:
        return found, f"answer_start missing, set to {found}"
    return found, f"answer_start {start} repaired to {found}"
