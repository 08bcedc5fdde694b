"""Choosing a replacement entity of the same type, deterministically per row."""

from __future__ import annotations

import bisect
import math
from dataclasses import dataclass
from typing import Mapping, Sequence

from faithqa_spark.core.hashing import draw_index
from faithqa_spark.core.text import norm


@dataclass(frozen=True)
class SamplingIndex:
    """Per type, the bank's texts sorted by (length, text), with their lengths.

    Sorting by length turns the length-ratio bound into one contiguous slice, so drawing
    uniformly inside it is exactly the paper's rejection sampling ("draw, re-draw while the
    ratio is off") run to the end, and the ratio can never be violated.
    """

    texts: Mapping[str, Sequence[str]]
    lengths: Mapping[str, Sequence[int]]

    @classmethod
    def from_bank(cls, bank: Mapping[str, Sequence[str]]) -> SamplingIndex:
        texts = {t: sorted(v, key=lambda s: (len(s), s)) for t, v in bank.items()}
        return cls(texts, {t: [len(s) for s in v] for t, v in texts.items()})

    def has_type(self, entity_type: str) -> bool:
        return bool(self.texts.get(entity_type))


def length_window(lengths: Sequence[int], orig_len: int,
                  min_ratio: float, max_ratio: float) -> tuple[int, int]:
    """[lo, hi) of candidates with min_ratio <= len/orig_len <= max_ratio."""
    # Small epsilon guards against 0.3 * 10 = 3.0000000000000004 excluding an exact bound.
    lo_len = math.ceil(min_ratio * orig_len - 1e-9)
    hi_len = math.floor(max_ratio * orig_len + 1e-9)
    return bisect.bisect_left(lengths, lo_len), bisect.bisect_right(lengths, hi_len)


def choose_replacement(
    index: SamplingIndex, entity_type: str, original: str, row_id: str, *,
    seed: int, min_ratio: float, max_ratio: float, max_attempts: int,
) -> str | None:
    """A replacement of `entity_type` distinct from `original` (case-insensitively) whose
    length ratio is within bounds, or None if no such candidate was found in
    `max_attempts` deterministic draws (or none exists)."""
    texts = index.texts.get(entity_type) or ()
    lo, hi = length_window(index.lengths.get(entity_type) or (), len(original), min_ratio, max_ratio)
    if hi <= lo:
        return None
    orig = norm(original)
    for attempt in range(max_attempts):
        cand = texts[lo + draw_index(seed, row_id, attempt, hi - lo)]
        if norm(cand) != orig:
            return cand
    return None
