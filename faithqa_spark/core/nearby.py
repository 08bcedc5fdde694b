"""The entities of a row's article: what the coherent policy draws from first.

A SQuAD article is one Wikipedia page cut into paragraphs; its other paragraphs name the
people, places, bodies and works of the same story. A replacement drawn from them belongs
to it: in the article on Houston, "skyscrapers built by real estate developer Gerald D.
Hines" becomes "... by Philip Johnson", an architect of that skyline, where the whole bank
gave "Pablo Picasso"; in the one on Assam, "until the establishment of British rule in
1838" becomes "Persian rule", where it gave "Ming Chinese rule". The context of the row
itself never offers one (a candidate already in the context is refused). Sources whose
records have no article (TriviaQA: each question brings its own evidence) draw from the
whole bank alone.

Both runners build the same mapping, article -> type -> sorted texts (as the pools hold
them, `sampling.pool_text`; a text the story names often listed up to MAX_WEIGHT times),
from the bank mentions of the article's contexts, counted once per context:
`nearby_entities`. An article of one paragraph gives nothing the
policy takes (every candidate is in the context) and needs no rule of its own.
"""

from __future__ import annotations

import sys
from collections import Counter
from typing import Iterable, Mapping, Sequence

from faithqa_spark.core import fields as C
from faithqa_spark.core.hashing import content_digest
from faithqa_spark.core.sampling import pool_text

Nearby = Mapping[str, Mapping[str, Sequence[str]]]  # article -> entity type -> texts

# an article's key is "<input file>#<the record location up to its first '/'>", for a
# location that starts with "article=" (Spark: `transforms.article_column`)
ARTICLE_PREFIX, FILE_SEP, LOC_SEP = "article=", "#", "/"


def wanted(policy: str) -> bool:
    """Only the coherent policy draws from the article first; the paper policy as the paper."""
    return policy == "coherent"


def article_key(input_file: str | None, record_loc: str | None) -> str | None:
    """An article's key: the file and the `article=A` part of a record location (SQuAD's
    layout, `sources.squad`), or None for records of no article."""
    if input_file is None or record_loc is None or not record_loc.startswith(ARTICLE_PREFIX):
        return None
    return f"{input_file}{FILE_SEP}{record_loc.split(LOC_SEP, 1)[0]}"


def article_of(row: Mapping[str, object]) -> str | None:
    """A QA row's article (`article_key`)."""
    return article_key(row.get(C.INPUT_FILE), row.get(C.RECORD_LOC))  # type: ignore[arg-type]


# A text named in more of the article's paragraphs is drawn more often, up to this many
# times as often as one named once: "other than Russia in central Asia", in the article on
# the British Empire, takes France or India (named throughout) before Nauru (named once), and
# no single name of the story takes over its rows.
MAX_WEIGHT = 3


def nearby_entities(mentions: Iterable[tuple[str, str, str, int]]
                    ) -> dict[str, dict[str, list[str]]]:
    """The mapping from (article, entity type, bank text, contexts of the article that name
    it) in any order, a text once per article and type. Each pool text is listed as many
    times as the article's contexts name it (summed over the bank texts it is made from), at
    most MAX_WEIGHT: a uniform draw from the list favours what the story names most. A text
    that several articles name is one string object (interned), and pickles (Spark's
    broadcast) once: the 155,017 (article, entity) pairs of SQuAD train's 442 articles pickle
    into about 2 MB and take about 8 MB in a worker, a few times the bank's own broadcast,
    and grow with the corpus as the bank does."""
    counts: dict[str, dict[str, dict[str, int]]] = {}
    for article, etype, text, contexts in mentions:
        by_text = counts.setdefault(article, {}).setdefault(etype, {})
        key = sys.intern(pool_text(etype, text))
        by_text[key] = by_text.get(key, 0) + contexts
    return {a: {t: [x for x in sorted(v) for _ in range(min(v[x], MAX_WEIGHT))]
                for t, v in sorted(by_type.items())}
            for a, by_type in sorted(counts.items())}


def from_contexts(contexts: Iterable[tuple[str, Iterable[tuple[str, str]]]]
                  ) -> dict[str, dict[str, list[str]]]:
    """`nearby_entities` from (article, the (type, bank text) mentions of one of its
    contexts), once per distinct (article, context): each text counted once per context
    that names it, however often it names it (the Spark job: `transforms.article_mentions`)."""
    named = Counter((article, etype, text) for article, mentions in contexts
                    for etype, text in set(mentions))
    return nearby_entities((*k, n) for k, n in named.items())


# A name that this many articles or more name is famous: out of its own stories it reads
# wrong ("the British scientist Benjamin Franklin in 1832", "R&B producer John Lennon"). Of
# SQuAD train's 20,545 person names, 18,383 are named in one article only; "Jesus Christ" is
# named in 12, "Benjamin Franklin" in 11, "John Lennon" in 3. From the whole bank the policy
# draws a name of one story first (`SamplingIndex.obscure_pool`); a name from the row's own
# article may be famous, it belongs there.
FAMOUS_ARTICLES = 2
# ... of the types whose names a reader knows as someone's or something's own; a country, a
# people or a year that many stories name is no one's (France, French and 1990 read right
# anywhere)
FAMOUS_TYPES = frozenset({"PERSON", "ORG", "FAC", "EVENT", "WORK_OF_ART", "PRODUCT", "LAW"})


def famous(near: Nearby | None) -> dict[str, frozenset[str]]:
    """Per type of FAMOUS_TYPES, the pool texts that FAMOUS_ARTICLES or more articles of
    `near` name."""
    seen: dict[str, Counter[str]] = {}
    for by_type in (near or {}).values():
        for etype, texts in by_type.items():
            if etype in FAMOUS_TYPES:
                seen.setdefault(etype, Counter()).update(set(texts))
    return {etype: frozenset(t for t, n in c.items() if n >= FAMOUS_ARTICLES)
            for etype, c in sorted(seen.items())}


def fingerprint(near: Nearby) -> str:
    """A digest of the mapping's content: what a worker keys its index on (with the bank's
    `EntityBank.fingerprint`), so two jobs of one session never share a stale one."""
    return content_digest(near)
