"""Figures a context ties together, so that no other number can take one's place.

A swapped amount must leave the text true to itself. Six cases are checked: an amount
given in two units ("137,000 km (85,000 mi)"), where the other figure is a conversion of
this one; shares of one whole ("37% European, 50% African and 13% Amerindian"), where the
percentages of a sentence add up to 100; the parts of a ratio ("three out of five"); a
part or the total of a sum ("2,532 lines: 2,500 analog and 32 digital"); and a count of
the list that follows it ("two regions: Catalonia and Castile"); an operand of a worked
equation ("1,411,200/128,000 = 11.025").
Such an amount is not swapped (`tied`). An amount compared with another ("67 tribes, up
from 40", "growing from 7.3% ... to 9.3%"), one of a ranked list ("(391,906), (110,925),
(98,850)") and a whole with its part ("41%, particularly ... 33%") are swapped for one that
keeps the comparison (`bounds`).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from faithqa_spark.core import shapes

_NUMBER = r"\d[\d,]*(?:\.\d+)?"
_ABOUT = r"(?:about|approx\.|approximately|c\.|ca\.|~)?\s*"
_UNIT = r"[^\W\d_][\w°.]*"
# ... or an area's or a volume's of two words ("3,162 square kilometres (1,221 sq mi)")
_MEASURE = rf"(?:(?:square|sq\.?|cubic|cu\.?)\s+)?{_UNIT}"
# "137,000 km (85,000 mi)": an amount, its unit, then the same amount in another unit in
# brackets (a bracketed year, "5,000 (2010)", has no unit and does not count); a range in
# the bracket too ("200–210 mm (7.9–8.3 in)"), and a temperature's degree ("15 to 25 °C
# (59 and 77 °F)": the bracket had been left as it was beside "15 to 20 °C")
_CONVERSION_AFTER = re.compile(
    rf"\s*(?:°\s*)?(?:{_UNIT}\s*)?\(\s*{_ABOUT}[−-]?{_NUMBER}"
    rf"(?:\s*(?:[–—-]|to|and)\s*[−-]?{_NUMBER})?\s*(?:°\s*)?{_UNIT}")
_CONVERSION_BEFORE = re.compile(rf"{_NUMBER}\s*{_MEASURE}\s*\(\s*{_ABOUT}$")
_PERCENT = re.compile(rf"({_NUMBER})\s*(?:%|percent\b|per cent\b)", re.IGNORECASE)
_SENTENCE_END = re.compile(r"[.!?](?=\s+[A-Z\"“(])")


# "3,018 meters or 6,329 feet", "0.4% of Brazil's population, or about 700,000 people",
# "$1.55 billion or about 7.5% of IndyMac's deposits": the amount said again after "or" in
# another unit (a currency sign before the number, or the word or sign after it)
_RESTATED_AFTER = re.compile(
    rf"(?:\s+of\s+[^,.;()\d]{{1,40}}?)?,?\s+or\s+(?:about|around|roughly|some|nearly|almost|"
    rf"approximately|just\s+over|just\s+under|over|more\s+than)?\s*"
    rf"(?P<sign>[^\w\s]*)(?:{_NUMBER})(?:\s*(?P<unit>%|{_UNIT}))?", re.IGNORECASE)
_SIGN_BEFORE = re.compile(r"([^\w\s\d.,]+)\s*\d")
_UNIT_AFTER = re.compile(rf"\d\s*(%|{_UNIT})$")


def restated(context: str, start: int, end: int) -> bool:
    """Whether the amount at [start, end) is said again right after it, after "or", in
    another unit: its sign or unit ("US$", "meters", "%") is not the other figure's."""
    m = _RESTATED_AFTER.match(context, end)
    if m is None:
        return False
    amount = context[start:end]
    sign = (s.group(1) if (s := _SIGN_BEFORE.search(amount)) else "")
    unit = (u.group(1).lower() if (u := _UNIT_AFTER.search(amount)) else "")
    other_sign, other_unit = m.group("sign") or "", (m.group("unit") or "").lower()
    if not (sign or unit) or not (other_sign or other_unit):
        return False  # "in 2029 or 2039": two figures of no unit are alternatives
    return (sign, unit) != (other_sign, other_unit)


def converted(context: str, start: int, end: int) -> bool:
    """Whether the amount at [start, end) is given in a second unit right beside it: in
    brackets, or after "or" (`restated`)."""
    return bool(_CONVERSION_AFTER.match(context, end)
                or _CONVERSION_BEFORE.search(context[max(0, start - 40):start])
                or restated(context, start, end))


def _sentence(context: str, start: int, end: int) -> tuple[int, int]:
    before = [m.end() for m in _SENTENCE_END.finditer(context, 0, start)]
    after = _SENTENCE_END.search(context, end)
    return (before[-1] if before else 0), (after.end() if after else len(context))


def share_of_whole(context: str, start: int, end: int, tolerance: float = 1.5) -> bool:
    """Whether the percentage at [start, end) is one of three or more in its sentence that
    add up to 100 (within `tolerance` points, for rounding)."""
    a, b = _sentence(context, start, end)
    values = [float(m.group(1).replace(",", "")) for m in _PERCENT.finditer(context, a, b)]
    return len(values) >= 3 and abs(sum(values) - 100.0) <= tolerance


# "three out of five", "one in four": a ratio whose parts are read together
_RATIO_AFTER = re.compile(r"\s+(?:out\s+of|in)\s+(?:\d|one|two|three|four|five|six|seven|eight|"
                          r"nine|ten|every)\b", re.IGNORECASE)
_RATIO_BEFORE = re.compile(r"\b(?:\d[\d,]*|one|two|three|four|five|six|seven|eight|nine|ten)"
                           r"\s+(?:out\s+of|in)\s+$", re.IGNORECASE)


def ratio(context: str, start: int, end: int) -> bool:
    """Whether the amount at [start, end) is a part or the whole of a ratio ("three out of
    five Manhattan residents")."""
    return bool(_RATIO_AFTER.match(context, end)
                or _RATIO_BEFORE.search(context[max(0, start - 20):start]))


# small numbers add up by chance ("35% of the time ... 60 hours ... 25% of the time"): only
# an amount of 100 or more is tied by a sum
_MIN_SUMMAND = 100


def part_of_sum(context: str, start: int, end: int) -> bool:
    """Whether the amount at [start, end) and another figure of its sentence add up to a
    third ("2,532 lines, analog (2,500) and digital (32)"), or two others add up to it, or
    the amount and three or more others are the parts and the total of one sum."""
    v = value(context[start:end])
    if v is None:
        return False
    a, b = _sentence(context, start, end)
    # the end of a range ("2010–11") is no figure of its own
    figures = [m for m in _NUMBER_RE.finditer(context, a, b)
               if (m.end() <= start or m.start() >= end) and context[m.start() - 1:m.start()]
               not in ("-", "–")]
    others = [float(m.group(0).replace(",", "")) for m in figures]
    # a small part still ties a large amount ("2532 lines: analog (2500) and digital (32)")
    if v >= _MIN_SUMMAND and any(abs(v + x - y) < 1e-6 or abs(x + y - v) < 1e-6
                                 for i, x in enumerate(others)
                                 for j, y in enumerate(others) if i != j):
        return True
    # ... and so does a list of three parts or more and their total, the amount a part or
    # the total: "Of the $100 million, $50 million will go toward development, $25 million
    # toward blight removal, $12.5 million for job training, $7 million ... and $5.5
    # million ..." (the training's share had become $39.7 million). A year is no part
    # ("In 1995, 12 percent ..., while in 2011 this had declined to 4 percent")
    parts = [x for x, m in zip(others, figures) if not _YEAR.fullmatch(m.group(0))]
    total = v + sum(parts)
    return len(parts) >= 3 and any(y >= _MIN_SUMMAND and abs(total - 2 * y) < 1e-6
                                   for y in (v, *parts))


# "two rival regions in Spain: Catalonia and Castile": a small count whose items follow;
# a dash or a bracket brings them in too ("five intended torchbearers -Kiran Bedi, Soha Ali
# Khan, ...- withdrew" had become "three intended torchbearers" before five names), and so
# do a bracketed aside before the colon ("two states (or phases): solid, liquid and gas")
# and "are" before names ("five true atolls are Ailuk, Aur, ..." had become "six true
# atolls are" before five names)
_SMALL_COUNT = re.compile(r"(?:(?:only|just|all)\s+)?"  # "only four types ...: the rings, ..."
                          r"(?:two|three|four|five|six|seven|eight|nine|ten|[2-9]|10)",
                          re.IGNORECASE)
_LIST_AFTER = re.compile(r"(?:\s+[^\W\d_][\w-]*){1,6}(?:\s*\([^()]{1,40}\))?"
                         r"(?::\s|\s*[-–—(]\s*[A-Z][^.;]*,"
                         r"|\s+(?:are|were|include|included|namely)\s+[A-Z][^.;]*,)")


# ... or that a comma brings in, when the list holds as many names as the count says ("had
# two more boys, Izz al-Arab and al-Leithi" had become "six more boys, ..."; "two of her
# five daughters, Alice and Beatrice" "eight of her five daughters, ...")
_NOUNS_THEN_COMMA = re.compile(r"(?:\s+[^\W\d_][\w'’-]*){1,5}?,\s+")
_ITEM = r"(?:al-)?[A-Z][\w'’.-]*(?:\s+(?:[A-Z][\w'’.-]*|al-[A-Z][\w'’-]*|de|of|the)){0,3}"
# ... ending where the clause does or its verb comes ("Newfoundland and Labrador's largest
# campground" is one place)
_NAMED_LIST = re.compile(rf"((?:{_ITEM},\s+)*){_ITEM},?\s+(?:and|or)\s+{_ITEM}"
                         r"(?=\s*[,.;:)]|\s*$|\s+(?:were|was|are|is|have|had|who|which)\b)")
# ... or as many things each said with "a" ("there are two methods of measuring it, a
# "low-field" method and a "high-field" method": "three methods" had read)
_A_ITEM = r"an?\s+[^,.;:()]{1,40}?"
_ARTICLE_LIST = re.compile(rf"((?:{_A_ITEM},\s+)*){_A_ITEM},?\s+(?:and|or)\s+{_A_ITEM}"
                           r"(?=\s*[,.;:)]|\s*$)")
_TIME_NOUN = re.compile(r"\b(?:seconds?|minutes?|hours?|days?|weeks?|months?|years?|decades?|"
                        r"centuries|century|times|seasons?)\b", re.IGNORECASE)


def enumerated(context: str, start: int, end: int) -> bool:
    """Whether the amount at [start, end) counts a list that a colon, a dash or a bracket
    brings in, or a comma brings in with as many names as it counts."""
    text = context[start:end].strip()
    if not _SMALL_COUNT.fullmatch(text):
        return False
    if _LIST_AFTER.match(context, end):
        return True
    nouns = _NOUNS_THEN_COMMA.match(context, end)
    if nouns and _TIME_NOUN.search(nouns.group()):
        return False  # "In two years, Arno and Bex had merged": a span of time, no list's count
    listed = (_NAMED_LIST.match(context, nouns.end()) or _ARTICLE_LIST.match(context, nouns.end())
              ) if nouns else None
    if listed is None:
        return False
    items = 2 + listed.group(1).count(",")  # one comma after each item before the last two
    return amount_value(text.split()[-1]) == items


# "1,411,200/128,000 = 11.025": an operand of a worked equation
_OPERATOR_AFTER = re.compile(r"\s*[/×*+−]\s*[\d(]")
_OPERATOR_BEFORE = re.compile(r"[\d)]\s*[/×*+−]\s*$")
_EQUALS_AFTER = re.compile(r"[^.;]{0,40}?=")


def in_equation(context: str, start: int, end: int) -> bool:
    """Whether the amount at [start, end) is an operand of an equation the text works out
    ("1,411,200/128,000 = 11.025")."""
    operand = bool(_OPERATOR_AFTER.match(context, end)
                   or _OPERATOR_BEFORE.search(context[max(0, start - 20):start]))
    return operand and bool(_EQUALS_AFTER.match(context, end))


def tied(context: str, start: int, end: int) -> bool:
    """Whether another figure of the context depends on the amount at [start, end), or the
    text counts what it names."""
    return (converted(context, start, end) or share_of_whole(context, start, end)
            or ratio(context, start, end) or part_of_sum(context, start, end)
            or enumerated(context, start, end) or in_equation(context, start, end))


def tied_but_converted(context: str, start: int, end: int) -> bool:
    """`tied`, except that a conversion the swap rewrites (`conversion`) ties nothing."""
    return (converted(context, start, end) and conversion(context, start, end) is None) or (
        share_of_whole(context, start, end) or ratio(context, start, end)
        or part_of_sum(context, start, end) or enumerated(context, start, end)
        or in_equation(context, start, end))


@dataclass(frozen=True)
class Conversion:
    """The figure that gives the amount at [start, end) of a context in another unit."""
    start: int  # where its number is in the context
    end: int
    factor: float  # its value over the amount's
    offset: float = 0.0  # added after the factor: a temperature's other scale (°F = 1.8 °C + 32)


# "450 miles (720 km)", "(about 720 km)": the whole bracket is one number and its unit
_CONVERTED_AFTER = re.compile(rf"(\s*(?:{_MEASURE}\s*)?\(\s*{_ABOUT})({_NUMBER})\s*{_MEASURE}\s*\)")
_CONVERTED_BEFORE = re.compile(rf"({_NUMBER})\s*{_MEASURE}\s*\(\s*{_ABOUT}$")
_ONE_NUMBER = re.compile(rf"^[^\d]*{_NUMBER}[^\d]*$")
_YEAR = re.compile(r"1\d{3}|20\d{2}")  # a figure that reads as a year


def conversion(context: str, start: int, end: int) -> Conversion | None:
    """The conversion of the amount at [start, end), where a swap can work it out anew:
    one number in the amount, one in the bracket beside it ("450 miles (720 km)", "720 km
    (450 miles)"). None for none, or for one it cannot ("(720-800 km)", "(1 in 3)")."""
    amount = context[start:end]
    if not _ONE_NUMBER.match(amount) or not (v := value(amount)):
        return None
    if (scales := _temperature(context, end, amount, v)) is not None:
        return scales
    m = _CONVERTED_AFTER.match(context, end)
    if m:
        other = m.start(2), m.end(2)
    else:
        b = _CONVERTED_BEFORE.search(context, max(0, start - 40), start)
        if not b or not re.match(r"\s*\)", context[end:]):
            return None
        other = b.start(1), b.end(1)
    figure = context[other[0]:other[1]]
    if _YEAR.fullmatch(figure):
        return None  # "20% (2006 data)": a year says when, it converts nothing
    w = value(figure)
    return Conversion(other[0], other[1], w / v) if w else None


# a temperature in one scale and, in brackets, the other: "35.5 °F (2 °C)" (the amount's
# degree after it, or in it: "35.5 °F" of NER's QUANTITY)
_DEGREES_THEN_BRACKET = re.compile(
    rf"\s*°\s*([CF])\s*\(\s*{_ABOUT}({_NUMBER})\s*°\s*([CF])\s*\)")
_BRACKET_DEGREES = re.compile(rf"\s*\(\s*{_ABOUT}({_NUMBER})\s*°\s*([CF])\s*\)")
_DEGREE_END = re.compile(r"°\s*([CF])$")


def _temperature(context: str, end: int, amount: str, v: float) -> Conversion | None:
    """The bracket of a temperature given in the other scale, with its affine conversion
    (`v`: the amount's `value`); None for none, or for a figure below zero, which the
    sign-less figures cannot carry."""
    if _has_minus(amount):
        return None
    m = _DEGREES_THEN_BRACKET.match(context, end)
    if m:
        own, span, other = m.group(1), m.span(2), m.group(3)
    elif (u := _DEGREE_END.search(amount)) and (b := _BRACKET_DEGREES.match(context, end)):
        own, span, other = u.group(1), b.span(1), b.group(2)
    else:
        return None
    if own == other or _has_minus(context[span[0] - 1]):
        return None
    factor, offset = (9 / 5, 32.0) if own == "C" else (5 / 9, -160 / 9)
    w = value(context[span[0]:span[1]])
    if w is None:
        return None
    # a reading converts with the offset; a change ("warmed by 0.1 °C (0.2 °F)") without;
    # a bracket that is neither (a range's end, a typo) ties the figure
    if abs(v * factor + offset - w) <= max(1.5, 0.05 * w):
        return Conversion(*span, factor, offset)
    if abs(v * factor - w) <= max(0.15, 0.1 * w):
        return Conversion(*span, factor)
    return None


def _has_minus(text: str) -> bool:
    """Whether `text` holds a minus sign (or a hyphen written for one)."""
    return "−" in text or "-" in text


def rescaled(conv: Conversion, context: str, original: str, candidate: str) -> str | None:
    """The converted figure for `candidate` in place of `original`, written as the
    context writes it: as many decimals, or as many significant figures for a whole number
    ("720" of 450 miles is "480" for 300 miles, "85,000" of 137,000 km "56,000" for
    90,000 km). None when the candidate is not the original's words around one number
    ("300 miles" for "450 miles"; never "3 million miles")."""
    if not _ONE_NUMBER.match(candidate) or _NUMBER_RE.sub("0", candidate) != \
            _NUMBER_RE.sub("0", original):
        return None
    new = value(candidate)
    if new is None:
        return None
    if conv.offset and _has_minus(candidate):
        return None  # a temperature below zero: its sign is not one `value` reads
    text = context[conv.start:conv.end]
    figure = new * conv.factor + conv.offset
    if conv.offset and figure < 0:
        return None  # the other scale below zero: refused as no sign is written
    if "." in text:
        decimals = len(text) - text.index(".") - 1
        if figure:
            # ... and no more figures than it had: "less than 1 mm (0.04 in)" gives "less
            # than 200 mm (8 in)", not "(8.00 in)", a precision the rounded 0.04 never had
            lead = math.floor(math.log10(abs(figure)))  # the place of its first figure
            decimals = max(0, min(decimals, (significant_figures(text) or 1) - 1 - lead))
        out = f"{figure:,.{decimals}f}"
    else:
        # a whole number ending in zeros was rounded to them ("720", "85,000"): as many
        # significant figures; one that does not ("8", "7,579") to the unit
        digits = text.replace(",", "")
        places = 0
        if digits.endswith("0"):
            places = min(0, max(1, len(digits.rstrip("0"))) - len(str(int(round(figure)))))
        out = f"{round(figure, places):,.0f}"
        if "," not in text and len(digits) >= 4:
            out = out.replace(",", "")  # "1500 m": no separator where the figure had none
    # a figure rounded to nothing converts nothing; a temperature may be 0
    return None if out.strip("0.,") == "" and not conv.offset else out


# "67 different tribes in Brazil, up from 40 in 2005": the amount is compared with another,
# and the comparison says which is larger
# ("down from a peak of 23,689", "up from about 40")
_CHANGE_AFTER = re.compile(rf"[^.;]{{0,60}}?\b(up|down|rising|falling|increased|decreased|"
                           rf"grown|dropped|fell|rose)\s+from\s+(?:about\s+|an?\s+(?:peak|"
                           rf"high|low|record)\s+(?:of\s+)?)?({_NUMBER})\b", re.IGNORECASE)
_UP = frozenset({"up", "rising", "increased", "grown", "rose"})
# "was 44% in 2005, much less than the 79% in 1991": a comparison right after the amount
_COMPARED_AFTER = re.compile(rf"[^.;,]{{0,30}}?,\s*(?:much\s+|far\s+|well\s+|slightly\s+|"
                             rf"significantly\s+|considerably\s+)?(less|lower|fewer|smaller|"
                             rf"more|higher|greater|larger)\s+than\s+(?:the\s+)?({_NUMBER})\b",
                             re.IGNORECASE)
_MORE = frozenset({"more", "higher", "greater", "larger"})
# "supplied 85.6% of all energy demand in 2009, while the number fell to 77.3% in 2010": a
# change from the amount to another, which says which is larger
_CHANGE_TO = re.compile(rf"[^.;]{{0,60}}?\b(rose|increased|grew|climbed|fell|dropped|declined|"
                        rf"decreased)\s+to\s+(?:about\s+)?({_NUMBER})\b", re.IGNORECASE)
_FALL = frozenset({"fell", "dropped", "declined", "decreased"})
# each pattern of what follows an amount (its word, then the figure it names), and the words
# that put the amount above that figure: "up from 40", "more than the 79%", "fell to 77.3%"
_BOUNDS_AFTER = ((_CHANGE_AFTER, _UP), (_COMPARED_AFTER, _MORE), (_CHANGE_TO, _FALL))
_NUMBER_RE = re.compile(_NUMBER)


def value(text: str) -> float | None:
    """The first number written in digits in `text` ("over 55,000" -> 55000.0), or None."""
    m = _NUMBER_RE.search(text)
    return float(m.group(0).replace(",", "")) if m else None


# a count below a hundred in words ("twelve", "twenty-one", "forty one"), as a whole word
# (not "twelve-year")
_WORD_COUNT = re.compile(rf"(?<![\w-])({shapes.WORD_NUMBER})(?![\w-])", re.IGNORECASE)


def word_value(text: str) -> float | None:
    """The first count below a hundred written in words in `text` ("about twelve" -> 12.0,
    "twenty-one" -> 21.0), or None."""
    m = _WORD_COUNT.search(text)
    return float(shapes.word_number(m.group(1))) if m else None


def amount_value(text: str) -> float | None:
    """`value`, else `word_value`: a number in digits, else one in words."""
    found = value(text)
    return found if found is not None else word_value(text)


def figures(text: str) -> tuple[float, ...]:
    """Every number written in digits in `text`, in order ("about 9,000" -> (9000.0,),
    "0.50%" -> (0.5,))."""
    return tuple(float(m.group(0).replace(",", "")) for m in _NUMBER_RE.finditer(text))


def year_range(text: str) -> bool:
    """Whether `text` is a range of two figures whose first reads as a year ("1644–1911",
    "1891–92"), not one of counts ("10 to 15", "2,000–3,000")."""
    found = _NUMBER_RE.findall(text)
    return len(found) == 2 and bool(_YEAR.fullmatch(found[0]))


def direction(text: str) -> int:
    """+1 where the first two figures of `text` rise ("10% to 15%", "1838–39": the second
    figure's missing leading digits are the first's), -1 where they fall ("fell from 27% to
    8%", "3500–3100 BC"), 0 for one figure or two equal ones. A range swapped for one that
    runs the other way turns a fall into a rise."""
    pair = _pair(text)
    if pair is None:
        return 0
    x, y = pair
    return (x < y) - (x > y)


def _pair(text: str) -> tuple[float, float] | None:
    """The first two figures of `text`, the second completed from the first where it is
    written short ("1838–39" is 1838 to 1839), or None for fewer than two."""
    found = list(_NUMBER_RE.finditer(text))[:2]
    if len(found) < 2:
        return None
    a, b = (m.group(0).replace(",", "") for m in found)
    if (len(a) >= 3 and len(b) <= 2 and "." not in a + b
            and _DASH.fullmatch(text, found[0].end(), found[1].start())):
        b = a[:len(a) - len(b)] + b  # "100 to 97" is no year
    return float(a), float(b)


def years_of_range(text: str) -> tuple[int, int] | None:
    """The first and last year of a range of years ("1520–1566", "1838–39" -> (1838,
    1839)), or None for a text that is no such range (`year_range`)."""
    if not year_range(text):
        return None
    a, b = _pair(text)  # type: ignore[misc]
    return int(a), int(b)


def span(text: str) -> tuple[float, float] | None:
    """The width and the top of a range of exactly two figures ("1644–1912" -> (268, 1912),
    "1838–39" -> (1, 1839), "25 to 50" -> (25, 50)), None for other texts. A range swapped
    for one of another width or scale reads wrong: a dynasty "(1611–1621)", "approximately
    25 to 50" become "as many as 20,000–30,000"."""
    if len(_NUMBER_RE.findall(text)) != 2:
        return None
    a, b = _pair(text)  # type: ignore[misc]
    top = max(abs(a), abs(b))
    return abs(b - a) or top / 100 or 1.0, top  # "50-50": no width, a hundredth of it


_DASH = re.compile(r"\s*[–—-]\s*")


def significant_figures(text: str) -> int | None:
    """The significant figures of the first number written in digits in `text` ("about
    30,000" -> 1, "2.5 million" -> 2, "1,214,516" -> 7), or None for none. A whole number's
    trailing zeros do not count: "10,000" is the round figure it reads as."""
    m = _NUMBER_RE.search(text)
    if not m:
        return None
    digits = m.group(0).replace(",", "")
    if "." in digits:
        return len(digits.replace(".", "").lstrip("0")) or 1
    return len(digits.strip("0")) or 1


def round_figure(text: str) -> bool:
    """Whether `text` gives a round figure: at most two significant figures in a number of
    three digits or more, or a hedged one ("about 500", "over 300,000", "some 80"): a
    replacement that reads as a count ("about 319", "29,029 shrines") reads wrong there."""
    n, v = significant_figures(text), value(text)
    return n is not None and v is not None and n <= 2 and (v >= 100 or bool(shapes.hedge(text)))


def change_bound(context: str, end: int) -> tuple[str, float] | None:
    """(">", 40.0) when the amount ending at `end` is followed by "up from 40", ("<", 40.0)
    for "down from 40": what a replacement must stay above or below, or None. So too a
    comparison after a comma ("44% in 2005, much less than the 79% in 1991": "<") and a
    change from the amount to another ("85.6% in 2009, while the number fell to 77.3%": ">")."""
    for pattern, above in _BOUNDS_AFTER:
        m = pattern.match(context, end)
        if m:
            return (">" if m.group(1).lower() in above else "<"), float(m.group(2).replace(",", ""))
    return None


# an open interval (low, high) a replacement's value must lie in; None for no side
Bounds = tuple[float | None, float | None]

# "growing from 7.3% of all computer shipments in 2010 to 9.3% in 2011": a change from one
# figure to another, whose verb says which is larger ("growing ... to 5%" read wrong)
_RISING = (r"grow(?:ing|n|s)?|grew|ris(?:ing|en|es)|rose|increas(?:ing|ed|es)|"
           r"climb(?:ing|ed|s)?|jump(?:ing|ed|s)?|up")
_FALLING = (r"fall(?:ing|en|s)?|fell|dropp(?:ing|ed)|drops?|declin(?:ing|ed|es)|"
            r"decreas(?:ing|ed|es)|down|reduc(?:ing|ed|es)|shrink(?:ing|s)?|shrank|shrunk")
_CHANGE_VERB = rf"(?:(?P<rise>{_RISING})|{_FALLING})"  # a rise where group "rise" matched
_SOFT = r"(?:(?:about|around|approximately|roughly|nearly|almost|some|just|over|under)\s+)?"
_SCALE = r"\s*(%|percent\b|per cent\b|hundred\b|thousand\b|million\b|billion\b|trillion\b)?"
_FROM_FIGURE_TO = re.compile(rf"\b{_CHANGE_VERB}\s+from\s+{_SOFT}[$£€¥]?({_NUMBER}){_SCALE}"
                             rf"[^.;]{{0,60}}?\bto\s+{_SOFT}[$£€¥]?$", re.IGNORECASE)
_FROM = re.compile(rf"\b{_CHANGE_VERB}\s+from\s+{_SOFT}[$£€¥]?$", re.IGNORECASE)
_TO_FIGURE = re.compile(rf"[^.;]{{0,60}}?\bto\s+{_SOFT}[$£€¥]?({_NUMBER}){_SCALE}",
                        re.IGNORECASE)
_OWN_SCALE = re.compile(rf"{_NUMBER}{_SCALE}", re.IGNORECASE)
_BEFORE_WINDOW = 140


def _scale_word(found: str | None) -> str:
    """A scale word or sign as one key ("per cent" and "%" alike; none: "")."""
    low = (found or "").lower()
    return "%" if low in ("%", "percent", "per cent") else low


def _bound_of_change_from(context: str, start: int, end: int) -> Bounds | None:
    """An amount that ends a change from another figure ("growing from 7.3% ... to 9.3%")
    or begins one ("rose from 40 ... to 67"): a rise keeps the later figure above the
    earlier, a fall below it. Only between figures of one scale ("from 500,000 to 1.2
    million" compares 500,000 with 1.2)."""
    own = _OWN_SCALE.search(context, start, end)
    if own is None:
        return None
    scale = _scale_word(own.group(1))
    window = context[max(0, start - _BEFORE_WINDOW):start]
    if (m := _FROM_FIGURE_TO.search(window)) and _scale_word(m.group(3)) == scale:
        other, later = float(m.group(2).replace(",", "")), True
    elif (f := _FROM.search(window)) and (t := _TO_FIGURE.match(context, end)) \
            and _scale_word(t.group(2)) == scale:
        m, other, later = f, float(t.group(1).replace(",", "")), False
    else:
        return None
    rises = m.group("rise") is not None
    # the amount is the larger one where a rise ends at it or a fall begins at it
    return (other, None) if rises == later else (None, other)


def _bound_of_change(context: str, end: int) -> Bounds | None:
    change = change_bound(context, end)
    if change is None:
        return None
    return (change[1], None) if change[0] == ">" else (None, change[1])


# "Tulsa (391,906), Norman (110,925), Broken Arrow (98,850)": figures in brackets, and
# percentages, are the kinds of figure a sentence lists and ranks
_BRACKETED = re.compile(rf"\(\s*({_NUMBER})\s*\)")
# "Christianity (41%), particularly Catholicism (33%)": the second is a part of the first
_PART_OF = re.compile(r"\b(?:particularly|especially|including|mostly|mainly|chiefly|"
                      r"predominantly|primarily|of which|of whom)\b", re.IGNORECASE)
_MAX_PART_GAP = 80


def _listed(context: str, start: int, end: int,
            kinds: tuple[re.Pattern[str], ...] = (_PERCENT, _BRACKETED)
            ) -> tuple[list[tuple[int, int, float]], int] | None:
    """The figures of the amount's kind in its sentence ((start, end, value) each: by
    default the percentages, or the numbers alone in brackets; never years) and the
    amount's place among them, or None when the amount is of none of `kinds`."""
    a, b = _sentence(context, start, end)
    for pattern in kinds:
        # a number word with a capital inside a sentence begins a name ("One Canada Square")
        found = [(m.start(1), m.end(1), amount_value(m.group(1)) or 0.0)
                 for m in pattern.finditer(context, a, b) if not _YEAR.fullmatch(m.group(1))
                 and not (m.group(1)[0].isupper() and context[a:m.start(1)].strip())]
        for i, (s, e, _) in enumerate(found):
            if s < end and start < e:
                return found, i
    return None


# a count in figures alone (a kind of `_listed` figure for a part's bounds): no unit of
# scale or percentage after it ("3.5 million" is 3.5 to `value`, and would be compared
# with "200,000"), and no year ("in 477 BC")
_COUNT = re.compile(rf"(?<![\w.,$£€¥])((?>{_NUMBER}))(?![\w%]|\s*(?:%|percent\b|per cent\b|"
                    r"hundred|thousand|million|billion|trillion|B\.?C|A\.?D\b|C\.?E\b))")


def _rank_bounds(figures: list[tuple[int, int, float]], i: int) -> Bounds | None:
    """Three or more figures in strict order ("(391,906), (110,925), (98,850)"): the amount
    stays between its neighbours, so that the order holds."""
    values = [v for _, _, v in figures]
    if len(values) < 3:
        return None
    steps = [y - x for x, y in zip(values, values[1:])]
    if all(d > 0 for d in steps):
        return (values[i - 1] if i > 0 else None, values[i + 1] if i + 1 < len(values) else None)
    if all(d < 0 for d in steps):
        return (values[i + 1] if i + 1 < len(values) else None, values[i - 1] if i > 0 else None)
    return None


def _part_bounds(context: str, figures: list[tuple[int, int, float]], i: int) -> Bounds:
    """A figure followed by "particularly ... (33%)" is larger than that part; the part is
    smaller than the figure before it."""
    def part_of(j: int) -> bool:
        gap = context[figures[j][1]:figures[j + 1][0]]
        return len(gap) <= _MAX_PART_GAP and ";" not in gap and bool(_PART_OF.search(gap))
    low = figures[i + 1][2] if i + 1 < len(figures) and part_of(i) else None
    high = figures[i - 1][2] if i > 0 and part_of(i - 1) else None
    return low, high


def _tightest(*bounds: Bounds | None) -> Bounds | None:
    lows = [b[0] for b in bounds if b is not None and b[0] is not None]
    highs = [b[1] for b in bounds if b is not None and b[1] is not None]
    if not lows and not highs:
        return None
    return (max(lows) if lows else None), (min(highs) if highs else None)


# "companies in over 100 countries" had become "in over 560 countries": the world has
# fewer than this many
_COUNTRIES_AFTER = re.compile(r"\s+(?:(?:other|different|member|foreign|sovereign)\s+)?"
                              r"(?:countries|nations)\b", re.IGNORECASE)
_COUNTRIES = 200.0


def _bound_of_countries(context: str, start: int, end: int) -> Bounds | None:
    v = value(context[start:end])
    if v is None or v >= _COUNTRIES or not _COUNTRIES_AFTER.match(context, end):
        return None
    return None, _COUNTRIES


def bounds(context: str, start: int, end: int) -> Bounds | None:
    """What a replacement for the amount at [start, end) must stay above and below so that
    the sentence stays true to itself: a change's direction ("67 tribes, up from 40",
    "growing from 7.3% ... to 9.3%"), a ranked list's order ("Broken Arrow (98,850), Lawton
    (13,444), Edmond (81,405)" reads wrong) and a part below its whole ("Christianity (41%),
    particularly Catholicism (33%)"), and a count of countries below the world's. None when
    nothing bounds it."""
    listed = _listed(context, start, end)
    ranked = part = None
    if listed is not None:
        figures, i = listed
        ranked, part = _rank_bounds(figures, i), _part_bounds(context, figures, i)
    elif (counted := _listed(context, start, end, (_COUNT, _WORD_COUNT))) is not None:
        # a count's parts are plain counts too: "400,000 members of ethnic minorities,
        # including approximately 200,000 She people" had become "59,000 members ...,
        # including approximately 200,000", and in words: "The Guardian Council comprises
        # twelve jurists including six appointed by the Supreme Leader" had become "three
        # jurists including six". Parts only: the plain numbers of a sentence are of too
        # many kinds to rank
        part = _part_bounds(context, *counted)
    return _tightest(_bound_of_change(context, end), _bound_of_change_from(context, start, end),
                     ranked, part, _bound_of_countries(context, start, end))


def within(limits: Bounds | None, candidate: str) -> bool:
    """Whether `candidate`'s value lies strictly inside `limits` (`bounds`)."""
    if limits is None:
        return True
    v = amount_value(candidate)
    if v is None:
        return False  # "up from 40" after a number in words: no telling, so no
    low, high = limits
    return (low is None or v > low) and (high is None or v < high)
