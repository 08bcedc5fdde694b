"""The grammatical gender a text gives a person, and the gender of a PERSON bank entry.

Window rule (one place, used everywhere): a mention of a person owns the first gendered
pronoun after it in the rest of its own sentence, or else, if it is the first person its
sentence names, a gendered pronoun that opens the next sentence ("... Quillard. He left";
not Beatty's in "Madonna starred ..., with Warren Beatty playing the title role. Her
performance ..."). The window stops early at the next mention of
another person: the next PERSON entity when the entities are known (the NER pass), else
the next run of two or more capitalised words that is not this person's name ("the Master
(Jonathan Pryce) ... his" does not count for the Master). A mention whose "'s" comes before
a gendered noun owns no pronoun ("Beyoncé's father resigned from his job": his). he/him/his/
himself count as 'm', she/her/hers/herself as 'f'.

The gender of a bank entry comes first from the corpus where its votes are given:
`mention_gender_votes(context, entities)` gives one vote per PERSON mention whose window
has a gendered pronoun; the votes of an entity over all contexts are summed and
`gender_from_votes(m, f)` decides (the audit command gives them; the job and the reference
runner build their index without, see the README). Where the corpus says nothing,
`name_gender(text)` asks a first-name lexicon (the `gender-guesser` package, GPLv3, an
optional extra: without it the fallback answers None).
"""

from __future__ import annotations

import re
from functools import lru_cache, partial
from typing import Any, Callable, Iterable, Mapping, Sequence

from faithqa_spark.core.names import name_parts

MALE, FEMALE = "m", "f"
_PRONOUN = re.compile(r"\b(he|him|his|himself|she|her|hers|herself)\b", re.IGNORECASE)
_FEMALE_WORDS = frozenset({"she", "her", "hers", "herself"})
# a sentence ends at . ! ? followed by white space and an upper-case letter or a quote; a
# period after an initial ("J. Smith") or a common abbreviation does not end one
_SENTENCE_END = re.compile(r"(?<!\b[A-Z])(?<!\bMr)(?<!\bMrs)(?<!\bDr)(?<!\bSt)[.!?](?=\s+[\"“(]?[A-Z0-9])")


_LEADING_PRONOUN = re.compile(r"\s*[\"“(]?(He|She|His|Her)\b")
_NAME_RUN = re.compile(r"[A-Z][\w'’-]+(?:\s+(?:[A-Z]\.\s*)*[A-Z][\w'’-]+)+")


def _sentence_end(text: str, start: int, stop: int) -> int:
    m = _SENTENCE_END.search(text, start, stop)
    return m.end() if m else stop


def _window_pronoun(text: str, end: int, stop: int, own: frozenset[str] = frozenset(),
                    guess_others: bool = False,
                    leads: Callable[[], bool] = lambda: True) -> str | None:
    """The gender of the pronoun a mention ending at `end` owns (see the window rule); not
    one that opens the next sentence unless `leads()` (asked only when there is one: it
    scans the text before the mention)."""
    if _KIN_AFTER.match(text, end):
        # "Beyoncé's father resigned from his job": the pronouns are the kin's
        return None
    if guess_others:
        for m in _NAME_RUN.finditer(text, end, stop):
            if not set(m.group(0).split()) <= own:
                stop = m.start()
                break
    sent_end = _sentence_end(text, end, stop)
    g = _first_pronoun(text, end, sent_end)
    if g is not None or sent_end >= stop:
        return g
    lead = _LEADING_PRONOUN.match(text, sent_end)
    if lead is None or lead.end() > stop or not leads():
        return None
    return FEMALE if lead.group(1).lower() in _FEMALE_WORDS else MALE


def _first_pronoun(text: str, start: int, end: int) -> str | None:
    m = _PRONOUN.search(text, start, end)
    if m is None:
        return None
    return FEMALE if m.group(1).lower() in _FEMALE_WORDS else MALE


def window_genders(text: str, mentions: Sequence[tuple[int, int]],
                   others: Sequence[tuple[int, int]] | None = None) -> list[str]:
    """The gender of the pronoun each mention owns (mentions without one give nothing).
    `others` are mentions of other people; None means they are unknown, and runs of
    capitalised words that are not this person's name stand in for them."""
    starts = sorted({s for s, _ in mentions} | {s for s, _ in others or ()})
    own = frozenset(w for s, e in mentions for w in text[s:e].split())
    votes: list[str] = []
    for start, end in sorted(mentions):
        nxt = next((s for s in starts if s >= end), len(text))
        g = _window_pronoun(text, end, nxt, own, guess_others=others is None,
                            leads=partial(_first_named, text, start, own, others))
        if g is not None:
            votes.append(g)
        noun = _KIN_BEFORE.search(text, max(0, start - 16), start)
        if noun is not None:
            votes.append(FEMALE if noun.group(1).lower() in _FEMALE_BEFORE else MALE)
    return votes


def _first_named(text: str, start: int, own: frozenset[str],
                 others: Sequence[tuple[int, int]] | None) -> bool:
    """Whether the mention at `start` is the first person its sentence names: only then is
    a pronoun opening the next sentence its own. "Madonna starred in the film, with Warren
    Beatty playing the title role. Her performance ..." gives "Her" to Madonna, the
    sentence's subject, not Beatty. Other people are `others`' mentions, or, where those
    are unknown, runs of capitalised words that are not this person's name."""
    begin = 0
    for m in _SENTENCE_END.finditer(text, 0, start):
        begin = m.end()
    if others is not None:
        return not any(begin <= s < start for s, _ in others)
    return not any(not set(m.group(0).split()) <= own
                   for m in _NAME_RUN.finditer(text, begin, start))


# a gendered noun right before a name says whose it is: "Beyoncé's grandmother, Agnèz
# Deréon", "his son Ibrahim"
_FEMALE_KIN = frozenset("""mother grandmother wife daughter sister aunt niece widow queen
princess duchess empress""".split())
_MALE_KIN = frozenset("""father grandfather husband son brother uncle nephew widower king
prince duke emperor""".split())
# ... and so does a gendered title or a woman's role ("Sir John Conroy", "Lady Elizabeth
# Bowes-Lyon", "Syrian actress Sulaf Fawakherji", "West and fiancée Alexis Phifer"; 21 SQuAD
# train people had been replaced by one of the other sex: "Sir Elizabeth Longford")
_FEMALE_BEFORE = _FEMALE_KIN | frozenset("""lady dame mrs miss ms madame madam actress
fiancée fiancee girlfriend businesswoman congresswoman chairwoman spokeswoman sportswoman
heiress countess baroness marchioness viscountess abbess nun""".split())
_MALE_BEFORE = _MALE_KIN | frozenset("""sir lord mr monsieur fiancé boyfriend businessman
congressman chairman spokesman sportsman count baron marquess viscount earl abbot
monk""".split())
_KIN_BEFORE = re.compile(rf"\b({'|'.join(sorted(_FEMALE_BEFORE | _MALE_BEFORE))})\.?,?\s$",
                         re.IGNORECASE)
# ... and a gendered noun right after a name's "'s" is whom the pronouns after it are of
_KIN_AFTER = re.compile(rf"['’]s\s+(?:{'|'.join(sorted(_FEMALE_KIN | _MALE_KIN))})\b",
                        re.IGNORECASE)


def gender_from_votes(m: int, f: int, *, min_votes: int = 1, min_share: float = 0.75) -> str | None:
    """'m' or 'f' when at least `min_votes` votes were cast and one side has at least
    `min_share` of them; None when there are too few or they disagree."""
    total = m + f
    if total < min_votes or total == 0:
        return None
    if m / total >= min_share:
        return MALE
    if f / total >= min_share:
        return FEMALE
    return None


def pronoun_gender(text: str, mentions: Sequence[tuple[int, int]],
                   others: Sequence[tuple[int, int]] | None = None) -> str | None:
    """The gender the text's pronouns give the person mentioned at `mentions`, or None
    (no gendered pronoun in any window, or windows that disagree)."""
    votes = window_genders(text, mentions, others)
    return gender_from_votes(votes.count(MALE), votes.count(FEMALE))


def _get(ent: Any, key: str) -> Any:
    return ent[key] if isinstance(ent, Mapping) else getattr(ent, key)


def mention_gender_votes(context: str, entities: Iterable[Any],
                         label: str = "PERSON") -> list[tuple[str, str]]:
    """One `(entity text, 'm'|'f')` per PERSON mention whose window holds a gendered pronoun.

    `entities` are NER results (dicts or objects with text, label, start, end). The NER task
    calls this per context; summing the votes per (stripped) text over the corpus gives the
    bank entry's gender with `gender_from_votes`.
    """
    persons = sorted((_get(e, "start"), _get(e, "end"), _get(e, "text"))
                     for e in entities if _get(e, "label") == label)
    spans = [(s, e) for s, e, _ in persons]
    out: list[tuple[str, str]] = []
    for i, (start, end, text) in enumerate(persons):
        nxt = spans[i + 1][0] if i + 1 < len(spans) else len(context)
        g = _window_pronoun(context, end, nxt,
                            leads=partial(_first_named, context, start, frozenset(),
                                          spans[:i]))
        if g is not None:
            out.append((text.strip(), g))
    return out


@lru_cache(maxsize=1)
def _detector() -> Any:
    try:
        import gender_guesser.detector as gd  # optional extra (GPLv3), see the README
    except ImportError:
        return None
    return gd.Detector(case_sensitive=False)


_LEXICON = {"male": MALE, "mostly_male": MALE, "female": FEMALE, "mostly_female": FEMALE}


# a Korean name, written family name first, its given name of two syllables joined by a
# hyphen ("Kim Il-sung", "Park Chung-hee"): its first word is no given name, and the lexicon
# had read "Kim Il-sung" as a woman's name ("The segment starred Kim Il-sung; she and ...")
_FAMILY_NAME_FIRST = re.compile(r"[A-Z][a-z]+ [A-Z][a-z]+-[a-z]+")


@lru_cache(maxsize=65536)
def name_gender(text: str) -> str | None:
    """The gender of a PERSON name from its first given name in a first-name lexicon
    (`gender-guesser`), or None: unknown or androgynous names, names with only initials,
    or the lexicon not installed."""
    det = _detector()
    if det is None or _FAMILY_NAME_FIRST.fullmatch(text.strip()):
        return None
    for word in name_parts(text).given:
        first = word.strip(".")
        if len(first) >= 2 and first[0].isupper() and not first.isupper():  # not "LEA"
            return _LEXICON.get(det.get_gender(first))
    return None


def given_name_known(text: str) -> bool | None:
    """Whether the first-name lexicon knows the first given name of a PERSON name of two or
    more parts, whatever its gender ("Kip Thorne": yes; "Telewizja Polska": no); None when
    it cannot say (one part, initials only, or the lexicon not installed)."""
    det = _detector()
    parts = name_parts(text)
    if det is None or not parts.surname:
        return None
    for word in parts.given:
        first = word.strip(".")
        if len(first) >= 2 and first[0].isupper() and not first.isupper():
            # a compound the lexicon lacks is known by its first half ("Daniel-Henry")
            return any(det.get_gender(w) != "unknown" for w in dict.fromkeys(
                (first, first.split("-")[0])) if w)
    return None


def lexicon_available() -> bool:
    """Whether the first-name lexicon fallback is installed."""
    return _detector() is not None
