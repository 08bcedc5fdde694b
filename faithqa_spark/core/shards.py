"""How an export's rows are cut into files: Hugging Face's shard names, and contiguous,
deterministic shard boundaries that both runners compute the same way.

A group (a split, a status, an export's split) of `n` rows in export order (by id) is cut
into `shard_count(n, shard_rows)` files; row `i` (0-based, in that order) goes to shard
`i // shard_rows`. So a small split is one file, `train-00000-of-00001.jsonl`, and the same
rows give the same files whatever the partitioning. The Spark side finds each row's `i`
from per-partition counts of the sorted rows (`partition_offsets`), never by collecting rows.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Hashable, Iterable, Iterator, Sequence, TypeVar

T = TypeVar("T")
G = TypeVar("G", bound=Hashable)


def shard_count(rows: int, shard_rows: int) -> int:
    """Files for a group of `rows` rows: at least one (an empty group is one empty file)."""
    return max(1, -(-rows // shard_rows))


def shard_name(stem: str, index: int, count: int, suffix: str) -> str:
    """Hugging Face's shard file name, e.g. `train-00000-of-00004.jsonl`."""
    return f"{stem}-{index:05d}-of-{count:05d}{suffix}"


def shard_glob(stem: str, suffix: str) -> str:
    """The glob that matches every shard of `stem` (what a dataset card declares)."""
    return f"{stem}-*{suffix}"


def chunks(rows: Sequence[T], shard_rows: int) -> Iterator[Sequence[T]]:
    """A group's rows (in export order) cut into its shards; one empty shard for none."""
    for i in range(shard_count(len(rows), shard_rows)):
        yield rows[i * shard_rows:(i + 1) * shard_rows]


def partition_offsets(counts: Iterable[tuple[int, G, int]]
                      ) -> tuple[dict[tuple[int, G], int], dict[G, int]]:
    """From (partition, group, rows) of rows sorted by (group, id) across partitions in
    order: the position in its group of each partition's first row of that group, and the
    rows per group. A partition's rows then number themselves from their offset."""
    by_group: dict[G, list[tuple[int, int]]] = defaultdict(list)
    for part, group, n in counts:
        by_group[group].append((part, n))
    offsets: dict[tuple[int, G], int] = {}
    totals: dict[G, int] = {}
    for group, parts in by_group.items():
        at = 0
        for part, n in sorted(parts):
            offsets[(part, group)] = at
            at += n
        totals[group] = at
    return offsets, totals
