"""Per-row audit flags of a dataset row, their counts, the report section, the audit sample.

A row is a dict with the paper's field names (`question, original_context,
modified_context, original_answer, faithful_answer, original_entity, replacement_entity,
entity_type, source`, `id`) and, when present, ours (`answer_starts`, `modified_spans`).

Each flag is True (pass), False (fail) or None (does not apply to the row, or its inputs
are missing: not measurable, never counted as a pass). `audit_row` returns one value per
flag, in `FLAGS` order: the `audit` struct column (`fields.AUDIT`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable, Mapping

from faithqa_spark.core import fields as C
from faithqa_spark.core.gender import name_gender, pronoun_gender
from faithqa_spark.core.names import (head_short_form, head_short_swap, in_longer_name,
                                      initials, lone_part_mentions, name_parts,
                                      short_form_after)
from faithqa_spark.core.shapes import OTHER, cardinal_shape, date_shape
from faithqa_spark.core.substitution import occurrences, substitute
from faithqa_spark.core.text import boundary_matches

FLAGS: tuple[str, ...] = C.AUDIT_FLAGS
PASS, FAIL, NA = "pass", "fail", "na"  # the three values as counted
PERSON, DATE, CARDINAL = "PERSON", "DATE", "CARDINAL"
GenderOf = Callable[[str], "str | None"]

_ARTICLES = re.compile(r"(?<!\w)(?:the|a|an)\s+(?:the|a|an)(?!\w)", re.IGNORECASE)
_SQUAD_ARTICLES = re.compile(r"\b(a|an|the)\b")
_PUNCT = re.compile(r"[^\w\s]")


@dataclass(frozen=True)
class AuditBounds:
    """The configured length-ratio window (`sampling.min_length_ratio` / `max_length_ratio`)."""
    min_length_ratio: float
    max_length_ratio: float


def _s(row: Mapping[str, Any], key: str) -> str | None:
    v = row.get(key)
    return v if isinstance(v, str) else None


def _spans(row: Mapping[str, Any]) -> list[tuple[int, int]] | None:
    spans = row.get(C.MODIFIED_SPANS)
    if spans is None:
        return None
    return [(s[C.SPAN_START], s[C.SPAN_END]) if isinstance(s, Mapping) else (s[0], s[1])
            for s in spans]


def squad_norm(text: str) -> str:
    """SQuAD's answer normalisation: lower case, no punctuation, no articles, one space."""
    t = _PUNCT.sub(" ", text.lower())
    return " ".join(_SQUAD_ARTICLES.sub(" ", t).split())


def _wordish(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


# ---- the paper's four ----

def replacement_present(row: Mapping[str, Any]) -> bool | None:
    mod, rep = _s(row, C.MODIFIED_CONTEXT), _s(row, C.REPLACEMENT_ENTITY)
    if mod is None or not rep:
        return None
    return bool(boundary_matches(mod, rep.strip()))


def original_removed(row: Mapping[str, Any]) -> bool | None:
    mod, orig = _s(row, C.MODIFIED_CONTEXT), _s(row, C.ORIGINAL_ENTITY)
    if mod is None or not orig:
        return None
    return not boundary_matches(mod, orig.strip())


def context_modified(row: Mapping[str, Any]) -> bool | None:
    a, b = _s(row, C.ORIGINAL_CONTEXT), _s(row, C.MODIFIED_CONTEXT)
    return None if a is None or b is None else a != b


def length_ratio(row: Mapping[str, Any], bounds: AuditBounds) -> bool | None:
    orig, rep = _s(row, C.ORIGINAL_ENTITY), _s(row, C.REPLACEMENT_ENTITY)
    if not orig or rep is None:
        return None
    ratio = len(rep) / len(orig)
    return bounds.min_length_ratio <= ratio <= bounds.max_length_ratio


# ---- ours ----

def answer_offsets(row: Mapping[str, Any]) -> bool | None:
    """Every `answer_starts` entry points at the faithful answer (and there is one)."""
    starts, mod, ans = row.get(C.ANSWER_STARTS), _s(row, C.MODIFIED_CONTEXT), _s(row, C.FAITHFUL_ANSWER)
    if starts is None or mod is None or ans is None:
        return None
    return bool(starts) and all(mod[s:s + len(ans)] == ans for s in starts)


def _inside_word_count(text: str, entity: str) -> int:
    return len(occurrences(text, entity, False)) - len(occurrences(text, entity, True))


def inside_word(row: Mapping[str, Any]) -> bool | None:
    """No replacement was made inside a longer word. With `modified_spans`: no span joins a
    word character on either side. Without them: the original entity's occurrences inside
    longer words are all still there (none was replaced)."""
    mod = _s(row, C.MODIFIED_CONTEXT)
    spans = _spans(row)
    if mod is not None and spans is not None:
        return not any((a > 0 and a < len(mod) and _wordish(mod[a - 1]) and _wordish(mod[a]))
                       or (0 < b < len(mod) and _wordish(mod[b]) and _wordish(mod[b - 1]))
                       for a, b in spans)
    ctx, orig = _s(row, C.ORIGINAL_CONTEXT), _s(row, C.ORIGINAL_ENTITY)
    if mod is None or ctx is None or not orig:
        return None
    return _inside_word_count(mod, orig) >= _inside_word_count(ctx, orig)


def _replacement_spans(row: Mapping[str, Any]) -> list[tuple[int, int]] | None:
    spans = _spans(row)
    if spans is not None:
        return spans
    mod, rep = _s(row, C.MODIFIED_CONTEXT), _s(row, C.REPLACEMENT_ENTITY)
    if mod is None or not rep:
        return None
    # check 4 keeps replacements that were already in the context out: each is the swap's
    return boundary_matches(mod, rep.strip())


def _leaked_parts(text: str, original: str, replacement: str,
                  skip: list[tuple[int, int]] = ()) -> list[tuple[int, int, str]]:
    """Lone mentions of the original's significant parts that are not parts of the
    replacement, outside `skip` and not inside another person's longer name."""
    own = tuple(original.split())
    rep_words = {w.strip(".").lower() for w in replacement.split()}
    return [(s, e, p) for s, e, p in lone_part_mentions(text, original)
            if p.lower() not in rep_words
            and not any(a <= s < b for a, b in skip)
            and not in_longer_name(text, s, e, own)]


def name_part_leak(row: Mapping[str, Any]) -> bool | None:
    """PERSON rows whose original has more than one word: no significant part of it (given
    name, surname) is left in the modified context, unless the replacement has it too."""
    if row.get(C.ENTITY_TYPE) != PERSON:
        return None
    mod, orig, rep = _s(row, C.MODIFIED_CONTEXT), _s(row, C.ORIGINAL_ENTITY), _s(row, C.REPLACEMENT_ENTITY)
    if mod is None or not orig or rep is None:
        return None
    orig = orig.strip()
    if len(orig.split()) < 2 or not name_parts(orig).significant:
        return None
    return not _leaked_parts(mod, orig, rep, _spans(row) or [])


def name_glue(row: Mapping[str, Any]) -> bool | None:
    """PERSON rows: no replaced region sits inside a longer capitalised name."""
    if row.get(C.ENTITY_TYPE) != PERSON:
        return None
    mod, rep = _s(row, C.MODIFIED_CONTEXT), _s(row, C.REPLACEMENT_ENTITY) or ""
    spans = _replacement_spans(row)
    if mod is None or not spans:
        return None
    own = tuple(rep.split())
    return not any(in_longer_name(mod, a, b, own) for a, b in spans)


def expected_answer(answer: str, entity: str, replacement: str, person: bool = False
                    ) -> str | None:
    """What the answer span reads after the swap: the answer with the entity replaced in
    it and, for a `person`, then the surname said alone by the replacement's ("Clinton used
    his knowledge of black culture" when Bill Clinton becomes Thomas Jefferson; "von
    Bredow's Death Ride"); None when neither is inside the answer (a partial overlap). A
    given name said alone is not counted: in an answer it is as often another person's
    ("Princess Margaret" beside Margaret Rhodes)."""
    sub = substitute(answer, entity, replacement)
    if sub.count == 0:
        sub = substitute(answer, entity, replacement, word_boundaries=False)
    text, count = sub.text, sub.count
    own, new = ((name_parts(entity).surname, name_parts(replacement).surname) if person
                else ("", ""))
    if own and new:
        alone = substitute(text, own, new)
        text, count = alone.text, count + alone.count
    return text.strip() if count else None


def answer_span(row: Mapping[str, Any]) -> bool | None:
    """Rows whose original answer is longer than the matched entity: the faithful answer
    equals (SQuAD-normalised) the answer with the entity replaced in it (`expected_answer`)."""
    ans, orig = _s(row, C.ORIGINAL_ANSWER), _s(row, C.ORIGINAL_ENTITY)
    rep, faithful = _s(row, C.REPLACEMENT_ENTITY), _s(row, C.FAITHFUL_ANSWER)
    if ans is None or not orig or rep is None or faithful is None:
        return None
    ans, orig = ans.strip(), orig.strip()
    if len(ans) <= len(orig) or squad_norm(ans) == squad_norm(orig):
        return None
    expected = expected_answer(ans, orig, rep.strip(), person=row.get(C.ENTITY_TYPE) == PERSON)
    if expected is None:
        return False
    ctx = _s(row, C.ORIGINAL_CONTEXT)
    short = ctx and short_form_after(ctx, orig, (e for _, e in boundary_matches(ctx, orig)))
    if short:
        # the short form the context defines for the entity ("... Interest (CSPI)") names
        # the replacement now: its initials ("Pew Research Center (PRC)")
        expected = substitute(expected, short, initials(rep.strip())).text
    elif ctx and (head := head_short_form(ctx, orig, (e for _, e in boundary_matches(ctx, orig)))):
        # ... and one of a longer name it opens, the replacement's initials in its own
        # place ("New York City Police Department (NYPD)" -> "Utah City ... (UPD)")
        expected = substitute(expected, head, head_short_swap(orig, head, rep.strip())).text
    return squad_norm(faithful) == squad_norm(expected)


def _shape_flag(row: Mapping[str, Any], etype: str, shape: Callable[[str], str]) -> bool | None:
    if row.get(C.ENTITY_TYPE) != etype:
        return None
    orig, rep = _s(row, C.ORIGINAL_ENTITY), _s(row, C.REPLACEMENT_ENTITY)
    if not orig or rep is None:
        return None
    s = shape(orig)
    return None if s == OTHER else shape(rep) == s  # an unclassified original: not measurable


def date_shape_flag(row: Mapping[str, Any]) -> bool | None:
    return _shape_flag(row, DATE, date_shape)


def cardinal_shape_flag(row: Mapping[str, Any]) -> bool | None:
    return _shape_flag(row, CARDINAL, cardinal_shape)


def doubled_article(row: Mapping[str, Any]) -> bool | None:
    """The swap created no "the the" / "a the" (the modified context has no more doubled
    articles than the original)."""
    a, b = _s(row, C.ORIGINAL_CONTEXT), _s(row, C.MODIFIED_CONTEXT)
    if a is None or b is None:
        return None
    return len(_ARTICLES.findall(b)) <= len(_ARTICLES.findall(a))


def person_mentions(context: str, name: str) -> list[tuple[int, int]]:
    """The mentions of a person: the full name and its lone significant parts (not inside
    another longer name)."""
    full = boundary_matches(context, name)
    parts = [(s, e) for s, e, _ in lone_part_mentions(context, name)
             if not in_longer_name(context, s, e, tuple(name.split()))]
    return sorted(full + parts)


def gender_conflict(row: Mapping[str, Any], gender_of: GenderOf = name_gender) -> bool | None:
    """PERSON rows where the original context's pronouns give the person a gender and the
    replacement's gender is known (`gender_of`): they agree."""
    if row.get(C.ENTITY_TYPE) != PERSON:
        return None
    ctx, orig, rep = _s(row, C.ORIGINAL_CONTEXT), _s(row, C.ORIGINAL_ENTITY), _s(row, C.REPLACEMENT_ENTITY)
    if ctx is None or not orig or not rep:
        return None
    have = pronoun_gender(ctx, person_mentions(ctx, orig.strip()))
    if have is None:
        return None
    want = gender_of(rep.strip())
    return None if want is None else want == have


def question_mentions_original(row: Mapping[str, Any]) -> bool | None:
    """The question does not name the replaced entity (nor, for a PERSON, a part of its name
    that the replacement does not share)."""
    q, orig, rep = _s(row, C.QUESTION), _s(row, C.ORIGINAL_ENTITY), _s(row, C.REPLACEMENT_ENTITY)
    if q is None or not orig:
        return None
    orig = orig.strip()
    if boundary_matches(q, orig):
        return False
    if row.get(C.ENTITY_TYPE) == PERSON and len(orig.split()) > 1:
        return not _leaked_parts(q, orig, rep or "")
    return True


def audit_row(row: Mapping[str, Any], bounds: AuditBounds,
              gender_of: GenderOf = name_gender) -> dict[str, bool | None]:
    """Every flag of one row, in `FLAGS` order: the value of the `audit` struct column."""
    return {
        "replacement_present": replacement_present(row),
        "original_removed": original_removed(row),
        "context_modified": context_modified(row),
        "length_ratio": length_ratio(row, bounds),
        "answer_offsets": answer_offsets(row),
        "inside_word": inside_word(row),
        "name_part_leak": name_part_leak(row),
        "name_glue": name_glue(row),
        "answer_span": answer_span(row),
        "date_shape": date_shape_flag(row),
        "cardinal_shape": cardinal_shape_flag(row),
        "doubled_article": doubled_article(row),
        "gender_conflict": gender_conflict(row, gender_of),
        "question_mentions_original": question_mentions_original(row),
    }
