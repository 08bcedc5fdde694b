"""Text utilities shared by readers, matching and substitution."""

from __future__ import annotations

import hashlib
import re
import unicodedata
from functools import lru_cache
from typing import Callable


def context_id(context: str) -> str:
    """Stable id of a context text: the NER dedup key (same text, same id, on any machine)."""
    return hashlib.blake2b(context.encode("utf-8"), digest_size=16).hexdigest()


def upper_first(text: str) -> str:
    """`text` with its first character in upper case and the rest as it is: a name or a
    number word that opens a sentence ("von Loesch" -> "Von Loesch", "six" -> "Six");
    `str.capitalize` would lower the rest ("Von loesch")."""
    return text[:1].upper() + text[1:]


def norm(text: str) -> str:
    """The comparison form used by matching: stripped and lower-cased."""
    return text.strip().lower()


@lru_cache(maxsize=65536)
def literal_pattern(text: str, word_boundaries: bool = True) -> re.Pattern[str]:
    """Case-insensitive pattern for `text` as literal text.

    Boundaries are look-arounds on `\\w` rather than `\\b`, so entities that begin or end
    with a non-word character (`C++`, `$5`, `(1990)`) still match at a word edge, while
    "US" never matches inside "USB". Cached: the same entity is searched in many rows.
    """
    body = re.escape(text)
    if word_boundaries:
        body = rf"(?<!\w){body}(?!\w)"
    return re.compile(body, re.IGNORECASE)


def find_ci(haystack: str, needle: str) -> int:
    """First case-insensitive occurrence of `needle` in `haystack`, or -1.

    A regex search rather than `haystack.lower().find(...)`: lower-casing can change the
    length of some characters (e.g. 'İ'), which would shift offsets.
    """
    if not needle:
        return -1
    if needle.isascii() and _lower_folds_ascii(haystack):
        # no regex to compile for a needle seen once (each row's replacement)
        return haystack.lower().find(needle.lower())
    m = literal_pattern(needle, False).search(haystack)
    return m.start() if m else -1


def contains_ci(haystack: str, needle: str) -> bool:
    return find_ci(haystack, needle) >= 0


def contains_ci_in(haystack: str) -> Callable[[str], bool]:
    """`contains_ci` for one haystack that many needles are sought in (a row's context, each
    candidate replacement): the haystack is lower-cased once, not once per needle."""
    if not _lower_folds_ascii(haystack):
        return lambda needle: contains_ci(haystack, needle)
    low = haystack.lower()

    def contains(needle: str) -> bool:
        if needle.isascii():  # as find_ci does for it
            return bool(needle) and needle.lower() in low
        return contains_ci(haystack, needle)
    return contains


def _is_mark(ch: str) -> bool:
    # Combining marks (accents written as separate code points, Arabic vowel signs, Hebrew
    # points) belong to the letter before them but are not `\w` to Python's re.
    return unicodedata.category(ch)[0] == "M"


def boundary_matches(text: str, entity: str) -> list[tuple[int, int]]:
    """Non-overlapping case-insensitive occurrences of `entity` as literal text at word
    boundaries, where a combining mark next to the match also counts as part of a word
    ("Jose" does not match in "Jose\u0301")."""
    if not entity:
        return []
    if entity.isascii() and (low := _ascii_lowered(text)) is not None:
        return _ascii_boundary_matches(text, low, entity)
    pat = literal_pattern(entity, True)
    out: list[tuple[int, int]] = []
    pos = 0
    while (m := pat.search(text, pos)) is not None:
        start, end = m.span()
        glued = (end < len(text) and _is_mark(text[end])) or (
            start > 0 and _is_mark(text[start - 1]))
        if glued:
            pos = start + 1  # a later, overlapping occurrence may still stand on its own
            continue
        out.append((start, end))
        pos = end
    return out


# characters that a case-insensitive regex equates with an ASCII letter although lower()
# does not map them to it (or changes their length): Kelvin sign, long s, dotted/dotless i
_FOLDS_TO_ASCII = re.compile("[\u212a\u017f\u0130\u0131]")


def _lower_folds_ascii(text: str) -> bool:
    """Whether, for an ASCII needle, searching `text.lower()` for `needle.lower()` finds
    what a case-insensitive regex finds, at the same offsets: lower() keeps every length and
    IGNORECASE folds an ASCII letter only to itself once the characters of _FOLDS_TO_ASCII
    are ruled out."""
    return text.isascii() or not _FOLDS_TO_ASCII.search(text)


def _is_word(ch: str) -> bool:
    # what `\w` and the combining-mark rule of `boundary_matches` treat as part of a word
    return ch.isalnum() or ch == "_" or _is_mark(ch)


@lru_cache(maxsize=64)
def _ascii_lowered(text: str) -> str | None:
    """`text.lower()` where searching it for an ASCII needle is exact (`_lower_folds_ascii`),
    else None. Kept for the last few texts: a row's context is searched for many names (its
    mentions, each candidate's parts, the audit's checks), and lower-casing it each time
    had been a third of `boundary_matches`' time."""
    return text.lower() if _lower_folds_ascii(text) else None


def _ascii_boundary_matches(text: str, low: str, entity: str) -> list[tuple[int, int]]:
    """`boundary_matches` for an ASCII entity without a regex, in `text` lower-cased as
    `low`: the same matches (lower() keeps every length once the characters above are ruled
    out, and folds an ASCII letter only to itself), with no pattern to compile for an entity
    seen once (each row's replacement and faithful answer)."""
    needle = entity.lower()
    n, out, pos = len(entity), [], 0
    while (i := low.find(needle, pos)) >= 0:
        j = i + n
        if (i > 0 and _is_word(text[i - 1])) or (j < len(text) and _is_word(text[j])):
            pos = i + 1
            continue
        out.append((i, j))
        pos = j
    return out
