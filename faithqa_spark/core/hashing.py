"""Stable per-row randomness. Never Python's `hash()` (salted per process) or shared RNG state:
a draw is a pure function of (seed, purpose, row id, attempt), so it is the same on every
executor, partitioning and process."""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from typing import Any


def stable_u64(seed: int, purpose: str, key: str, attempt: int = 0) -> int:
    """A 64-bit unsigned integer from blake2b of its arguments."""
    msg = f"{seed}\x1f{purpose}\x1f{key}\x1f{attempt}".encode("utf-8")
    return int.from_bytes(hashlib.blake2b(msg, digest_size=8).digest(), "big")


def split_key(seed: int, row_id: str) -> int:
    """Non-negative 63-bit key (fits a Spark LongType) that orders rows for caps and splits."""
    return stable_u64(seed, "split", row_id) >> 1


def draw_index(seed: int, row_id: str, attempt: int, n: int) -> int:
    """Index in [0, n) for a row's `attempt`-th draw from a sorted candidate list."""
    return _draw_u64(seed, row_id, attempt) % n


@lru_cache(maxsize=1024)  # a row draws from several pools (coherent policy), each time the same
def _draw_u64(seed: int, row_id: str, attempt: int) -> int:
    return stable_u64(seed, "draw", row_id, attempt)


def content_digest(value: Any) -> str:
    """A hex digest of a JSON-able value's content, whatever its dicts' order: what a
    worker keys its cached bank index on (`EntityBank.fingerprint`, `nearby.fingerprint`)."""
    blob = json.dumps(value, sort_keys=True, ensure_ascii=False).encode("utf-8")
    return hashlib.blake2b(blob, digest_size=16).hexdigest()
