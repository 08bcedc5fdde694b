"""TriviaQA readers (rc, Wikipedia evidence): the official JSON layout and HF `trivia_qa`.

TriviaQA gives a question, an answer with aliases and whole Wikipedia pages as evidence,
not a paragraph with an answer span. `select_triviaqa_context` picks the context and the
answer span the way the paper does; both layouts share it, so they agree.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from faithqa_spark.core import fields as F
from faithqa_spark.core import reasons as R
from faithqa_spark.core.text import find_ci
from faithqa_spark.sources.common import (
    ReaderSettings, blank_row, build_row, dedupe, filtered, get_list, get_object, get_str,
    reject, require_object, rows_from_records, set_context, set_id, shorten, str_items,
    type_name,
)
from faithqa_spark.sources.containers import Record
from faithqa_spark.sources.evidence import (  # noqa: F401  (re-exported: the readers' API)
    KINDS, EvidenceStore, safe_evidence_path, unsafe_evidence_name,
)

LAYOUT = "official TriviaQA layout"


def select_triviaqa_context(texts: list[str], value: str, aliases: list[str], max_chars: int,
                            window: int) -> tuple[str, str, int] | None:
    """Pick (context, answer, answer_start) from evidence `texts`, or None if none fits.

    Search order (case-insensitive, `find_ci`): the answer value in each text in order;
    then, for each alias in alias order, each text in order ("first alias found in one":
    an earlier alias wins over an earlier text). Blank candidates are skipped: a lone
    space would "match" every text. The answer is the candidate as the record writes it,
    not as the text does. A chosen text longer than `max_chars` is cut to `window` chars
    either side of the occurrence; answer_start is relative to the final context.
    """
    for candidate in (value, *aliases):
        if not candidate.strip():
            continue
        for text in texts:
            pos = find_ci(text, candidate)
            if pos >= 0:
                return _cut(text, candidate, pos, max_chars, window)
    return None


def _cut(text: str, answer: str, pos: int, max_chars: int, window: int) -> tuple[str, str, int]:
    if len(text) <= max_chars:
        return text, answer, pos
    start = max(0, pos - window)
    # find_ci matches char for char, so the occurrence is len(answer) chars long.
    return text[start : pos + len(answer) + window], answer, pos - start


def _set_context_from(row: dict[str, Any], texts: list[str], aliases: list[str],
                      settings: ReaderSettings) -> bool:
    """Fill context/answer/answer_start from the evidence; False if no text holds it."""
    chosen = select_triviaqa_context(
        texts, row[F.ANSWER], aliases, settings.triviaqa_max_chars, settings.triviaqa_window
    )
    if chosen is None:
        return False
    context, row[F.ANSWER], start = chosen
    set_context(row, context, settings)
    row[F.ANSWER_START] = start
    return True


def _set_question_answer(row: dict[str, Any], record: dict[str, Any], keys: tuple[str, ...]
                         ) -> list[str]:
    """Question, answer value and aliases under the layout's names; returns the aliases."""
    question_key, answer_key, value_key, aliases_key = keys
    row[F.QUESTION] = get_str(record, question_key, question_key)
    answer = get_object(record, answer_key, answer_key)
    row[F.ANSWER] = get_str(answer, value_key, f"{answer_key}.{value_key}")
    # Aliases only widen the search, so a record without them is still usable.
    label = f"{answer_key}.{aliases_key}"
    aliases = str_items(get_list(answer, aliases_key, label, optional=True), label)
    row[F.ALIASES] = dedupe(aliases)
    return row[F.ALIASES]


# ---------------------------------------------------------------- official JSON

def _page_filenames(record: dict[str, Any], field: str) -> list[str]:
    pages = get_list(record, field, field, optional=True)
    names = []
    for i, page in enumerate(pages):
        page = require_object(page, f"{field}[{i}]")
        names.append(get_str(page, "Filename", f"{field}[{i}].Filename"))
    return names


def _parse_official(row: dict[str, Any], record: Any, source: str, settings: ReaderSettings,
                    stores: dict[str, EvidenceStore]) -> None:
    record = require_object(record, "question record")
    set_id(row, source, record, "QuestionId")
    aliases = _set_question_answer(row, record, ("Question", "Answer", "Value", "Aliases"))
    # every configured kind's pages, in the configured order (Wikipedia first by default)
    pages = [(kind, name) for kind in settings.evidence
             for name in _page_filenames(record, KINDS[kind][0])]
    if not pages:
        raise filtered(R.NO_EVIDENCE_CONTEXT,
                       "no " + " or ".join(KINDS[k][0] for k in settings.evidence))
    texts, problems = [], []
    for kind, name in pages:
        text, reason, problem = stores[kind].read(name)
        if reason == R.UNSAFE_EVIDENCE_PATH:
            # a record that points outside the evidence is not trusted for its other pages
            raise reject(R.UNSAFE_EVIDENCE_PATH, f"{KINDS[kind][0]} Filename {problem}")
        if text is None:
            problems.append((reason, problem))
        else:
            texts.append(text)
    if _set_context_from(row, texts, aliases, settings):
        if problems:
            row[F.DETAIL] = "skipped evidence: " + "; ".join(p for _, p in problems)
        return
    _no_context(row[F.ANSWER], problems, len(texts), stores)


def _no_context(answer: str, problems: list[tuple[str, str]], readable: int,
                stores: dict[str, EvidenceStore]) -> None:
    """No text held the answer: rejected if some evidence was unusable, else filtered.

    An unusable page might have held the answer, so "not in the evidence" would be a
    claim about data we never saw.
    """
    if problems:
        reasons = {reason for reason, _ in problems}
        reason = R.MISSING_EVIDENCE_FILE if R.MISSING_EVIDENCE_FILE in reasons else R.BAD_ENCODING
        listed = "; ".join(problem for _, problem in problems)
        where = "; ".join(store.where() for store in stores.values())
        raise reject(reason, f"no usable evidence text holds the answer: {listed} [{where}]")
    raise filtered(R.NO_EVIDENCE_CONTEXT, _not_found(answer, readable))


def _not_found(answer: str, texts: int) -> str:
    return f"neither answer {shorten(answer)} nor an alias found in {texts} evidence text(s)"


def iter_official(records: list[Any], *, path: str, source: str,
                  settings: ReaderSettings) -> Iterator[dict[str, Any]]:
    """Rows of an official TriviaQA file's `Data` list, loc `question=Q`."""
    return iter_records(enumerate(records), path=path, source=source, settings=settings)


def iter_records(records: Iterable[tuple[int, Any]], *, path: str, source: str,
                 settings: ReaderSettings) -> Iterator[dict[str, Any]]:
    """Rows of (index in `Data`, record) pairs: the whole list or a part of it."""
    stores = evidence_stores(path, settings)
    for q, record in records:
        loc = f"question={q}"
        yield build_row(blank_row(source, path, loc), _parse_official,
                        record, source, settings, stores)


def evidence_stores(path: str, settings: ReaderSettings) -> dict[str, EvidenceStore]:
    """One store per configured evidence kind for official file `path`."""
    configured = {"wikipedia": settings.evidence_dir, "web": settings.web_evidence_dir}
    return {kind: EvidenceStore.for_file(path, configured[kind], kind, settings.storage)
            for kind in settings.evidence}


# ---------------------------------------------------------------- Hugging Face rows

def _wiki_contexts(record: dict[str, Any]) -> list[str]:
    pages = record.get("entity_pages")
    if pages is None:
        return []
    if not isinstance(pages, dict):
        raise reject(R.WRONG_TYPE,
                     f"field 'entity_pages' is a {type_name(pages)}, expected an object")
    label = "entity_pages.wiki_context"
    return str_items(get_list(pages, "wiki_context", label, optional=True), label)


def _parse_hf(row: dict[str, Any], record: dict[str, Any], source: str,
              settings: ReaderSettings) -> None:
    set_id(row, source, record, "question_id")
    aliases = _set_question_answer(row, record, ("question", "answer", "value", "aliases"))
    texts = _wiki_contexts(record)
    if not texts:
        raise filtered(R.NO_EVIDENCE_CONTEXT, "entity_pages.wiki_context is empty")
    if not _set_context_from(row, texts, aliases, settings):
        raise filtered(R.NO_EVIDENCE_CONTEXT, _not_found(row[F.ANSWER], len(texts)))


def iter_hf(records: Iterator[Record], *, path: str, source: str,
            settings: ReaderSettings) -> Iterator[dict[str, Any]]:
    """Rows of HF `trivia_qa` (rc) records (from JSON Lines or Parquet)."""
    return rows_from_records(records, _parse_hf, path=path, source=source, settings=settings)
