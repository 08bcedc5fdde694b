"""A simple, deterministic sentence splitter for the dialogues (no model, the same on every
machine).

The rule: a sentence ends after a run of `.`, `!` or `?` (and any closing quotes or
brackets right after it) that is followed by whitespace and then an upper-case letter, a
digit, or an opening quote or bracket; a blank line (a paragraph break) always ends one. A
single line break is plain whitespace: SQuAD writes formulas over lines ("O\n2"). A `.` does not
end a sentence when the word it closes is a known abbreviation ("Mr.", "Dr.", "St."), a
single capital letter (the initial in "J. Smith"), or has a `.` inside it ("U.S.", "e.g.", "a.m.").
A decimal point ("3.5") is never followed by whitespace, so it never splits.

The cost of the rule, accepted: a sentence that really ends with "U.S." or "Mr." is joined
to the next one; a sentence starting with a lower-case word is joined to the one before.
Both only make a removed sentence longer, never cut an answer in two.
"""

from __future__ import annotations

import re

# Title and other abbreviations that are usually followed by a capitalised word ("Mr. Smith",
# "St. Louis", "Jan. 5"); lower-cased, without the final period.
ABBREVIATIONS = frozenset({
    "mr", "mrs", "ms", "dr", "prof", "sr", "jr", "st", "mt", "ft", "ave", "rd", "blvd",
    "gen", "col", "lt", "maj", "capt", "sgt", "cmdr", "adm", "rev", "hon", "gov", "sen",
    "rep", "pres", "supt", "messrs", "mme", "mlle", "vs", "etc", "inc", "ltd", "co", "corp",
    "bros", "dept", "univ", "approx", "est", "fig", "figs", "vol", "vols", "ch", "pp", "ca",
    "cf", "al", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov",
    "dec", "no", "nos", "c", "v",
})

# the end of a candidate sentence: terminators, optional closers, whitespace, then a
# sentence-like start (look-ahead, so the next sentence keeps its first character)
_BOUNDARY = re.compile(r"[.!?]+[\"'”’)\]]*(\s+)(?=[\"'“‘(\[]*[A-Z0-9À-Þ])")
_PARAGRAPH_BREAK = re.compile(r"[ \t]*\n[ \t]*\n\s*")


def _word_before(text: str, end: int) -> str:
    """What the search of `(\S+)$` in text[:end] finds ("" when nothing): the run of
    non-space characters that ends at `end`, or before a newline there (where `$` matches
    too). A walk back from `end`, as the search tried every start position before it, which
    made sentence splitting quadratic in the context's length."""
    if end > 0 and text[end - 1] == "\n":
        end -= 1
    start = end
    while start > 0 and not text[start - 1].isspace():  # str.isspace is re's \s
        start -= 1
    return text[start:end]


def _is_abbreviation(text: str, dot: int) -> bool:
    """Whether the `.` at `dot` closes an abbreviation rather than a sentence."""
    word = _word_before(text, dot).lstrip("\"'“‘([")
    if not word:
        return False
    if "." in word:  # "U.S", "e.g", "a.m": periods inside the word
        return True
    if len(word) == 1 and word.isupper():  # an initial: "J. Smith"
        return True
    return word.lower() in ABBREVIATIONS


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence of `text`, in order; the whitespace between sentences
    belongs to none of them, and the spans cover every non-space character."""
    cuts: list[tuple[int, int]] = []  # (end of a sentence, start of the next)
    for m in _BOUNDARY.finditer(text):
        terminators = m.group(0)[: len(m.group(0)) - len(m.group(1))].rstrip("\"'”’)]")
        if terminators == "." and _is_abbreviation(text, m.start()):
            continue
        cuts.append((m.start(1), m.end(1)))
    for m in _PARAGRAPH_BREAK.finditer(text):
        cuts.append((m.start(), m.end()))
    spans: list[tuple[int, int]] = []
    pos = len(text) - len(text.lstrip())
    for end, nxt in sorted(cuts):
        if end > pos:
            spans.append((pos, end))
        pos = max(pos, nxt)
    end = len(text.rstrip())
    if end > pos:
        spans.append((pos, end))
    return spans


def sentences(text: str) -> list[str]:
    """The sentences of `text` (see `sentence_spans`)."""
    return [text[s:e] for s, e in sentence_spans(text)]


def remove_span(text: str, spans: list[tuple[int, int]], i: int) -> str:
    """`text` without sentence `i` and the whitespace that followed it (or, for the last
    sentence, the whitespace before it)."""
    start, end = spans[i]
    if i + 1 < len(spans):
        return text[:start] + text[spans[i + 1][0]:]
    prev_end = spans[i - 1][1] if i > 0 else 0
    return text[:prev_end] + text[end:].strip()
