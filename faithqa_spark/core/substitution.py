"""Replacing an entity everywhere in a context, keeping the offsets of what changed."""

from __future__ import annotations

from dataclasses import dataclass

from faithqa_spark.core.text import boundary_matches, literal_pattern


@dataclass(frozen=True)
class Substitution:
    text: str
    spans: list[tuple[int, int]]  # [start, end) of each replaced region in the new text

    @property
    def count(self) -> int:
        return len(self.spans)


def occurrences(context: str, entity: str, word_boundaries: bool = True) -> list[tuple[int, int]]:
    """Non-overlapping case-insensitive occurrences of `entity` as literal text."""
    if not entity:
        return []
    if word_boundaries:
        return boundary_matches(context, entity)
    return [m.span() for m in literal_pattern(entity, False).finditer(context)]


def substitute(context: str, entity: str, replacement: str,
               word_boundaries: bool = True) -> Substitution:
    """Replace every occurrence of `entity` (case-insensitive, literal, at word boundaries)
    by `replacement`, inserted verbatim."""
    pieces: list[str] = []
    spans: list[tuple[int, int]] = []
    last = 0
    out_len = 0
    for start, end in occurrences(context, entity, word_boundaries):
        keep = context[last:start]
        pieces.append(keep)
        out_len += len(keep)
        pieces.append(replacement)
        spans.append((out_len, out_len + len(replacement)))
        out_len += len(replacement)
        last = end
    pieces.append(context[last:])
    return Substitution("".join(pieces), spans)
