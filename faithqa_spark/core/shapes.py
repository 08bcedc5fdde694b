"""Surface shapes of DATE and CARDINAL entities: what a reader notices when one is swapped
for another ("burned in 1907" -> "burned in about 30,000" changes the shape; "1907" ->
"1888" does not).

A shape is a short string. Leading hedges and determiners ("the", "about", "early",
"mid-", "c.", "an estimated") are ignored, because they do not change what kind of date or number the
text is; everything else must fit one pattern exactly.

DATE shapes (`date_shape`):

| shape | examples |
|---|---|
| `year` | 1907, 1066, early 1990, 'the year 1820' |
| `decade` | 1990s, the 1990s, '90s, the mid-1980s, the nineties |
| `century` | the 19th century, 19th-century, the nineteenth century, the 1800s (a decade is "NNN0s" with a non-zero tens digit) |
| `full_date` | 4 July 1776, July 4, 1776, July 4th, 1776, 1776-07-04, 4/7/1776 |
| `month_year` | July 1776, Jul. 1776 |
| `month_day` | July 4, 4 July, the 4th of July |
| `month` | July |
| `weekday` | Monday, Mondays, Monday night |
| `relative` | seasons and words relative to the text: today, yesterday, summer, the next day, last year, that year, recent years |
| `era` | AD 79, 79 AD, 300 BC, 44 BCE, 1200 CE |
| `year_range` | 1990-1995, 1990–95, between 1990 and 1995, from 1990 to 1995, 1990/91 |
| `age` | age 60, age sixty |
| `age:of` | the age of sixty, age of 35 |
| `age:years` | 38 years of age |
| `age:era` | the Age of Enlightenment, the Age of Discovery (an era's name, not an age) |
| `duration` | three years, 10 days, two decades, several months, 18 months |
| `other` | anything else (e.g. "about 30,000", "the Middle Ages") |

CARDINAL shapes (`cardinal_shape`):

| shape | examples |
|---|---|
| `digits:<magnitude>:<grouping>` | 7 (`digits:1:plain`), 42 (`digits:2:plain`), 350, 1250 (`digits:4:plain`), 1,250 (`digits:4:comma`), 30,000 (`digits:5-6:comma`), 2,500,000 (`digits:7+:comma`) |
| `decimal:<magnitude>` | 3.5 (`decimal:1`), 0.25, .5 (`decimal:0`), 4,097.9 (`decimal:4`) |
| `fraction` | two-thirds, a third, one-fifth, 5½, 1/3 |
| `words` | four, twenty-one, one hundred, a dozen, hundreds, thousands |
| `mixed` | 2 million, 3.5 billion, 40 thousand |
| `range` | 3-4, 10–12, between 5 and 10 (a figure on either side) |
| `range:words` | two or three, hundreds or thousands (words alone: "4500–4000 of years" read wrong) |
| `other` | anything else |

Magnitude buckets are the number of integer digits: 1, 2, 3, 4, 5-6, 7+. Grouping is
`comma` when thousands are grouped with commas ("1,250"), else `plain`; below 1,000 it is
always `plain`.
"""

from __future__ import annotations

import re

OTHER = "other"
DATE, CARDINAL = "DATE", "CARDINAL"

MONTHS = (
    "january|february|march|april|may|june|july|august|september|october|november|december"
    "|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec")
_M = rf"(?:{MONTHS})\.?"
_WEEKDAYS = r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?"
# the number words below a hundred: units (and the teens), and tens
UNIT_WORDS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen "
              "fourteen fifteen sixteen seventeen eighteen nineteen").split()
TENS_WORDS = "twenty thirty forty fifty sixty seventy eighty ninety".split()
_NUM_WORD = (
    rf"(?:{'|'.join(UNIT_WORDS + TENS_WORDS)}"
    r"|hundred|thousand|million|billion|trillion|a|an|several"
    r"|few|many|some|dozen|dozens|hundreds|thousands|millions|billions|couple)")
_ORD_WORD = (
    r"(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh"
    r"|twelfth|thirteenth|fourteenth|fifteenth|sixteenth|seventeenth|eighteenth"
    r"|nineteenth|twentieth|twenty-first)")
_DAY = r"(?:[0-3]?\d)(?:st|nd|rd|th)?"
_YEAR = r"(?:\d{3,4})"
_DASH = r"\s*(?:-|–|—|to|/|until|through)\s*"
_UNIT = r"(?:seconds?|minutes?|hours?|days?|nights?|weeks?|fortnights?|months?|years?|decades?|centur(?:y|ies)|millenni(?:um|a)|semesters?|terms?|seasons?)"

# Hedges and determiners stripped before classifying: they qualify a date or number but do
# not change its kind.
_LEAD = re.compile(
    r"^(?:(?:the|about|around|approximately|approx\.|circa|ca\.|c\.|nearly|almost|over"
    r"|more than|less than|fewer than|at least|at most|up to|some|only|just|roughly"
    r"|early|late|mid|the early|the late|the mid|by|since|in|until|before|after"
    r"|an estimated|estimated|just under|just over|no more than|as many as|as high as|as few as"
    r"|year|the year|of)(?:\s+|-))+",
    re.IGNORECASE)

_AGE = rf"(?:\d{{1,3}}|{_NUM_WORD}(?:-{_NUM_WORD})?)"

_DATE_PATTERNS: list[tuple[str, re.Pattern[str]]] = [(name, re.compile(p, re.IGNORECASE)) for name, p in [
    ("era", r"(?:(?:ad|a\.d\.)\s*\d{1,4}|\d{1,4}\s*(?:ad|a\.d\.|bc|b\.c\.|bce|b\.c\.e\.|ce|c\.e\.))"),
    ("year", rf"{_YEAR}"),
    ("decade", r"(?:\d{2}[1-9]0'?s|'\d0s|\d0s|(?:twenties|thirties|forties|fifties|sixties|seventies|eighties|nineties))"),
    ("century", rf"(?:\d{{1,2}}(?:st|nd|rd|th)|{_ORD_WORD})[\s-]+centur(?:y|ies)(?:\s+(?:ad|bc|bce|ce))?|\d{{2}}00s"),
    ("full_date", rf"(?:{_DAY}\s+(?:of\s+)?{_M},?\s+{_YEAR}|{_M}\s+{_DAY},?\s+{_YEAR}|\d{{4}}-\d{{1,2}}-\d{{1,2}}|\d{{1,2}}/\d{{1,2}}/\d{{2,4}})"),
    ("month_year", rf"{_M},?\s+{_YEAR}"),
    ("month_day", rf"(?:{_DAY}\s+(?:of\s+)?{_M}|{_M}\s+{_DAY})"),
    ("month", rf"{_M}"),
    # three ways to say an age, each fitting only where it stood ("At the age 29" read
    # wrong), each with a figure or a number word: "the Age of Enlightenment" is no age
    ("age:of", rf"(?:the\s+)?age\s+of\s+{_AGE}"),
    ("age", rf"(?:the\s+)?age\s+{_AGE}"),
    ("age:years", rf"{_AGE}\s+years\s+of\s+age"),
    ("age:era", r"(?:the\s+)?age\s+of\s+[a-z]+"),  # the Age of Enlightenment, of Discovery
    ("weekday", rf"{_WEEKDAYS}(?:\s+(?:morning|afternoon|evening|night))?"),
    ("year_range", rf"(?:(?:between|from)\s+)?{_YEAR}(?:{_DASH}|\s+and\s+)(?:\d{{2}}|{_YEAR})"),
    ("duration", rf"(?:\d[\d,.]*|{_NUM_WORD}(?:[\s-]+{_NUM_WORD})*)(?:\s+(?:and\s+a\s+half|or\s+more))?[\s-]+{_UNIT}(?:\s+(?:old|long|later|earlier|ago))?"),
    ("relative", r"(?:(?:this|that|last|next|the next|the following|the previous|the same|each|every|recent|later|earlier|the coming|the past)\s+)?"
                 r"(?:today|tonight|yesterday|tomorrow|now|nowadays|currently|recently|annually|daily|weekly|monthly|yearly"
                 r"|spring|summer|autumn|fall|winter|springtime|summertime|wintertime|day|days|week|weeks|month|months|year|years|decade|decades|century|season|morning|evening|night|weekend|time"
                 r"|(?:spring|summer|autumn|fall|winter)\s+(?:of\s+)?\d{4})"),
]]

# the shapes that give someone's age, not an era's name
AGES = frozenset({"age", "age:of", "age:years"})

# a number below a hundred in words ("twelve", "twenty-one", "forty one"): the pattern's
# text (each user puts its own bounds around it) and what each is worth (`word_number`)
WORD_NUMBER = (rf"(?:{'|'.join(TENS_WORDS)})(?:[\s-](?:{'|'.join(UNIT_WORDS[1:10])}))?"
               rf"|{'|'.join(sorted(UNIT_WORDS, key=len, reverse=True))}")
_WORD_NUMBERS = {w: n for n, w in enumerate(UNIT_WORDS)} | {
    w: 20 + 10 * i for i, w in enumerate(TENS_WORDS)} | {
    f"{t} {u}": 20 + 10 * i + j for i, t in enumerate(TENS_WORDS)
    for j, u in enumerate(UNIT_WORDS[1:10], start=1)}
_AGE_FIGURE = re.compile(r"\b(\d{1,3})\b")
_AGE_IN_WORDS = re.compile(rf"\b({WORD_NUMBER})\b", re.IGNORECASE)


def word_number(words: str) -> int:
    """What a match of `WORD_NUMBER` is worth ("Twenty-one" -> 21, "forty one" -> 41)."""
    return _WORD_NUMBERS[re.sub(r"[\s-]", " ", words.lower())]


def age_years(text: str) -> tuple[int, bool] | None:
    """The years of an age ("the age of 18" -> (18, True), "age twenty-one" -> (21,
    False)): the number, and whether it is in figures; None for none."""
    m = _AGE_FIGURE.search(text)
    if m:
        return int(m.group(1)), True
    m = _AGE_IN_WORDS.search(text)
    return (word_number(m.group(1)), False) if m else None


_CARD_PATTERNS: list[tuple[str, re.Pattern[str]]] = [(name, re.compile(p, re.IGNORECASE)) for name, p in [
    ("mixed", r"\d[\d,]*(?:\.\d+)?[\s-]*(?:hundred|thousand|million|billion|trillion|dozen)"),
    # words before ranges: "twenty-one" is one number, not a range
    ("words", rf"{_NUM_WORD}(?:(?:[\s-]+|\s+and\s+){_NUM_WORD})*"),
    ("range", rf"(?:between\s+)?(?:\d[\d,.]*|{_NUM_WORD})(?:\s*(?:-|–|—|to|or|and)\s*)(?:\d[\d,.]*|{_NUM_WORD})"),
    ("decimal", r"\d[\d,]*\.\d+|\.\d+"),
    ("fraction", r"(?:half|(?:a|an|one|two|three|four|five|six|seven|eight|nine)[\s-]+(?:half|halves|third|thirds|quarter|quarters|fourths?|fifths?|sixths?|sevenths?|eighths?|ninths?|tenths?)|\d*[½⅓⅔¼¾]|\d+\s*[⁄/]\s*\d+)"),
]]
_GROUPED = re.compile(r"\d{1,3}(?:,\d{3})+")
_PLAIN = re.compile(r"\d+")


def _core(text: str) -> str:
    t = text.strip().strip(".,;:()[]\"'“”‘’").strip()
    prev = None
    while prev != t:  # hedges can stack ("the early", "about the")
        prev = t
        t = _LEAD.sub("", t).strip()
    return t


def core(text: str) -> str:
    """A date or number without its hedges and determiners, lower-cased ("around ten
    years" -> "ten years", "the early 1990s" -> "1990s")."""
    return _core(text).lower()


def hedge(text: str) -> str:
    """The hedges and determiners before a date or number, lower-cased, without a leading
    article ("about 30,000" -> "about", "the early 1990s" -> "early", "1907" -> "")."""
    t = text.strip().strip(".,;:()[]\"'“”‘’").strip()
    core = _core(t)
    lead = t[:len(t) - len(core)] if core and t.endswith(core) else ""
    words = lead.lower().replace("-", " ").split()
    while words and words[0] in ("the", "a", "an"):
        words.pop(0)
    return " ".join(words)


def date_shape(text: str) -> str:
    """The shape class of a DATE text (see the module docstring)."""
    t = _core(text)
    for name, pat in _DATE_PATTERNS:
        if pat.fullmatch(t):
            return name
    return OTHER


def _magnitude(n_digits: int) -> str:
    if n_digits <= 4:
        return str(n_digits)
    return "5-6" if n_digits <= 6 else "7+"


def cardinal_shape(text: str) -> str:
    """The shape class of a CARDINAL text (see the module docstring)."""
    t = _core(text)
    if _GROUPED.fullmatch(t):
        digits = t.replace(",", "").lstrip("0") or "0"
        return f"digits:{_magnitude(len(digits))}:comma"
    if _PLAIN.fullmatch(t):
        digits = t.lstrip("0") or "0"
        return f"digits:{_magnitude(len(digits))}:plain"
    for name, pat in _CARD_PATTERNS:
        if pat.fullmatch(t):
            if name == "decimal":  # "6.4 children per woman" had become "97.0 children"
                whole = t.split(".")[0].replace(",", "").lstrip("0")
                return f"decimal:{_magnitude(len(whole)) if whole else 0}"
            return f"{name}:words" if name == "range" and not _PLAIN.search(t) else name
    return OTHER


def shape(etype: str, text: str) -> str | None:
    """The shape of `text` as an entity of `etype`, or None for types without shapes."""
    if etype == DATE:
        return date_shape(text)
    if etype == CARDINAL:
        return cardinal_shape(text)
    return None


def same_shape(etype: str, a: str, b: str) -> bool:
    """Whether `a` and `b` have the same shape as entities of `etype` (always true for types
    without shapes). Two texts of shape `other` are not known to match: False."""
    sa = shape(etype, a)
    if sa is None:
        return True
    return sa != OTHER and sa == shape(etype, b)
