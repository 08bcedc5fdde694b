"""Which reader a file needs (`detect_format`) and the one entry point (`read_file`)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from faithqa_spark.sources import squad, triviaqa
from faithqa_spark.sources.common import ReaderSettings, check_source
from faithqa_spark.sources.containers import (
    jsonl_records, load_json_document, parquet_records, require_top_list,
)

FORMATS = ("squad_json", "squad_hf", "triviaqa_json", "triviaqa_hf")
EXTENSIONS = (".json", ".jsonl", ".parquet")
# How much of a file detect_format needs to see.
HEAD_BYTES = 4096

# Record keys of the Hugging Face layouts. Hugging Face's `Dataset.to_json` writes JSON
# Lines under a `.json` name, so a `.json` file whose first key is one of these is read as
# JSON Lines; any other `.json` is taken as the official layout (whose top-level keys are
# `version`/`data` and `Data`/`Domain`/`Version`/...), and fails loudly if it is not one.
_HF_KEYS = {
    "squad": {"id", "title", "context", "question", "answers"},
    "triviaqa": {"question", "question_id", "question_source", "entity_pages",
                 "search_results", "answer"},
}
_FIRST_KEY = re.compile(rb'\A(?:\xef\xbb\xbf)?\s*\{\s*"((?:[^"\\]|\\.)*)"')


def detect_format(path: str, source: str, head: bytes) -> str:
    """The format (one of FORMATS) of the file `path` holding `source` data.

    By extension: `.parquet` and `.jsonl` are the Hugging Face layout; `.json` is the
    official layout unless `head` (the file's first bytes) starts a JSON Lines record of
    the Hugging Face layout. Raises ValueError naming the file for anything else.
    """
    check_source(source)
    name = path.lower()
    if name.endswith((".parquet", ".jsonl")):
        return f"{source}_hf"
    if name.endswith(".json"):
        return f"{source}_hf" if _starts_hf_record(head, source) else f"{source}_json"
    raise ValueError(
        f"{path}: unsupported input file type for {source} (expected {', '.join(EXTENSIONS)})"
    )


def _starts_hf_record(head: bytes, source: str) -> bool:
    match = _FIRST_KEY.match(head)
    return match is not None and match.group(1).decode("utf-8", "replace") in _HF_KEYS[source]


def read_file(data: bytes, *, path: str, source: str,
              settings: ReaderSettings = ReaderSettings()) -> Iterator[dict[str, Any]]:
    """Rows (dicts with exactly the keys of `fields.QA_FIELDS`) of one input file.

    `data` is the whole file content; `path` is only displayed (`input_file`, messages)
    and, for official TriviaQA files, locates the evidence directory. File-level problems
    (unparseable, empty, wrong top-level layout, bad Parquet) raise `InputFileError` at
    once; every record-level problem becomes a FILTERED or REJECTED row instead.
    """
    if not isinstance(data, bytes):
        data = bytes(data)  # Spark's binaryFile hands over a bytearray
    fmt = detect_format(path, source, data[:HEAD_BYTES])
    if fmt == "squad_json":
        articles = require_top_list(load_json_document(data, path), "data", squad.LAYOUT, path)
        return squad.iter_official(articles, path=path, source=source, settings=settings)
    if fmt == "triviaqa_json":
        questions = require_top_list(load_json_document(data, path), "Data", triviaqa.LAYOUT, path)
        return triviaqa.iter_official(questions, path=path, source=source, settings=settings)
    records = parquet_records(data, path) if path.lower().endswith(".parquet") else (
        jsonl_records(data, path))
    reader = squad.iter_hf if fmt == "squad_hf" else triviaqa.iter_hf
    return reader(records, path=path, source=source, settings=settings)
