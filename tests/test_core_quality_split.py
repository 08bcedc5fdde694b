from __future__ import annotations

import random

import pytest

from faithqa_spark.core import reasons, splitting
from faithqa_spark.core.hashing import split_key
from faithqa_spark.core.quality import failed_check

ORIG = "The harbour of Pellin Bay was dredged in 1907 by the Velmora Rail Company."
LIMITS = dict(min_context_chars=50, max_occurrences=10, min_replacement_chars=2)


def check(orig=ORIG, mod=None, rep="Skarn Gulf", occ=1, **kw):
    mod = ORIG.replace("Pellin Bay", rep) if mod is None else mod
    return failed_check(orig, mod, rep, occ, **{**LIMITS, **kw})


def test_passes():
    assert check() is None


def test_each_check_can_fail():
    assert check(mod=ORIG.replace("Pellin Bay", "Skarn")) == reasons.REPLACEMENT_NOT_IN_CONTEXT
    assert check(orig=ORIG + " Skarn Gulf", mod=ORIG + " Skarn Gulf") == reasons.CONTEXT_UNCHANGED
    short = "Pellin Bay was dredged."
    assert check(orig=short, mod=short.replace("Pellin Bay", "Skarn Gulf")) == reasons.CONTEXT_TOO_SHORT
    assert check(orig=ORIG + " skarn gulf!") == reasons.REPLACEMENT_IN_ORIGINAL
    assert check(occ=11) == reasons.TOO_MANY_OCCURRENCES
    assert check(occ=10) is None
    assert check(rep="Q", mod=ORIG.replace("Pellin Bay", "Q")) == reasons.REPLACEMENT_TOO_SHORT


def test_split_sizes_match_the_paper():
    assert splitting.split_sizes(49094, 0.8, 0.1) == (39275, 4909, 4910)
    assert splitting.split_sizes(50000, 0.8, 0.1) == (40000, 5000, 5000)
    assert splitting.split_sizes(0, 0.8, 0.1) == (0, 0, 0)


def test_cut_ranks_with_cap():
    assert splitting.cut_ranks(100, 0, 0.8, 0.1) == [80, 90, 100]
    assert splitting.cut_ranks(100, 50, 0.8, 0.1) == [40, 45, 50]
    assert splitting.cut_ranks(10, 50, 0.8, 0.1) == [8, 9, 10]


def keys(n, seed=42):
    return [(split_key(seed, f"s:{i}"), f"s:{i}") for i in range(n)]


@pytest.mark.parametrize("n,cap", [(1, 0), (2, 0), (10, 0), (997, 0), (997, 500), (3000, 0)])
def test_bucket_thresholds_equal_full_sort(n, cap):
    ks = keys(n)
    expected = splitting.label_sorted(ks, cap, 0.8, 0.1)
    cuts = splitting.cut_ranks(n, cap, 0.8, 0.1)
    counts: dict[int, int] = {}
    by_bucket: dict[int, list] = {}
    for k in ks:
        b = splitting.bucket_of(k[0])
        counts[b] = counts.get(b, 0) + 1
        by_bucket.setdefault(b, []).append(k)
    bounds = splitting.boundary_keys(counts, cuts, by_bucket)
    got = {k[1]: splitting.label_for_key(k, bounds) for k in ks}
    assert got == expected
    labels = list(expected.values())
    kept = min(n, cap) if cap else n
    n_train, n_dev, n_test = splitting.split_sizes(kept, 0.8, 0.1)
    assert labels.count("train") == n_train and labels.count("dev") == n_dev
    assert labels.count("test") == n_test and labels.count(splitting.OVER_CAP) == n - kept


def test_labels_do_not_depend_on_row_order():
    ks = keys(500)
    shuffled = ks[:]
    random.Random(3).shuffle(shuffled)
    assert splitting.label_sorted(ks, 0, 0.8, 0.1) == splitting.label_sorted(shuffled, 0, 0.8, 0.1)


def test_seed_changes_the_split():
    a = splitting.label_sorted(keys(200, 42), 0, 0.8, 0.1)
    b = splitting.label_sorted(keys(200, 7), 0, 0.8, 0.1)
    assert a != b
