from __future__ import annotations

from faithqa_spark.core.hashing import draw_index, split_key, stable_u64
from faithqa_spark.core.sampling import SamplingIndex, choose_replacement, length_window

BANK = {"PERSON": ["Al", "Bea Orm", "Cato", "Dunstan Vale", "Eve", "Fitzwilliam Oberon-Smythe"],
        "ORG": ["Orvane"]}


def choose(orig, row="r1", etype="PERSON", attempts=10, lo=0.3, hi=3.0, seed=42, bank=BANK):
    return choose_replacement(SamplingIndex.from_bank(bank), etype, orig, row, seed=seed,
                              min_ratio=lo, max_ratio=hi, max_attempts=attempts)


def test_hash_is_stable_across_processes():
    # fixed values: blake2b does not depend on PYTHONHASHSEED or the machine
    assert stable_u64(42, "draw", "squad:abc", 0) == stable_u64(42, "draw", "squad:abc", 0)
    assert split_key(42, "x") >= 0 and split_key(42, "x") < 2 ** 63
    assert stable_u64(42, "split", "x") != stable_u64(43, "split", "x")
    assert draw_index(42, "x", 0, 7) in range(7)


def test_hash_golden_value():
    assert stable_u64(42, "split", "squad:q1") == int.from_bytes(
        __import__("hashlib").blake2b(b"42\x1fsplit\x1fsquad:q1\x1f0", digest_size=8).digest(), "big")


def test_length_window_bounds_are_inclusive():
    lengths = [1, 2, 3, 6, 9, 10, 30, 31]
    lo, hi = length_window(lengths, 10, 0.3, 3.0)
    assert lengths[lo:hi] == [3, 6, 9, 10, 30]


def test_ratio_is_always_respected():
    for i in range(200):
        for orig in ["Ann", "Dunstan Vale", "Bo"]:
            r = choose(orig, row=f"row{i}")
            if r is not None:
                assert 0.3 <= len(r) / len(orig) <= 3.0
                assert r.lower() != orig.lower()


def test_no_compatible_candidate_gives_none():
    # "Fitzwilliam Oberon-Smythe" (25) is > 3x of "Al"... and only "Al"/"Eve"/"Cato" fit "Al"
    assert choose("Al", bank={"PERSON": ["Fitzwilliam Oberon-Smythe"]}) is None
    assert choose("Orvane", etype="ORG", bank=BANK) is None  # only candidate is the original
    assert choose("Zed", etype="GPE") is None  # type absent


def test_deterministic_and_row_dependent():
    a = [choose("Dunstan Vale", row=f"q{i}") for i in range(50)]
    b = [choose("Dunstan Vale", row=f"q{i}") for i in range(50)]
    assert a == b
    assert len(set(a)) > 1  # different rows draw different replacements


def test_bank_order_does_not_matter():
    shuffled = {"PERSON": list(reversed(BANK["PERSON"]))}
    assert [choose("Cato", row=f"q{i}") for i in range(30)] == \
        [choose("Cato", row=f"q{i}", bank=shuffled) for i in range(30)]


def test_single_attempt_may_fail_when_original_drawn():
    bank = {"PERSON": ["Ann", "Bob"]}
    results = {choose("Ann", row=f"q{i}", attempts=1, bank=bank) for i in range(40)}
    assert results == {None, "Bob"}


def test_probe_spreads_over_every_fitting_candidate():
    # 100 candidates, of which only the ten 'fit-' ones are accepted; nine of them follow a
    # long refused run. Stepping by one from the last refused draw had given the first
    # fitting candidate after the run ('fit-0') to nearly every row; a stride of each row's
    # own gives every fitting candidate to some rows.
    from collections import Counter

    from faithqa_spark.core.sampling import coprime_stride, draw

    texts = sorted([f"no-{i:02d}" for i in range(90)] + [f"fit-{i}" for i in range(10)],
                   key=lambda s: (len(s), s))
    lengths = [len(s) for s in texts]
    picks = Counter(draw(texts, lengths, "orig-x", f"row{i}", seed=42, min_ratio=0.1,
                         max_ratio=10, max_attempts=1, accept=lambda c: c.startswith("fit-"),
                         probe=200) for i in range(2000))
    assert None not in picks and set(picks) == {f"fit-{i}" for i in range(10)}
    assert max(picks.values()) < 3 * min(picks.values())
    for n in (2, 3, 12, 97, 100):
        for row in ("a", "b", "c"):
            stride = coprime_stride(42, row, n)
            assert {(5 + k * stride) % n for k in range(n)} == set(range(n))  # each once


def test_probe_still_finds_a_single_fitting_candidate():
    from faithqa_spark.core.sampling import draw

    texts = [f"c{i:03d}" for i in range(500)]
    found = draw(texts, [4] * 500, "orig", "row", seed=7, min_ratio=0.1, max_ratio=10,
                 max_attempts=3, accept=lambda c: c == "c123", probe=500)
    assert found == "c123"


def test_draw_index_is_the_hash_of_the_attempt():
    # `draw_index` keeps the hashes of a row's attempts (the coherent policy draws from
    # several pools): the index is still the hash's, for any pool size
    for n in (1, 7, 1000):
        for attempt in range(3):
            assert draw_index(3, "row-9", attempt, n) == \
                stable_u64(3, "draw", "row-9", attempt) % n


def test_per_article_builds_once_per_article_list(monkeypatch):
    import faithqa_spark.core.sampling as sampling

    index = SamplingIndex.from_bank({"PERSON": ["Ann Lee", "Bo Chan"]})
    built: list[str] = []

    def build(name: str):
        return lambda: built.append(name) or name

    first, twin = ["Ann Lee"], ["Ann Lee"]  # equal content, another article's list
    assert index.per_article(("PERSON", "2"), first, build("first")) == "first"
    assert index.per_article(("PERSON", "2"), first, build("again")) == "first"
    assert index.per_article(("PERSON", "2"), twin, build("twin")) == "twin"
    assert index.per_article(("PERSON", "x"), first, build("other key")) == "other key"
    assert built == ["first", "twin", "other key"]
    # full: what it keeps is dropped, and built anew when asked for again
    monkeypatch.setattr(sampling, "ARTICLE_MEMO", 3)
    assert index.per_article(("PERSON", "y"), first, build("fourth")) == "fourth"
    assert index.per_article(("PERSON", "2"), first, build("rebuilt")) == "rebuilt"
