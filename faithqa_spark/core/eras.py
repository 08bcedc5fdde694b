"""When a story is set, and when the people and events a corpus names belong: what keeps
a replacement in its time.

"Chief Justice James Madison" reads as a slip, but "On August 23, in the presence of Nikita
Khrushchev, Yeltsin signed a decree" (1991; Khrushchev died in 1971) and "The Battle of
Actium, the first major engagement of the insurgency" (of 1810) read as errors: a name of
another time. The corpus says when its names belong: an article's paragraphs name years,
and an article that keeps to a few decades (the one on the 1991 coup, not the one on
Russia's history) dates the names it holds. A name's era is the median of the eras of the
articles that name it; a row's is the median of the years its own context names, else its
article's. Both come from `core.nearby`'s mapping, which both runners build alike, so Spark
and the reference agree; a corpus with no articles (TriviaQA) dates nothing, and draws as
before. Years are those of four figures, 1000 to 2099 (`chronology.years_in`): a story of
antiquity ("31 BC") is dated by none, and its names draw as before.
"""

from __future__ import annotations

from statistics import median_low
from typing import Iterable, Mapping, Sequence

from faithqa_spark.core.chronology import years_in

# the types whose names belong to a time: a person, an event
ERA_TYPES = frozenset({"PERSON", "EVENT"})
# an article dates its names when it names this many years ...
MIN_YEARS = 3
# ... and the middle half of them lie within this many years of each other (the article on
# the 1991 coup, not the one on Russia's history)
MAX_SPREAD = 60


# a story set before this year takes a person's name written with an initial ("Samuel L.
# Jackson") last: such names are of the last two centuries (`coherent.fit`)
INITIALS_SINCE = 1800


def era_of(texts: Iterable[str]) -> int | None:
    """The median of the years `texts` name (`chronology.years_in`), or None: fewer than
    MIN_YEARS, or a middle half wider than MAX_SPREAD years."""
    years = sorted(y for t in texts for y in years_in(t))
    if len(years) < MIN_YEARS:
        return None
    quarter = len(years) // 4
    if years[-1 - quarter] - years[quarter] > MAX_SPREAD:
        return None
    return median_low(years)


def name_eras(near: Mapping[str, Mapping[str, Sequence[str]]]) -> dict[str, dict[str, int]]:
    """Per type of ERA_TYPES, each name's era: the median of the eras of the articles of
    `near` (`core.nearby`) that name it and have one (`era_of` of their DATE texts)."""
    found: dict[str, dict[str, list[int]]] = {}
    for article in sorted(near):
        by_type = near[article]
        era = era_of(by_type.get("DATE") or ())
        if era is None:
            continue
        for etype in sorted(ERA_TYPES & by_type.keys()):
            names = found.setdefault(etype, {})
            for text in dict.fromkeys(by_type[etype]):  # once per article
                names.setdefault(text, []).append(era)
    return {etype: {t: median_low(v) for t, v in sorted(names.items())}
            for etype, names in sorted(found.items())}


def context_era(context: str) -> int | None:
    """When a row's story is set by its own words: the median year its context names (one
    will do), or None."""
    years = sorted(years_in(context))
    return median_low(years) if years else None


def tolerance(era: int) -> int:
    """How far from a row's era a name may belong and still read as of its time: a few
    decades in modern history, centuries before it."""
    return 25 if era >= 1900 else 40 if era >= 1800 else 100 if era >= 1500 else 250


def of_its_time(name_era: int | None, era: int) -> bool:
    """Whether a name of era `name_era` (None: unknown) belongs to a story of `era`."""
    return name_era is not None and abs(name_era - era) <= tolerance(era)
