"""Turning pipeline records into their output forms (one serialiser for both runners)."""

from __future__ import annotations

import json
from typing import Any, Mapping

from faithqa_spark.core import fields as C

# Characters that JSON allows raw but that some line readers (str.splitlines, JavaScript)
# treat as line ends; escaping them keeps one record per line for every reader.
_LINE_BREAKERS = {"\u2028": "\\u2028", "\u2029": "\\u2029", "\x85": "\\u0085"}


def json_line(record: Mapping[str, Any], columns: list[str]) -> str:
    """One JSONL line (no trailing newline) with `columns` in that order."""
    s = json.dumps({c: record.get(c) for c in columns}, ensure_ascii=False)
    for raw, esc in _LINE_BREAKERS.items():
        if raw in s:
            s = s.replace(raw, esc)
    return s


def squad_paragraph(row: Mapping[str, Any]) -> str:
    """One dataset row as a SQuAD v1.1 paragraph: the modified context, and the faithful
    answer at each of its starts (SQuAD tooling reads several answers per question)."""
    answers = [{"text": row[C.FAITHFUL_ANSWER], "answer_start": s} for s in row[C.ANSWER_STARTS]]
    para = {"context": row[C.MODIFIED_CONTEXT],
            "qas": [{"id": row[C.ID], "question": row[C.QUESTION], "answers": answers}]}
    return json_line(para, ["context", "qas"])


def squad_document_frame(split: str) -> tuple[str, str, str]:
    """(header, separator, footer) around the paragraphs of one split's SQuAD v1.1 file."""
    header = ('{"version": "1.1", "data": [{"title": "faithqa-' + split
              + '", "paragraphs": [\n')
    return header, ",\n", "\n]}]}\n"
