"""SQuAD readers: the official v1.1/v2.0 JSON layout and the Hugging Face row layout.

Both end in the same answer handling (`_set_answers`): the first answer is the answer,
all answer texts (deduplicated, in order) are the aliases, and a wrong `answer_start` is
repaired, not rejected, because the text itself is still a good extractive answer.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from faithqa_spark.core import fields as F
from faithqa_spark.core import reasons as R
from faithqa_spark.sources.common import (
    ReaderSettings, blank_row, build_row, dedupe, filtered, finish, get_list, get_object,
    get_str, int_or_none, locate_answer, optional_int, reject, require_object,
    rows_from_records, set_context, set_id, str_items, type_name,
)
from faithqa_spark.sources.containers import Record

LAYOUT = "official SQuAD layout"


def _set_answers(row: dict[str, Any], texts: list[str], first_start: int | None) -> None:
    row[F.ANSWER] = texts[0]
    row[F.ALIASES] = dedupe(texts)
    row[F.ANSWER_START], row[F.DETAIL] = locate_answer(row[F.CONTEXT], texts[0], first_start)


def _set_question_context(row: dict[str, Any], record: dict[str, Any],
                          holder: dict[str, Any], settings: ReaderSettings) -> None:
    """Question from the record, context from `holder` (the paragraph or the record)."""
    row[F.QUESTION] = get_str(record, "question", "question")
    set_context(row, get_str(holder, "context", "context"), settings)


# ---------------------------------------------------------------- official JSON

def _is_impossible(qa: dict[str, Any]) -> bool | None:
    """The v2.0 flag: None when absent (v1.1), else it must be a real bool."""
    flag = qa.get("is_impossible")
    if flag is None or isinstance(flag, bool):
        return flag
    raise reject(R.WRONG_TYPE, f"field 'is_impossible' is a {type_name(flag)}, expected a bool")


def _official_answers(qa: dict[str, Any], impossible: bool | None) -> tuple[list[str], int | None]:
    answers = get_list(qa, "answers", "answers")
    if not answers:
        flag = " while is_impossible is false" if impossible is False else ""
        raise reject(R.NO_ANSWER, f"field 'answers' is empty{flag}")
    texts, starts = [], []
    for i, answer in enumerate(answers):
        answer = require_object(answer, f"answers[{i}]")
        texts.append(get_str(answer, "text", f"answers[{i}].text"))
        starts.append(optional_int(answer, "answer_start", f"answers[{i}].answer_start"))
    return texts, starts[0]


def _parse_official_qa(row: dict[str, Any], qa: Any, paragraph: dict[str, Any],
                       source: str, settings: ReaderSettings) -> None:
    qa = require_object(qa, "qa record")
    set_id(row, source, qa, "id")
    _set_question_context(row, qa, paragraph, settings)
    impossible = _is_impossible(qa)
    if impossible:
        raise filtered(R.UNANSWERABLE, "is_impossible is true (SQuAD v2.0 unanswerable)")
    _set_answers(row, *_official_answers(qa, impossible))


def _layout_row(source: str, path: str, loc: str, detail: str) -> dict[str, Any]:
    """One REJECTED row standing for a container (article, paragraph) we cannot enter."""
    return finish(blank_row(source, path, loc), reject(R.BAD_LAYOUT, detail))


def _sub_list(container: Any, key: str, what: str, loc: str) -> tuple[list[Any] | None, str | None]:
    """`container[key]` as a list, or None and the reason it is not one."""
    if not isinstance(container, dict):
        return None, f"{what} at {loc} is a {type_name(container)}, expected an object"
    items = container.get(key)
    if not isinstance(items, list):
        found = "missing" if items is None else f"a {type_name(items)}"
        return None, f"'{key}' of the {what} at {loc} is {found}, expected a list"
    return items, None


def iter_official(articles: list[Any], *, path: str, source: str,
                  settings: ReaderSettings) -> Iterator[dict[str, Any]]:
    """Rows of an official SQuAD file's `data` list, loc `article=A/paragraph=P/qa=Q`."""
    return iter_articles(enumerate(articles), path=path, source=source, settings=settings)


def iter_articles(articles: Iterable[tuple[int, Any]], *, path: str, source: str,
                  settings: ReaderSettings) -> Iterator[dict[str, Any]]:
    """Rows of (index in `data`, article) pairs: the whole list, or some of its articles
    (a part of the file, `sources.stream`); the index makes the location."""
    for a, article in articles:
        loc = f"article={a}"
        paragraphs, problem = _sub_list(article, "paragraphs", "article", loc)
        if problem:
            yield _layout_row(source, path, loc, problem)
            continue
        for p, paragraph in enumerate(paragraphs):
            yield from _iter_paragraph(paragraph, f"{loc}/paragraph={p}", path, source, settings)


def _iter_paragraph(paragraph: Any, loc: str, path: str, source: str,
                    settings: ReaderSettings) -> Iterator[dict[str, Any]]:
    qas, problem = _sub_list(paragraph, "qas", "paragraph", loc)
    if problem:
        yield _layout_row(source, path, loc, problem)
        return
    for q, qa in enumerate(qas):
        qa_loc = f"{loc}/qa={q}"
        yield build_row(blank_row(source, path, qa_loc), _parse_official_qa,
                        qa, paragraph, source, settings)


# ---------------------------------------------------------------- Hugging Face rows

def _hf_answers(record: dict[str, Any]) -> tuple[list[str], int | None]:
    answers = get_object(record, "answers", "answers")
    texts = get_list(answers, "text", "answers.text")
    if not texts:
        # HF squad_v2 marks unanswerable questions with empty answer lists.
        raise filtered(R.UNANSWERABLE, "answers.text is empty (unanswerable)")
    for i, text in enumerate(str_items(texts, "answers.text")):
        if not text.strip():
            raise reject(R.EMPTY_FIELD, f"field 'answers.text[{i}]' is empty")
    starts = get_list(answers, "answer_start", "answers.answer_start", optional=True)
    for i, start in enumerate(starts):
        int_or_none(start, f"answers.answer_start[{i}]")
    return texts, starts[0] if starts else None


def _parse_hf(row: dict[str, Any], record: dict[str, Any], source: str,
              settings: ReaderSettings) -> None:
    set_id(row, source, record, "id")
    _set_question_context(row, record, record, settings)
    _set_answers(row, *_hf_answers(record))


def iter_hf(records: Iterator[Record], *, path: str, source: str,
            settings: ReaderSettings) -> Iterator[dict[str, Any]]:
    """Rows of HF `squad` / `squad_v2` records (from JSON Lines or Parquet)."""
    return rows_from_records(records, _parse_hf, path=path, source=source, settings=settings)
