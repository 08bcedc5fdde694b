"""Abstention contexts: for a row, a context of another article of the same source and split
that contains neither the original nor the faithful answer.

"Another article": the dataset row keeps no article title (SQuAD's titles are dropped by the
readers, and ids do not name the article), so another article is a *different context
text*, and the check below (no answer, no original or replacement entity, at word
boundaries) is what keeps it from answering the question. A paragraph of the same article
can still be drawn (about 1 in the number of articles of the split); it never holds the
answer.

The choice is designed so that Spark never collects dataset rows:
1. the *pool* of a (source, split) is its `size` distinct original contexts with the smallest
   `pool_key` (a sha256 of the seed and the text: Spark computes the same key with its
   built-in `sha2`, no Python worker needed). It is bounded, so it can be collected and
   broadcast like the entity bank;
2. a row walks its pool from a start drawn by hash of its id and takes the first context that
   passes the check (`pick_abstention_context`), a pure function of (row, pool).
"""

from __future__ import annotations

import hashlib
import heapq
from collections import defaultdict
from typing import Any, Iterable, Mapping, Sequence

from faithqa_spark.core import fields as C
from faithqa_spark.core.hashing import stable_u64
from faithqa_spark.core.text import boundary_matches

PoolKey = tuple[str, str]  # (source, split)


def pool_key_prefix(seed: int) -> str:
    """What `pool_key` puts before the text (for Spark: `F.sha2(F.concat(F.lit(prefix),
    F.col("original_context")), 256)` gives the same hex digest)."""
    return f"{seed}\x1fabstention-pool\x1f"


def pool_key(seed: int, context: str) -> str:
    """A context's rank key in its pool: sha256 hex of the prefix and the text. sha256, not
    blake2b, because Spark has it built in; compared as a string, which orders hex digests
    as numbers."""
    return hashlib.sha256((pool_key_prefix(seed) + context).encode("utf-8")).hexdigest()


def build_pools(rows: Iterable[Mapping[str, Any]], seed: int,
                size: int) -> dict[PoolKey, list[str]]:
    """Per (source, split): the `size` distinct original contexts with the smallest
    (pool_key, text), in that order. The reference runner's side of step 1."""
    keys: dict[tuple[str, str, str], str] = {}
    for r in rows:
        k = (r[C.SOURCE], r[C.SPLIT], r[C.ORIGINAL_CONTEXT])
        if k not in keys:
            keys[k] = pool_key(seed, k[2])
    return pools_from_keyed(((s, sp, key, ctx) for (s, sp, ctx), key in keys.items()), size)


def pools_from_keyed(entries: Iterable[tuple[str, str, str, str]],
                     size: int) -> dict[PoolKey, list[str]]:
    """Pools from (source, split, pool_key, context) entries: per (source, split) the first
    `size` distinct contexts by (pool_key, context). On Spark the entries are the rows the
    bounded aggregation returns (at most `size` per group), collected to the driver."""
    groups: dict[PoolKey, set[tuple[str, str]]] = defaultdict(set)
    for source, split, key, ctx in entries:
        groups[(source, split)].add((key, ctx))
    return {g: [ctx for _, ctx in heapq.nsmallest(size, items)]
            for g, items in sorted(groups.items())}


def forbidden_texts(row: Mapping[str, Any]) -> list[str]:
    """What an abstention context must not contain: both answers and both entities."""
    out: list[str] = []
    for key in (C.ORIGINAL_ANSWER, C.FAITHFUL_ANSWER, C.ORIGINAL_ENTITY, C.REPLACEMENT_ENTITY):
        text = (row.get(key) or "").strip()
        if text and text not in out:
            out.append(text)
    return out


def free_of(context: str, texts: Sequence[str]) -> bool:
    """No text occurs in `context` (case-insensitive, at word boundaries)."""
    return not any(boundary_matches(context, t) for t in texts)


def pick_abstention_context(row: Mapping[str, Any], pool: Sequence[str],
                            seed: int) -> str | None:
    """The row's abstention context from its (source, split) pool: walking the pool from a
    start drawn by hash of the row id, the first context other than the row's own that holds
    none of `forbidden_texts(row)`; None if no context of the pool qualifies."""
    n = len(pool)
    if n == 0:
        return None
    start = stable_u64(seed, "abstention", row[C.ID]) % n
    own, texts = row[C.ORIGINAL_CONTEXT], forbidden_texts(row)
    for i in range(n):
        ctx = pool[(start + i) % n]
        if ctx != own and free_of(ctx, texts):
            return ctx
    return None
