"""Exact 80/10/10 splits (and per-source caps) by rank of a stable per-row hash.

Rows of a source are ordered by (split_key, id); the first `cap` rows are kept and cut into
train/dev/test by rank, so the counts are exact and do not depend on partitioning. Both
runners label rows by the keys at the cut ranks (`source_bounds`), found without sorting
everything in one place: rows are counted per hash bucket, and only the buckets where a cut
falls are looked into.
"""

from __future__ import annotations

import math
from bisect import bisect_right
from typing import Iterable, Mapping, Sequence

from faithqa_spark.core.fields import SPLITS

BUCKET_BITS = 16
KEY_BITS = 63  # split keys are non-negative 63-bit integers
BUCKET_SHIFT = KEY_BITS - BUCKET_BITS  # a key's bucket is its top BUCKET_BITS bits
OVER_CAP = "over_cap"

Key = tuple[int, str]  # (split_key, id): unique because ids are unique


def split_sizes(n: int, train: float, dev: float) -> tuple[int, int, int]:
    """Exact sizes; train and dev are rounded down and test takes the rest, which gives the
    paper's 39,275 / 4,909 / 4,910 for 49,094 SQuAD rows."""
    n_train = math.floor(n * train + 1e-9)
    n_dev = math.floor(n * dev + 1e-9)
    return n_train, n_dev, n - n_train - n_dev


def cut_ranks(n: int, cap: int, train: float, dev: float) -> list[int]:
    """Ranks at which each class ends: train, dev, test (the kept rows), then over the cap."""
    kept = min(n, cap) if cap > 0 else n
    n_train, n_dev, _ = split_sizes(kept, train, dev)
    return [n_train, n_train + n_dev, kept]


def label_for_rank(rank: int, cuts: Sequence[int]) -> str:
    i = bisect_right(cuts, rank)
    return SPLITS[i] if i < len(SPLITS) else OVER_CAP


def label_sorted(keys: Sequence[Key], cap: int, train: float, dev: float) -> dict[str, str]:
    """Labels for all of a source's rows from one sort: the plain statement of the rule,
    which the tests hold the bucketed bounds (`source_bounds`, `label_for_key`) to."""
    cuts = cut_ranks(len(keys), cap, train, dev)
    return {k[1]: label_for_rank(r, cuts) for r, k in enumerate(sorted(keys))}


def bucket_of(split_key: int) -> int:
    return split_key >> BUCKET_SHIFT


def buckets_for_ranks(bucket_counts: Mapping[int, int], ranks: Iterable[int]
                      ) -> dict[int, tuple[int, int]]:
    """For each rank < total, (bucket holding it, rank inside that bucket)."""
    out: dict[int, tuple[int, int]] = {}
    wanted = sorted(set(ranks))
    before = 0
    it = iter(wanted)
    r = next(it, None)
    for b in sorted(bucket_counts):
        c = bucket_counts[b]
        while r is not None and r < before + c:
            out[r] = (b, r - before)
            r = next(it, None)
        before += c
    return out


def boundary_keys(bucket_counts: Mapping[int, int], cuts: Sequence[int],
                  bucket_keys: Mapping[int, Sequence[Key]]) -> list[Key | None]:
    """The first key of each class after a cut (exclusive upper bounds); None = no bound."""
    located = buckets_for_ranks(bucket_counts, cuts)
    out: list[Key | None] = []
    for cut in cuts:
        if cut not in located:
            out.append(None)
        else:
            b, i = located[cut]
            out.append(sorted(bucket_keys[b])[i])
    return out


def label_for_key(key: Key, bounds: Sequence[Key | None]) -> str:
    """Label of a row from the exclusive upper bounds of train, dev, test."""
    for label, bound in zip(SPLITS, bounds):
        if bound is None or key < bound:
            return label
    return OVER_CAP


Bounds = list  # list[Key | None]: exclusive upper bounds of train, dev, test


def cuts_for(bucket_counts: Mapping[int, int], cap: int, train: float, dev: float) -> list[int]:
    """`cut_ranks` for a source whose rows are counted per bucket."""
    return cut_ranks(sum(bucket_counts.values()), cap, train, dev)


def cut_buckets(bucket_counts: Mapping[int, int], cap: int, train: float, dev: float
                ) -> set[int]:
    """The buckets in which a cut falls: the only ones whose keys `source_bounds` needs."""
    cuts = cuts_for(bucket_counts, cap, train, dev)
    return {b for b, _ in buckets_for_ranks(bucket_counts, cuts).values()}


def source_bounds(bucket_counts: Mapping[int, int], bucket_keys: Mapping[int, Sequence[Key]],
                  cap: int, train: float, dev: float) -> Bounds:
    """The split bounds of one source from its rows' count per bucket and the keys of the
    buckets `cut_buckets` names (others may be absent). Both runners label with these:
    `label_for_key` in Python, the same comparison as a Column on Spark."""
    cuts = cuts_for(bucket_counts, cap, train, dev)
    return boundary_keys(bucket_counts, cuts, {b: bucket_keys.get(b, []) for b in bucket_counts})


def bounds_of_keys(keys: Iterable[Key], cap: int, train: float, dev: float) -> Bounds:
    """`source_bounds` from all of a source's keys at once (the reference runner)."""
    by_bucket: dict[int, list[Key]] = {}
    for k in keys:
        by_bucket.setdefault(bucket_of(k[0]), []).append(k)
    counts = {b: len(v) for b, v in by_bucket.items()}
    return source_bounds(counts, by_bucket, cap, train, dev)
