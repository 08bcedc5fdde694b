"""Sharded exports written by the executors, straight into the output filesystem: no row
passes through the driver, which only sees counts.

1. The rows come sorted by (key, id) across partitions (`transforms.in_export_order`) and
   persisted. One aggregation counts them per (partition, key); `core.shards.
   partition_offsets` turns those counts into each partition's first position per key.
2. A mapInArrow numbers every row (its 0-based position within its key, the same number
   the reference runner's list index gives) and assigns its shard, `position //
   output.shard_rows`, as a global shard number.
3. A hash repartition puts each shard's rows in a task of its own (`partition_keys`: no
   sampling job, which ran step 2 over every row once more, and no two shards of a
   skewed range in one task), sorted by position; the task writes the shard's files with
   `shard_io.ShardWriter` (the reference runner's writer) and returns (path, rows) per
   file.
A key with no rows gets one empty file per export, written by the driver (no row involved).
"""

from __future__ import annotations

import itertools
import sys
from typing import Any, Iterator, Mapping, Sequence

import pyarrow as pa
from pyspark.sql import Column, DataFrame
from pyspark.sql import functions as F
from pyspark.sql import types as T

from faithqa_spark import faults
from faithqa_spark.arrow import arrow_batch, batch_rows, pylist
from faithqa_spark.core import fields as C
from faithqa_spark.core.shards import partition_offsets, shard_count
from faithqa_spark.outdir import OutDir
from faithqa_spark.shard_io import Layout, ShardWriter, Target
from faithqa_spark.spark.schema import struct_type

_PART, _ROW, _SHARD = "_part", "_row", "_shard"
WRITTEN_FIELDS = [("path", C.STRING), ("rows", C.LONG)]
Written = list[tuple[str, int]]


def write_sharded(ordered: DataFrame, key: str, targets: Mapping[str, Sequence[Target]],
                  out: OutDir, layout: Layout) -> Written:
    """Every shard of every target, written into `out` by the executors. `ordered`: rows
    sorted by (`key`, id) across partitions and persisted (it is read twice); `targets`:
    per value of `key`, the exports its rows go to. Returns (path, rows) of each file."""
    counts = (ordered.groupBy(F.spark_partition_id().alias(_PART), F.col(key)).count()
              .collect())
    offsets, totals = partition_offsets((r[_PART], r[key], r["count"]) for r in counts)
    shards = {k: shard_count(totals.get(k, 0), layout.shard_rows) for k in targets}
    written: Written = []
    for k in sorted(k for k in targets if not totals.get(k)):
        with ShardWriter(out, targets[k], 0, 1, layout) as w:
            pass
        written += w.written
    busy = sorted(k for k in targets if totals.get(k))
    if not busy:
        return written
    first: dict[str, int] = {}  # the global number of each key's first shard
    for k in busy:
        first[k] = sum(shards[j] for j in first)
    n_shards = sum(shards[k] for k in busy)
    columns = sorted({c for k in busy for e, _ in targets[k] for c in e.columns} - {key})
    src = (ordered.filter(F.col(key).isin(busy)).select(key, *columns)
           .withColumn(_PART, F.spark_partition_id()))
    numbered_schema = T.StructType(
        [src.schema[c] for c in (key, *columns)]
        + [T.StructField(_ROW, T.LongType()), T.StructField(_SHARD, T.IntegerType())])
    numbered = src.mapInArrow(number_task(key, offsets, first, layout.shard_rows),
                              numbered_schema)
    files = (numbered.repartition(n_shards, shard_placement(n_shards))
             .sortWithinPartitions(_SHARD, _ROW)
             .mapInArrow(write_task(key, targets, shards, out, layout),
                         struct_type(WRITTEN_FIELDS))
             .collect())
    return written + [(r["path"], r["rows"]) for r in files]


def _rotl32(x: int, r: int) -> int:
    return ((x << r) | (x >> (32 - r))) & 0xFFFFFFFF


def spark_int_hash(value: int, seed: int = 42) -> int:
    """Spark's `hash()` of an IntegerType value (Murmur3_x86_32.hashInt with the seed of its
    HashPartitioning, 42), as a signed 32-bit int."""
    k = (value & 0xFFFFFFFF) * 0xCC9E2D51 & 0xFFFFFFFF
    k = _rotl32(k, 15) * 0x1B873593 & 0xFFFFFFFF
    h = _rotl32(seed ^ k, 13)
    h = (h * 5 + 0xE6546B64) & 0xFFFFFFFF
    h ^= 4  # the input's length in bytes
    h ^= h >> 16
    h = h * 0x85EBCA6B & 0xFFFFFFFF
    h ^= h >> 13
    h = h * 0xC2B2AE35 & 0xFFFFFFFF
    h ^= h >> 16
    return h - (1 << 32) if h >= 1 << 31 else h


def partition_keys(n: int) -> list[int]:
    """For each partition i of `n`, the least int that Spark's hash partitioning into `n`
    partitions (pmod(hash(key), n)) sends to partition i: a repartition on these keys puts
    shard i, alone, in partition i. Were Spark to hash otherwise, shards would only share
    tasks: their files are the same whichever task writes them."""
    keys: dict[int, int] = {}
    value = 0
    while len(keys) < n:
        keys.setdefault(spark_int_hash(value) % n, value)
        value += 1
    return [keys[i] for i in range(n)]


def shard_placement(n_shards: int) -> Column:
    """What to hash-repartition the numbered rows on, into `n_shards` partitions, so that
    shard i (`_SHARD`) is partition i: the shard's `partition_keys` entry."""
    keys = F.array(*[F.lit(k).cast("int") for k in partition_keys(n_shards)])
    return F.element_at(keys, F.col(_SHARD) + 1)


def number_task(key: str, offsets: Mapping[tuple[int, str], int], first: Mapping[str, int],
                shard_rows: int) -> Any:
    """Rows of one partition of the sorted rows (with their partition number `_part`) ->
    the same rows with `_row`, their position within their key, and `_shard`, the global
    number of their shard; `_part` dropped."""
    def number(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        at: dict[str, int] = {}
        for batch in batches:
            if batch.num_rows == 0:
                continue
            part = batch.column(_PART)[0].as_py()
            rows, shard = [], []
            for k in pylist(batch.column(key)):
                i = at[k] if k in at else offsets[(part, k)]
                at[k] = i + 1
                rows.append(i)
                shard.append(first[k] + i // shard_rows)
            names = [n for n in batch.schema.names if n != _PART]
            yield pa.RecordBatch.from_arrays(
                [batch.column(n) for n in names]
                + [pa.array(rows, pa.int64()), pa.array(shard, pa.int32())],
                names=[*names, _ROW, _SHARD])

    return number


def write_task(key: str, targets: Mapping[str, Sequence[Target]], shards: Mapping[str, int],
               out: OutDir, layout: Layout) -> Any:
    """Rows sorted by (shard, position), whole shards per task -> the shards' files in
    `out`; yields (path, rows) of each file written."""
    def write(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        done: Written = []
        writer: ShardWriter | None = None
        current: tuple[str, int] | None = None
        armed_once = False
        try:
            for batch in batches:
                for (k, index), rows in itertools.groupby(
                        batch_rows(batch), key=lambda r: (r[key], r[_ROW] // layout.shard_rows)):
                    if (k, index) != current:
                        if writer is not None:
                            writer.__exit__(None, None, None)
                            done += writer.written
                        writer = ShardWriter(out, targets[k], index, shards[k], layout)
                        writer.__enter__()
                        current = (k, index)
                    writer.add(list(rows))
                    if not armed_once:
                        armed_once = True
                        faults.fire("shard-write")  # dies with its first files half written
            if writer is not None:
                w, writer = writer, None
                w.__exit__(None, None, None)
                done += w.written
        except BaseException:
            if writer is not None:
                writer.__exit__(*sys.exc_info())  # no file appears under its name
            raise
        yield arrow_batch([{"path": p, "rows": n} for p, n in done], WRITTEN_FIELDS)

    return write
