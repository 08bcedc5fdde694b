"""Parts of PERSON names, and where they occur in a text.

A careful reader links "Chopin" three sentences later to "Frédéric Chopin". So a swap of a
person must account for each *significant part* of the name: the given names and the
surname, but not titles ("Mr.", "President", "Sir"), particles ("da", "van", "bin"),
suffixes ("Jr.", "III") or initials ("J. R. R."), which other people share.

`name_parts("Sir J. R. R. Tolkien Jr.")` -> titles ("Sir",), given ("J.", "R.", "R."),
surname "Tolkien", suffixes ("Jr.",); significant parts ("Tolkien",).
`name_parts("Leonardo da Vinci")` -> given ("Leonardo",), surname "da Vinci"; significant
parts ("Leonardo", "Vinci").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable

from spacy.lang.en.stop_words import STOP_WORDS

from faithqa_spark.core.text import boundary_matches

TITLES = frozenset("""
mr mrs ms miss mx dr doctor sir dame lord lady madam master president vice king queen prince
princess saint st pope general gen captain capt colonel col major lieutenant lt sergeant sgt
admiral commander professor prof rev reverend father fr brother sister mother emperor empress
duke duchess count countess earl baron baroness marquis viscount senator sen governor gov
judge justice bishop archbishop cardinal chancellor minister premier chairman mayor rabbi imam
sheikh sultan caliph tsar czar tsarina kaiser shah pharaoh khan chief prophet apostle
ambassador secretary deacon elder maestro don dona herr frau monsieur madame mademoiselle
señor señora signor signora administrator commissioner deputy director coach manager
spokesman spokeswoman chairwoman treasurer speaker leader founder composer painter poet
architect explorer physicist chemist engineer inventor admin officer pastor vicar commander
private corporal marshal field nurse agent detective inspector constable patriarch
metropolitan representative congressman congresswoman councilman councillor councilor ceo
provost superintendent sheriff consul prefect vizier pasha emir abbot friar ayatollah guru
swami pandit mullah dauphin infante infanta tsarevich
""".split())
PARTICLES = frozenset("""
da de del della dei der den di do dos das du van von ver vander bin ibn bint al el la le ben
ter ten zu y e af av
""".split())
_SUFFIX = re.compile(r"^(?:jr|sr|jnr|snr|phd|md|esq|[ivxlc]+)\.?$", re.IGNORECASE)
# an Arabic particle joined to the name it precedes ("al-Aziz", "ash-Shafi'i"): that name is
# said alone ("al-Zubayr" for "Ibn al-Zubayr")
HYPHEN_PARTICLE = re.compile(r"(?:al|el|ad|ash|as|at|az|ar|an|ul|ud)-[A-Z]")
# an epithet after a name: "Alexander the Great", "William the Conqueror"
EPITHET_ARTICLE = "the"
_INITIAL = re.compile(r"^(?:\w\.)+$|^\w$")
_TOKEN = re.compile(r"[^\s,]+")
# capitalised words at the start of a sentence that are no part of a name
_NOT_NAMES = frozenset(w.lower() for w in STOP_WORDS)
# a word as the text around a name has it: letters, marks, apostrophes and hyphens inside
_WORD_END = re.compile(r"[\w\u0300-\u036f'’.-]+$")
_SENTENCE_START = re.compile(r"(?:^|[.!?:;\"“”()\n]\s*)$")
_ARTICLE_BEFORE = re.compile(r"(?<!\w)(?:the|a|an|The|A|An)\s$")
_WORD = re.compile(r"[\w\u0300-\u036f][\w\u0300-\u036f'’.-]*")


@dataclass(frozen=True)
class NameParts:
    titles: tuple[str, ...]
    given: tuple[str, ...]  # given and middle names, initials included
    surname: str  # with its particles ("da Vinci"); "" for a one-word name
    suffixes: tuple[str, ...]

    @property
    def significant(self) -> tuple[str, ...]:
        """The parts a later mention may use on their own: given names and the surname's
        last word, without initials, particles, titles or suffixes. In name order."""
        words = list(self.given) + self.surname.split()
        return tuple(w for w in words if is_significant(w))


def is_significant(word: str) -> bool:
    """A word that names this person on its own: not an initial, title, particle or suffix,
    at least two characters, and starting with an upper-case letter."""
    bare = word.strip(".")
    low = bare.lower()
    # titles are only taken from the front of a name; inside it they are names ("King")
    if HYPHEN_PARTICLE.match(bare):
        return True  # "al-Zubayr" names him as "Zubayr" does
    return (len(bare) >= 2 and bare[0].isupper() and not _INITIAL.match(word)
            and low not in PARTICLES and not _SUFFIX.match(word))


@lru_cache(maxsize=65536)
def name_parts(text: str) -> NameParts:
    """Split a PERSON name into titles, given names, surname (with particles) and suffixes.

    Titles are taken from the front ("President", "Mr."), suffixes from the back ("Jr.",
    "III", a comma before them is allowed; an epithet, "the Great"). The last remaining word
    is the surname; a run of particles right before it belongs to it ("da Vinci", "van der
    Waals", "bin Laden"). A one-word name is a given name with no surname.
    """
    toks = _TOKEN.findall(text.strip())
    titles: list[str] = []
    while len(toks) > 1 and toks[0].strip(".").lower() in TITLES:
        titles.append(toks.pop(0))
    suffixes: list[str] = []
    # "I" is a suffix only after a name of two or more words ("Afonso I" is a regnal name)
    while len(toks) > 1 and _SUFFIX.match(toks[-1]) and not _INITIAL.match(toks[-1]):
        suffixes.insert(0, toks.pop())
    if len(toks) > 1 and toks[-1] == "I":
        suffixes.insert(0, toks.pop())
    if len(toks) > 2 and toks[-2] == EPITHET_ARTICLE and toks[-1][:1].isupper():
        # an epithet is no surname: "Alexander the Great" is "Alexander" said alone
        suffixes[:0] = toks[-2:]
        del toks[-2:]
    if len(toks) <= 1:
        return NameParts(tuple(titles), tuple(toks), "", tuple(suffixes))
    cut = len(toks) - 1
    while cut > 1 and toks[cut - 1].lower() in PARTICLES:
        cut -= 1
    return NameParts(tuple(titles), tuple(toks[:cut]), " ".join(toks[cut:]), tuple(suffixes))


def part_mentions(context: str, name: str) -> list[tuple[int, int, str]]:
    """Word-boundary occurrences `(start, end, part)` of the significant parts of `name` in
    `context`, possessives included ("Chopin's" holds "Chopin"), sorted by start.

    Case-sensitive: a name part is capitalised, and "Rose" is not "rose". Occurrences that
    are part of a full occurrence of `name` are included too; callers that want only the
    lone parts drop those (see `lone_part_mentions`).
    """
    out: set[tuple[int, int, str]] = set()
    for part in name_parts(name).significant:
        for start, end in boundary_matches(context, part):
            if context[start:end] == part:
                out.add((start, end, part))
    return sorted(out)


def lone_part_mentions(context: str, name: str) -> list[tuple[int, int, str]]:
    """The part mentions of `name` that are not inside a full mention of it."""
    full = [(s, e) for s, e in boundary_matches(context, name)]
    return [m for m in part_mentions(context, name)
            if not any(s <= m[0] and m[1] <= e for s, e in full)]


# a short form defined right after a name: "the Center for Science (CSPI)"
_DEFINED_SHORT = re.compile(r"\s*\(([A-Z][A-Za-z&.-]*[A-Z])\)")


def short_form_after(context: str, name: str, ends: Iterable[int]) -> str | None:
    """The short form the context defines for `name` right after one of its mentions (each
    ending at one of `ends`): "(PCEEO)", starting with the name's first letter, or, for a
    name of two capitalised words or more, any capitals ("New York City Fire Department
    (FDNY)", "Congolese Labour Party (PCT)", its French initials). The coherent policy swaps
    it for the replacement's `initials`; the audit expects that swap."""
    for e in ends:
        m = _DEFINED_SHORT.match(context, e)
        if m and (m.group(1)[0] == name[:1].upper() or (
                _CAPITALS.fullmatch(m.group(1)) and len(initials(name)) > 1)):
            return m.group(1)
    return None


# an acronym in capitals
_CAPITALS = re.compile(r"[A-Z][A-Z&.]{0,6}[A-Z]")


# the rest of a longer name after a mention and the short form defined for the whole:
# "New York[ City Police Department (NYPD)]", "Congress[ for Progressive Change (CPC)]". It
# goes on with a capitalised word, or a preposition and one: "located in Matsapha and the
# Manzini Industrial and Training Centre (MITC)" names another place's
_REST_AND_SHORT = re.compile(r"([ -](?:(?:of|for|in|on|de|du|des|del|di) )?[A-Z][\w'’&.-]*"
                             r"(?:[ -](?:[A-Z][\w'’&.-]*|of|and|for|the|de|du|des|la|le|del|di|"
                             r"on|in))*) \(([A-Z]{2,8})\)")


def head_short_form(context: str, name: str, ends: Iterable[int]) -> str | None:
    """The short form the context defines for a longer name that opens with `name` at one
    of its mentions (each ending at one of `ends`): "New York City Police Department
    (NYPD)" for "New York", "Texas Instruments (TI)" for "Texas". Its first letters are
    the name's `initials`, the rest some of the longer name's other capitals, in order. The
    coherent policy gives it the replacement's initials in their place ("Utah City Police
    Department (UPD)"); the audit expects that swap."""
    lead = initials(name)
    if not lead:
        return None
    for e in ends:
        m = _REST_AND_SHORT.match(context, e)
        if m is None:
            continue
        short, rest = m.group(2), iter(initials(m.group(1).replace("-", " ")))
        tail = short[len(lead):]
        # each letter of the tail found in the rest's capitals, in order (`in` consumes)
        if short.startswith(lead) and tail and all(ch in rest for ch in tail):
            return short
    return None


def head_short_swap(name: str, short: str, replacement: str) -> str:
    """What `head_short_form` `short` of `name` becomes for `replacement`: the replacement's
    `initials` in place of the name's ("NYPD", "New York" -> "Utah": "UPD")."""
    return initials(replacement) + short[len(initials(name)):]


def same_case_matches(text: str, word: str) -> list[tuple[int, int]]:
    """`boundary_matches` of `word` written as it is (that one ignores case): "KPD", not
    "kpd"; "Albanians", not "ALBANIANS"."""
    return [(s, e) for s, e in boundary_matches(text, word) if text[s:e] == word]


def initials(name: str) -> str:
    """The short form of a name: the first letters of its capitalised words ("Sports
    Illustrated" -> "SI"; "Bank of Orvane" -> "BO")."""
    return "".join(w[0] for w in name.split() if w[:1].isupper())


def word_before(text: str, start: int) -> str:
    """The word that ends right before `start`, separated from it by a single space (or a
    no-break space), else "" (punctuation or a line break in between: no word). A word
    that starts a sentence is "" too: its capital says nothing ("Later Chopin left")."""
    if start < 2 or text[start - 1] not in " \u00a0":
        return ""
    m = _word_end(text, start - 1)
    if not m:
        return ""
    word = m.group(0).rstrip("'’")
    if _after_sentence_end(text, m.start()):
        return ""
    if word.endswith(".") and not (word[:-1].lower() in TITLES or _INITIAL.match(word)):
        return ""  # "Lodz. Quillard": the period ends a sentence, not a title or initial
    # an article and one space: a match starts at most 5 characters back (the look-behind
    # still sees the character before the search's start)
    if _ARTICLE_BEFORE.search(text, max(0, m.start() - 8), m.start()):
        return ""  # "the Venetian Marco Polo": after an article it is an adjective or a title
    return word


# How far back the searches of text[:end] below start. Their patterns end with `$`, and a
# search from 0 tries every position of the text before `end`: on a whole context, per
# word, that was most of word_before's time. Each search gives what the one from 0 gives.
_BACK = 64


def _word_end(text: str, end: int) -> re.Match[str] | None:
    """`_WORD_END.search(text, 0, end)`: a run of word characters up to `end`. Searched from
    _BACK characters back, and from 0 when the match found begins right there (the run may
    begin before it); none found there means none: a run from further back would also
    match from there."""
    lo = max(0, end - _BACK)
    m = _WORD_END.search(text, lo, end)
    if m is not None and lo > 0 and m.start() == lo:
        m = _WORD_END.search(text, 0, end)
    return m


def _after_sentence_end(text: str, end: int) -> bool:
    """Whether `_SENTENCE_START.search(text, 0, end)` matches. A match that starts before
    the window is a closing character followed by nothing but spaces up to `end` (`^` only
    matches at 0), so the search from 0 is needed only when the window is all spaces."""
    lo = max(0, end - _BACK)
    if _SENTENCE_START.search(text, lo, end):
        return True
    return lo > 0 and text[lo:end].isspace() and bool(_SENTENCE_START.search(text, 0, end))


def word_after(text: str, end: int) -> str:
    """The word that starts right after `end`, separated from it by a single space."""
    if end >= len(text) - 1 or text[end] not in " \u00a0":
        return ""
    m = _WORD.match(text, end + 1)
    return m.group(0).rstrip(".,'’") if m else ""


def _name_like(word: str) -> bool:
    # a capitalised word that is not a common function word ("The", "In", "When") nor a
    # compound with a lower-case part ("Russian-backed")
    return (bool(word) and word[0].isupper() and word.lower() not in _NOT_NAMES
            and all(p[:1].isupper() for p in word.split("-") if p))


def _is_title(word: str) -> bool:
    # "Secretary-General", "Vice-President" are titles too
    return any(p.strip(".").lower() in TITLES for p in word.split("-"))


def in_longer_name(text: str, start: int, end: int, own: tuple[str, ...] = (),
                   allow_titles: bool = True) -> bool:
    """Whether `text[start:end]` sits inside a longer capitalised name: a name-like word
    right before it (not a title, when `allow_titles`, and not one of `own`, the words of
    the name itself) or right after it (a name-like word or a regnal numeral, "Afonso I")."""
    before, after = word_before(text, start), word_after(text, end)
    if before.endswith(".") and not _INITIAL.match(before) and \
            before.strip(".").lower() not in TITLES:
        before = ""  # "... in Paris. Curie left": a full stop ends a sentence, not a name
    own_low = {w.lower().strip(".") for w in own}
    # an acronym before a name is an organisation or a title ("NASA", "CEO"), not a name
    if _name_like(before) and not before.isupper() and before.lower().strip(".") not in own_low:
        if not (allow_titles and _is_title(before)):
            return True
    if after and (after in own or after.strip(".").lower() in own_low):
        return False
    if re.fullmatch(r"[IVX]+", after):
        return True
    return _name_like(after)
