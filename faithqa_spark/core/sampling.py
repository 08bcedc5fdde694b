"""Choosing a replacement entity of the same type, deterministically per row."""

from __future__ import annotations

import bisect
import math
from dataclasses import dataclass, field, replace
from typing import Callable, Iterable, Iterator, Mapping, Sequence, TypeVar

from faithqa_spark.core import entries
from faithqa_spark.core.gender import given_name_known
from faithqa_spark.core.hashing import draw_index, stable_u64
from faithqa_spark.core.namekinds import place_kind
from faithqa_spark.core.names import name_parts
from faithqa_spark.core.text import boundary_matches, norm

ANY = "*"  # the pool of every well-formed entry of a type
GIVEN = "given"  # the pool of the one-word PERSON entries that are given names (`given_only`)

Pool = tuple[Sequence[str], Sequence[int]]  # texts sorted by (length, text), their lengths


_T = TypeVar("_T")
# values `SamplingIndex.per_article` keeps: SQuAD train's 442 articles use about 40,000
ARTICLE_MEMO = 50_000


def in_pool_order(texts: Iterable[str]) -> list[str]:
    """`texts` sorted as a pool holds them: by (length, text)."""
    return sorted(texts, key=lambda s: (len(s), s))


def _pool(texts: Iterable[str]) -> Pool:
    ordered = in_pool_order(texts)
    return ordered, [len(s) for s in ordered]


@dataclass(frozen=True)
class SamplingIndex:
    """Per type, the bank's texts sorted by (length, text), with their lengths.

    Sorting by length turns the length-ratio bound into one contiguous slice, so drawing
    uniformly inside it is exactly the paper's rejection sampling ("draw, re-draw while the
    ratio is off") run to the end, and the ratio can never be violated.

    The coherent policy draws from *pools*: per type and fit key (`entries.fit_key`, with
    ":m"/":f" for PERSON genders), the well-formed entries sorted the same way. They are
    built on first use, once per process, so the paper policy never pays for them.
    """

    texts: Mapping[str, Sequence[str]]
    lengths: Mapping[str, Sequence[int]]
    # PERSON entry -> 'm' / 'f' from corpus votes; entries not in it use the name lexicon
    genders: Mapping[str, str] = field(default_factory=dict)
    _pools: dict[str, dict[str, Pool]] = field(default_factory=dict, compare=False, repr=False)
    _types_of: dict[str, tuple[str, ...]] = field(default_factory=dict, compare=False, repr=False)
    _with_the: set[str] = field(default_factory=set, compare=False, repr=False)
    _members: dict[tuple[str, str], frozenset[str]] = field(default_factory=dict, compare=False,
                                                            repr=False)
    _surnames: set[str] = field(default_factory=set, compare=False, repr=False)
    # per type, the texts that several stories name (`core.nearby.famous`): drawn from the
    # whole bank only when no other fits
    famous: Mapping[str, frozenset[str]] = field(default_factory=dict)
    # per type of `eras.ERA_TYPES`, the era of each name the articles date (`eras.name_eras`)
    eras: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    # per (type, key): the pool's famous texts and the rest (`_by_fame`)
    _fame_split: dict[tuple[str, str], tuple[Pool, Pool]] = field(
        default_factory=dict, init=False, compare=False, repr=False)
    _sets: dict[str, frozenset[str]] = field(default_factory=dict, init=False, compare=False,
                                             repr=False)
    _derived: dict[str, object] = field(default_factory=dict, init=False, compare=False,
                                        repr=False)
    _articles: dict[tuple[object, ...], tuple[Sequence[str], object]] = field(
        default_factory=dict, init=False, compare=False, repr=False)

    @classmethod
    def from_bank(cls, bank: Mapping[str, Sequence[str]],
                  genders: Mapping[str, str] | None = None) -> SamplingIndex:
        texts = {t: in_pool_order(v) for t, v in bank.items()}
        return cls(texts, {t: [len(s) for s in v] for t, v in texts.items()}, dict(genders or {}))

    def has_type(self, entity_type: str) -> bool:
        return bool(self.texts.get(entity_type))

    def types_of(self, text: str) -> tuple[str, ...]:
        """The types the bank holds `text` under, sorted."""
        if not self._types_of:  # built once per index (filled in place: the index is frozen)
            found: dict[str, list[str]] = {}
            for t in sorted(self.texts):
                for x in self.texts[t]:
                    found.setdefault(x, []).append(t)
            self._types_of.update((x, tuple(ts)) for x, ts in found.items())
        return self._types_of.get(text, ())

    def said_with_the(self, text: str) -> bool:
        """Whether the bank holds `text` with "the" before it under some type ("the
        Financial Times", "The Beatles"): the corpus says the name takes "the"."""
        if not self._with_the:  # built once per index (filled in place: the index is frozen)
            self._with_the.update(x[4:] for v in self.texts.values() for x in v
                                  if x[:4] in ("the ", "The "))
            self._with_the.add("")  # built, even when no entry has "the"
        return text in self._with_the

    def given_only(self, text: str) -> bool:
        """Whether a one-word PERSON text is a given name: one the first-name lexicon knows
        that no name of two parts in the bank has as its surname ("Roger", "Ludwika",
        "Madonna"; not "Roosevelt" or "Drake", said alone for "Franklin D. Roosevelt" or
        "Francis Drake"). "Brian May told fans Roger and I ..." takes another given name,
        never "Michael Jackson and I"."""
        if " " in text.strip() or given_name_known(f"{text} X") is not True:
            return False
        return text not in self.surnames_of_people()

    def surnames_of_people(self) -> set[str]:
        """The surnames of the bank's people of two parts or more ("Gladstone") that are
        well-formed people's names (`entries.drawable`): NER's "persons" "Bolton Wanderers"
        and "Purcell Pavilion", seen once, name no one called Wanderers or Pavilion."""
        if not self._surnames:  # built once per index (filled in place: the index is frozen)
            self._surnames.update(name_parts(t).surname
                                  for t in self.texts.get("PERSON") or ()
                                  if " " in t and entries.drawable("PERSON", t))
            self._surnames.add("")  # built, even when the bank has no such name
        return self._surnames

    def cached(self, key: str, build: Callable[[], object]) -> object:
        """A value built from the index once per index and `key` (`build()`)."""
        if key not in self._derived:
            self._derived[key] = build()
        return self._derived[key]

    def per_article(self, key: tuple[object, ...], texts: Sequence[str],
                    build: Callable[[], _T]) -> _T:
        """A value built from an article's `texts` (a list of the nearby mapping, which the
        article's rows share) once per `key` and article, while at most ARTICLE_MEMO are
        kept (`build()`)."""
        memo_key = (*key, id(texts))
        hit = self._articles.get(memo_key)
        if hit is not None and hit[0] is texts:  # held here: its id names no other list
            return hit[1]  # type: ignore[return-value]
        if len(self._articles) >= ARTICLE_MEMO:
            self._articles.clear()
        value = build()
        self._articles[memo_key] = (texts, value)
        return value

    def text_set(self, entity_type: str) -> frozenset[str]:
        """The bank's texts of a type, as a set (built once per index)."""
        found = self._sets.get(entity_type)
        if found is None:
            found = self._sets[entity_type] = frozenset(self.texts.get(entity_type) or ())
        return found

    def gender(self, text: str) -> str | None:
        """The gender of a PERSON entry: corpus votes first, else the first-name lexicon."""
        return self.genders.get(text) or entries.entry_gender(text)

    def pool(self, entity_type: str, key: str) -> Pool:
        """The well-formed entries of `entity_type` whose fit key is `key` (ANY: all)."""
        pools = self._pools.get(entity_type)
        if pools is None:
            pools = self._pools[entity_type] = self._build_pools(entity_type)
        return pools.get(key, ((), ()))

    def knowing_famous(self, famous: Mapping[str, frozenset[str]],
                       eras: Mapping[str, Mapping[str, int]] | None = None) -> SamplingIndex:
        """This index with `famous` (type -> texts) and the names' `eras`, its pools
        shared."""
        return replace(self, famous=famous, eras=eras or {})

    def obscure_pool(self, entity_type: str, key: str) -> Pool:
        """Pool `key` without the famous texts of its type: the same pool (the same object)
        where the index knows none."""
        if not self.famous.get(entity_type):
            return self.pool(entity_type, key)
        return self._by_fame(entity_type, key)[1]

    def famous_pool(self, entity_type: str, key: str) -> Pool:
        """Pool `key`'s famous texts only (those several articles name): empty where the
        index knows none."""
        return self._by_fame(entity_type, key)[0]

    def _by_fame(self, entity_type: str, key: str) -> tuple[Pool, Pool]:
        """Pool `key` split into its famous texts and the rest, once per index and key."""
        found = self._fame_split.get((entity_type, key))
        if found is None:
            famous = self.famous.get(entity_type) or frozenset()
            texts = self.pool(entity_type, key)[0]
            found = self._fame_split[(entity_type, key)] = (
                _pool([t for t in texts if t in famous]),
                _pool([t for t in texts if t not in famous]))
        return found

    def nearby_pool(self, entity_type: str, key: str, nearby: Sequence[str]) -> Pool:
        """The entries of pool `key` among `nearby` (bank texts, as `pool_text` makes them:
        the entities of the row's article, already `in_pool_order`), in that order. A
        filter, not a sort: an article's list is sorted once, and each of its pool keys
        takes its share of it (the sorts had been a third of the first pass's cost of the
        articles' pools on SQuAD train)."""
        members = self._members.get((entity_type, key))
        if members is None:
            members = self._members[(entity_type, key)] = frozenset(
                self.pool(entity_type, key)[0])
        texts = [t for t in nearby if t in members]
        return texts, [len(t) for t in texts]

    def _build_pools(self, entity_type: str) -> dict[str, Pool]:
        groups: dict[str, list[str]] = {ANY: []}
        texts = self.texts.get(entity_type) or ()
        texts = in_pool_order({pool_text(entity_type, t) for t in texts})
        texts = [t for t in texts if entries.drawable(entity_type, t)]
        if entity_type == "PERSON":
            lone = set(entries.lone_names(texts))
            texts = [t for t in texts if " " in t or t in lone]
        elif entity_type in ("ORG", "FAC", "PRODUCT", "GPE", "LOC"):
            # a person's surname that NER took for an organisation ("Ozawa responded with its
            # Internet Explorer") or for a place that no list of places knows ("the
            # westernmost center of the culture was Velázquez", "Messi"): the bank's people
            # say whose it is. A firm named for its founder ("Ford") goes too; only draws
            # lose it, never a row
            surnames = self.surnames_of_people()
            places = entity_type in ("GPE", "LOC")
            texts = [t for t in texts if " " in t or t not in surnames
                     or (places and place_kind(t) is not None)]
        if entity_type == "ORG":
            # "Deep House" (drawn for 52 rows), "Total Recall", "Department Store": common
            # words that the corpus never says with "the" name no body
            texts = [t for t in texts if t[:4] in ("the ", "The ") or self.said_with_the(t)
                     or not entries.generic_org(t)]
            # places, monarchs and products filed as organisations ("Uttar Pradesh",
            # "Philip II", "Windows 7")
            products = frozenset(w[0].lower() for p in self.texts.get("PRODUCT") or ()
                                 if (w := pool_text("PRODUCT", p).removeprefix("the ").split())
                                 and w[0].lower() not in entries.FUNCTION_WORDS)
            texts = [t for t in texts if not entries.misfiled_org(t, products)]
        for text in texts:
            groups[ANY].append(text)
            keys = entries.fit_keys(entity_type, text)
            if entity_type == "PERSON":
                keys += [GIVEN] if self.given_only(text) else []
                g = self.gender(text)
                keys += [f"{k}:{g}" for k in (*keys, ANY)] if g else []
            for k in keys:
                groups.setdefault(k, []).append(text)
        return {k: _pool(v) for k, v in groups.items()}


def pool_text(entity_type: str, text: str) -> str:
    """A bank text as the pools hold it. "The 7th and 6th centuries" opened a sentence:
    without its article it fits "the 15th and 16th centuries" (the article stays in the
    context, as the original's does); so does "the Treaty of Paris", an "X of Y" that is
    always said with "the". Another name's "the" is its own ("The Beatles") and stays."""
    if entity_type in entries.NAME_TYPES and " of " not in text:
        return text
    return entries.without_the(text)


def length_window(lengths: Sequence[int], orig_len: int,
                  min_ratio: float, max_ratio: float) -> tuple[int, int]:
    """[lo, hi) of candidates with min_ratio <= len/orig_len <= max_ratio."""
    # Small epsilon guards against 0.3 * 10 = 3.0000000000000004 excluding an exact bound.
    lo_len = math.ceil(min_ratio * orig_len - 1e-9)
    hi_len = math.floor(max_ratio * orig_len + 1e-9)
    return bisect.bisect_left(lengths, lo_len), bisect.bisect_right(lengths, hi_len)


def overlaps_original(candidate: str, original: str) -> bool:
    """Whether the candidate is the original, contains it, or sits inside it, as whole words
    and case-insensitively ("West Germany" for "Germany"): the old answer would survive."""
    return overlap_test(original)(candidate)


def overlap_test(original: str) -> Callable[[str], bool]:
    """`overlaps_original` for one original, which every candidate of its draws is tested
    against."""
    orig = norm(original)
    ascii_orig = orig.isascii()

    def overlaps(candidate: str) -> bool:
        cand = norm(candidate)
        if cand == orig:
            return True
        if ascii_orig and cand.isascii() and orig not in cand and cand not in orig:
            # neither holds the other at all, let alone as whole words: the answer for most
            # candidates, without the word matches (lower() is the fold `boundary_matches`
            # uses for ASCII text)
            return False
        return bool(boundary_matches(candidate, original)
                    or boundary_matches(original, candidate))
    return overlaps


def draw(texts: Sequence[str], lengths: Sequence[int], original: str, row_id: str, *,
         seed: int, min_ratio: float, max_ratio: float, max_attempts: int,
         accept: Callable[[str], bool] | None = None, probe: int = 0) -> str | None:
    """The first of `max_attempts` deterministic draws from the candidates within the length
    ratio that does not overlap the original and that `accept` takes, or None; with
    `probe`, then the first such of the candidates `visits` tries after them."""
    overlaps = overlap_test(original)
    return next((cand for cand in visits(texts, lengths, original, row_id, seed=seed,
                                         min_ratio=min_ratio, max_ratio=max_ratio,
                                         max_attempts=max_attempts, probe=probe)
                 if not overlaps(cand) and (accept is None or accept(cand))), None)


def visits(texts: Sequence[str], lengths: Sequence[int], original: str, row_id: str, *,
           seed: int, min_ratio: float, max_ratio: float, max_attempts: int,
           probe: int = 0) -> Iterator[str]:
    """The candidates a row's draw tries, in order (`draw` takes the first that fits): the
    candidates within the length ratio at `max_attempts` deterministic indices, then, with
    `probe`, other candidates, each at most once (at most `probe` of them), so that a rare
    fitting candidate is still found, deterministically, where more random draws would most
    likely miss it. These are visited from the last draw by a stride of the row's own,
    coprime to the number of candidates: stepping by one had made the first fitting
    candidate after a long refused run of the sorted list the answer of every row that
    reached it ("UN Command" replaced 160 SQuAD train organisations, from "the Economist" to
    "the Rolling Stones"). Lazy: most rows take their first draw."""
    lo, hi = length_window(lengths, len(original), min_ratio, max_ratio)
    if hi <= lo:
        return
    n = hi - lo
    i = 0
    for attempt in range(max_attempts):
        i = draw_index(seed, row_id, attempt, n)
        yield texts[lo + i]
    if probe and n > 1:
        stride = coprime_stride(seed, row_id, n)
        for step in range(1, min(probe, n)):
            yield texts[lo + (i + step * stride) % n]


def coprime_stride(seed: int, row_id: str, n: int) -> int:
    """A step in [1, n) coprime to `n`, drawn for the row: stepping by it from any index
    visits all `n` candidates once each, in an order of the row's own."""
    stride = 1 + stable_u64(seed, "stride", row_id) % (n - 1)
    while math.gcd(stride, n) != 1:
        stride = stride % (n - 1) + 1  # the next step up, wrapping to 1 (gcd 1 always)
    return stride


def choose_replacement(
    index: SamplingIndex, entity_type: str, original: str, row_id: str, *,
    seed: int, min_ratio: float, max_ratio: float, max_attempts: int,
) -> str | None:
    """A replacement of `entity_type` distinct from `original` (case-insensitively, and
    neither containing it nor inside it) whose length ratio is within bounds, or None if no
    such candidate was found in `max_attempts` deterministic draws (or none exists)."""
    return draw(index.texts.get(entity_type) or (), index.lengths.get(entity_type) or (),
                original, row_id, seed=seed, min_ratio=min_ratio, max_ratio=max_ratio,
                max_attempts=max_attempts)
