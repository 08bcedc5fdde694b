"""A swapped year keeps the story's order of events.

A context tells of events in years; a reader notices at once when a swap breaks their
order ("renamed in 1969, and again in 1901") or moves an event past the latest year the
text knows of ("the 2039 elections" in a text that ends in 2014). So a replacement's year
must lie strictly between the other years of the context nearest to the original's (the
one before it and the one after it), and never after the corpus's present or the latest
year the context mentions, if later: an event may move back in time, never into the text's
future. A story's latest event stays near its others, within `YEAR_REACH` years of them
(or as far as they span).

Years are four-digit numbers from 1000 to 2099 standing alone: not a decade ("1990s"), not
part of a larger number ("1,500", "12000"), not a range ("1947-1967" gives both years). A
decade keeps its order among the context's decades the same way ("the 1930s and 1940s").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Iterable, Sequence

from faithqa_spark.core import shapes

_YEAR = re.compile(r"(?<![\d,.])(1\d{3}|20\d{2})(?!\d|,\d|s\b|'s\b|\.\d)")


def years_in(text: str, start: int = 0, end: int | None = None) -> list[int]:
    """The years written in text[start:end], in order."""
    return [int(m.group(1)) for m in _YEAR.finditer(text, start, len(text) if end is None else end)]


# a decade, "the 1930s", as its first year: decades keep their order among themselves
_DECADE = re.compile(r"(?<![\d,.])(1\d{2}0|20\d0)['’]?s\b")


def decades_in(text: str, start: int = 0, end: int | None = None) -> list[int]:
    """The decades written in text[start:end] ("1930s" -> 1930), in order."""
    return [int(m.group(1)) for m in _DECADE.finditer(text, start, len(text) if end is None else end)]


def decade_of(text: str) -> int | None:
    """The one decade a DATE text names ("the 1940s" -> 1940); None for none or several."""
    found = decades_in(text)
    return found[0] if len(found) == 1 and not years_in(text) else None


# before Christ, after a year or a century (counted down)
_BC = r"\s+(?:BC|BCE|B\.C\.)"
# "the late 9th century", "11th-century", "the 6th century BC"
_CENTURY = re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)[\s-]+centur(?:y|ies)\b({_BC})?")


_ORDINAL = re.compile(r"\b\d{1,2}(?:st|nd|rd|th)\b")


def centuries_in(text: str, start: int = 0, end: int | None = None) -> list[int]:
    """The centuries a text names in figures, in order (BC ones negative)."""
    return [-int(m.group(1)) if m.group(2) else int(m.group(1))
            for m in _CENTURY.finditer(text, start, len(text) if end is None else end)]


def centuries_and_years_in(text: str, start: int = 0, end: int | None = None) -> list[int]:
    """The centuries a text names, and those of its years ("618-907" names the 7th and the
    10th): "contemporaneous with Tang China (618-907). Until the Tibetan Empire's collapse
    in the 9th century" never becomes "... in the 18th century"."""
    stop = len(text) if end is None else end
    early = [int(y) for m in _EARLY_RANGE.finditer(text, start, stop) for y in m.groups()]
    return centuries_in(text, start, end) + [(y - 1) // 100 + 1
                                             for y in years_in(text, start, end) + early]


# a span of years before 1000 ("Tang China (618–907)"): `years_in` reads four digits only
_EARLY_RANGE = re.compile(r"(?<![\d,.])([1-9]\d{2})\s*[–-]\s*([1-9]\d{2})(?![\d,.])")


def century_of(text: str) -> int | None:
    """The one century a DATE text names ("the early 11th century" -> 11); None for none,
    several or a year or decade besides."""
    found = centuries_in(text)
    one = len(found) == 1 and len(_ORDINAL.findall(text)) == 1  # "9th and 10th": several
    return found[0] if one and not years_in(text) and not decades_in(text) else None


_LATER_PART = re.compile(r"\b(?:late|later|latter|mid|middle|second half|end)\b", re.IGNORECASE)


def present_century(present_year: int) -> int:
    return (present_year - 1) // 100 + 1


def century_until(present_year: int) -> Callable[[str], int | None]:
    """`century_of`, except that a later part of the present century is no century
    ("Until the late 21st century, Boston remained ..." lies ahead of a corpus of 2016)."""
    present = present_century(present_year)

    def of(text: str) -> int | None:
        century = century_of(text)
        return None if century == present and _LATER_PART.search(text) else century

    return of


def year_of(text: str) -> int | None:
    """The one year a DATE or CARDINAL text names ("1906", "August 15, 1914", "spring of
    1860"); None for no year or several ("1947 to 1967")."""
    found = years_in(text)
    return found[0] if len(found) == 1 else None


# a year before Christ in figures, of any length: "in 495 BC", "2560 BCE" (`years_in`
# reads four digits only, and as years of our era)
_BC_YEAR = re.compile(rf"(?<![\d,.])(\d{{1,4}}){_BC}(?!\w)")
_PLAIN_NUMBER = re.compile(r"\d{1,4}")
_BC_AFTER = re.compile(rf"{_BC}(?!\w)")


def bc_years_in(text: str, start: int = 0, end: int | None = None) -> list[int]:
    """The years before Christ written in text[start:end], in order, as negative years
    ("495 BC" -> -495): later ones are greater, as our era's are."""
    stop = len(text) if end is None else end
    return [-int(m.group(1)) for m in _BC_YEAR.finditer(text, start, stop)]


def bc_year_of(text: str) -> int | None:
    """A plain number as a year before Christ ("473" -> -473); None for any other text."""
    return -int(text) if _PLAIN_NUMBER.fullmatch(text.strip()) else None


def before_christ(context: str, regions: Iterable[tuple[int, int]], original: str) -> bool:
    """Whether the original is a plain number that every mention gives as a year before
    Christ ("Later in 473 BC, the State of Yue conquered Wu")."""
    return bc_year_of(original) is not None and all(
        _BC_AFTER.match(context, e) for _, e in regions)


@dataclass(frozen=True)
class YearBounds:
    """The open interval a replacement's year must fall in, and the latest year allowed."""
    after: int | None  # the nearest earlier year of the context
    before: int | None  # the nearest later year of the context
    latest: int  # the present year, or the latest the context mentions if later (`bounds`)

    def admits(self, year: int) -> bool:
        return ((self.after is None or year > self.after)
                and (self.before is None or year < self.before) and year <= self.latest)


def years_outside(context: str, regions: Iterable[tuple[int, int]],
                  find: Callable[..., list[int]] = years_in) -> list[int]:
    """The years (`find`: or decades, ...) the context names outside `regions`, in order."""
    others: list[int] = []
    last = 0
    for s, e in sorted(regions):
        others += find(context, last, s)
        last = e
    return others + find(context, last)


# A story's years reach this far past its latest year at most (or as far as they span, if
# more): the latest event of a story of a few years stays near them. "World War I broke out
# in August 1914 ... In 1917 the Germans resumed submarine attacks" had become "In 1945
# ...", and "On 23 June 1929, Barcelona won the inaugural Spanish League. A year after ...,
# on 30 July 1930" "... on 24 September 1957".
YEAR_REACH = 10


def bounds(context: str, regions: Iterable[tuple[int, int]], original_year: int,
           present_year: int, find: Callable[..., list[int]] = years_in,
           reach: int | None = None) -> YearBounds:
    """The bounds for a replacement of `original_year`, whose mentions are `regions`: from
    the context's other years (outside those mentions) and the corpus's present. With
    `find=decades_in`, the same for a decade among the context's decades ("in the 1930s and
    1940s" never becomes "in the 1930s and 1920s"). With `reach`, where the context names
    other years, none later than its latest by more than `reach` or than all its years span
    (`YEAR_REACH`)."""
    others = years_outside(context, regions, find)
    earlier = [y for y in others if y < original_year]
    later = [y for y in others if y > original_year]
    latest = max([present_year, original_year, *others])
    if reach is not None and others:
        newest, oldest = max(original_year, *others), min(original_year, *others)
        latest = min(latest, newest + max(reach, newest - oldest))
    return YearBounds(max(earlier) if earlier else None, min(later) if later else None,
                      latest)


def keeps_order(bounds_: YearBounds | None, candidate: str,
                of: Callable[[str], int | None] = year_of) -> bool:
    """Whether a candidate replacement keeps the context's order of events (always true
    when the original names no year); `of=decade_of` for decades."""
    if bounds_ is None:
        return True
    year = of(candidate)
    return year is not None and bounds_.admits(year)


# a day of the year written without its year ("June 6", "30 October", "May 27th"): a
# story's days keep their order among themselves as its years do
_MONTHS = tuple(shapes.MONTHS.split("|")[:12])  # the full names, January first
_MONTH_NAME = "|".join(m.capitalize() for m in _MONTHS)
_DAY = re.compile(rf"\b(?:({_MONTH_NAME}) (\d{{1,2}})|(\d{{1,2}}) ({_MONTH_NAME}))"
                  rf"(?:st|nd|rd|th)?\b(?!,? (?:\d|{_MONTH_NAME}))")


def day_of_year(text: str) -> tuple[int, int] | None:
    """(month, day) of a text that is one day of the year and no more ("June 6", "30
    October"; not "June 6, 1944", "June 1944" or "the spring")."""
    m = _DAY.fullmatch(text.strip())
    return _month_day(m) if m else None


def days_outside(context: str, spans: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """(month, day) of each day of the year the context writes without a year, outside
    `spans` (the mentions being swapped)."""
    taken = list(spans)
    return [_month_day(m) for m in _DAY.finditer(context)
            if not any(a < m.end() and m.start() < b for a, b in taken)]


def same_day_order(day: tuple[int, int], others: Iterable[tuple[int, int]],
                   new: tuple[int, int] | None) -> bool:
    """Whether the day `new` lies before, on or after each of `others` as `day` does: "The
    allied armies captured Beijing on June 6. The Shunzhi Emperor was invested on October
    30" never becomes "... on May 27"."""
    return new is not None and all((o < day) == (o < new) and (o > day) == (o > new)
                                   for o in others)


def _month_day(m: re.Match[str]) -> tuple[int, int]:
    month, day = (m.group(1), m.group(2)) if m.group(1) else (m.group(4), m.group(3))
    return _MONTHS.index(month.lower()) + 1, int(day)


def century_bounds(context: str, regions: Sequence[tuple[int, int]], present_year: int
                   ) -> tuple[int, int] | None:
    """Where every mention of an ordinal in figures counts centuries ("the 11th and 12th
    centuries", "the 5th century"), the bounds (exclusive) its replacement's number keeps:
    above the ordinal before it in a pair, below the one after it, and within the present
    century; else None. Before Christ the pair runs the other way."""
    low, high = 0, present_century(present_year) + 1
    for s, e in regions:
        after = _CENTURY_AFTER.match(context, e)
        if after is None or not _ORDINAL_FIGURE.fullmatch(context[s:e]):
            return None
        if _BC_AFTER.match(context, after.end()):
            continue  # "between the 6th and 4th centuries BCE": no order kept
        if after.group(1):
            high = min(high, int(after.group(1)))
            if after.group(0).lstrip().lower().startswith(("and early", "to early")) and \
                    _LATE_BEFORE.search(context, max(0, s - 6), s):
                low = max(low, int(after.group(1)) - 2)  # "the late 5th and early 6th": next
        before = _CENTURY_BEFORE.search(context, max(0, s - 30), s)
        if before:
            low = max(low, int(before.group(1)))
    return (low, high) if low < high else None


def ordinal_number(text: str) -> int | None:
    """The number of an ordinal in figures ("12th" -> 12), else None."""
    m = _ORDINAL_FIGURE.fullmatch(text.strip())
    return int(m.group(1)) if m else None


_ORDINAL_FIGURE = re.compile(r"(\d{1,3})(?:st|nd|rd|th)")
# the century noun after an ordinal, with the other ordinal of a pair before it ("11th and
# 12th centuries"), and the ordinal before a pair's second ("11th and" before "12th")
_CENTURY_AFTER = re.compile(r"(?:\s+(?:and|or|to)\s+|[-–])?(?:(?:early|late|mid)[- ])?"
                            r"(?:(\d{1,3})(?:st|nd|rd|th))?[\s-]+centur(?:y|ies)\b", re.I)
_CENTURY_BEFORE = re.compile(r"(\d{1,3})(?:st|nd|rd|th)\s+(?:and|or|to)\s+"
                             r"(?:(?:early|late|mid)[- ])?$", re.I)
_LATE_BEFORE = re.compile(r"\blate[- ]$", re.I)
