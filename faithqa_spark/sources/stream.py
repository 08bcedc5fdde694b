"""Reading one input file in parts, streaming: `read_file_part`.

An official SQuAD or TriviaQA file is one JSON document (the released TriviaQA files are
hundreds of MB). `read_file` needs the whole document in memory and one task to parse it.
`read_file_part` instead streams the document with ijson's C backend (yajl2), holding one
article (SQuAD) or one question record (TriviaQA) at a time, and makes rows only of the
articles in its part: article i belongs to part `i % n_parts`. So `n_parts` tasks can read
one large file side by side, each with memory bounded by one article plus ijson's buffer.

The rows are exactly `read_file`'s (same fields, `record_loc`, statuses and details): the
union over the parts of a file equals the whole read. `record_index` is set here, to a key
that orders rows in file order and is the same in every part: for the official layouts
`(article index << 32) + the row's ordinal in its article`, for JSON Lines and Parquet the
record's ordinal (all of them in part 0: `_flat_rows`). `core.dedupe` needs only that order,
so the duplicate policy is unchanged.

Where ijson and the standard `json` module could disagree, the standard one decides: on any
ijson error (invalid UTF-8, a raw control character in a string, NaN, an integer past 64
bits), and where the raw bytes hold a lone `\\uD800`-`\\uDFFF` escape (yajl turns it into
'?', `json` keeps it and the reader rejects the field), the rest of the file is read with
`read_file`'s parser from that article on. Such files cost one whole parse, as before.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from typing import IO, Any

import ijson

from faithqa_spark.core import fields as F
from faithqa_spark.sources import squad, triviaqa
from faithqa_spark.sources.common import ReaderSettings
from faithqa_spark.sources.containers import BOM, load_json_document, require_top_list
from faithqa_spark.sources.formats import HEAD_BYTES, detect_format, read_file

_backend = ijson.get_backend("yajl2_c")  # the C parser; the Python ones are ~20x slower
CHUNK = 1 << 16
# A lone surrogate escape: a high half not followed by a low one, or a low half not after a
# high one (a pair, e.g. an emoji, is fine: yajl decodes it as json does). A pair cut by a
# read boundary, or a `\\` before the escape, only causes a needless fallback.
_SURROGATE_ESCAPE = re.compile(
    rb"\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F][0-9a-fA-F]{2})"
    rb"|(?<!\\u[dD][89abAB][0-9a-fA-F]{2})\\u[dD][c-fC-F][0-9a-fA-F]{2}")
# official layout: (key of the top-level list, layout name, rows of (index, item) pairs)
_OFFICIAL = {
    "squad_json": ("data", squad.LAYOUT, squad.iter_articles),
    "triviaqa_json": ("Data", triviaqa.LAYOUT, triviaqa.iter_records),
}
ROW_BITS = 32  # rows per article stay below 2**32 (SQuAD articles have hundreds)

Opener = Callable[[], IO[bytes]]


def read_file_part(data: bytes | Opener, *, path: str, source: str,
                   settings: ReaderSettings = ReaderSettings(), part: int = 0,
                   n_parts: int = 1) -> Iterator[dict[str, Any]]:
    """The rows of part `part` of `n_parts` of one input file, with `record_index` set.

    `data` is the file's bytes, or better a function that opens it as a binary stream
    (e.g. `lambda: fs.open_input(uri, storage)`): then the file is streamed and may be
    opened a second time only in the fallback described in the module docstring. `path` is
    displayed and locates TriviaQA evidence, as in `read_file`. Part 0 of 1 is the file.
    """
    if not 0 <= part < n_parts:
        raise ValueError(f"part must be in [0, {n_parts}), got {part}")
    opener = data if callable(data) else (lambda: _BytesStream(data))
    with opener() as stream:
        head = stream.read(HEAD_BYTES)
        fmt = detect_format(path, source, head)
        if fmt not in _OFFICIAL:
            if part == 0:  # see _flat_rows: the other parts stop after the head
                yield from _flat_rows(head + stream.read(), path, source, settings)
            return
        key, layout, rows_of = _OFFICIAL[fmt]
        progress = _Progress()
        # ijson's prefix "data.item" also matches the key "item" of a `data` object
        top_is_list = _top_value_is_list(head, opener, key)
        scanner = _Scanner(head, stream)
        items = _backend.items(scanner, f"{key}.item", use_float=True, buf_size=CHUNK)
        try:
            if not top_is_list:
                raise ijson.JSONError("not a list")  # read_file's parser says what is wrong
            yield from _keyed(rows_of(progress.select(items, scanner, part, n_parts),
                                      path=path, source=source, settings=settings), progress)
            if progress.seen and not progress.stopped:
                return
        except (ijson.JSONError, UnicodeError):
            pass
    # the standard parser decides from article `progress.seen` on (see the module docstring)
    yield from _fallback(opener, key, layout, rows_of, path, source, settings, part, n_parts,
                         progress.seen)


class _Progress:
    """How far the stream got: `seen` articles passed on; `current` the one being read."""

    def __init__(self) -> None:
        self.seen = 0
        self.current = -1
        self.stopped = False

    def select(self, items: Iterable[Any], scanner: _Scanner | None, part: int,
               n_parts: int, start: int = 0) -> Iterator[tuple[int, Any]]:
        """(index, article) of this part's articles, from index `start` on."""
        for i, item in enumerate(items, start):
            if scanner is not None and scanner.surrogate:
                self.stopped = True
                return
            self.seen = i + 1
            if i % n_parts == part:
                self.current = i
                yield i, item


def plan_parts(sizes: Iterable[tuple[str, int]], bytes_per_part: int
               ) -> list[tuple[str, int, int]]:
    """(path, part, n_parts) read tasks for files of the given sizes: an official JSON
    document (`.json`) of S bytes gets ceil(S / bytes_per_part) parts, anything else one
    (JSON Lines and Parquet are split by Spark's own readers, or read whole). In path order,
    so the plan does not depend on the order files were given."""
    if bytes_per_part <= 0:
        raise ValueError("bytes_per_part must be positive")
    plan = []
    for path, size in sorted(sizes):
        n = max(1, -(-size // bytes_per_part)) if path.lower().endswith(".json") else 1
        plan.extend((path, part, n) for part in range(n))
    return plan


def _top_value_is_list(head: bytes, opener: Opener, key: str) -> bool:
    """Whether the document is an object whose `key` holds a list. Decided from the head
    when the key is in it (it is the first key in the released files), else by reading the
    file again up to the key, with the C parser."""
    decided = _top_value_kind(_BytesStream(head), key)
    if decided is not None:
        return decided
    with opener() as stream:
        return bool(_top_value_kind(stream, key, whole=True))


def _top_value_kind(stream: Any, key: str, whole: bool = False) -> bool | None:
    """True/False once the parser reaches `key`'s value or the end of the top-level
    object; None when the bytes run out first (only when not `whole`)."""
    try:
        for prefix, event, _ in _backend.parse(_Scanner(b"", stream), buf_size=CHUNK):
            if prefix == key:
                return event == "start_array"
            if prefix == "" and event not in ("start_map", "map_key"):
                return False  # the top level is not an object, or it ended
    except (ijson.JSONError, UnicodeError):
        # the head may end inside a token, or a character: only the whole file decides
        return False if whole else None
    return False if whole else None


def _fallback(opener: Opener, key: str, layout: str, rows_of: Callable[..., Iterator],
              path: str, source: str, settings: ReaderSettings, part: int, n_parts: int,
              start: int) -> Iterator[dict[str, Any]]:
    with opener() as stream:
        whole = stream.read()
    items = require_top_list(load_json_document(whole, path), key, layout, path)
    del whole
    progress = _Progress()
    rest = progress.select(items[start:], None, part, n_parts, start)
    yield from _keyed(rows_of(rest, path=path, source=source, settings=settings), progress)


def _keyed(rows: Iterable[dict[str, Any]], progress: _Progress) -> Iterator[dict[str, Any]]:
    """Set each row's `record_index` from its article (the one `progress` last passed on:
    the readers are lazy, so a row comes out before the next article is pulled)."""
    article, j = -1, 0
    for row in rows:
        if progress.current != article:
            article, j = progress.current, 0
        row[F.RECORD_INDEX] = (article << ROW_BITS) + j
        j += 1
        yield row


def _flat_rows(data: bytes, path: str, source: str, settings: ReaderSettings
               ) -> Iterator[dict[str, Any]]:
    """JSON Lines and Parquet: every record, numbered, in part 0. A part can only find its
    records by parsing the whole file, so splitting would multiply the work: `plan_parts`
    gives `.jsonl` and `.parquet` one part, and a `.json` file that turns out to be JSON
    Lines (Hugging Face's `to_json`) is read whole by its part 0, the other parts empty."""
    for i, row in enumerate(read_file(data, path=path, source=source, settings=settings)):
        row[F.RECORD_INDEX] = i
        yield row


class _BytesStream:
    """A minimal binary stream over bytes (no copy until read)."""

    def __init__(self, data: bytes) -> None:
        self._view = memoryview(data if isinstance(data, bytes) else bytes(data))
        self._pos = 0

    def read(self, n: int = -1) -> bytes:
        end = len(self._view) if n is None or n < 0 else min(len(self._view), self._pos + n)
        out = self._view[self._pos:end].tobytes()
        self._pos = end
        return out

    def __enter__(self) -> _BytesStream:
        return self

    def __exit__(self, *exc: Any) -> None:
        self._view.release()


class _Scanner:
    """What ijson reads: the head already read, then the stream; drops a UTF-8 BOM (as
    `read_file` does) and notes any surrogate escape in the bytes passed on."""

    def __init__(self, head: bytes, stream: IO[bytes]) -> None:
        self._pending = head[len(BOM):] if head.startswith(BOM) else head
        self._stream = stream
        self._tail = b""
        self.surrogate = False

    def read(self, n: int) -> bytes:
        if self._pending:
            chunk, self._pending = self._pending[:n], self._pending[n:]
        else:
            chunk = self._stream.read(n)
        if not self.surrogate and chunk:
            # the previous chunk's last 6 bytes: a low half's high one, or a cut escape
            self.surrogate = _SURROGATE_ESCAPE.search(self._tail + chunk) is not None
            self._tail = chunk[-6:]
        return chunk
