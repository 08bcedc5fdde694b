"""Answer-entity matching: the paper's exact / substring / positional cascade."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from faithqa_spark.core.text import find_ci, norm

EXACT, SUBSTRING, POSITIONAL = "exact", "substring", "positional"
# the coherent policy's own: an answer that is a figure NER gave no entity for, as the
# entity (`core.coherent.figure_answer`)
FIGURE = "figure"


@dataclass(frozen=True)
class Entity:
    text: str
    label: str
    start: int
    end: int


@dataclass(frozen=True)
class Match:
    entity: Entity
    strategy: str


def match_answer(
    answer: str,
    context: str,
    entities: Sequence[Entity],
    *,
    min_substring_overlap: int = 3,
    positional_min_overlap: float = 0.5,
) -> Match | None:
    """Match the answer to one of the context's entities (all NER labels), or None.

    (a) exact: the first entity whose normalised text equals the answer's;
    (b) substring: answer in entity or entity in answer, the largest overlap
        min(len(entity), len(answer)) wins (the first on ties), accepted if >= the minimum;
    (c) positional: the first entity whose span overlaps the answer's first
        case-insensitive occurrence in the context by >= the fraction of its length.
    """
    a = norm(answer)
    if not a:
        return None
    normed = [norm(e.text) for e in entities]
    for ent, t in zip(entities, normed):
        if t == a:
            return Match(ent, EXACT)
    best: Entity | None = None
    best_overlap = 0
    for ent, t in zip(entities, normed):
        if t and (a in t or t in a):
            overlap = min(len(t), len(a))
            if overlap > best_overlap:
                best, best_overlap = ent, overlap
    if best is not None and best_overlap >= min_substring_overlap:
        return Match(best, SUBSTRING)
    stripped = answer.strip()
    pos = find_ci(context, stripped)
    if pos >= 0:
        a_start, a_end = pos, pos + len(stripped)
        need = positional_min_overlap * len(stripped)
        for ent in entities:
            overlap = min(ent.end, a_end) - max(ent.start, a_start)
            if overlap > 0 and overlap >= need:
                return Match(ent, POSITIONAL)
    return None
