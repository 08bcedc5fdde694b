"""The `coherent` substitution policy: every mention of the matched entity is swapped (name
parts, possessives, titled mentions), for a replacement that fits where it goes, and the
faithful answer is what the answer span reads after the swap. A row that cannot be made
coherent gets a reason of its own (`reasons.COHERENT_REASONS`).

Steps (each a function below): `resolve` the entity (possessive and leading article off,
the longer name when the match is one word of it), find its `mentions`, refuse ambiguous
or glued ones, `fit` a replacement from the bank's pools (shape, name parts, gender, NORP
form, article), `splice` the swap in, locate the answer span, and `verify` the result.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Iterable, Iterator, Mapping, Sequence, TypeVar

from faithqa_spark.core import arithmetic, chronology, entries, eras, namekinds, reasons, shapes
from faithqa_spark.core.audit import person_mentions, squad_norm
from faithqa_spark.core.bank import strip_possessive
from faithqa_spark.core.gender import given_name_known, pronoun_gender
from faithqa_spark.core.matching import Entity
from faithqa_spark.core.names import (head_short_form, head_short_swap, in_longer_name,
                                      initials, lone_part_mentions, name_parts,
                                      same_case_matches, short_form_after, word_before)
from faithqa_spark.core.nearby import MAX_WEIGHT
from faithqa_spark.core.sampling import (ANY, GIVEN, Pool, SamplingIndex, in_pool_order,
                                         overlap_test, pool_text, visits)
from faithqa_spark.core.sentences import sentence_spans
from faithqa_spark.core.text import boundary_matches, contains_ci, contains_ci_in, upper_first

PERSON = "PERSON"
_T = TypeVar("_T")
_UNSEEN = object()
# types whose mentions are proper names: a swap inside a longer name is refused
_NAME_TYPES = frozenset({"PERSON", "ORG", "GPE", "LOC", "NORP", "EVENT", "FAC",
                         "WORK_OF_ART", "PRODUCT", "LANGUAGE", "LAW"})

# places and organisations: refused at the tail of a longer name ("20th Century Fox")
_TAIL_TYPES = frozenset({"ORG", "GPE", "LOC", "FAC", "EVENT", "PRODUCT"})
# a compass word that begins a people's name ("South Africans", "North Koreans"), even at
# a sentence's start
_COMPASS_BEFORE = re.compile(r"\b(?:North|South|East|West|Northern|Southern|Eastern|Western"
                             r"|Central)[ \u00a0]$")
_TITLES = frozenset({"WORK_OF_ART", "LAW"})
_PLACE_TYPES = frozenset({"GPE", "LOC"})
_THE_TYPES = _PLACE_TYPES  # places said with or without "the"
# the types whose names are sorted into kinds by their head word (namekinds.name_class), in
# the order `fit` falls back on them
_KIND_TYPES = ("EVENT", "ORG", "FAC", "GPE", "LOC", "LAW", "WORK_OF_ART", "PRODUCT")
_YEAR_TYPES = frozenset({"DATE", "CARDINAL"})
_AGE_RATIO = 1.5  # a preferred replacement age lies within this factor of the original's
_CENTURY_SPAN = 3  # ... and a preferred century within this many of the original's
# a gloss after a mention: "Portugal (Portuguese: República Portuguesa)", "the Three Jewels
# (Sanskrit: triratna)", "(simplified Chinese: ...)", "(formerly: Parque de los Aliados)"
_GLOSS_AFTER = re.compile(r"\s*\((?:(?:simplified|traditional|classical|ancient|old|modern)\s+)?"
                          r"([A-Z][^\W\d_]+(?:\s+[A-Z][^\W\d_]+)?|formerly|literally|lit\.)\s*:")
_RESTATED = frozenset({"formerly", "literally", "lit."})


def _glossed(context: str, end: int) -> bool:
    """Whether a mention ending at `end` is followed by its name in a language that ISO
    639-3 names, or by its former or literal name."""
    m = _GLOSS_AFTER.match(context, end)
    return bool(m) and (m.group(1) in _RESTATED or namekinds.is_language(m.group(1).split()[-1]))


def a_gloss(context: str, start: int, end: int) -> bool:
    """Whether the mention at context[start:end] is the meaning or the translation of
    another word, not a fact: quoted in brackets after it ("the environmental group Zelenyi
    Svit ("Green World")", "Nanjing (Chinese: 南京, "Southern Capital")"), after a word
    that says so ("Notre Dame du Lac means "Our Lady of the Lake"", "(lit. the Great
    Vehicle)"), or said to be a language's word ("such as Chrétien in French", "Ashkenaz
    meaning "Germany" in Hebrew"). Swapped, the gloss no longer glosses its word."""
    if _GLOSS_OPEN.search(context, max(0, start - 80), start) and \
            _GLOSS_CLOSE.match(context, end):
        return True
    if _MEANING_BEFORE.search(context, max(0, start - 40), start):
        return True
    m = _IN_LANGUAGE_AFTER.match(context, end)
    return m is not None and namekinds.is_language(m.group(1))


# "(" and at most a few words and a comma before an opening quote: `a_gloss`
_GLOSS_OPEN = re.compile(r"\((?:[^()]{0,60}[,;:]\s*)?[\"“‘']$")
_GLOSS_CLOSE = re.compile(r"[.,]?[\"”’']\s*[),;]")
_MEANING_BEFORE = re.compile(
    r"\b(?:meaning|means|literally|lit\.|translated as|translates as|translates to)"
    r",?\s+(?:as\s+)?(?:the\s+)?[\"“‘']?$", re.IGNORECASE)
# "Chrétien in French and Cristiano in Spanish": a language's word in a list of them
_IN_LANGUAGE_AFTER = re.compile(r"[\"”’']?\s+in\s+([A-Z][a-z]+)(?=\s*(?:[,;.)]|and\b|or\b|$))")


# a NORP word before one of these names an age or a style, not a people
_PERIOD_AFTER = re.compile(r"[\s-]+(?:period|periods|era|eras|age|times|dynasty|style|"
                           r"architecture|art)\b", re.IGNORECASE)
# a house or a people: "the rival Minamoto and Taira clans", "the Fujiwara, Minamoto, or Taira
# clans", "the Jin dynasty", "the Obeidat tribe" (the names of a list of up to three, then
# the noun). A place's, a person's or a body's name there is NER's error: "the rival Korea
# and Taira clans" read wrong
_HOUSE_AFTER = re.compile(r"(?:(?:,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+)"
                          r"[A-Z][\w-]*(?:\s[A-Z][\w-]*)?){0,2}\s+"
                          r"(clans?|tribes?|family|families|dynasty|dynasties)\b")
_HOUSE_TYPES = frozenset({"GPE", "LOC", "FAC", "ORG", PERSON})
# a people word that begins a place's name ("the Indian subcontinent", "the Arabian Sea"):
# "the Egyptian subcontinent" is no place; a lower-case "sea" names none ("Spanish sea
# captain"); or a Catholic rite's ("the Roman Catholic Church": "the Phrygian Catholic
# Church" is no church)
_NAME_AFTER_PEOPLE = re.compile(r"[\s-]+(?:(?i:subcontinent|peninsula|archipelago|plateau|"
                                r"desert)|Sea|Ocean|Gulf)\b|\s+Catholic\b")
_LANGUAGE_AFTER = re.compile(r"\s+(language|languages|tongue|dialect|dialects)\b",
                             re.IGNORECASE)
# what a text is put into or said in, right before a people word: a language ("translated
# the Bible into German", "is written in Latin", "spoken in Greek")
_IN_LANGUAGE_BEFORE = re.compile(r"\b(?:translat\w*|written|spoken|speaks?|speaking|wrote|"
                                 r"writes|writing|sung|composed|dubbed)\b[^.;:!?]{0,40}?"
                                 r"\b(?:into|in)\s+$")
# a question about a language ("What language ...?", "In which languages ...?")
_ASKS_LANGUAGE = re.compile(r"\b(?:languages?|tongues?|dialects?)\b", re.IGNORECASE)
_AMOUNT_TYPES = frozenset({"CARDINAL", "QUANTITY", "PERCENT", "MONEY"})  # core/arithmetic.py
_DECIMAL = re.compile(r"\d\.\d")  # a figure with a decimal part ("2.4", not "U.S. 4")
_CENTURY_HYPHEN = re.compile(r"\d(?:st|nd|rd|th)-centur", re.IGNORECASE)  # "19th-century art"
# a range's preferred replacement: a width within this factor of the original's, a top
# figure within this one (`fit`, `arithmetic.span`)
_SPAN_RATIO, _SCALE_RATIO = 4.0, 10.0
# "'s" that ends a clause is part of the name ("the city of St. John's.", "Macy's,")
_NAME_S = re.compile(r"['’]s(?=$|[^\w\s'’-])")
Region = tuple[int, int, int]  # [start, end) in the original context, and the part index
FULL = -1  # the part index of a mention of the whole name
CONVERTED = -9  # the "part" of a figure that gives the amount in another unit (`apply`)
PEOPLE = -10  # the "part" of the people word of a swapped place (`people_swaps`)
_PEOPLE_TYPES = frozenset({"GPE", "LOC"})  # places whose people words are swapped with them
SHORT = -2  # the part index of a mention of the short form the context defines for it
PLURAL = -3  # the part index of a plural mention of an acronym ("ISPs" for "ISP")
_PLAIN_ACRONYM = re.compile(r"[A-Z][A-Z&]*[A-Z]")


def _in_mention(at: int, regions: list[Region]) -> bool:
    """Whether the context's offset `at` lies inside one of the entity's mentions."""
    return any(a <= at < b for a, b, _ in regions)


# "Saint" right before a mention, even at a sentence start (where word_before says nothing)
_SAINT_BEFORE = re.compile(r"\b(?:St|Saint|San|Santa|Sainte)\.?\s$")
# "the Battle of Wagram", "the Siege of Metz": the name after it is a place's, whatever NER
# typed it ("the Battle of Louis XVIII" read wrong)
_PLACE_OF_BEFORE = re.compile(r"\b(?:Battle|Siege|Treaty|Peace|Sack|Fall)\s+of\s+$")
_EPITHET = re.compile(r"\s+the\s+[A-Z]")  # "Alfred the Great": a name of its own
# NER's span may take in a quote, a citation mark or an unclosed bracket
_TRAILING_JUNK = re.compile(r"(?:\s*\[[^\]]*$|\s*\([^)]*$|[.,;:]+$)")
_QUOTES = "\"'“”‘’«»"
PROBE = 2000  # candidates tried in order after the random draws (sampling.draw)


class Refused(Exception):
    """This row cannot be made coherent; `reason` says why."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Swap:
    original: str  # the entity as replaced: the longer name, no possessive or article
    replacement: str
    text: str  # the modified context
    spans: list[tuple[int, int]]  # each replaced region in the modified context
    faithful_answer: str
    answer_starts: list[int]


def _person_core(text: str) -> str:
    """A PERSON text without leading titles ("President Lincoln" -> "Lincoln")."""
    parts = name_parts(text)
    words = text.split()
    return " ".join(words[len(parts.titles):]) if len(words) > len(parts.titles) else text


@lru_cache(maxsize=1 << 16)  # each row's other entities pass through here (`other_names`)
def base_text(text: str, label: str) -> str:
    """The entity as the policy swaps it: stripped, no possessive, no leading article (it
    stays in the context), no title before a person's name (it stays too)."""
    t = strip_possessive(_TRAILING_JUNK.sub("", text.strip()).strip(_QUOTES).strip())
    words = t.split()
    if len(words) > 1 and words[0].lower() in entries.ARTICLES and (
            label not in _TITLES or words[0].lower() == "the" and _the_is_grammar(t)):
        # the article stays in the context, except in a title ("The Life of Pablo"); but
        # "The Treaty of Küçük Kaynarca" is said with "the" as any treaty is (`fit`)
        t = " ".join(words[1:])
    return _person_core(t) if label == PERSON else t


def _the_is_grammar(title: str) -> bool:
    """Whether "the" before `title` (which has it) belongs to the sentence, not the title:
    an "X of Y" whose head word says what it is ("the Treaty of Paris", "the Battle of
    Long Island"), not a work's own "The" ("The Life of Pablo")."""
    rest = " ".join(title.split()[1:])
    return _of_name(rest) and namekinds.name_class(rest) in namekinds.HEAD_CLASSES


def corpus_type(entity: Entity, index: SamplingIndex) -> str:
    """The entity's type as the corpus has it: NER's label, unless the bank (which keeps a
    text only under the type NER gives it most often, `bank.majority_type`) holds the text
    under one other type only ("Turkish Cypriots" read as ORG in one context, NORP in 14)."""
    text = base_text(entity.text, entity.label)
    types = index.types_of(text)
    if len(types) == 1 and entity.label not in types and not (
            types[0] == PERSON and _named_thing(text) is not None):
        # (a building the corpus mostly read as a person's is still a building: "married at
        # Westminster Abbey" had become "married at Martin Charteris")
        return types[0]
    if index.has_type("GPE") and _misread_place(text, entity.label, types):
        return "GPE"
    named = _named_thing(text) if entity.label == PERSON else None
    if named is not None and index.has_type(named):
        return named
    return entity.label


# head words that are nobody's surname ("Charles de Gaulle Airport", "John F. Kennedy
# Stadium", "Westminster Abbey"); "Hill", "Field", "Park", "Tower", "Castle" and "Temple"
# are ("Glenallen Hill", "W. C. Fields", "Mungo Park", "John Tower", "William Temple")
_NO_SURNAME = frozenset("""airport airports stadium arena station terminal war wars massacre
siege invasion uprising rebellion revolution statute act treaty cathedral abbey basilica
palace museum library hospital memorial monument mosque synagogue cemetery gardens square
avenue boulevard highway bridge peak mountains island islands atoll archipelago river lake
valley desert peninsula ocean sea strait canal colleges""".split())
# ... and first words that make a name a place's ("Mount Lamlam", "Lake Victoria")
_PLACE_FIRST = frozenset({"mount", "lake"})


def _named_thing(text: str) -> str | None:
    """The type of a name that NER read as a person's but whose head word names a place, a
    building, an event or a law, and is nobody's surname ("Mount Lamlam" a LOC, "Westminster
    Abbey" and "John F. Kennedy Stadium" a FAC, "Hussite Wars" an EVENT). Swapped for a
    person's, such a name had read "The highest point is Ernst Stavro Blofeld at 406
    meters", "the Live Aid concert at Tom Robinson". A head word that is a surname too
    leaves the name a person's ("Glenallen Hill", "Sally Field", "Bill Clinton")."""
    found = _TYPE_OF_KIND.get(namekinds.name_class(text))
    ws = text.lower().split()
    if found is None or not (ws[-1] in _NO_SURNAME or (len(ws) > 1 and ws[0] in _PLACE_FIRST)):
        return None
    return found


def asked(question: str, answer: str, entity: Entity, label: str
          ) -> tuple[str, str | None] | None:
    """The type and the kind (a pool key, or None) the question asks for where the entity
    is the whole answer: "In what county is the Tan Hill Inn located?" asks for a GPE, "Near
    what river were the Avars based?" for a LOC river. None where the question's "what" or
    "which" names no such noun, names one of a compound ("Which opera director", "what film
    studio"), or the answer is more than the entity (its noun is the answer's)."""
    m = _ASKED.search(question)
    if m is None:
        found = _where(question, entity, label)
    else:
        # "In what Italian city state ...?", "Which major river ...?": the noun is after
        # the adjectives
        words = _WORD.findall(question, m.end())[:6]
        # "What is the common language that ...?", "What's the largest island in ...?": the
        # noun after the article, where its phrase ends right after it ("Sranan Tongo",
        # NER's PERSON, had become "Geert Driessen"); never a noun said of another ("What is
        # the country's main airport?", "What is the city landmark ...?") nor one that says
        # no kind ("What is the location of ...?")
        copula = len(words) > 2 and words[0].lower() in _COPULAS \
            and words[1].lower() in _NOUN_ARTICLES
        ws = [_POSSESSIVE_END.sub("", w) for w in words[2 if copula else 0:][:4]]
        skipped = 0
        while skipped < _MAX_ADJECTIVES and len(ws) > 1 and _asked_adjective(ws[0]):
            ws, skipped = ws[1:], skipped + 1
        noun, after, then = (w.lower() for w in (ws + ["", "", ""])[:3])
        # after an adjective, the noun's phrase ends within a word ("what Italian city
        # state"): "what Spanish language television station" asks for a station, not a
        # language, and "what major film production company" for a company
        compound = after in _COMPOUND_HEADS or (
            skipped and after not in _PHRASE_END and then not in _PHRASE_END)
        if copula and (after not in _PHRASE_END or _POSSESSIVE_END.search(words[2 + skipped])
                       or noun in _NO_KIND_NOUNS):
            compound = True
        found = None if compound else _ASKED_KINDS.get(noun)
    if found is None or squad_norm(answer) != squad_norm(base_text(entity.text, label)):
        return None
    return found


def asked_kind(asks: tuple[str, str | None] | None, label: str) -> str | None:
    """The kind of name drawn first where the question asks for NER's own type (`asked`):
    "What mountain in Tennessee ...?" (NER's LOC "Clingmans Dome", drawn as any LOC, had
    become "Assyria"), "What country ...?" (NER's GPE "UK" had become "MD"). An
    organisation's kind is only a newspaper's: the bank's companies of a head word are
    mostly labels and studios ("What company ...?" "Xerox" had become "Trident Studios")."""
    if asks is None or asks[0] != label or (label == "ORG" and asks[1] != "press"):
        return None
    return asks[1]


def _where(question: str, entity: Entity, label: str) -> tuple[str, str | None] | None:
    """A "Where ...?" question answered by NER's person or product asks for a place: a
    building where the name's head word makes one ("Where was Victoria's coronation held?"
    "Westminster Abbey", which had become "Abdul Karim"), else a GPE ("Where was Napoleon
    born?" "Corsica", NER's PRODUCT, which had become "Soyuz 2"), a town of GeoNames' first
    (the bank's GPEs of no known kind hold NER's errors too: "Köppen", "Jesuit"). An
    organisation or a building answers "where" as itself ("Where did she study?" "Harvard")."""
    if label not in ("PERSON", "PRODUCT") or not _WHERE.search(question):
        return None
    kind = namekinds.name_class(base_text(entity.text, label))
    return ("FAC", kind) if kind in _BUILDING_KINDS else ("GPE", namekinds.CITY)


_WHERE = re.compile(r"\bwhere\b", re.IGNORECASE)
_POSSESSIVE_END = re.compile(r"['’]s$")  # "what film writer's"
_BUILDING_KINDS = frozenset({"church", "mosque", "synagogue", "temple", "site", "museum",
                             "venue", "transit", "street", "green"})
# the type of a name whose head word's kind (`namekinds.name_class`) is a place's, a
# building's, an event's or a law's (`_named_thing`)
_TYPE_OF_KIND = {
    **dict.fromkeys(_BUILDING_KINDS, "FAC"),
    **dict.fromkeys("mountain island peninsula river lake sea bay strait canal valley desert "
                    "forest plain".split(), "LOC"),
    "battle": "EVENT", "conflict": "EVENT", "law": "LAW", "treaty": "LAW",
}


# the question's "what" or "which": its noun comes after it ("In what county ...?"), after
# its adjectives if any, and the word after the noun may make it part of a compound ("what
# film studio")
_ASKED = re.compile(r"\b(?:what|which)\b", re.IGNORECASE)
_WORD = re.compile(r"[A-Za-z'’]+")
# "is the", "was a", "'s the" between the question word and its noun
_COPULAS = frozenset({"is", "was", "are", "were", "'s", "’s"})
_NOUN_ARTICLES = frozenset({"the", "a", "an"})
# the question's nouns that say no kind of place or event (`asked` after "is the")
_NO_KIND_NOUNS = frozenset("region area location continent county district event".split())
# the adjectives a question puts before its noun ("what major city", "which Italian state")
_MAX_ADJECTIVES = 2
_QUESTION_ADJECTIVES = frozenset("""major large larger largest small smaller smallest big
bigger biggest ancient modern former famous current present new old main important historic
nearby neighboring neighbouring neighbor neighbour coastal northern southern eastern western
central foreign independent medieval common official primary principal native national
dominant predominant chief""".split())
# the words that may follow the question's noun when it ends its phrase
_PHRASE_END = frozenset("""is was are were did does do has had have can could would will
might may should of in on at to for from by with that which whose where when near""".split()
                        + [""])
# a people's adjective a question writes in lower case ("what italian city state")
_LOWER_PEOPLE_ADJ = re.compile(r"[a-z]{3,}(?:ian|ese|ish)")


def _asked_adjective(word: str) -> bool:
    """A word before the question's noun: a common adjective or a people's ("Italian", and
    "italian" as some questions write it; not "can" or "man")."""
    return word.lower() in _QUESTION_ADJECTIVES or entries.people_adjective(word) \
        or _LOWER_PEOPLE_ADJ.fullmatch(word) is not None


# noun -> (type, kind) the question asks for; the kinds are pool keys: `namekinds.place_kind`'s
# for a GPE, `namekinds.name_class`'s for the others
_ASKED_KINDS: dict[str, tuple[str, str | None]] = {
    **dict.fromkeys("city town village capital municipality".split(), ("GPE", namekinds.CITY)),
    **dict.fromkeys("country nation".split(), ("GPE", namekinds.COUNTRY)),
    **dict.fromkeys("state province".split(), ("GPE", namekinds.STATE)),
    **dict.fromkeys("county district".split(), ("GPE", None)),
    **{w: ("LOC", namekinds.name_class(f"X {w}")) for w in
       "river mountain mountains island lake sea ocean valley desert".split()},
    **dict.fromkeys("region area location continent".split(), ("LOC", None)),
    "battle": ("EVENT", "battle"), "war": ("EVENT", "conflict"),
    "revolution": ("EVENT", "conflict"), "event": ("EVENT", None),
    **dict.fromkeys("book movie film song album novel poem painting opera".split(),
                    ("WORK_OF_ART", None)),
    "act": ("LAW", "law"), "law": ("LAW", "law"), "treaty": ("LAW", "treaty"),
    "language": ("LANGUAGE", None),
    # an organisation NER read as a person or a thing ("Which magazine ...?" "Vogue", NER's
    # PERSON, had become "Etta James")
    # (a band is not: the bank's organisations hold no kind of band to draw first)
    "company": ("ORG", "company"), "magazine": ("ORG", "press"), "newspaper": ("ORG", "press"),
}
# the second noun of a compound whose head it is ("Which opera director", "what law firm",
# "what city council"): the answer is a person's or a body's name
_COMPOUND_HEADS = frozenset("""director directors firm company team council committee studio
label station party agency band group hero leader king queen official officials player
singer author writer artist family club hall museum church newspaper magazine network
channel airport stadium building court government organization organisation institute
institution corporation army navy general president governor mayor character award awards
prize school college university department legend plaza festival""".split())
# NER's types that a question's noun overrides: its usual confusions of places, events and
# works (a NORP asked for by "what country" is an adjective: "Gandhi was a leader of what
# country?" answered "Indian")
RETYPED = frozenset({"ORG", "PERSON", "FAC", "PRODUCT"})


# the noun right next to each mention of an organisation that says what it is: "Forbes
# magazine", "the newspaper The Hill" (a newspaper, drawn as one: "Forbes magazine" had become
# "Danaans magazine"); "the album MDNA" (a work NER took for an organisation: "her twelfth
# studio album, NVT"). Only a newspaper's noun counts after the name: "the Telugu film
# industry", "the Isratin single-state solution" name no work. ("single" is no such noun
# before a name either: "the single EU market".)
_PRESS_NOUNS = frozenset("magazine newspaper tabloid".split())
_NAMED_WITH: dict[str, tuple[str, str | None]] = {
    **dict.fromkeys(_PRESS_NOUNS, ("ORG", "press")),
    **dict.fromkeys("album song film movie novel mixtape soundtrack".split(),
                    ("WORK_OF_ART", None)),
}
_NOUN_BEFORE = re.compile(r"\b([a-z]+)\s+$")


def named_with(context: str, original: str, label: str) -> tuple[str, str | None] | None:
    """The type and kind (as `asked` gives them) that the noun right before every mention of
    an organisation names (`_NAMED_WITH`), or a newspaper's noun right after it, or None: no
    such noun at some mention, or two that disagree."""
    if label != "ORG":
        return None
    found: set[tuple[str, str | None]] = set()
    for s, e in boundary_matches(context, original):
        after = _WORD_AFTER.match(context, e)
        before = _NOUN_BEFORE.search(context, max(0, s - 20), s)
        nouns = ([after.group(1)] if after and after.group(1) in _PRESS_NOUNS else []) + (
            [before.group(1)] if before and before.group(1) in _NAMED_WITH else [])
        if not nouns:
            return None
        found.update(_NAMED_WITH[n] for n in nouns)
    return found.pop() if len(found) == 1 else None


# the head words after a name that make it a place's name said as a modifier ("Maycomb
# County", "Dushanbe Airport", "Jaluit Atoll", "Tufts University")
_PLACE_HEADS = frozenset("""county airport atoll sultanate abbey island islands bay river
valley castle cathedral province district region harbour harbor port university college
prefecture emirate""".split())
_HEAD_AFTER = re.compile(r" ([A-Z][a-z]+)\b")


def place_before_head(context: str, original: str, label: str) -> bool:
    """Whether an organisation or product of one word is, at a mention, a place's name before
    a head word (`_PLACE_HEADS`): swapped as an organisation, "Maycomb County" had
    become "Blu-ray County", "Dushanbe Airport" "Bolshevik Airport", "Jaluit Atoll" "Nitijela
    Atoll" (the row is made again with a city's name)."""
    name = original.strip()
    if label not in ("ORG", "PRODUCT") or " " in name or not name[:1].isupper() \
            or not name.isalpha():
        return False
    return any((m := _HEAD_AFTER.match(context, e)) is not None
               and m.group(1).lower() in _PLACE_HEADS for _, e in boundary_matches(context, name))


# NER's types for a place that it reads as a thing ("Majuro" FAC, "Doncaster" ORG) or, for a
# country of two words, a person ("Sierra Leone")
_PLACE_MISREAD = frozenset({"ORG", "FAC", "PRODUCT", "WORK_OF_ART"})


@lru_cache(maxsize=1 << 14)  # a pure function of the entity, which several rows may share
def _misread_place(text: str, label: str, types: tuple[str, ...]) -> bool:
    """Whether NER's `label` for `text` is a place read as something else: a country's name
    under any of `_PLACE_MISREAD` (even where the corpus mostly says so: "Bermuda" ORG had
    become "Taliban"), a two-word country's as a PERSON, or a state's or city's own name that
    the bank does not hold (NER's one-off: a club the corpus names often stays an ORG). A
    one-word country as a PERSON stays one ("Jordan", "Chad"); so does a town's name that
    is also a word ("Paradise", "Meridian") or a given name ("Estrella", "Eusébio")."""
    if label == PERSON:
        return " " in text and namekinds.is_country(text)
    if label == "LOC":
        # "the Azores, Madeira, and Cape Verde" (NER's LOC): a country; a continent stays
        return namekinds.is_country(text) and namekinds.name_class(text) != "continent"
    if label not in _PLACE_MISREAD:
        return False
    if namekinds.is_country(text):
        return True
    return (not types and namekinds.is_place_name(text) and not entries.common_word(text)
            and not (" " not in text and given_name_known(f"{text} X") is True))


def resolve(context: str, entity: Entity, entities: Sequence[Entity]) -> str:
    """The name to swap. For a person named by one part inside a longer name of the context
    ("Chopin" and "Frédéric Chopin"), the longer name; two different longer names
    ("Frédéric Chopin", "Nicolas Chopin") make the part ambiguous."""
    base = base_text(entity.text, entity.label)
    if entity.label == "WORK_OF_ART":
        return quoted_title(context, base) or base
    if entity.label != PERSON:
        return base
    longer = {b for e in entities if e.label == PERSON
              for b in [base_text(e.text, PERSON)]
              if len(b) > len(base) and boundary_matches(b, base)}
    if not longer:
        return base
    best = max(longer, key=lambda b: (len(b), b))
    if any(not boundary_matches(best, b) for b in longer):
        raise Refused(reasons.AMBIGUOUS_NAME_PART)
    return best


# a title in quotation marks that goes on after NER's span: '"Single Ladies (Put a Ring on
# It)"', '"Independent Women Part I"' (a short one, in one clause)
_TITLE_REST = re.compile(r"[^\"“”.;:!?]{1,40}?(?=[\"”])")
_OPENING_QUOTES = {'"': '"', "“": "”"}


def quoted_title(context: str, name: str) -> str | None:
    """The whole title in quotation marks that a work's name opens at every mention, or
    None: swapped alone, '"Single Ladies (Put a Ring on It)"' had become '"Halo (Put a Ring
    on It)"' and '"Independent Women Part I"' '"Crazy in Love I"'. A name said outside the
    title too, or titles that differ, leave the name as it is."""
    found: set[str] = set()
    for s, e in boundary_matches(context, name):
        close = _OPENING_QUOTES.get(context[s - 1]) if s else None
        m = _TITLE_REST.match(context, e) if close is not None else None
        if close is None or m is None or not context.startswith(close, m.end()):
            return None
        found.add(context[s:m.end()].rstrip(" ,"))
    return found.pop() if len(found) == 1 else None


@lru_cache(maxsize=65536)
def _significant(name: str) -> tuple[str, ...]:
    return name_parts(name).significant


def mentions(context: str, original: str, label: str) -> list[Region]:
    """Every mention to swap, sorted and disjoint: whole-name occurrences (case-insensitive,
    at word boundaries, so "Chopin's" holds "Chopin"), and for a person each lone part
    ("Chopin" alone), with the index of that part in the name's significant parts."""
    full = [(s, e, FULL) for s, e in boundary_matches(context, original)]
    if label != PERSON:
        if _PLAIN_ACRONYM.fullmatch(original):  # "ISPs" goes with "ISP"
            full += [(s, e, PLURAL) for s, e in same_case_matches(context, original + "s")]
            full.sort()
        return full
    sig = _significant(original)
    particles = name_parts(original).surname.split()[:-1]
    lone: list[Region] = []
    for s, e, p in lone_part_mentions(context, original):
        i = sig.index(p)
        lone.append((_with_particles(context, s, particles) if i == len(sig) - 1 else s, e, i))
    return sorted(full + lone)


def _with_particles(context: str, start: int, particles: Sequence[str]) -> int:
    """Where a surname said alone starts when its own particles come before it ("de Melo",
    "Von Neumann" at a sentence's start): the particles go with it, so that another surname
    takes their place too ("As the King's confidence in de Melo increased" had become "...
    in de Pessoa", "the island found by da Nova" "by da Cromwell")."""
    if not particles:
        return start
    lead = " ".join(particles) + " "
    at = start - len(lead)
    if at >= 0 and context[at:start].lower() == lead.lower() and (
            at == 0 or not context[at - 1].isalnum()):
        return at
    return start


def _common_word_too(context: str, original: str, label: str, regions: list[Region]) -> bool:
    """Whether the context also writes the name in lower case: NER read a common word as a
    name ("The grade was determined ... not by the level of gallantry", the PERSON
    "Gallantry", had become "... by the level of Peng Dehuai"). A one-word organisation is
    not refused yet ("Hydrogen", "State", "Parliament": 176 rows of SQuAD train, which would
    take its success rate under 55%)."""
    if label not in _NAME_TYPES or not original[:1].isupper() or (
            label == "ORG" and " " not in original.strip()):
        return False
    return any(part == FULL and context[s:e].islower() for s, e, part in regions)


def person_shaped(original: str, label: str) -> bool:
    """Whether a place, organisation or thing is named like a person: NER's type error
    ("Philip II" as ORG, "Prince Adam Czartoryski" as LOC), or a doctrine ("Newtonianism"
    as GPE)."""
    if label == PERSON or label not in _NAME_TYPES or label in _TITLES:
        return False
    if entries.DOCTRINE.fullmatch(original):
        return True
    if namekinds.name_class(original) != "name":
        return False  # "George Washington University", "Lake Victoria"
    ws = original.split()
    if len(ws) > 1 and ws[0].lower() in _PERSON_TITLES:
        return True
    if ws[0].rstrip(".") in ("St", "Saint") and entries.named_like_person(" ".join(ws[1:])):
        return True  # "St. Gregory Nazianzen" as ORG is a saint ("St. Louis" is a place)
    # a regnal name whose first word is a given name ("Philip II"; not "World War II")
    # "Philip II", not "World War II"
    return entries.is_regnal(original) and given_name_known(ws[0] + " X") is True


def kindless_org(original: str) -> bool:
    """Whether an organisation's name says no kind of body (`namekinds.name_class` "name", no
    acronym): "Nishapur", "Ficus", "London Eye", "Melbourne Shuffle", but also "Microsoft".
    NER's ORG is its guess for a capitalised name it cannot place, so on SQuAD train most
    such "organisations" are a place, a plant, a work or a person, swapped for a firm
    (`substitution.drop_kindless_orgs` filters them)."""
    return namekinds.name_class(original) == "name" and not _ACRONYM_TEXT.fullmatch(original)


def org_named_like_person(original: str, label: str, index: SamplingIndex) -> bool:
    """An organisation named like a person that the corpus does not know as one: a known
    given name and two or three capitalised words, no head word, and not in the bank as an
    ORG ("Millard Sheets", "Henri Le Fauconnier" as ORG; "Walt Disney", seen as ORG often,
    stands), with no word the bank holds as a place ("London Underground", "Royal
    Newfoundland Constabulary" stand). Places are not held to it: "San Francisco" starts
    with a given name too."""
    if label == "ORG" and " " not in original and "ORG" not in index.types_of(original) \
            and original in index.surnames_of_people() and not namekinds.is_place_name(original):
        return True  # a person's surname the bank holds only for people ("the reforms of
        # Savonarola in Florence" had become "the reforms of Lyon")
    return (label == "ORG" and entries.named_like_person(original)
            and "ORG" not in index.types_of(original)
            and not any(_PLACE_TYPES & set(index.types_of(w)) for w in original.split()))


def plainly_a_name(text: str) -> bool:
    """Whether no word of `text` is a common word ("Franz Schubert", "Krugman"; not "Noble
    Energy", "Red Funnel", "El Universal", "Freddie Gray"): what an organisation named like a
    person must be to be made again as a person's."""
    return all(not entries.common_word(w) and not entries.common_word(_SINGULAR_IES.sub("y", w))
               for w in text.split())


_SINGULAR_IES = re.compile(r"ies$")


def misread_person(original: str, label: str, index: SamplingIndex) -> bool:
    """Whether an entity refused as malformed under NER's `label` is a person's name that
    the row may be made again with as a PERSON: an organisation named like a person
    (`org_named_like_person`) with no common word in its name, or a place, body or thing
    named with a person's title or a regnal name (`person_shaped`, not a doctrine), where no
    word after the title is a common word: "Princess Cruises", "King County Metro" and
    "Prince Hall Freemasonry" are a firm, a bus service and an order."""
    if label == "ORG" and org_named_like_person(original, label, index) \
            and plainly_a_name(original):
        return True
    core = _person_core(original)
    return person_shaped(original, label) and not entries.DOCTRINE.fullmatch(original) \
        and (entries.is_regnal(core) or plainly_a_name(core))  # "Philip V": "v" is a word


def asked_person(question: str, answer: str, entity: Entity, label: str,
                 index: SamplingIndex, context: str = "") -> bool:
    """Whether a question for a person ("Who ...?", "With whom ...?", "Which scientist
    ...?") is answered by the whole of a name that NER typed a place, a body or a thing and
    that reads as a person's: a surname of the bank's people ("Khrushchev", "Carranza",
    "Lyell"), a known given name before one or two more names ("Enrico Fermi", "Edi Rama",
    "Galileo Galilei"), a person's title or a regnal name after a known given name, or any
    name that the context's pronouns give a gender ("Who caused Oda Nobunaga's death?"
    answered by NER's ORG "Akechi Mitsuhide" had become "France 2", and "Gellius"
    "Montesquieu").
    Swapped as NER typed them, "Who transferred the Chechen-Ingush ASSR ...?" had been
    answered "Caucasus", and "Who wrote in the Hall of the Mountain King?" "Mötley Crüe".
    A known place, a name with a head word ("Royal Navy") or a common word ("Apple",
    "Fox") is left as NER typed it: an organisation or a country answers "who" too."""
    if label not in _WHO_RETYPED or not (_WHO.match(question) or _WHOM.search(question)
                                         or _PERSON_ASKED.search(question)):
        return False
    name = base_text(entity.text, label)
    return squad_norm(answer) == squad_norm(name) and _reads_as_person(name, label, index,
                                                                        context)


def listed_person(context: str, entity: Entity, label: str, entities: Sequence[Entity],
                  index: SamplingIndex) -> bool:
    """Whether a name that NER typed a place, a body or a thing stands in a list right
    beside a person's name (", ", " and ", " or " between them) and reads as a person's
    (`asked_person`'s test): "the idealism of Schopenhauer and Descartes" (NER's GPE) had
    become "... of Schopenhauer and Vandals", "Virgil, Silius Italicus" (ORG) "Virgil,
    Setanta Sports". The person beside it must read as one too (NER's PERSON "Yorkshire"
    does not)."""
    if label not in _WHO_RETYPED:
        return False
    name = base_text(entity.text, label)
    beside = [e for e in entities if e.label == PERSON and (
        e.end <= entity.start and _LIST_GAP.fullmatch(context, e.end, entity.start)
        or e.start >= entity.end and _LIST_GAP.fullmatch(context, entity.end, e.start))]
    return any(_reads_as_person(base_text(e.text, PERSON), PERSON, index) for e in beside) \
        and _reads_as_person(name, label, index, context)


_LIST_GAP = re.compile(r",\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+")


def _reads_as_person(name: str, label: str, index: SamplingIndex, context: str = "") -> bool:
    """Whether a name reads as a person's: one word that is a surname of the bank's people
    ("Khrushchev", "Lyell"), a known given name before one or two more names ("Enrico
    Fermi"), a person's title or a regnal name after a known given name, or any name that
    the context's pronouns give a gender. A known place, a name with a head word ("Royal
    Navy") or a common word ("Apple", "Fox") does not."""
    if namekinds.name_class(name) != "name" or _ACRONYM_TEXT.fullmatch(name) \
            or not plainly_a_name(name) \
            or namekinds.place_kind(name) is not None:  # any name of a country, state, city
        return False
    return (" " not in name and name in index.surnames_of_people()) \
        or entries.named_like_person(name) or person_shaped(name, label) \
        or (bool(context) and pronoun_gender(context, person_mentions(context, name)) is not None)


# the types a person asked for by the question may have been given by NER (`asked_person`)
_WHO_RETYPED = frozenset({"ORG", "GPE", "LOC", "FAC", "PRODUCT", "WORK_OF_ART"})
_WHO = re.compile(r"\s*who\b", re.IGNORECASE)
_WHOM = re.compile(r"\bwhom\b", re.IGNORECASE)  # "With whom did Hayek share the prize?"
# "Which scientist ...?", "What European logician ...?": a noun only a person is
_PERSON_ASKED = re.compile(
    r"\b(?:what|which)\s+(?:[A-Za-z]+\s+)?(?:scientists?|explorers?|painters?|writers?|authors?"
    r"|poets?|composers?|philosophers?|logicians?|theologians?|inventors?|architects?"
    r"|emperors?|kings?|queens?|popes?|saints?|presidents?|generals?|individuals?|persons?"
    r"|man|woman|men|women)\b", re.IGNORECASE)  # ("people" may ask for a people: NORP)


# the words after a name's "'s" that only a person's takes ("Mercury's death", "Beyoncé's
# father", "Childeric's son")
_PERSON_AFTER = re.compile(
    r"['’]s\s+(?:death|funeral|assassination|murder|grave|birth|birthday|childhood|wife|husband"
    r"|widow|widower|son|sons|daughter|daughters|mother|father|parents|brother|sister"
    r"|girlfriend|boyfriend|biographer|solo career)\b")
_NAME_LIKE = re.compile(r"[^\W\d_][\w.'’-]*(?: [^\W\d_][\w.'’-]*){0,3}")


def said_of_a_person(context: str, text: str) -> bool:
    """Whether the context says of a name what it says only of a person: NER's ORG
    "Mercury" ("since Mercury's death"), "Beyoncé" ("Beyoncé's father"), its PRODUCT
    "Caesar" ("after Caesar's death"). Swapped for an organisation's, such a name had read
    "a song dedicated to Disney ... since Disney's death"."""
    name = _POSSESSIVE_END.sub("", text.strip())  # NER's "Beyoncé's"
    if not name[:1].isupper() or not _NAME_LIKE.fullmatch(name):
        return False
    return any(_PERSON_AFTER.match(context, e) for _, e in boundary_matches(context, name))


# an initial in a person's name ("Samuel L. Jackson", "P. Christiaan Klieger", "A.O. Smith")
_INITIAL = re.compile(r"(?<![\w.])[A-Z]\.(?=\s|[A-Z]\.)")
# a sovereign's title right before a name (`fit`: it takes a sovereign's name); narrower than
# `_PERSON_TITLES`, which only says a name is a person's
# (in lower case too: "Taungoo's young, ambitious king Tabinshwehti" had become "king
# Bassam Tibi")
_SOVEREIGN_BEFORE = re.compile(r"\b(?:King|Queen|Emperor|Empress|Pope|Tsar|Czar|Tsarina|Kaiser|"
                               r"Sultan|Shah|Pharaoh|Caliph)\s$", re.IGNORECASE)
# a title before a name that makes it a person's ("Saint", "General" also begin places and
# companies: "St. Louis", "General Electric")
_PERSON_TITLES = frozenset("""prince princess king queen emperor empress sir lord lady duke
duchess countess pope""".split())


def year_in_name(answer: str, entity: Entity) -> Entity | None:
    """The answer's year as an entity of its own (DATE), where the answer is a year alone
    inside a longer name NER gave ("1876" of "the Great Sioux War of 1876"): the question
    asks for the year, and the swap of the whole name had answered "What year was the
    Great Sioux War?" with "American War"."""
    year = answer.strip()
    if entity.label in _YEAR_NOT_NAMED or not _YEAR_ALONE.fullmatch(year) \
            or entity.text.strip() == year:
        return None
    found = re.search(rf"(?<![\w.,]){year}(?![\w,]|\.\d)", entity.text)
    if found is None:
        return None
    return Entity(year, "DATE", entity.start + found.start(), entity.start + found.end())


_YEAR_ALONE = re.compile(r"1\d{3}|20\d{2}")


def figure_answer(question: str, answer: str, context: str, answer_start: int | None,
                  entities: Sequence[Entity]) -> Entity | None:
    """The answer as an entity of its own where it is a figure alone that NER gave no
    entity for ("the Woolworth Building (1913)", "in the 1772 First Partition of Poland",
    "some 800 resident slaves"; 115 answers of SQuAD train, 107 of them now dataset rows,
    had matched no entity): a year (DATE) where the question asks when, or a year alone
    that it asks no amount of, else a count (CARDINAL). None for any other answer, one not
    at its start in the context, or one any entity of the context overlaps."""
    text = answer.strip()
    if answer_start is None or not _FIGURE_ALONE.fullmatch(text):
        return None
    start = answer_start + len(answer) - len(answer.lstrip())
    end = start + len(text)
    if context[start:end] != text or _FIGURE_GOES_ON.match(context, end) or (
            start and _FIGURE_BEFORE.match(context, start - 1)) or \
            _RANGE_BEFORE.search(context, max(0, start - 12), start):
        # "1,900" of "1,900,000", "12" of "A12", "(200,000/km²)"; an end of a range
        # ("Justinian (r. 527–565)", "between the ages of 23 and 37"), whose order and
        # span NER's whole range would keep
        return None
    if any(e.start < end and start < e.end for e in entities):
        return None
    year = "," not in text and 3 <= len(text) <= 4 and not _ASKS_AMOUNT.search(question) and (
        _ASKS_TIME.search(question) is not None or _YEAR_ALONE.fullmatch(text) is not None)
    return Entity(text, "DATE" if year else "CARDINAL", start, end)


_FIGURE_ALONE = re.compile(r"[1-9]\d{0,2}(?:,\d{3})+|[1-9]\d*")
_FIGURE_GOES_ON = re.compile(  # "1,900,000", "12th", "12%", "1.5", "200,000/km²", ranges
    r"[\w%/]|[.,]\d|\s*[–—-]\s*\d|\s+(?:to|and|or)\s+\d")
_FIGURE_BEFORE = re.compile(r"[\w$£€¥#+/–—-]|[.,](?=\d)")  # "A12", "$5", "#1", "-3", "0.5"
_RANGE_BEFORE = re.compile(r"\d\s*[–—-]\s*$|\d\s+(?:to|and|or)\s+$")
_ASKS_TIME = re.compile(r"\b(?:when|years?|century|decade|date)\b", re.IGNORECASE)
_ASKS_AMOUNT = re.compile(r"\bhow (?:many|much|long|far|big|large|tall|high|old|deep|wide)\b"
                          r"|\bwhat (?:number|percentage|population|amount)\b", re.IGNORECASE)
# the types whose entities say a figure themselves: their answers are theirs
_YEAR_NOT_NAMED = frozenset({"DATE", "TIME", "CARDINAL", "ORDINAL", "QUANTITY", "MONEY",
                             "PERCENT"})


# a lower-case word after a name that has a Latin ending ("religiosa", "familiaris",
# "sativum", "reinhardtii", "vitae")
_LATIN_AFTER = re.compile(r" ([a-z]{3,}(?:a|us|um|is|ii|ae))\b(?![-'’])")


def _latin_after(context: str, end: int) -> bool:
    """Whether the word right after a mention ending at `end` is a lower-case word of Latin
    form that is no English word: the name is a part of a longer term."""
    m = _LATIN_AFTER.match(context, end)
    return m is not None and not namekinds.english_word(m.group(1))


def check_mentions(context: str, original: str, label: str, regions: list[Region],
                   entities: Sequence[Entity]) -> None:
    """Refuse name parts another person of the context also uses, mentions that sit inside
    another name, a "person" right after an article ("the Golden mean": NER's error), a
    name whose "'s" NER cut off ("St. John's."), and a short form whose long form the
    context gives ("the National Rowing League (NRL)" when the entity is "NRL")."""
    if any(_NAME_S.match(context, e) for _, e, _ in regions) or person_shaped(original, label):
        raise Refused(reasons.MALFORMED_ENTITY)
    if _common_word_too(context, original, label, regions):
        raise Refused(reasons.MALFORMED_ENTITY)
    if label in _AMOUNT_TYPES and any(arithmetic.tied_but_converted(context, s, e)
                                      for s, e, _ in regions):
        raise Refused(reasons.TIED_FIGURE)
    if label in _NAME_TYPES and (_derived_word(context, original) or (
            label == PERSON and _person_word_left(context, original))):
        # "Protestantism ... originated with the Amish Reformation": the faith's, the
        # teaching's or the follower's word made from the name would stay the old one's
        raise Refused(reasons.DERIVED_WORD_LEFT)
    if label in _FEATURE_TYPES and _stem_left(context, original, regions):
        # "the mandolin scene is in Madeira Island. Madeira has over 17 orchestras": the
        # island's own name stays beside the new one
        raise Refused(reasons.DERIVED_WORD_LEFT)
    if label == "GPE" and any(_OF_NAME_AFTER.match(context, e) for _, e, _ in regions):
        raise Refused(reasons.NAME_INSIDE_NAME)  # NER cut "the Federated States of Micronesia"
    if label in _NAME_TYPES and label != "NORP" and any(_FEATURE_AFTER.match(context, e)
                                                        for _, e, _ in regions):
        raise Refused(reasons.NAME_INSIDE_NAME)  # "the Bagmati River": a part of a river's name
    if any(_TENS_BEFORE.search(context, max(0, s - 9), s) or _UNITS_AFTER.match(context, e)
           for s, e, _ in regions):
        raise Refused(reasons.NAME_INSIDE_NAME)  # "seventy" in "seventy-two" is another number
    if label == "ORDINAL" and any(_FIXED_AFTER_ORDINAL.match(context, e) for _, e, _ in regions):
        raise Refused(reasons.NAME_INSIDE_NAME)  # "first-world countries", "third party"
    if label == "ORDINAL" and any(_no_ordinal(context, s, e) for s, e, _ in regions):
        # NER's ORDINAL that is a unit of time ("24 frames per second" had become "24
        # frames per fiftieth") or an adverb ("it was first used" -> "it was second used")
        raise Refused(reasons.MALFORMED_ENTITY)
    if label == "NORP" and any(_NAME_AFTER_PEOPLE.match(context, e) for _, e, _ in regions):
        raise Refused(reasons.NAME_INSIDE_NAME)  # "the Indian subcontinent" names a place
    if label in _NAME_TYPES and any(_latin_after(context, e) for _, e, _ in regions):
        # "the most beautiful is the Rosalia alpina" (NER's EVENT "Rosalia") had become "the
        # Paris Fashion Week alpina", "Ficus religiosa" "Theravada religiosa": a genus of a
        # binomial, or a people word of a foreign term ("Latin dialectus")
        raise Refused(reasons.NAME_INSIDE_NAME)
    if label == "NORP" and original.endswith("o") and any(
            context.startswith("-", e) for _, e, _ in regions):
        # a combining form is a part of its compound ("Anglo-Irish", "Malayo-Polynesian"):
        # "Aristotelian-Irish" and "British-Polynesian" read wrong
        raise Refused(reasons.NAME_INSIDE_NAME)
    if label in _NAME_TYPES and any(a_gloss(context, s, e) for s, e, _ in regions):
        # "the environmental groups Zelenyi Svit ("Green World")" had become "... Zelenyi Svit
        # ("Justify My Love")": the word it translates stays beside it
        raise Refused(reasons.DERIVED_WORD_LEFT)
    if any(_glossed(context, e) for _, e, _ in regions):
        # the name given again in another language, or its former or literal name:
        # "Hungary (Portuguese: Portugal)" keeps the old name beside the new one
        raise Refused(reasons.DERIVED_WORD_LEFT)
    if label == "NORP" and any(_PERIOD_AFTER.match(context, e) for _, e, _ in regions):
        raise Refused(reasons.MALFORMED_ENTITY)  # "the Hellenistic period": an age, no people
    if label in _HOUSE_TYPES and any((m := _HOUSE_AFTER.match(context, e)) and not (
            label == "GPE" and m.group(1).startswith("famil")) for _, e, _ in regions):
        # "the Minamoto and Taira clans": a house ("a Nuremberg family" is the place's)
        raise Refused(reasons.MALFORMED_ENTITY)
    if _ACRONYM_TEXT.fullmatch(original) and f"({original})" in context:
        raise Refused(reasons.DEFINED_SHORT_FORM)
    if label == "DATE" and any((word_before(context, s) or _word_after_article(context, s))
                               in _NAMED_DAY for s, _, _ in regions):
        raise Refused(reasons.NAME_INSIDE_NAME)  # "the Good Friday earthquake": a holiday
    if label == PERSON:
        sig = set(_significant(original))
        for ent in entities:
            if ent.label != PERSON:
                continue
            other = set(_significant(base_text(ent.text, PERSON)))
            if other and not other <= sig and other & sig:
                raise Refused(reasons.AMBIGUOUS_NAME_PART)
    if label != PERSON:
        if label == "NORP" and any(_COMPASS_BEFORE.search(context, max(0, s - 13), s)
                                   for s, _, _ in regions):
            # "Some South Africans", for "Africans": "Some South Latin Americans"
            raise Refused(reasons.NAME_INSIDE_NAME)
        # a place or group at the head of a longer name ("San Diego Chargers" -> "Lima
        # Chargers") is what the counterfactual world would call it; at its tail ("20th
        # Century Fox", "Downtown Jacksonville") it is a piece of another name
        if label not in _TAIL_TYPES:
            return
        for s, _, _ in regions:
            before = word_before(context, s) or _word_after_article(context, s)
            if before[:1].isupper() and before.lower() not in entries.FUNCTION_WORDS and \
                    not before.endswith(("'s", "’s", "'", "’")) and \
                    not _HYPHEN_LOWER.search(before) and not entries.people_adjective(before):
                # "Miami's", "London-based", "the Italian Parliament": no part of the name
                raise Refused(reasons.NAME_INSIDE_NAME)
        return
    own = tuple(original.split())
    for s, e, part in regions:
        if _PLACE_OF_BEFORE.search(context, max(0, s - 12), s):
            raise Refused(reasons.MALFORMED_ENTITY)
        if _SAINT_BEFORE.search(context, max(0, s - 9), s):
            # "St Peter's Basilica" is a building, "Saint Bernadette Soubirous" a saint:
            # "Saint Joseph McCarthy" is neither
            raise Refused(reasons.NAME_INSIDE_NAME)
        if in_longer_name(context, s, e, own, allow_titles=True) or (
                part != FULL and _EPITHET.match(context, e)) or _dash_joined(context, s, e):
            raise Refused(reasons.NAME_INSIDE_NAME)  # "William the Lion" is someone else
    if any(_article_before(context, s) for s, _, _ in regions):
        raise Refused(reasons.MALFORMED_ENTITY)


# a feature's name without its head word names the feature itself: an island's or a sea's
# always ("Madeira" for "Madeira Island", "the Atlantic"), a river's, lake's or mountains'
# only after "the" ("the Hudson"; "Detroit" and "Michigan" name a city and a state)
_FEATURE_TYPES = frozenset({"GPE", "LOC", "FAC"})
_ALWAYS_STEM = frozenset({"Island", "Islands", "Isle", "Ocean", "Sea"})
_PLAIN_STEMS = frozenset("""north south east west northern southern eastern western central
great little new old upper lower red black white dead yellow""".split())
_THE_STEM = frozenset({"River", "Lake", "Mountains", "Bay", "Peninsula", "Desert", "Valley",
                       "Basin", "Strait", "Canal", "Gulf"})
_STEM_HEADS = _ALWAYS_STEM | _THE_STEM
_NEXT_WORD = re.compile(r" ([\w'’-]+)")


def _stem_left(context: str, original: str, regions: list[Region]) -> bool:
    """Whether `original`, a feature's name ending in its head word, stays in the context
    without that head word outside every mention (`_ALWAYS_STEM`, `_THE_STEM`)."""
    words = original.split()
    if len(words) < 2 or words[-1] not in _STEM_HEADS:
        return False
    stem = " ".join(words[:-1])
    if stem.lower() in entries.FUNCTION_WORDS or stem.lower() in _PLAIN_STEMS:
        return False  # "the North" is no "North Sea", "Red" no "Red Sea"
    for s, e in boundary_matches(context, stem):
        if context[s:e] != stem or _in_mention(s, regions):
            continue
        after = _NEXT_WORD.match(context, e)
        nxt = after.group(1) if after else ""
        if nxt[:1].isupper() or context.startswith("-", e):
            continue  # another name: "Atlantic City", "the San Diego-Coronado Bridge"
        if words[-1] in _ALWAYS_STEM or (
                _article_before(context, s) == "the"
                and (not nxt or nxt in entries.FUNCTION_WORDS)
                and namekinds.place_kind(stem) is None and not namekinds.is_country(stem)):
            # "Madeira has", "the Balearic dialect", "crossed the Danube and" ("the Bronx",
            # "the Congo" name a borough and a country beside their rivers)
            return True
    return False


# the endings that make a faith, a teaching or its followers of a name ("Christianity",
# "Calvinist", "Darwinism", "Titoism")
_DERIVED = re.compile(r"(?:ism|isms|ity|ianity|ist|ists|ite|ites)\b")


def _derived_word(context: str, original: str, endings: re.Pattern[str] = _DERIVED) -> bool:
    """Whether the context holds a word made of `original` and one of the `endings` (one
    compiled pattern for every row: a pattern per name would miss re's cache)."""
    at = context.find(original)
    while at != -1:
        if (at == 0 or not context[at - 1].isalnum()) and endings.match(
                context, at + len(original)):
            return True
        at = context.find(original, at + 1)
    return False


# the endings that make an adjective or a follower of a person's name ("Wilsonian Armenia",
# "Shakespearean", "Victorian", "Thatcherism", "the Marxists")
_PERSON_DERIVED = re.compile(
    r"(?:n|an|ian|ean|ns|ans|ians|eans|esque|ism|isms|ist|ists|ite|ites)\b")


def _person_word_left(context: str, original: str) -> bool:
    """Whether the context holds a word made of the person's surname (or one-word name) and
    one of `_PERSON_DERIVED`'s endings: "Because the new borders were to be drawn by
    President Woodrow Wilson, Ottoman Armenia was also referred to as 'Wilsonian Armenia'"
    keeps the old name in its adjective when Wilson is replaced."""
    stem = name_parts(original).surname or original.strip()
    return len(stem) >= 3 and _derived_word(context, stem, _PERSON_DERIVED)


# a place's people or language word: the place's name without its last vowels and one of
# these endings ("Mexic-an", "Babyloni-an" is "Babylon-ian", "Japan-ese", "German-s")
_PEOPLE_ENDS = ("", "an", "ian", "ese", "ish", "i", "s", "ans", "ians", "is")
_STATE_WORDS = frozenset({"Union", "Empire", "Republic", "Federation"})


def place_stem(name: str) -> str | None:
    """What a place's people word is made of: "Mexico" -> "Mexic", "Soviet Union" ->
    "Soviet"; None where it would be too short to tell ("Iran", "Peru" -> "Per")."""
    ws = name.split()
    if len(ws) > 1 and ws[-1] in _STATE_WORDS:
        ws = ws[:-1]
    stem = re.sub(r"[aeiouy]+$", "", " ".join(ws))
    return stem if len(stem) >= 4 and stem[0].isupper() else None


def people_words(context: str, original: str, regions: list[Region],
                 norps: frozenset[str]) -> list[tuple[int, int, str]]:
    """The people words of the place `original` in the context, outside its mentions, that
    the bank holds as NORP ("the Soviets" beside "the Soviet Union", "the Babylonian
    conquest" beside "Babylonia"): (start, end, ending). The swap gives them the new
    place's (`people_pieces`), or the story would keep the old place's people."""
    stem = place_stem(original)
    found = []
    for start, end, ending in stem_words(context, stem) if stem else ():
        if context[start:end] in norps and ending in _PEOPLE_ENDS and not any(
                s <= start < e for s, e, _ in regions):
            found.append((start, end, ending))
    # ... and its people word that is no stem's ("France ... French power" had kept the
    # French beside Spain), but in a place's own name ("British Columbia", "the English
    # Channel")
    people = namekinds.irregular_people(original)
    if people and people in norps:
        found += [(s, e, IRREGULAR_PLURAL if _collective(context, s, e) else IRREGULAR)
                  for s, e in same_case_matches(context, people)
                  if not _FEATURE_AFTER.match(context, e)
                  and not _NAMED_AFTER_PEOPLE.match(context, e)
                  and not _in_mention(s, regions)
                  and not any(a <= s < b for a, b, _ in found)]
        found.sort()
    return found


# the ending of a people word that is no stem's (`namekinds.IRREGULAR_PEOPLE`): the new
# place's adjective takes its place; said of the people ("sold to the French."), its
# plural ("the Germans"), or its own such word ("the Spanish")
IRREGULAR, IRREGULAR_PLURAL = "=", "=s"
# nouns that end as adverbs do ("the Italian family moved": theirs, not the people)
_LY_NOUNS = ("family", "assembly", "ally", "rally", "monopoly", "supply", "anomaly", "homily",
             "folly", "belly", "jelly", "lily", "bully")
# what follows a people word said of the people itself: "the French were", "to the French.",
# "The French officially abandoned" (an adverb and a verb: "the Italian family" is theirs)
_COLLECTIVE_AFTER = re.compile(r"(?:\s*(?:[.,;:!?)]|$)|\s+(?:were|was|had|have|and|who|"
                               r"would|could|did|also|under|in|at|from|to|of|by|on|with|"
                               r"during|after|before|against|for|as|but|while|when|then|"
                               r"themselves|[a-z]+ed)\b|\s+(?!(?:%s)\b)[a-z]+ly\s+(?:[a-z]+ed|were|was|"
                               r"had|did|would|could)\b)" % "|".join(_LY_NOUNS))


# the people words that name a people after "the" as they are ("the British", "the Dutch",
# "the French", "the Chinese", "the Swiss"); "the American", "the Norwegian", "the Czech" or
# "the Frankish" names one person or a language ("Jordanes tells us that the Czech had swamps
# and forests for their cities" read wrong: the Czechs, the Poles, the Franks)
_COLLECTIVE_FORM = re.compile(r"(?:^|\s)(?:British|English|Irish|Welsh|Scottish|Cornish|Manx|"
                              r"French|Dutch|Spanish|Flemish|Swiss|\w+ese)$")


def _other_faiths(context: str, original: str, regions: list[Region]) -> frozenset[str]:
    """The faiths (`entries.faiths_of`) that the context's words outside the mentions name,
    but the original's own."""
    found: set[str] = set()
    for start, faiths in entries.faith_mentions(context):
        if not _in_mention(start, regions):
            found |= faiths
    return frozenset(found - entries.faiths_of(original))


def _collective(context: str, start: int, end: int) -> bool:
    """Whether the people word at [start, end) names the people ("the French were ..."),
    not a thing of theirs ("the French army")."""
    return context[max(0, start - 4):start].lower() == "the " and \
        _COLLECTIVE_AFTER.match(context, end) is not None


# a place's name that begins with its people word but is no people's ("British Columbia")
_NAMED_AFTER_PEOPLE = re.compile(r" (?:Columbia|Guiana|Isles|Polynesia|Riviera|Honduras|"
                                 r"Somaliland|Guinea|Raj)\b")


def stem_words(text: str, stem: str) -> Iterator[tuple[int, int, str]]:
    """(start, end, ending) of each word of `text` made of `stem` and word characters, not
    joined to another by a hyphen: what `(?<![\w-])STEM(\w*)(?![\w-])` finds, without a
    pattern to compile for each stem (SQuAD train has thousands; each took 0.2 ms)."""
    at = text.find(stem)
    while at != -1:
        if at == 0 or not _word_or_hyphen(text[at - 1]):
            end = at + len(stem)
            while end < len(text) and (text[end].isalnum() or text[end] == "_"):
                end += 1
            if end == len(text) or text[end] != "-":
                yield at, end, text[at + len(stem):end]
                at = text.find(stem, end)
                continue
        at = text.find(stem, at + 1)


def _word_or_hyphen(ch: str) -> bool:
    return ch.isalnum() or ch in "_-"  # `[\w-]`: str's isalnum is re's \w without "_"


def _people_options(stem: str, place: str, ending: str, norps: frozenset[str]) -> list[str]:
    """The people words of `place` (whose stem is `stem`) that the bank holds, plural as
    `ending` is, the one with `ending` first. The stem alone is one where the name only
    loses a "y" ("Germany": German, "Turkey": Turks), never where it loses more ("Romania":
    Romanian, not Roman)."""
    core = place.split()[0] if place.split()[-1] in _STATE_WORDS else place
    bare_ok = core[len(stem):] in ("", "y", "ey")
    plural = ending.endswith("s")
    return [stem + e for e in (ending, *_PEOPLE_ENDS) if e.endswith("s") == plural
            and stem + e in norps and (bare_ok or e not in ("", "s"))]


def places_of_people(index: SamplingIndex) -> Mapping[str, str]:
    """People word -> the bank's place it is made of ("Mexican" -> "Mexico", "Czechs" ->
    "Czech Republic"): the first place in the bank's order that makes it."""
    def build() -> dict[str, str]:
        norps, found = index.text_set("NORP"), {}
        places = index.texts.get("GPE") or ()
        for place in places:
            stem = place_stem(place)
            for ending in (("", "s") if stem else ()):
                for word in _people_options(stem, place, ending, norps):
                    found.setdefault(word, place)
        # ... and the words that are no stem's ("French": France, "Dutch": the Netherlands)
        held = frozenset(places)
        for word, place in namekinds.PLACE_OF_IRREGULAR.items():
            if word in norps and place in held:
                found.setdefault(word, place)
        return found
    return index.cached("places_of_people", build)  # type: ignore[return-value]


def place_spans(entities: Sequence[Entity]) -> tuple[tuple[int, int], ...]:
    """Where NER found places in the context: a people word's place is swapped there only
    ("Jeffersonian" is made of "Jefferson", a person in its context)."""
    return tuple((e.start, e.end) for e in entities if e.label in _PEOPLE_TYPES)


def place_words(context: str, original: str, regions: list[Region], index: SamplingIndex,
                places: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """For a people word ("Mexican"), where the context names its place ("Mexico",
    `places_of_people`) as a place (`places`) outside the word's mentions: "the
    Mexican–American War ... ceded by Mexico" would keep Mexico beside the new people."""
    place = places_of_people(index).get(original)
    if place is None:
        return []
    # ... by any of its names: "British dominance ... Britain emerged as the principal naval
    # power" had become "Dutch dominance ... Britain emerged", the bank's place of "British"
    # being the United Kingdom; the longest name first ("Great Britain", not its "Britain")
    names = sorted({place, *namekinds.names_of_irregular_place(original)},
                   key=lambda n: (-len(n), n))
    found: list[tuple[int, int]] = []
    for name in names:
        found += [(s, e) for s, e in boundary_matches(context, name)
                  if not _in_mention(s, regions)
                  and not any(a < e and s < b for a, b in found)
                  and any(a <= s and e <= b for a, b in places)]
    return sorted(found)


def new_place(context: str, people: str, index: SamplingIndex,
              at: Sequence[tuple[int, int]] = ()) -> str | None:
    """The bank's place of the people word `people` (`places_of_people`) that the context
    does not name already and that takes "the" where the old place at `at` has it, or
    None ("used in Japan" had become "used in Roman Empire")."""
    place = places_of_people(index).get(people)
    if place is None or contains_ci(context, place):
        return None
    the = namekinds.takes_the(place)
    return None if any((_article_before(context, s) == "the") != the for s, _ in at) else place


def people_pieces(candidate: str, words: list[tuple[int, int, str]],
                  norps: frozenset[str]) -> list[str] | None:
    """The candidate place's people word for each of `words`, one the bank holds as NORP,
    plural where the old one is ("Czech Republic": "Soviets" -> "Czechs"); None when it
    has none ("Lagos")."""
    stem = place_stem(candidate)
    own = namekinds.irregular_people(candidate)
    own = own if own in norps else None
    pieces = []
    for _, _, ending in words:
        plural = ending.endswith("s")
        if own and (not plural or ending == IRREGULAR_PLURAL):
            options = [own]  # "Mexican" -> "French", "French" -> "Spanish", "the Dutch"
        elif stem is None:
            return None
        elif ending in (IRREGULAR, IRREGULAR_PLURAL):
            # the new place's adjective ("French power" -> "Mexican power"), or its plural
            # said of the people ("to the French." -> "to the Mexicans.")
            options = _people_options(stem, candidate, "s" if plural else "", norps)
        else:
            options = _people_options(stem, candidate, ending, norps)
        if not options:
            return None
        pieces.append(options[0])
    return pieces


# a country's name that goes on with "of ..." ("the United States of America"): NER cut it
_OF_NAME_AFTER = re.compile(r" of (?:the )?[A-Z]")
# a name that a river, a bay or an island goes on with ("the Bagmati River", "the Taiwan
# Strait", "Palawan Island"): NER's name is only a part of the feature's ("the Congo River"
# had become "the United States River")
_FEATURE_AFTER = re.compile(
    r" (?:River|Creek|Sea|Ocean|Lake|Bay|Gulf|Strait|Straits|Channel|Canal|Mountains|Hills|"
    r"Island|Islands|Isles|Peninsula|Valley|Basin|Desert|Forest|Plain|Plains|Plateau|Falls|"
    r"Delta|Glacier|Range)\b")
# the nouns that make a fixed term of an ordinal before them: "In most first-world
# countries" had become "In most second-world countries", "the third person" (grammar's)
_FIXED_AFTER_ORDINAL = re.compile(r"(?i)[- ](?:world|party|parties|person|persons|class|hand|"
                                  r"rate|lady|reich|republic|estate)\b")
# "per second" is a unit of time; "was first used" an adverb's "first", which no other
# ordinal replaces ("it was second used")
_PER_BEFORE = re.compile(r"(?i)\bper\s+$")
_AUXILIARY_BEFORE = re.compile(r"(?i)\b(?:is|are|was|were|be|been|being|has|have|had)\s+$")
_PARTICIPLE_AFTER = re.compile(r"\s+(?:\w+ed|built|made|written|known|seen|given|taken|found|"
                               r"held|brought|sold|sent|won|shown|drawn|begun|spoken)\b")


def _no_ordinal(context: str, start: int, end: int) -> bool:
    """Whether NER's ORDINAL at [start, end) is no ordinal: a unit of time after "per", or
    an adverb between an auxiliary and a participle."""
    before = context[max(0, start - 12):start]
    return bool(_PER_BEFORE.search(before) or (
        _AUXILIARY_BEFORE.search(before) and _PARTICIPLE_AFTER.match(context, end)))


# a number word that is one half of a hyphenated number ("seventy-two", "twenty-five")
_TENS_BEFORE = re.compile(r"(?i)\b(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)-$")
_UNITS_AFTER = re.compile(r"(?i)-(?:one|two|three|four|five|six|seven|eight|nine|first|second|"
                          r"third|fourth|fifth|sixth|seventh|eighth|ninth)\b")


# the first words of holidays named after a weekday ("Good Friday", "Black Tuesday")
_NAMED_DAY = frozenset("Good Black Holy Ash Maundy Easter Palm Super Bloody Cyber Shrove "
                       "Whit Low Plough".split())


def _dash_joined(context: str, start: int, end: int) -> bool:
    """Whether a name is joined by a dash to another capitalised one: "the Ziehl–Neelsen
    stain", "the Michelson-Morley experiment" name a thing, not the person alone."""
    return bool(_DASH_BEFORE.search(context, max(0, start - 2), start)
                or _DASH_AFTER.match(context, end))


_DASH_BEFORE = re.compile(r"[A-Za-z][-–]$")
_DASH_AFTER = re.compile(r"[-–][A-Z]")
_HYPHEN_LOWER = re.compile(r"-[a-z]")  # "London-based", "US-built": no part of a name
_AFTER_ARTICLE = re.compile(r"\b(?:the|a|an)\s+([\w'’-]+)\s$", re.IGNORECASE)


def _word_after_article(context: str, start: int) -> str:
    """The word between an article and `start` ("the Royal Northern College": "Royal"),
    which `word_before` leaves out (a person's adjective or title there is no name)."""
    m = _AFTER_ARTICLE.search(context, max(0, start - 40), start)
    return m.group(1) if m else ""


_ACRONYM_TEXT = re.compile(r"[A-Z][A-Z&.]*[A-Z]\.?")


def short_form(context: str, original: str, regions: list[Region]) -> str | None:
    """The short form the context defines for the name: "(PCEEO)" right after a mention,
    starting with the name's first letter. It is swapped for the replacement's initials."""
    return short_form_after(context, original, (e for _, e, _ in regions))


def head_acronym(context: str, original: str, regions: list[Region], replacement: str
                 ) -> tuple[str, str] | None:
    """The short form the context defines for a longer name that opens with the original
    (`names.head_short_form`: "New York City Police Department (NYPD)" for "New York") and
    what it becomes: the replacement's initials in place of the original's ("The Utah City
    Police Department (NYPD)" had kept the old city's letters), or None (none, or the same
    letters). Refused where the new short form is said in the context already."""
    return _short_swap(context, original, [e for _, e, part in regions if part == FULL],
                       replacement)


def people_acronym(context: str, swaps: Sequence[tuple[int, int, str]]
                   ) -> tuple[str, str] | None:
    """`head_acronym` of a longer name that a swapped people word opens (`people_swaps`):
    "the Scottish National Party (SNP)", its Scotland swapped for Israel, had become "the
    Israeli National Party (SNP)"; now "(INP)"."""
    for s, e, new in swaps:
        if (found := _short_swap(context, context[s:e], [e], new)) is not None:
            return found
    return None


def _short_swap(context: str, name: str, ends: Sequence[int], replacement: str
                ) -> tuple[str, str] | None:
    """(old, new) short form of the longer name `name` opens at one of `ends`
    (`names.head_short_form`) for `replacement`, or None. Refused where the new one is in
    the context already: two things of one short form."""
    short = head_short_form(context, name, ends)
    if short is None:
        return None
    new = head_short_swap(name, short, replacement)
    if new == short:
        return None  # "Islamic" -> "Ismaili": the same letters
    if not initials(replacement) or boundary_matches(context, new):
        raise Refused(reasons.DEFINED_SHORT_FORM)
    return short, new


def acronym_swaps(text: str, acronym: tuple[str, str] | None) -> list[tuple[int, int, str]]:
    """Each mention of the `head_acronym`'s old short form in `text` with the new one."""
    if acronym is None:
        return []
    old, new = acronym
    return [(s, e, new) for s, e in same_case_matches(text, old)]


def with_swaps(question: str, context: str, extra: Sequence[tuple[int, int, str]],
               source: str | None = None) -> str:
    """The question with the context's other swaps (`people_swaps`, `acronym_swaps`: words
    that name what the entity is, not the entity) made in it too, each old word written as
    the context writes it: "What are the people who live in Hyderabad called?" had stayed so
    beside a context whose Hyderabad had become Persia (its people word "Hyderabadi" the
    swapped entity), and "How big is the NYPD?" beside "the UPD". Refused
    (`question_names_entity`) where a new word is in the `source` question (as the source
    has it, before any swap) already."""
    said: dict[str, str] = {}
    for s, e, new in extra:
        if context[s:e] != new:  # "Russian" of the Russian Republic and Russian Empire
            said.setdefault(context[s:e], new)
        # "a Finnish" -> "an Italian" (`_with_article`): "Finnish" alone is "Italian"
        old_word, new_word = _ARTICLE_LEAD.sub("", context[s:e]), _ARTICLE_LEAD.sub("", new)
        if old_word != context[s:e] and new_word != new and old_word != new_word:
            said.setdefault(old_word, new_word)
    found: list[tuple[int, int, str]] = []
    for old in sorted(said, key=len, reverse=True):  # "Albanians" before "Albanian"
        found += [(s, e, said[old]) for s, e in same_case_matches(question, old)
                  if not any(s < b and a < e for a, b, _ in found)]
    if any(boundary_matches(question if source is None else source, new)
           for _, _, new in found):
        # "Did America try to make Puerto Rico an English speaking territory?" would ask
        # of America and America
        raise Refused(reasons.QUESTION_NAMES_ENTITY)
    found.sort()
    return splice(question, [(s, e, 0) for s, e, _ in found], [new for _, _, new in found])[0]


_ARTICLE_LEAD = re.compile(r"^(?:an?|An?)\s+")


def with_short_form(context: str, regions: list[Region], short: str) -> list[Region]:
    """The mentions plus every whole-word, same-case mention of the short form."""
    taken = [(s, e) for s, e, _ in regions]
    extra = [(s, e, SHORT) for s, e in same_case_matches(context, short)
             if not any(s < b and a < e for a, b in taken)]
    return sorted(regions + extra)


def pool_keys(original: str, label: str, gender: str | None, *,
              name_gender: str | None = None, given: bool = False,
              place: str | None = None, kind: str | None = None,
              within: str | None = None) -> list[str]:
    """The pools a replacement of `original` is drawn from, in order (a looser one only when
    nothing of the first fits): same DATE / CARDINAL shape, same NORP form, acronym for
    acronym; for a person, a name of two parts where the original has two, of the gender
    the context fixes (if it fixes one: a rule). Where the context fixes none, the gender of
    the name itself (`name_gender`, "Zelda" never "Kim Il Sung") is a preference; a given
    name said alone (`given`: "Roger and I") takes a given name first. A place the context
    says is a city or a state (`place`, `said_as`) takes one of that kind first; so does a
    name of the kind the question asks for (`kind`, `asked`: "Near what river ...?"). A
    city the context names with its US state or its country after it (`within`,
    `state_after`: "Chicago, Illinois", "Dublin, Ireland") takes one of those first."""
    own = _own_keys(label, original)
    if own is None:
        raise Refused(reasons.MALFORMED_ENTITY)
    if label == PERSON:
        size = own[0]
        g = gender or name_gender
        keys = [f"{GIVEN}:{g}" if g else GIVEN] if given else []
        keys.append(f"{size}:{g}" if g else size)
        return keys if gender or not g else keys + [size]
    keys = [k for k in own if not entries.is_state_key(k)]
    city = place == namekinds.CITY or namekinds.CITY in keys  # "Dublin" is a county too
    if label == "GPE" and within and city:
        # "founded St. Augustine, Florida" had become "founded Los Angeles, Florida",
        # "traced to Dublin, Ireland" "traced to Dublin, Switzerland": a city of the state,
        # then of its country, then of its continent
        state = [entries.in_state(within)] if "-" in within else []
        keys = list(dict.fromkeys([*state, *entries.place_keys(namekinds.CITY, within[:2]),
                                   *keys]))
    elif label == "GPE" and place and place not in keys and namekinds.COUNTRY not in keys:
        # "in downtown Washington" (a state by its name): a city first; a country's own
        # name says nothing ("the State of Israel"). A state of a known country said as a
        # city takes a city of its country first, then a state of it: "the Japanese city of
        # Hiroshima" (a prefecture too) had become "... of Chicago"
        code = next((k.partition(":")[2] for k in keys if k.startswith(_KINDS_OF_PLACE)), "")
        keys = (entries.place_keys(place, code) if code else [place]) + keys
    elif label == "GPE" and place:
        # ... and a state named for its city ("Hiroshima", "Manchester"; `entries.fit_keys`)
        # said as a city takes a city first ("in downtown Washington", never "Nevada")
        keys = [k for k in keys if k.startswith(place)] + [
            k for k in keys if not k.startswith(place)]
    elif label != "GPE" and kind and kind not in keys:
        keys.insert(0, kind)
    return keys


_KINDS_OF_PLACE = (namekinds.CITY + ":", namekinds.STATE + ":")
# the types whose names may name a country ("Bank of England", "Australian Open" does not)
_LAND_NAMED = frozenset({"ORG", "FAC", "EVENT", "LAW"})


@lru_cache(maxsize=1 << 14)  # a pure function of the entity, which several rows may share
def _own_keys(label: str, original: str) -> tuple[str, ...] | None:
    """The pool keys of the entity itself (`pool_keys` adds what its context says), or None
    for one that nothing can fit."""
    if label == PERSON:
        if not entries.well_formed(PERSON, original):
            return None  # NER's error: "KSEE", "the Golden"
        return (entries.regnal_key(original) if entries.is_regnal(original) else (
            ANY if entries.person_size(original) < 2 else "2"),)
    if not entries.well_formed(label, original):
        return None  # no known shape: nothing can fit it
    if label == "NORP" and namekinds.is_country(original):
        return None  # "the Tajikistan government": no people's word
    if entries.office(label, original):
        return None  # "the title of Maharaja", "John's Yongle Emperor"
    if label == "PRODUCT" and entries.common_word(original):
        # "the Beagle voyage", "Obelisk", "Eclipse", "Viceroy": a common word NER took for
        # a product (the bank's products hold no such words to draw either)
        return None
    return tuple(k or ANY for k in entries.draw_keys(label, original))


# the words right before a place that say which kind it is: "in downtown Washington", "the
# mayor of the town of Rueil-Malmaison" name a city; "the State of Washington" a state
_PLACE_CUE = re.compile(r"\b(?:(downtown|(?:city|town|village|mayor|suburbs?|outskirts) of)"
                        r"|(state of))\s+$", re.IGNORECASE)


def said_as(context: str, regions: list[Region], original: str = "") -> str | None:
    """"city" or "state" where the words before the mentions of a place say it is one (and
    none says otherwise), else None. A place that is no country or state of the lists and
    whose name says no other kind ("Hudson County", "Russian Empire"), named before its
    state or country ("Fort Polk, Louisiana"), is a city: "Korea, Louisiana" read wrong."""
    kinds = {namekinds.CITY if m.group(1) else namekinds.STATE
             for s, _, _ in regions if (m := _PLACE_CUE.search(context, max(0, s - 24), s))}
    if not kinds and namekinds.place_kind(original) not in (namekinds.COUNTRY, namekinds.STATE) \
            and namekinds.name_class(original) == "name" and any(
            (m := _PLACE_AFTER_COMMA.match(context, e))
            and namekinds.place_kind(m.group(1)) in (namekinds.COUNTRY, namekinds.STATE)
            for _, e, _ in regions):
        return namekinds.CITY
    return kinds.pop() if len(kinds) == 1 else None


def state_after(context: str, regions: list[Region]) -> str | None:
    """The ISO 3166-2 code of the US state or the ISO 3166 alpha-2 code of the country the
    context names after each whole mention of a place ("St. Augustine, Florida" -> "US-FL",
    "Caracas, Venezuela" -> "VE"), or None: no such state or country, or several."""
    found = {_state_or_country(m.group(1)) if m else None for _, e, part in regions
             if part == FULL for m in (_PLACE_AFTER_COMMA.match(context, e),)}
    return found.pop() if len(found) == 1 else None


def state_named(context: str, original: str, regions: list[Region]) -> str | None:
    """The ISO 3166-2 code of the US state of a city (`namekinds.city_state`) that the
    context names outside the city's mentions, as its own word with a capital ("Florida
    High Speed Rail was a proposed system that would have connected Miami, Orlando, and
    Tampa" -> "US-FL"), or None. A city of that state is drawn first (`pool_keys`'
    `within`): "... and New York City" had read wrong; with no state named, any city of the
    country fits, as before."""
    code = namekinds.city_state(original)
    name = namekinds.us_state_name(code) if code else None
    if not name or not contains_ci(context, name):
        return None
    return code if any(context[a:b] == name and not any(s < b and a < e for s, e, _ in regions)
                       for a, b in boundary_matches(context, name)) else None


def _state_or_country(name: str) -> str | None:
    return namekinds.us_state(name) or namekinds.country_alpha2(name)


# ", Louisiana" after a place: the state or country it is in (a name of one or two words,
# not a list's next item: "Kosovo, Afghanistan, Somalia", "Washington, Alaska, Montana, and
# Idaho")
_PLACE_AFTER_COMMA = re.compile(r",\s+([A-Z][\w.]*(?:\s[A-Z][\w.]*)?)"
                                r"(?!\s*,\s*(?:and\s+|or\s+)?[A-Z])")


_WAR_CLASSES = frozenset({"conflict", "battle"})


def war_takes_the(name: str) -> bool:
    """Whether a war's or battle's name is said with "the": all but the world wars
    ("World War II", "World War One")."""
    return not name.startswith("World War")


def _article_fits(context: str, regions: list[Region]) -> bool:
    """Whether "the" can go before every whole mention: after a space or at the start, not
    after a word joined to it ("pre-World War II") or another article."""
    return all(part != FULL or (s == 0 or context[s - 1] in " \n\t(\"“") and not
               _article_before(context, s) for s, _, part in regions)


def war_article(context: str, original: str, label: str, regions: list[Region],
                replacement: str) -> bool:
    """Whether the swap puts "the" before the replacement: a war said with "the" for a
    world war said without it ("During World War II" -> "During the Korean War")."""
    return (label == "EVENT" and namekinds.name_class(original) in _WAR_CLASSES
            and not war_takes_the(original) and war_takes_the(replacement)
            and not _said_with_the(context, regions))


_WORLD_WAR = re.compile(r"World War (I|II|One|Two)\b|(First|Second) World War|WW(I|II)\b")


def world_war(name: str) -> int | None:
    """1 or 2 for a name of a world war, however written ("World War Two", "the Second
    World War", "WWII"); None for any other name."""
    m = _WORLD_WAR.search(name)
    if not m:
        return None
    word = next(g for g in m.groups() if g)
    return 1 if word in ("I", "One", "First") else 2


# the years of each world war: a year its sentence sets in one stays in it
_WAR_YEARS = {1: (1914, 1918), 2: (1939, 1945)}


def war_years(context: str, regions: list[Region], year: int | None) -> tuple[int, int] | None:
    """The years of the world war that a mention's sentence names, when the original year
    lies in them: "During the Second World War, the United States built Wideawake airport
    on Ascension in 1942" had become "... in 1965"."""
    if year is None or not _WORLD_WAR.search(context):  # most contexts name none
        return None
    for a, b in sentence_spans(context):
        if any(a <= s < b for s, _, _ in regions):
            for m in _WORLD_WAR.finditer(context, a, b):
                war = world_war(m.group(0))
                first, last = _WAR_YEARS[war] if war else (0, -1)
                if first <= year <= last:
                    return first, last
    return None


# a four-yearly event named after its year: the Olympic Games (winter ones since 1994 two
# years off the summer ones), the football, rugby and cricket world cups, the
# Commonwealth, Asian and Pan American Games, the European Championship, an American
# presidential election
_FOUR_YEARLY = re.compile(
    r"(?:[ \u00a0]+[A-Z][\w.]*)?[ \u00a0]+(?:(?:Summer |Winter )?(?:Olympics|Olympic Games|"
    r"Paralympics|Paralympic Games)|World Cup|(?:Commonwealth|Asian|Pan American) Games|"
    r"European Championships?|[Pp]residential [Ee]lection)\b")


def four_yearly(context: str, regions: list[Region], year: int | None
                ) -> tuple[int, bool] | None:
    """The original's year and whether it names a winter Olympics, where every mention is
    that year before a four-yearly event's name ("the 1984 Summer Olympics", "the 2006 FIFA
    World Cup", "the 1960 presidential election"); else None."""
    if year is None:
        return None
    found = [_FOUR_YEARLY.match(context, e) for _, e, _ in regions]
    if not found or not all(found):
        return None
    return year, any("Winter" in m.group(0) for m in found if m)


def _in_cycle(cycle: tuple[int, bool], year: int | None) -> bool:
    """Whether `year` is an edition's year of the event of `cycle` (`four_yearly`): four
    years apart from the original's, and for a winter Olympics on the same side of 1993
    (1992 and 1994 both were)."""
    first, winter = cycle
    return year is not None and (year - first) % 4 == 0 and (
        not winter or (year > 1993) == (first > 1993))


def _said_with_the(context: str, regions: list[Region], possessive: bool = False) -> bool:
    """Whether the context says "the" before every mention of the whole name: "Present-day
    Mali ... the Mali Empire" says "Mali" without it (the "the" is the Empire's). With
    `possessive`, "its", "their", "his" ... count as "the": "the state manages all water
    through its Arizona Department of Water Resources" takes a "Department of ...", as
    "the" would."""
    full = [s for s, _, part in regions if part == FULL]
    return bool(full) and all(_article_before(context, s) == "the" or (
        possessive and _POSSESSIVE_BEFORE.search(context, max(0, s - 7), s)) for s in full)


_POSSESSIVE_BEFORE = re.compile(r"(?<!\w)(?:its|their|his|her|our|your)\s+$", re.IGNORECASE)


_WORD_AFTER = re.compile(r"\s+([a-z][a-z-]*)")


def _words_after(context: str, regions: list[Region]) -> list[str | None]:
    """The lower-case word right after each whole mention that "the" may belong to (no
    function word), or None there."""
    found = (_WORD_AFTER.match(context, e) for _, e, part in regions if part == FULL)
    return [m.group(1) if m and m.group(1) not in entries.FUNCTION_WORDS else None
            for m in found]


def drops_the(context: str, original: str, label: str, regions: list[Region],
              question: str = "") -> bool:
    """Whether an organisation with no word of its kind (`namekinds.name_class` "name":
    "the Observer", not "the National Journal", a paper) may lose the "the" before each of
    its mentions to a replacement said without one ("condemned by the Observer" ->
    "condemned by Hampshire Constabulary"): the "the" is the name's own (no noun after it,
    `_noun_after`; no second name sharing it, `_SHARED_THE`; no acronym), and the question
    does not name it. Else only the few names the corpus says "the" before fitted, and
    they were drawn again and again ("the MacBook Air", "the Ocarina of Time": about 70
    SQuAD train rows each)."""
    if _ACRONYM_TEXT.fullmatch(original):
        return False  # "the FBI", "the BBC", "the USSR", "the UK": theirs
    if label == "GPE":
        # ... and so may a country's ("the Soviet Union", "the United States"), at each
        # mention whose "the" is its own (`_country_the`): only the score of countries said
        # with "the" had fitted it, and the Soviet Union had become "the Czech Republic" in
        # 46 SQuAD train rows, most of them of the Cold War. "Australia, Canada, New
        # Zealand, and the United Kingdom ... Canada, United Kingdom, and New Zealand" had
        # become "... and the Israel"
        return (namekinds.place_kind(original) == namekinds.COUNTRY
                and any(_country_the(context, s, e) for s, e, part in regions if part == FULL)
                and not any(w and not _past_tense(w) for w in _words_after(context, regions))
                and not boundary_matches(question, original))
    return (label == "ORG" and namekinds.name_class(original) == "name"
            and _said_with_the(context, regions) and not _noun_after(context, regions)
            and not any(_SHARED_THE.match(context, e) for _, e, part in regions
                        if part == FULL)
            and not boundary_matches(question, original))


# the past tenses that do not end in "-ed" of the verbs a country does most in a story
# ("the Soviet Union built ...", "the United States won ..."): no noun for "the" to be for
_IRREGULAR_PAST = frozenset("""
began became broke brought built bought came chose did drew fell fought forbade found gave
got grew held kept knew led left lost made meant met overtook paid ran rose said saw sent
set shot sold sought spent split stood struck swept taught told thought threw took
undertook went withdrew won wrote
""".split())


def _past_tense(word: str) -> bool:
    """Whether a lower-case word after a name reads as a verb in the past tense, not as a
    noun the name modifies ("the Soviet Union invaded", "... built"; not "... government")."""
    return word.endswith("ed") or word in _IRREGULAR_PAST


def _country_the(context: str, start: int, end: int) -> bool:
    """Whether a mention of a country has "the" before it that is its own: not a longer
    name's ("the United States Navy", "the Soviet Union–Afghanistan war"). In a list each
    country's "the" is its own ("the Czech Republic, Slovakia")."""
    return _article_before(context, start) == "the" and not _LONGER_THE.match(context, end)


def keeps_the(replacement: str, label: str, index: SamplingIndex) -> bool:
    """Whether a replacement drawn where the original's "the" may go (`drops_the`) takes the
    "the": a country by its name ("the Netherlands"), any other name as the corpus says it
    (`takes_the`)."""
    return namekinds.takes_the(replacement) if label == "GPE" else takes_the(replacement, index)


# "the Observer and Guardian": the "the" is both names'; "the FAO London Guidelines",
# "the Rayleigh–Jeans law": the longer name's
_SHARED_THE = re.compile(r"\s*(?:(?:,|and|or|&)\s+)?[A-Z]|[–-]")
# ... "the United States Navy", "the Soviet Union–Afghanistan war": the longer name's
_LONGER_THE = re.compile(r"\s*[A-Z]|[–-]")


def without_the(context: str, regions: list[Region], label: str = "ORG") -> list[Region]:
    """`regions`, each whole mention with the "the" before it (`drops_the`); a country's
    only where the "the" is its own (`_country_the`)."""
    out = []
    for s, e, part in regions:
        own = part == FULL and (label != "GPE" or _country_the(context, s, e))
        m = _article_at(context, s) if own else None
        out.append((m.start() if m and m.group(1).lower() == "the" else s, e, part))
    return out


def _noun_after(context: str, regions: list[Region]) -> bool:
    """Whether a lower-case word that "the" may belong to follows a whole mention: "the
    Forbes list", "the ACC tournament"; not "the Bristol Trade School (founded 1856)", "the
    Sorbonne and ...", where the "the" is the name's own."""
    return any(_words_after(context, regions))


def names_language(text: str, index: SamplingIndex, family: bool = False) -> bool:
    """Whether a people word also names a language ("Spanish", "Catalan", "Greek"; not
    "British", "Parisian"): ISO 639-3's names, the bank's LANGUAGE entries or a language's
    stage or register ("Middle Dutch", `entries.norp_kind`); with `family`, a family of
    languages instead ("Germanic", "Iranian": ISO 639-5's)."""
    if family:
        return namekinds.is_language_family(text) or text.lower() in entries.LANGUAGE_FAMILIES
    return namekinds.is_language(text) or text in index.text_set("LANGUAGE") or (
        " " in text and entries.norp_kind(text) == entries.LANGUAGE)


def _nouns_after(context: str, regions: list[Region]) -> bool:
    """Whether each whole mention is followed by a lower-case word that reads as a noun it
    names: neither a function word nor a past tense ("the Helwan steelworks", "the Sichuan
    earthquake"; not "the Soviet Union collapsed", "the Soviet Union led to ...")."""
    words = _words_after(context, regions)
    return bool(words) and all(w and not w.endswith("ed") for w in words)


_ARTICLE_BEFORE = re.compile(r"(?<!\w)(the|a|an)\s+$", re.IGNORECASE)


def _article_at(context: str, start: int) -> re.Match[str] | None:
    """The article right before `start` ("the ", "An "), or None. word_before says nothing
    at a sentence start; an article there still counts."""
    return _ARTICLE_BEFORE.search(context, max(0, start - 5), start)


def _article_before(context: str, start: int) -> str:
    m = _article_at(context, start)
    return m.group(1).lower() if m else ""


_PLURAL_POSSESSIVE = re.compile(r"['’](?![A-Za-z])")  # "East Resources' gas fields"
_DATE_PART = re.compile(rf"\b(?:{shapes.MONTHS}|\d{{3,4}})\b", re.IGNORECASE)


def question_date_parts(question: str, original: str, label: str) -> tuple[str, ...]:
    """The month names and years of a DATE that the question names too ("On what day in
    May" for "May 25"): a replacement keeps them, or the question asks about a month the
    context no longer has."""
    if label != "DATE" or not question or boundary_matches(question, original):
        return ()  # naming the whole date, the question gets the same swap
    # the case as written: "may" in "What may ..." is no month
    return tuple(part for part in (m.group(0) for m in _DATE_PART.finditer(original))
                 if any(question[a:b] == part for a, b in boundary_matches(question, part)))


def question_name_parts(question: str, original: str, label: str) -> tuple[str, ...]:
    """The capitalised words of a place's or organisation's name that the question names
    without the whole name ("In what part of Europe ...?" for "Eastern Europe"): a
    replacement keeps them ("Western Europe", never "Central America"). So is the name's
    head word where the question asks for one by it in lower case ("What film festival
    ...?" for "Cannes Film Festival", "What Amtrak station ...?" for "Pennsylvania
    Station"): those had been answered "New Year's Eve" and "Miami International Airport",
    the kind of name (`namekinds.name_class`) holding more than one head word."""
    if label not in _NAME_TYPES or label == PERSON or not question or \
            boundary_matches(question, original):
        return ()  # naming the whole name, the question gets the same swap
    words = original.split()
    # the head word's position, where the name has one of letters after another word
    head = len(words) - 1 if len(words) > 1 and words[-1].isalpha() else -1
    return tuple(w for i, w in enumerate(words) if len(w) > 2 and w[0].isupper()
                 and w.lower() not in entries.FUNCTION_WORDS
                 and any(question[a:b] == w or (i == head and question[a:b] == w.lower())
                         for a, b in boundary_matches(question, w)))


def fit(context: str, original: str, label: str, regions: list[Region], keys: list[str],
        index: SamplingIndex, row_id: str, *, seed: int, min_ratio: float,
        max_ratio: float, max_attempts: int, present_year: int, question: str = "",
        nearby: Mapping[str, Sequence[str]] | None = None,
        others: Sequence[str] = (), places: Sequence[tuple[int, int]] = (),
        answer: tuple[str, int, int] | None = None, era: int | None = None) -> str | None:
    """A replacement from the pool `key`: within the length ratio, not overlapping the
    original, not in the context already (nor, for a person, any part of it), with no
    article of its own where the context puts one before the mention.

    `nearby` holds, per type, the bank's entities of the row's article (its other
    paragraphs, `sampling.pool_text` texts): one of them that fits is drawn first, so that
    the replacement belongs to the story (`core/nearby.py`); else one of the whole bank.
    `others` are the names of the context's other entities (`other_names`): a replacement
    that contains one is refused. `era`: the year the row's story is set in
    (`core.eras`), which a person or an event of its time is preferred for."""
    sig = set(_significant(original)) if label == PERSON else set()
    # the bank's people, for a one-word name that with another name of the context makes one
    persons = index.text_set(PERSON) if label == PERSON else frozenset()
    # a place said with "the" gets one said with "the", and one without gets one without
    the_place = label in _THE_TYPES and _said_with_the(context, regions)
    # ... except one that names the noun after it at each mention ("the Helwan steelworks"):
    # that "the" is the noun's, and any name but an "X of Y" fits ("the Chicago area" had
    # taken "the City of New York area" or "the Bronx area", the few places said with "the")
    modifier = the_place and _nouns_after(context, regions)
    # an organisation named with "the" ("the University of Libya", "the Financial Times")
    # gets one the corpus says "the" before or an "X of Y", never "the Shaw University"; one
    # without gets no "X of Y" ("at University of Paris"). "the Forbes list", "the ACC
    # tournament": there "the" is the list's, and anything fits.
    the_org = label == "ORG" and _said_with_the(context, regions, possessive=True)
    # a war is said with "the" ("the Korean War"), a world war without ("during World War
    # II"): "Since World War II" had become "Since Korean War"
    war = label == "EVENT" and namekinds.name_class(original) in _WAR_CLASSES
    the_war = war and _said_with_the(context, regions)
    # ... where "the" can go before each mention, it comes with a war for a world war
    # ("During World War II" -> "During the Korean War"; `war_article`)
    the_fits = war and not the_war and _article_fits(context, regions)
    ww = world_war(original) if label == "EVENT" else None
    org_the = label == "ORG" and (
        not the_org or _of_name(original) or index.said_with_the(original))
    # ... unless the "the" can go with it (`drops_the`): then any fits, and one said with
    # "the" keeps it
    dropping = drops_the(context, original, label, regions, question)
    org_the = org_the and not dropping
    # ... and where the "the" is plainly the name's own ("back to the Bristol Trade School
    # (founded 1856)", no noun after it for the "the" to be for), one said with "the" is
    # preferred: "the Harvard University" reads wrong. A preference, as a rule it cost 147
    # rows of SQuAD train whose kind ("school") has no such name in the bank.
    own_the = the_org and not org_the and not dropping and not _noun_after(context, regions)

    # a year, decade or century keeps the story's order of events (core/chronology.py)
    spans = [(s, e) for s, e, _ in regions]
    year = chronology.year_of(original) if label in _YEAR_TYPES else None
    years, of = _order(context, spans, original, label, year, present_year)
    wartime = war_years(context, regions, year)
    # "since the 1984 Summer Olympics" never "since the 1971 Summer Olympics": a year that
    # names an edition of a four-yearly event keeps its place in the cycle
    cycle = four_yearly(context, regions, year) if label == "DATE" else None

    # the first letter's case as the context has it ("vary by over 10%", "More than 50% of")
    upper = {context[s].isupper() for s, _, _ in regions if context[s].isalpha()}
    # whether every mention opens a sentence
    opens = all(_sentence_start(context, s) for s, _, _ in regions)
    # "Two of them ..." opens a sentence: a number word or date the bank holds in lower case
    # ("six") takes a capital there, as any word would ("Six of them")
    capitalise = label not in _NAME_TYPES and upper == {True} and opens

    # an "X of Y" title said with "the" ("The Treaty of Küçük Kaynarca of 1774 ended the
    # war") keeps the "the" (`base_text`), so it takes an "X of Y" too: "The Pumping Iron of
    # 1774" reads wrong. Before, the "the" went with the title ("Treaty of Paris of 1774
    # ended the war").
    the_title = label in _TITLES and _of_name(original) and _said_with_the(context, regions)

    # "had forced Between 100,000 and 130,000 civilians": an amount or a date the bank holds
    # capitalised (it opened a sentence there) opens a sentence here too, or is refused
    # (an original that opens with a letter says the case itself: `upper`)
    lead_lower = label not in _NAME_TYPES and not upper and not opens
    # "from Between 1815 and 1830": a preposition before a mention takes no candidate that
    # opens with another one
    own_lead = entries.leading_word(original)
    governed = label not in _NAME_TYPES and any(
        word_before(context, s).lower() in entries.PREPOSITIONS for s, _, _ in regions)

    # the word before or after a whole mention is no word of the replacement said again:
    # "supported the Labour Party" had become "the Green Party Party", "the September issue
    # of Vogue magazine" "of Time Magazine magazine", "Since about 1940" "Since since 1939"
    beside = [(_ANY_WORD_BEFORE.search(context, max(0, s - 40), s),
               _ANY_WORD_AFTER.match(context, e))
              for s, e, part in regions if part == FULL]
    before_words = {m.group(1).casefold() for m, _ in beside if m}
    after_words = {m.group(1).casefold() for _, m in beside if m}

    # "a" or "an" before a mention: the replacement must take the same ("an 80%", "a 17%")
    indefinite = {_article_before(context, s) for s, _, _ in regions} & {"a", "an"}
    # ... and "a" before a bare scale word is its figure ("a hundred"): another scale word
    # alone goes there, never a count ("Over a hundred bird species" had become "Over a
    # four million bird species")
    scale_word = bool(indefinite) and label == "CARDINAL" and _bare_scale(original)

    # a full stop right after a mention ("the U.S. movement" with the entity "U.S")
    stop_after = any(e < len(context) and context[e] == "." for _, e, _ in regions)

    # a short form defined in the context becomes the replacement's initials: two or more
    has_short = any(part == SHORT for _, _, part in regions)

    # "ISPs" becomes "ESAs": an acronym that takes a plural "s" ("CBSs" does not)
    plural = any(part == PLURAL for _, _, part in regions)

    # "East Resources' gas fields": a plural's bare apostrophe needs a name ending in s
    bare_apostrophe = any(_PLURAL_POSSESSIVE.match(context, e) for _, e, _ in regions)

    # "King Henry", "Pope Pius": a one-word name after a sovereign's title takes a
    # sovereign's name, one word or a regnal one ("King Jimmy Iovine" read wrong)
    reigning = label == PERSON and " " not in original.strip() and any(
        _SOVEREIGN_BEFORE.search(context, max(0, s - 12), s) for s, _, _ in regions)

    # a given name and a surname said side by side apart from the whole name ("the
    # publishing house John Murray", of "John Murray III") need a replacement of two parts
    # or more: "William IV" had made it "the publishing house William William"
    side_by_side = label == PERSON and any(
        a[2] != FULL and b[2] != FULL and b[0] - a[1] == 1 and context[a[1]] == " "
        for a, b in zip(regions, regions[1:]))

    # an ordinal that counts centuries ("the 11th and 12th centuries") is one of the centuries
    # up to the present's, below the next of its pair and above the one before it ("During
    # the 99th and 12th centuries", "late 4th and early 6th centuries" for "5th" had read)
    centuries = chronology.century_bounds(context, spans, present_year) \
        if label == "ORDINAL" else None

    # "at least eight districts" never "at least one districts": one is singular
    one = entries.counts_one(original) if label == "CARDINAL" else None

    # "67 tribes, up from 40": the new figure stays above 40; one of a ranked list keeps
    # its rank (core/arithmetic.py)
    amount = (arithmetic.bounds(context, regions[0][0], regions[0][1])
              if label in _AMOUNT_TYPES and len(regions) == 1 else None)

    # the figure must change, not its hedge alone ("About 30" had become "Approximately 30")
    same_figures = arithmetic.figures(original) if label in _AMOUNT_TYPES else ()
    # ... nor a hedge of its kind alone, in words too ("around ten years" had become "about
    # ten years", "over half" "more than half"; "the late 1850s" may become the mid 1850s)
    hedged = (shapes.core(original), shapes.hedge(original)) \
        if label in _AMOUNT_TYPES | _YEAR_TYPES else None
    # ... and a range runs the way the original runs: "fell from 27% to 8%" never "fell from
    # 10% to 15%", "3500–3100 BC" never "1,000-3,000"
    runs = arithmetic.direction(original) if label in _AMOUNT_TYPES | _YEAR_TYPES else 0

    # "450 miles (720 km)": the bracket is worked out anew for the replacement (`apply`),
    # which needs one number and the original's words around it
    convs = conversions(context, regions, label)
    country = namekinds.country_code(original) if label == "GPE" else None
    others_folded = [(name, name.casefold()) for name in others]

    # the question's month or year ("On what day in May ...?") stays in the date
    keep = question_date_parts(question, original, label)
    # the words of the name that the question names: kept where a replacement with them
    # fits, else the question reads as before (the row is no worse than without the rule)
    named = question_name_parts(question, original, label)

    # "the Spanish language" names a language: the new people word must name one too
    # ("the British language" read wrong)
    # ("Indo-European languages", plural, names a family: "Russian languages" read wrong)
    tongue = [m.group(1).lower() == "languages" for _, e, _ in regions
              if label == "NORP" and (m := _LANGUAGE_AFTER.match(context, e))]
    # ... and so does one a text is translated into, written or spoken in: "he was then able
    # to translate the Bible into German" had become "... into Swiss"
    tongue += [False for s, _, _ in regions
               if label == "NORP" and _IN_LANGUAGE_BEFORE.search(context, max(0, s - 60), s)]
    # ... and one that answers a question about a language, where it names one: "What
    # languages did Victoria study?" "French, German, Italian, and Latin" had become
    # "French, German, British, and Latin", and "From what language does Universitas come?"
    # "Cartesian" (a family of languages takes one: "What language family is English in?"
    # "Germanic")
    if label == "NORP" and not tongue and _ASKS_LANGUAGE.search(question):
        tongue = [False] if names_language(original, index) else \
            [True] if names_language(original, index, family=True) else []

    in_context = contains_ci_in(context)
    # nor a name the question says for something else: "What television network in Asia
    # shows American Idol?" had been answered "American Idol", and "On which continent other
    # than Europe is the Premier League especially popular?" "Europe"
    question_low = question.lower()
    homes = places_of_people(index) if label == "NORP" else {}
    # "in the mid-19th century" (a noun) never "in the early 20th-century" (an adjective)
    hyphened = label == "DATE" and _CENTURY_HYPHEN.search(original) is not None

    def accept(cand: str) -> bool:
        if in_context(cand) or entries.starts_with_article(cand):
            return False  # an article of its own: "the the", "at The Pokémon Company"
        if cand.lower() in question_low and boundary_matches(question, cand):
            return False
        if label == "NORP" and (in_context(_other_number(cand)) or (
                (home := homes.get(cand)) and in_context(home))):
            # "the Catholics ... the Catholic church", "Frederick of Prussia ... the
            # Prussians retreated": that people is in the context already
            return False
        if label == "DATE" and (_CENTURY_HYPHEN.search(cand) is not None) != hyphened:
            return False
        if country and namekinds.country_code(cand) == country:
            return False  # "Persia" for "Iran" is the same country: nothing would change
        folded = cand.casefold()  # a substring test first: the word match is the costly part
        if any(low in folded and boundary_matches(cand, name) for name, low in others_folded):
            return False  # "Germany ... consulted with the Federal Republic of Germany"
        if label == "ORG" and _party_named_apart(context, regions, cand):
            return False  # "the Liberals' coalition partner, the Liberal Party"
        if stop_after and cand.endswith("."):
            return False  # "CSA.." 
        if has_short and (len(initials(cand)) < 2 or _ACRONYM_TEXT.fullmatch(cand)
                          or boundary_matches(context, initials(cand))):
            return False
        if indefinite and (len(indefinite) > 1 or ("an" in indefinite) != namekinds.takes_an(
                cand, year=label == "DATE")):
            return False
        if (lead_lower or governed) and (lead := entries.leading_word(cand)) and (
                lead_lower and cand[0].isupper()
                or governed and lead in entries.PREPOSITIONS and lead != own_lead):
            return False
        if (before_words or after_words) and _said_again(cand, before_words, after_words):
            return False
        if scale_word and not _bare_scale(cand):
            return False
        if centuries and not centuries[0] < (chronology.ordinal_number(cand) or 0) < centuries[1]:
            return False
        if indefinite and label == "ORDINAL" and cand.lower() == "second":
            return False  # a fraction: "amount to a third of exports", never "a second"
        if label not in _NAME_TYPES and cand[0].isalpha() and (
                len(upper) > 1 or upper and cand[0].isupper() not in upper
                and not (capitalise and cand[0].islower())):
            return False
        if the_title and not _of_name(cand):
            return False
        if modifier and _of_name(cand):
            return False
        if tongue and not names_language(cand, index, family=any(tongue)):
            return False
        if label in _THE_TYPES and not modifier and not dropping \
                and namekinds.takes_the(cand) != the_place:
            return False
        if org_the and takes_the(cand, index) != the_org:
            return False
        if war and war_takes_the(cand) != the_war and (the_war or not the_fits):
            return False  # a world war after "the"; a war where "the" cannot go before it
        if ww and world_war(cand) == ww:
            return False  # "World War Two" for "World War II" is the same war
        if not chronology.keeps_order(years, cand, of):
            return False
        if wartime and not wartime[0] <= (chronology.year_of(cand) or 0) <= wartime[1]:
            return False  # a year of the war its sentence names stays one
        if cycle and not _in_cycle(cycle, chronology.year_of(cand)):
            return False
        if bare_apostrophe and not cand.endswith("s"):
            return False
        if plural and not (_PLAIN_ACRONYM.fullmatch(cand) and not cand.endswith("S")):
            return False
        if not arithmetic.within(amount, cand):
            return False
        if same_figures and arithmetic.figures(cand) == same_figures:
            return False  # "about 9,000" -> "around 9,000" changes no fact
        if hedged and _hedge_alone(hedged, cand):
            return False
        if runs and arithmetic.direction(cand) == -runs:
            return False
        if any(arithmetic.rescaled(c, context, context[s:e], cand) is None
               for (s, e, _), c in convs):
            return False
        if answer and (at := part_after(answer[0], cand, answer[1], answer[2])) and \
                cand[at[0]:at[1]].casefold() == answer[0][answer[1]:answer[2]].casefold():
            return False  # "2010" of "February 2010" stays "2010" in "September 2010"
        if one is not None and entries.counts_one(cand) != one:
            return False
        if any(not boundary_matches(cand, part) for part in keep):
            return False
        if label == PERSON:
            parts = _significant(cand)
            if set(parts) & sig or any(boundary_matches(context, p) for p in parts):
                return False
            if reigning and " " in cand and not entries.is_regnal(cand):
                return False
            if side_by_side and len(parts) < 2:
                return False
            if " " not in cand and any(f"{o} {cand}" in persons or f"{cand} {o}" in persons
                                       for o in others):
                return False  # "Bonaparte told Napoleon": the bank's Napoleon Bonaparte
            if f"{cand} {original}" in persons or f"{original} {cand}" in persons:
                return False  # "Tito" for "Josip Broz": the bank's Josip Broz Tito, the same man
        return True

    # a name whose head word says what it is ("Battle of Covadonga", NER's ORG) may take a
    # name of that kind that NER typed otherwise ("Battle of Hastings", an EVENT) when its
    # own type has none that fits
    pools = [(label, key) for key in keys]
    kind = next((k for k in keys if not k.startswith(entries.HEAD)), None)
    if label in _NAME_TYPES and kind in namekinds.HEAD_CLASSES:
        pools += [(other, kind) for other in _KIND_TYPES if other != label]

    def keeps_named(cand: str) -> bool:
        return all(boundary_matches(cand, part) for part in named)

    # a place whose people the context names too: one whose people word the bank holds
    norps = index.text_set("NORP") if label in _PEOPLE_TYPES else frozenset()
    people = people_words(context, original, regions, norps) if norps else []

    # ... and a people whose place the context names too: one whose place the bank holds,
    # not in the context already
    at_place = place_words(context, original, regions, index, places) \
        if label == "NORP" else []
    # ... and a people word said in its other number too: one the bank holds in both
    numbered = [(s, e) for s, e in other_number_words(context, original, regions)
                if not any(a < e and s < b for a, b in at_place)] if label == "NORP" else []
    if numbered:
        norps = index.text_set("NORP")

    # a country the context places in a region it names takes one of that region where one
    # fits ("the largest economy in the Balkans": Greece never Great Britain)
    region = namekinds.named_region(context, original) if label == "GPE" else None

    def in_region(cand: str) -> bool:
        return region is not None and namekinds.country_code(cand) in region

    # "To confuse the British, radio silence was observed": a people word said for the
    # people takes one that can be ("the French", "the Chinese"; "To confuse the American"
    # read wrong). A preference: a row is never lost to it
    collective = label == "NORP" and any(_collective(context, s, e) for s, e, _ in regions)

    def says_people(cand: str) -> bool:
        return _COLLECTIVE_FORM.search(cand) is not None

    # ... and a party the context names by its own word alone: one of one word and "Party"
    by_word = label == "ORG" and bool(party_words(context, original, regions))

    def says_party_word(cand: str) -> bool:
        return _ONE_WORD_PARTY.fullmatch(cand) is not None

    # a faith's people for another's: never a branch of a faith the story names apart ("the
    # Muslim and Christian world" had become "the Muslim and Sunni world")
    faiths = _other_faiths(context, original, regions) if label == "NORP" else frozenset()

    def apart_in_faith(cand: str) -> bool:
        return not entries.faiths_of(cand) & faiths

    def has_people(cand: str) -> bool:
        if at_place and new_place(context, cand, index, at_place) is None:
            return False
        if numbered and _other_number(cand) not in norps:
            return False
        return bool(at_place or numbered) or people_pieces(cand, people, norps) is not None

    # a round figure ("about 500", "10,000 shrines") takes a round one where one fits
    round_wanted = label in _AMOUNT_TYPES and arithmetic.round_figure(original)
    # ... a whole one for a whole one: "around 40 per cent" had become "approximately 2.4
    # per cent" (two figures, but no round one)
    whole = _DECIMAL.search(original) is None

    def is_round(cand: str) -> bool:
        return (arithmetic.significant_figures(cand) or 9) <= 2 and not (
            whole and _DECIMAL.search(cand))

    # an amount of one figure a figure of its scale, within `_SCALE_RATIO` times, where one
    # fits: the shape keeps only the digits up to three, so "2,700 acres" had become
    # "5,200,000 acres" and "a bounty of 5,000 francs" "500,000 francs" (192 of the 5,945
    # such SQuAD train rows had moved twenty times or more)
    # ... and a span of time of one figure likewise ("about 200,000 years" had become "about
    # 5.2 years", "125,000 years old" "five years old")
    scale = _one_figure(original) if label in _AMOUNT_TYPES or (
        label == "DATE" and shapes.shape(label, original) == "duration") else None

    def near_scale(cand: str) -> bool:
        other = _one_figure(cand)
        return scale is not None and other is not None and \
            max(other, scale) <= _SCALE_RATIO * min(other, scale)

    # a range of years takes a range of years and one of counts one of counts, where one
    # fits: "Under the Qing dynasty (1644–1911)" had become "(211-280)", "10 to 15" "1987–2005"
    ranged = label == "CARDINAL" and len(arithmetic.figures(original)) == 2
    of_years = ranged and arithmetic.year_range(original)

    def same_range(cand: str) -> bool:
        return len(arithmetic.figures(cand)) == 2 and arithmetic.year_range(cand) == of_years

    # ... and one of about its width and scale: "the Third Dynasty of Ur ... for about a
    # century (approximately 2100-2000 BC)" had become "(about 1750 to 500 BC)"
    width = arithmetic.span(original) if label in _AMOUNT_TYPES | _YEAR_TYPES else None

    def same_span(cand: str) -> bool:
        other = arithmetic.span(cand)
        return width is not None and other is not None and \
            width[0] / _SPAN_RATIO <= other[0] <= width[0] * _SPAN_RATIO and \
            width[1] / _SCALE_RATIO <= other[1] <= width[1] * _SCALE_RATIO

    # a range of years keeps the context's other years where they were, before, inside or
    # after it: "Suleiman the Magnificent (1520–1566) captured Belgrade in 1521" had become
    # "(1908–1922)". The least of the preferences: few ranges of the bank fit most stories
    placed = _years_placed(context, regions, original, present_year) \
        if label in _YEAR_TYPES else None

    def in_place(cand: str) -> bool:
        return placed is not None and placed(cand)

    # a day of the year keeps its order among the context's other days of no year, where
    # one fits ("captured Beijing on June 6. The Shunzhi Emperor was invested on October
    # 30" had become "... on May 27": 57 SQuAD train rows had moved a day past another)
    day = chronology.day_of_year(original) if label == "DATE" else None
    days = chronology.days_outside(context, [(s, e) for s, e, _ in regions]) if day else []

    def in_day_order(cand: str) -> bool:
        return day is not None and chronology.same_day_order(day, days,
                                                             chronology.day_of_year(cand))

    # an age keeps to its stage of life and is written the same way, in figures or in
    # words: "since the age of 18" had become "since the age of 81" for a singer in her
    # thirties, "consecrated as a virgin at the temple at age three" "at age 39"
    age = shapes.age_years(original) if label in _YEAR_TYPES and \
        shapes.shape(label, original) in shapes.AGES else None

    def near_age(cand: str) -> bool:
        other = shapes.age_years(cand)
        return age is not None and other is not None and other[1] == age[1] and \
            age[0] / _AGE_RATIO <= other[0] <= age[0] * _AGE_RATIO

    # a century keeps near its own, where nothing in the context places it: "appellate
    # decisions from many American courts were not regularly reported until the mid-19th
    # century" had become "until the mid-2nd century" (a third of the century swaps of
    # SQuAD train moved five centuries or more)
    century = chronology.century_of(original) if label == "DATE" else None

    def near_century(cand: str) -> bool:
        other = chronology.century_of(cand)
        # (a century before Christ is negative: "the 2nd century BC" is no neighbour of
        # "the 2nd century")
        return century is not None and other is not None and \
            abs(other - century) <= _CENTURY_SPAN

    # a year that opens or closes a range the context states ("between July 2004 and July
    # 2006", "from 1959 to 1975") stays about as far from the range's other end: "The Fed
    # raised the rate between October 1853 and July 2006", "The Vietnam War was fought
    # between 1917 and 1975" read wrong
    end = _range_end(context, regions) if year is not None else None

    def near_end(cand: str) -> bool:
        other = chronology.year_of(cand)
        return end is not None and other is not None and \
            abs(other - end) <= max(_END_RATIO * abs(year - end), abs(year - end) + _END_SLACK)

    # a person or an event of the story's time: "in the presence of Nikita Khrushchev,
    # Yeltsin signed a decree" (of 1991), "The Battle of Actium, the first major engagement
    # of the insurgency" (of 1810) read as errors. A name of the row's article is of its
    # story's time, dated or not (`_pools_in_order` draws those first, as before)
    known = index.eras.get(label) if era is not None and label in eras.ERA_TYPES else None
    named_here = (nearby or {}).get(label) if known else None
    story = index.per_article((_NAMED, label), named_here, lambda: frozenset(named_here)) \
        if named_here else frozenset()

    def in_era(cand: str) -> bool:
        # an event that names its year is of that year, wherever the articles name it:
        # "the Revolution of 1848" in a story of 1794 reads wrong, told in its article or not
        dated = chronology.years_in(cand) if label == "EVENT" else ()
        if dated and era is not None:
            return eras.of_its_time(dated[0], era)
        return cand in story or (known is not None and era is not None
                                 and eras.of_its_time(known.get(cand), era))

    # ... and a person's name written with an initial ("Melvyn C. Goldstein", "P. Christiaan
    # Klieger") is of modern times: in a story set before them it comes last, even where its
    # article names it (a historian the article cites is of its story's article, not of its
    # time). "Töregene Khatun" (a story of 1241) had become "Melvyn C. Goldstein", and a
    # samurai of 1547 "Samuel L. Jackson"
    # (an original written so keeps the style: "J. S. Bach" may become "C. P. E. Bach")
    old_story = label == PERSON and era is not None and era < eras.INITIALS_SINCE \
        and _INITIAL.search(original) is None

    def plain_name(cand: str) -> bool:
        return _INITIAL.search(cand) is None

    # a body, a building or an event that names a country is replaced by one that names
    # that country or none: "In 1976 the High Court of Australia held that Norfolk Island
    # is a part of the Commonwealth" had become "... the United States Court of Appeals
    # held ..." (for a name that names none, a preference for names that name none had
    # drawn "World Bank" for 104 rows)
    lands = namekinds.countries_in(original) if label in _LAND_NAMED else frozenset()

    def same_land(cand: str) -> bool:
        return namekinds.countries_in(cand) <= lands

    # accept() and the preferences that apply: all of them, then without the first left, ...
    # (a people word that names a people where the original does outweighs all else; a name
    # written without an initial, in a story set before such names, outweighs a name of the
    # story's time, which outweighs the rest; a year near its range's other end outweighs
    # an age or a century near the original's, which outweighs a country named as the
    # original names one, which outweighs a party's own word swapped with it, which
    # outweighs the place's people swapped with it, which
    # outweighs a country of the region named, which
    # outweighs "the" read right, which outweighs a word of the question kept, which
    # outweighs a range of the same kind, which outweighs a range of its width and scale,
    # which outweighs a figure of its scale, which outweighs a round figure, which outweighs
    # a day or a range of years that keeps the context's other days or years where they
    # were)
    prefs = [p for p, on in ((in_place, placed is not None), (in_day_order, bool(days)),
                             (is_round, round_wanted), (near_scale, scale is not None),
                             (same_span, width is not None),
                             (same_range, ranged),
                             (keeps_named, bool(named)),
                             (lambda cand: takes_the(cand, index), own_the),
                             (in_region, region is not None),
                             (has_people, bool(people or at_place or numbered)),
                             (says_party_word, by_word),
                             (same_land, bool(lands)),
                             (near_age, bool(age)),
                             (near_century, century is not None),
                             (near_end, end is not None),
                             (in_era, bool(known)),
                             (plain_name, old_story),
                             (says_people, collective),
                             (apart_in_faith, bool(faiths))) if on]

    def level(cand: str) -> int:
        """The first level whose preferences `cand` meets: one past the last it fails."""
        for i in range(len(prefs) - 1, -1, -1):
            if not prefs[i](cand):
                return i + 1
        return 0

    overlaps = overlap_test(original)
    # Each candidate is checked once per row (`_memo`): the levels walk the same candidates,
    # and the pools share some. Without preferences every candidate is of level 0.
    level_of = _memo(level) if prefs else lambda cand: 0
    fits = _memo(lambda cand: not overlaps(cand) and accept(cand))

    def pools_of(etype: str, key: str) -> Callable[[], Sequence[Pool]]:
        local = nearby.get(etype) if nearby else None
        return lambda: _pools_in_order(index, etype, key, local, original)

    def visit(pool: Pool) -> Iterator[str]:
        return visits(pool[0], pool[1], original, row_id, seed=seed, min_ratio=min_ratio,
                      max_ratio=max_ratio, max_attempts=max_attempts, probe=PROBE)

    found = cascade([pools_of(etype, key) for etype, key in pools], len(prefs) + 1,
                    level_of, fits, visit)
    if found is None:
        return None
    if original.startswith("the ") and _of_name(found) and not found.lower().startswith("the "):
        # the original's own "the" (a law's or a work's, which NER's span holds) goes with
        # an "X of Y", which the pools hold without it: "with the updating of the Comics
        # Code" had become "with the updating of Bill of Rights"
        return "the " + found
    return upper_first(found) if capitalise else found


def _bare_scale(text: str) -> bool:
    """Whether `text` is a scale word alone ("hundred", "a dozen", "Thousand")."""
    return text.strip().lower().removeprefix("a ") in _SCALE_ALONE


# number words that scale a count ("fifteen hundred", "a dozen")
_SCALE_ALONE = ("hundred", "thousand", "million", "billion", "trillion", "dozen", "score")


def _one_figure(text: str) -> float | None:
    """The one number of an amount, in digits or in words ("about 13,040", "fifteen
    years"), or None: none, several (a range), or zero."""
    digits = arithmetic.figures(text)
    if len(digits) > 1 or (not digits and _SCALED_WORDS.search(text)):
        return None  # "fifteen hundred", "one third": a count in words below a hundred only
    found = digits[0] if digits else arithmetic.word_value(text)
    return found if found else None


# number words that scale or divide a count in words ("fifteen hundred" is no fifteen)
_SCALED_WORDS = re.compile(r"\b(?:%s|half|halves|third|quarter|fifth|sixth|seventh|eighth|"
                           r"ninth|tenth)s?\b" % "|".join(_SCALE_ALONE), re.IGNORECASE)


def _party_named_apart(context: str, regions: list[Region], cand: str) -> bool:
    """Whether a party's name (`namekinds.name_class` "party") has a word that the context
    says outside the mentions, alone or as its plural, and not in a longer name: that word
    names another party of the story ("the Liberals' coalition partner, the Country Party"
    had become "..., the Liberal Party"). "the Liberal Democrats" is another name: a party
    beside them may still be the Liberal Party."""
    if namekinds.name_class(cand) != "party":
        return False
    for word in (w.strip(".,'’()") for w in cand.split()):
        if word[:1].isupper() and word.lower() not in _PARTY_GENERIC:
            for s, e in boundary_matches(context, word) + boundary_matches(context, word + "s"):
                if not _in_mention(s, regions) \
                        and not _CAPITAL_AFTER.match(context, e):
                    return True
    return False


_CAPITAL_AFTER = re.compile(r" [A-Z]")  # the next word goes on with the name


# a party named by one word and "Party" ("the Labour Party", "Whig Party"): that word alone
# names it too ("26% for Labour", "the Conservatives believed")
_ONE_WORD_PARTY = re.compile(r"(?:the |The )?([A-Z][a-z]+) Party")
# "National Republicans": another name ("A Labour member", "In Labour's view": not one)
_NAME_WORD_BEFORE = re.compile(r"([A-Z][\w'’-]*) $")


def party_words(context: str, original: str, regions: list[Region]) -> list[tuple[int, int]]:
    """Where the context names the party `original` ("the Labour Party") by its own word
    alone or in the plural ("26% for Labour", "Churchill and the Conservatives"), outside
    the mentions and in no longer name ("National Republicans", "Labour Day")."""
    m = _ONE_WORD_PARTY.fullmatch(original)
    if m is None:
        return []
    word = m.group(1)
    found = []
    for s, e in boundary_matches(context, word) + boundary_matches(context, word + "s"):
        if context[s:e] in (word, word + "s") and not _in_mention(s, regions) \
                and not _CAPITAL_AFTER.match(context, e) \
                and not ((before := _NAME_WORD_BEFORE.search(context, max(0, s - 40), s))
                         and before.group(1).lower() not in entries.FUNCTION_WORDS):
            found.append((s, e))
    return sorted(found)


def party_word_swaps(context: str, original: str, regions: list[Region], replacement: str
                     ) -> list[tuple[int, int, str]]:
    """`party_words` with the replacement's own word in their place, plural where the old
    one is ("Conservatives" -> "Liberals"); none where the replacement is no party of one
    word and "Party" (`fit` prefers one that is)."""
    new = _ONE_WORD_PARTY.fullmatch(replacement)
    old = _ONE_WORD_PARTY.fullmatch(original)
    if new is None or old is None:
        return []
    plural = len(old.group(1)) + 1  # "Conservatives": the word and its "s"
    return [_with_article(context, s, e, new.group(1) + ("s" if e - s == plural else ""))
            for s, e in party_words(context, original, regions)]


# the words a party's name shares with many others': no one party's
_PARTY_GENERIC = frozenset({"party", "the", "of", "and", "for", "national", "people's",
                            "peoples", "democratic", "republic", "front", "union"})


def cascade(groups: Sequence[Callable[[], Sequence[Pool]]], levels: int,
            level_of: Callable[[str], int], fits: Callable[[str], bool],
            visit: Callable[[Pool], Iterable[str]]) -> str | None:
    """The first candidate, level by level (0 to `levels` - 1), then group by group, pool by
    pool, in each pool's visit order, whose level is at most the level's and that fits.

    That is what a fresh walk of each pool at each level gives. But a row's draws depend on
    the row, not on the test, and a pool's walk that ends without a find at one level has
    checked every candidate of that level or below. So the next level walks only the
    candidates that were of a higher level (`pending`). Over SQuAD train there were 1.26M
    candidate checks, 588k of them distinct, when each level walked afresh."""
    # each pool's candidates left for a higher level, with their levels (worked out once)
    pending: dict[tuple[int, int], list[tuple[int, str]]] = {}
    # each group's pools, looked up once: each level walks them again
    resolved: list[Sequence[Pool] | None] = [None] * len(groups)
    for at in range(levels):
        for g, pools in enumerate(groups):
            found = resolved[g]
            if found is None:
                found = resolved[g] = pools()
            for p, pool in enumerate(found):
                tried = pending.get((g, p))
                left: list[tuple[int, str]] = []
                pending[g, p] = left
                walk = ((level_of(cand), cand) for cand in visit(pool)) \
                    if tried is None else tried
                for level, cand in walk:
                    if level > at:
                        left.append((level, cand))
                    elif fits(cand):
                        return cand
        if not any(pending.values()):
            return None  # every candidate of every pool checked
    return None


# any word right before or after a mention (`_said_again`); unlike `names.word_before`, a
# word that opens a sentence counts too ("Since since 1939")
_ANY_WORD_BEFORE = re.compile(r"([\w'’-]+)[ \u00a0]+$")
_ANY_WORD_AFTER = re.compile(r"[ \u00a0]+([\w'’-]+)")
_EDGE_WORDS = re.compile(r"[\w'’-]+")


def _said_again(cand: str, before: set[str], after: set[str]) -> bool:
    """Whether `cand` opens with a word of `before` or ends with one of `after` (casefolded
    words next to a mention): that word would be said twice."""
    first, last = _edge_words(cand)
    return first in before or last in after


@lru_cache(maxsize=1 << 16)  # a pure function of a bank text, which many rows draw
def _edge_words(text: str) -> tuple[str, str]:
    """The first and the last word of `text`, casefolded ("" for none)."""
    found = _EDGE_WORDS.findall(text)
    return (found[0].casefold(), found[-1].casefold()) if found else ("", "")


def _hedge_alone(original: tuple[str, str], cand: str) -> bool:
    """Whether `cand` is the original's date or number (its `shapes.core` and hedge) with
    only another hedge of the same kind: an approximation or bound for another ("about",
    "around"; "over", "more than"), never one part of a period for another ("early",
    "late")."""
    core, hedge = original
    if shapes.core(cand) != core:
        return False
    other = shapes.hedge(cand)
    kind = entries.hedge_class(hedge)
    return other == hedge or (kind != "part" and entries.hedge_class(other) == kind)


def _memo(check: Callable[[str], _T]) -> Callable[[str], _T]:
    """`check`, each candidate's result kept for the rest of the row (a dict: cheaper to make
    per row than functools.cache)."""
    seen: dict[str, _T] = {}

    def once(cand: str) -> _T:
        found = seen.get(cand, _UNSEEN)
        if found is _UNSEEN:
            found = seen[cand] = check(cand)
        return found  # type: ignore[return-value]
    return once


def _pools_in_order(index: SamplingIndex, etype: str, key: str, local: Sequence[str] | None,
                    original: str = "") -> Sequence[Pool]:
    """Where a replacement of pool `key` is drawn from, in order: the names of the row's
    article (`local`, a name listed once per paragraph that names it) that belong to its
    story, then the whole bank's names of one story; then the rest of the article's, then
    the rest of the bank's. A famous name (`core.nearby.famous`) that the article names in
    one paragraph only is a passing mention, not its story's: "R&B producer John Lennon"
    (named once in the article on Beyoncé) reads wrong; Disraeli, named throughout the
    article on Queen Victoria, is hers, but only in a famous name's place: an obscure one's
    role is no famous one's ("former Yale president and professor George Washington",
    "In 1141 Spanish-Jewish poet, Yasser Arafat", both of their articles' stories)."""
    whole, obscure = index.pool(etype, key), index.obscure_pool(etype, key)
    if len(obscure[0]) < MIN_OBSCURE:
        # so few names of one story that one or two would replace every name of the pool
        # that its article does not give: "International Association for the Study of Pain",
        # the one such association of SQuAD train, had replaced 91 ("the Football
        # Association is the governing body ..."). The whole pool is drawn from as one
        obscure = whole
    unclassed = etype == "ORG" and key in _UNCLASSED and obscure is not whole
    if unclassed:
        # an organisation whose name says no kind: its article's names, then names several
        # articles name, then the rest. The bank's such names of one article are mostly
        # another type's that NER read as an organisation's a few times in that article
        # ("Bois de Vincennes", "Xbox Live Arcade", "Geovany Soto", "Otay Mesa"): drawn
        # first from the whole bank, 132 of them had replaced 2,402 SQuAD train
        # organisations ("the lighthouse known as INTEGRIS ...", "the New York Dragons did
        # not return" -> "the NFL Network did not return")
        wide: tuple[Pool, ...] = (index.famous_pool(etype, key), obscure)
    elif obscure is whole:
        wide = (whole,)
    else:
        wide = (obscure, whole)
    if not local:
        return wide
    # once per article (the rows of an article share its pools), and the article's names
    # sorted and its story's names picked once per type, not once per pool key
    ordered = index.per_article((_SORTED, etype), local, lambda: in_pool_order(local))
    if unclassed or obscure is whole:
        return index.per_article((etype, key), local,
                                 lambda: (index.nearby_pool(etype, key, ordered), *wide))
    famous = index.famous.get(etype) or frozenset()
    own_text = pool_text(etype, original)
    famous_original = own_text in famous
    times: Counter[str] = index.per_article((_TIMES, etype), local, lambda: Counter(local))
    # a person the article names throughout is its story's own figure, whom its reader knows:
    # one only for another such ("Beyoncé" may become "Michelle Williams"), never for a
    # passing name ("Lady Gaga's single" had become "Etta James's single", "Obama" "Kelly
    # Rowland", "Antoni Radziwiłł" "George Sand"; 353 SQuAD train rows)
    minor = etype == "PERSON" and times[own_text] < MAX_WEIGHT

    def story() -> list[str]:
        return [t for t in ordered if (t not in famous or (famous_original and times[t] > 1))
                and not (minor and times[t] >= MAX_WEIGHT)]

    def build() -> tuple[Pool, ...]:
        own = index.per_article((_STORY, etype, famous_original, minor), local, story)
        return (index.nearby_pool(etype, key, own), obscure,
                index.nearby_pool(etype, key, ordered), whole)
    return index.per_article((etype, key, famous_original, minor), local, build)


# a pool's names of one story (`SamplingIndex.obscure_pool`) are drawn first only when it
# has this many: fewer would each replace a large share of the pool's originals
MIN_OBSCURE = 8

# the first items of `SamplingIndex.per_article` keys of an article's sorted names, its
# story's names and the set of its names (no entity type is written so)
_SORTED, _STORY, _NAMED, _TIMES = "sorted", "story", "named", "times"

# the pool keys of an organisation whose name says no kind ("New York Dragons", "Hagia
# Sophia"): the bank's such names of one article are NER's errors more often than not
_UNCLASSED = frozenset({entries.MANY_WORDS, "name", entries.LOOSE + "name"})


def other_names(entities: Sequence[Entity], original: str) -> tuple[str, ...]:
    """The names of the context's other entities: not the original, nor a part of it, nor a
    name it is part of. A replacement that contains one reads as that one: "the Soviets
    responded that Germany was supposed to have consulted with the Soviet Union" had become
    "... with the Federal Republic of Germany"."""
    folded = original.casefold()
    names = {base_text(e.text, e.label) for e in entities if e.label in _NAME_TYPES}
    # a substring test first: the word match is the costly part
    return tuple(sorted(name for name in names if len(name) > 2 and not (
        name.casefold() in folded and boundary_matches(original, name)) and not (
        folded in name.casefold() and boundary_matches(name, original))))


def _order(context: str, spans: list[tuple[int, int]], original: str, label: str,
           year: int | None, present_year: int
           ) -> tuple[chronology.YearBounds | None, Callable[[str], int | None]]:
    """The bounds a replacement must keep among the context's other years, decades or
    centuries ("from the late 9th century ... in the early 11th century" never becomes "...
    in the late 8th century"), and how to read a candidate's."""
    bc_year = chronology.bc_year_of(original) if label in _YEAR_TYPES else None
    if bc_year is not None and chronology.before_christ(context, spans, original):
        # "founded a fort in 495 BC. Later in 473 BC, the State of Yue ..." had become
        # "Later in 937 BC": a plain number takes one that keeps the BC years' order
        return (chronology.bounds(context, spans, bc_year, present_year,
                                  chronology.bc_years_in),
                chronology.bc_year_of)
    if year is not None:
        return (chronology.bounds(context, spans, year, present_year,
                                  reach=chronology.YEAR_REACH), chronology.year_of)
    if label != "DATE":
        return None, chronology.year_of
    decade = chronology.decade_of(original)
    if decade is not None:
        return (chronology.bounds(context, spans, decade, present_year, chronology.decades_in),
                chronology.decade_of)
    century = chronology.century_of(original)
    if century is not None:
        return (chronology.bounds(context, spans, century,
                                  chronology.present_century(present_year),
                                  chronology.centuries_and_years_in),
                chronology.century_until(present_year))
    return None, chronology.year_of


# a range's other end after a mention ("... and July 2006", "to 1975"), and before one
# ("between 1642 and ...", "from 1816 to ..."): its year
_END_AFTER = re.compile(r"\s*(?:and|to|until|till|through|–|-)\s+(?:[A-Z][a-z]+\.?\s+)?"
                        r"(?:\d{1,2}(?:st|nd|rd|th)?,?\s+)?(\d{4})(?!\d)")
_END_BEFORE = re.compile(r"\b(?:between|from)\s+(?:[A-Z][a-z]+\.?\s+)?(?:\d{1,2}(?:st|nd|rd|th)?,?"
                         r"\s+)?(\d{4})\s*(?:and|to|until|till|through|–|-)\s*$")
_OPENS_RANGE = re.compile(r"(?:between|from)\s*$", re.IGNORECASE)
_END_RATIO, _END_SLACK = 3, 10  # how far a preferred year may lie from the range's other end


def _range_end(context: str, regions: list[Region]) -> int | None:
    """The year at a range's other end, where the first mention opens a range with "between"
    or "from" (its own, or the word before it) or closes one."""
    s, e, _ = regions[0]
    own = context[s:e].split(maxsplit=1)
    opens = (own and own[0].lower() in ("between", "from")) or \
        _OPENS_RANGE.search(context, max(0, s - 9), s) is not None
    if opens and (m := _END_AFTER.match(context, e)):
        return int(m.group(1))
    m = _END_BEFORE.search(context, max(0, s - 40), s)
    return int(m.group(1)) if m else None


def _years_placed(context: str, regions: list[Region], original: str, present_year: int
                  ) -> Callable[[str], bool] | None:
    """For a range of years whose context names other years, whether a candidate range puts
    each of them on the same side of it, or inside it, as the original does, and ends by
    the present (`present_year`, or the context's latest year if later); None otherwise."""
    own = arithmetic.years_of_range(original)
    if own is None:
        return None
    others = chronology.years_outside(context, [(s, e) for s, e, _ in regions])
    if not others:
        return None

    def side(year: int, first: int, end: int) -> int:
        return -1 if year < first else 1 if year > end else 0

    where = [side(y, *own) for y in others]
    latest = max(present_year, own[1], *others)

    def keeps(cand: str) -> bool:
        found = arithmetic.years_of_range(cand)
        return found is not None and found[1] <= latest and all(
            side(y, *found) == w for y, w in zip(others, where))
    return keeps


def _sentence_start(context: str, start: int) -> bool:
    """Whether `start` opens the context or a sentence (after ".", "!", "?", maybe a quote)."""
    before = context[:start].rstrip().rstrip("\"'“‘(")
    return not before or before[-1] in ".!?"


@lru_cache(maxsize=1 << 12)
def _other_number(people: str) -> str:
    """A people's word in the other number: "Prussians" -> "Prussian", "Prussian" ->
    "Prussians" ("Chinese", "Swiss", "French" are the same in both: the word itself)."""
    form = entries.norp_form(people) or ""
    if form.endswith(entries.PLURAL):
        return people[:-1]
    return people if people.endswith(("ese", "ss", "sh", "ch")) else people + "s"


def other_number_words(context: str, original: str, regions: list[Region]
                       ) -> list[tuple[int, int]]:
    """Where the context says a people word in its other number (`_other_number`:
    "Albanian" beside "Albanians"), outside the mentions and not as the first word of a
    longer name ("the Albanian Orthodox Church")."""
    other = _other_number(original)
    if other == original or not other[:1].isupper():
        return []
    return [(s, e) for s, e in same_case_matches(context, other)
            if not _in_mention(s, regions)
            and not _CAPITAL_AFTER.match(context, e)]


def takes_the(name: str, index: SamplingIndex) -> bool:
    """Whether a name is said with "the": an "X of Y", or one the corpus says "the" before."""
    return _of_name(name) or index.said_with_the(name)


def _of_name(name: str) -> bool:
    """"University of Libya", "Bank of England": a name said with "the"."""
    return " of " in name


def _piece(replacement: str, part: int, n_parts: int, mention: str = "") -> str:
    """What a `mention` of part `part` (of `n_parts`) becomes: the matching part of the
    replacement (first for the first name, last for the surname, with the replacement's
    own particles where the mention has the original's: "de Melo" -> "Pessoa", "von
    Neumann" -> "da Vinci", "Von Bredow" opening a sentence -> "Von Moltke")."""
    if part == FULL:
        return replacement
    if part == SHORT:
        return initials(replacement)
    if part == PLURAL:
        return replacement + "s"
    rep = _significant(replacement)
    if part == n_parts - 1:
        surname = name_parts(replacement).surname if " " in mention else ""
        if surname and mention[:1].isupper():
            surname = upper_first(surname)
        return surname or rep[-1]
    if part == 0:
        return rep[0]
    if len(rep) == n_parts:
        return rep[part]
    raise Refused(reasons.UNMAPPED_NAME_PART)


def splice(context: str, regions: list[Region], pieces: list[str]
           ) -> tuple[str, list[tuple[int, int]]]:
    """The context with each region replaced by its piece, and the pieces' new spans."""
    out: list[str] = []
    spans: list[tuple[int, int]] = []
    last = pos = 0
    for (s, e, _), piece in zip(regions, pieces):
        out.append(context[last:s])
        pos += s - last
        out.append(piece)
        spans.append((pos, pos + len(piece)))
        pos += len(piece)
        last = e
    out.append(context[last:])
    return "".join(out), spans


def answer_after(context: str, answer: str, answer_start: int | None, regions: list[Region],
                 spans: list[tuple[int, int]], text: str = "", parts_map: bool = False
                 ) -> tuple[int, int]:
    """[start, end) in the modified context `text` of what the answer span reads after the
    swap: the original span, widened to whole replaced regions where it overlaps one. With
    `parts_map` (dates and figures), an answer that is a part of one mention is the same
    part of its replacement where the two line up (`part_after`): "In what year ...?" is
    answered "1876", not "September 1876"."""
    a = _answer_at(context, answer, answer_start)
    if a < 0:
        raise Refused(reasons.ANSWER_NOT_SWAPPED)
    b = a + len(answer)
    hit = [i for i, (s, e, _) in enumerate(regions) if s < b and a < e]
    if not hit:
        raise Refused(reasons.ANSWER_NOT_SWAPPED)
    first, last = hit[0], hit[-1]
    if parts_map and first == last and regions[first][0] <= a and b <= regions[first][1] and (
            found := part_after(context[regions[first][0]:regions[first][1]],
                                text[spans[first][0]:spans[first][1]],
                                a - regions[first][0], b - regions[first][0])):
        return spans[first][0] + found[0], spans[first][0] + found[1]
    start = spans[first][0] - max(0, regions[first][0] - a)
    end = spans[last][1] + max(0, b - regions[last][1])
    return start, end


def _answer_at(context: str, answer: str, answer_start: int | None) -> int:
    """Where the answer starts in the context: its given start where the text is there,
    else its first occurrence in any case; -1 for none."""
    if answer_start is not None and context.startswith(answer, answer_start):
        return answer_start
    return context.lower().find(answer.lower())


def answer_part(context: str, answer: str, answer_start: int | None, regions: list[Region],
                label: str) -> tuple[str, int, int] | None:
    """Where the answer is a part of one mention of a date or figure ("2010" of "February
    2010"): (the mention, the part's [start, end) in it); else None. A replacement must
    change that part (`fit`), or the faithful answer would be the original one."""
    a = _answer_at(context, answer, answer_start)
    if label in _NAME_TYPES or a < 0:
        return None
    b = a + len(answer)
    for s, e, part in regions:
        if part == FULL and s <= a and b <= e and (s, e) != (a, b):
            return context[s:e], a - s, b - s
    return None


# a currency or per cent sign is a word of its own: "40%" of "about 40%" is a part of it,
# and so is "40" (the answer some annotators gave)
_TOKEN = re.compile(r"\d+(?:[.,]\d+)*|[^\W\d_]+|[$£€%]")


def _token_kind(token: str) -> int:
    """A number, a sign or a word (`_TOKEN`)."""
    return 0 if token[0].isdigit() else 1 if token in "$£€%" else 2


def part_after(mention: str, piece: str, a: int, b: int) -> tuple[int, int] | None:
    """Where in `piece` (what replaced `mention`) the part `mention[a:b]` is now: the same
    words by position, when the two have as many words and numbers, each of the same kind,
    and [a, b) spans whole ones ("1879" of "April 1879" is "1876" of "September 1876";
    "August" of "11 August" is "July" of "7 July"). None when they do not line up."""
    old, new = list(_TOKEN.finditer(mention)), list(_TOKEN.finditer(piece))
    if len(old) != len(new) or any(_token_kind(o.group()) != _token_kind(n.group())
                                   for o, n in zip(old, new)):
        return None
    first = next((i for i, t in enumerate(old) if t.start() == a), None)
    last = next((i for i, t in enumerate(old) if t.end() == b), None)
    if first is None or last is None or last < first:
        return None
    return new[first].start(), new[last].end()


def answer_starts(modified: str, answer: str, at: int) -> list[int]:
    """Every whole-word start of the faithful answer in the modified context (exact text),
    the answer span's own start included."""
    found = {s for s, e in boundary_matches(modified, answer) if modified[s:e] == answer}
    return sorted(found | {at})


def question_names(question: str, original: str, label: str, short: str | None = None
                   ) -> bool:
    """Whether the question names the swapped entity, or for a person a part of the name,
    or the short form the context defines for it, or an acronym's plural."""
    if boundary_matches(question, original) or (short and boundary_matches(question, short)):
        return True
    if label != PERSON:  # its plural ("ISPs")
        return any(part == PLURAL for _, _, part in mentions(question, original, label))
    return any(
        question[s:e] == p for p in _significant(original)
        for s, e in boundary_matches(question, p))


def swap_question(question: str, original: str, label: str, short: str | None,
                  replacement: str, context: str = "") -> str:
    """The question with the same swap as the context: each mention of the name (its parts,
    its short form) becomes its piece of the replacement ("What was Chopin's first name?"
    -> "What was Smith's first name?"). Refused (`question_names_entity`) where the
    replacement is in the question already, a part has no piece, or a mention runs on into
    a longer name of the `context`: "Who would absorb the good bank of Cyprus Popular
    Bank?" (of "the Cyprus Popular Bank") had become "... the good World Bank Popular
    Bank?" for the entity "Bank of Cyprus"."""
    if contains_ci(question, replacement):
        raise Refused(reasons.QUESTION_NAMES_ENTITY)
    regions = mentions(question, original, label)
    for s, e, _ in regions:
        # ... the context's longer name of another opening ("Cyprus Popular Bank"), where
        # the context never says this whole mention before that word ("Westminster Abbey"
        # of "Westminster" is said, and swapped, in the context too)
        if (after := _NAME_WORD_AFTER.match(question, e)) and same_case_matches(
                context, f"{question[s:e].split()[-1]} {after.group(1)}") and \
                not boundary_matches(context, f"{question[s:e]} {after.group(1)}"):
            raise Refused(reasons.QUESTION_NAMES_ENTITY)
    if short:
        regions = with_short_form(question, regions, short)
    n_parts = len(_significant(original))
    try:
        pieces = [_piece(replacement, part, n_parts) for _, _, part in regions]
    except Refused:
        raise Refused(reasons.QUESTION_NAMES_ENTITY) from None
    return splice(question, regions, pieces)[0]


# the capitalised word after a question's mention
_NAME_WORD_AFTER = re.compile(r" ([A-Z][\w'’-]*)")


def conversions(context: str, regions: list[Region], label: str
                ) -> list[tuple[Region, arithmetic.Conversion]]:
    """The mentions of an amount given in a second unit beside them, with that figure
    (`arithmetic.conversion`)."""
    if label not in _AMOUNT_TYPES:
        return []
    return [(r, c) for r in regions if (c := arithmetic.conversion(context, r[0], r[1]))]


def people_swaps(context: str, original: str, label: str, regions: list[Region],
                 replacement: str, index: SamplingIndex,
                 places: Sequence[tuple[int, int]] = ()) -> list[tuple[int, int, str]]:
    """The context's people words of the place `original` (`people_words`) with the
    replacement's in their place, or for a people word the mentions of its place with the
    new people's place (`place_words`): (start, end, new text); none where the replacement
    has no such word the bank holds (`fit` prefers one that has)."""
    if label == "ORG":  # "the Labour Party ... 26% for Labour": the new party's word
        return party_word_swaps(context, original, regions, replacement)
    if label == "NORP":  # "Mexican ... Mexico": the new people's place
        at = place_words(context, original, regions, index, places)
        place = new_place(context, replacement, index, at) if at else None
        swaps = [(s, e, place) for s, e in at] if place else []
        # ... and the people word in its other number: "levied (along with Albanians and
        # Serbs) ... of Greek (or Albanian or Serb) origin" had kept "Albanian" beside the
        # new people
        other = _other_number(replacement)
        if other in index.text_set("NORP"):
            swaps += [_with_article(context, s, e, other)
                      for s, e in other_number_words(context, original, regions)
                      if not any(a < e and s < b for a, b in at)]  # not a place's word too
        return sorted(swaps)
    if label not in _PEOPLE_TYPES:
        return []
    norps = index.text_set("NORP")
    words = people_words(context, original, regions, norps)
    pieces = people_pieces(replacement, words, norps) if words else None
    return [_with_article(context, s, e, piece)
            for (s, e, _), piece in zip(words, pieces)] if pieces else []


def _with_article(context: str, start: int, end: int, piece: str) -> tuple[int, int, str]:
    """A people word's swap (start, end, new text), with the "a" or "an" before it made the
    one the new word takes: "sold to St1, a Finnish energy company" had become "a Italian
    energy company", "any time spent by an Australian" "by an Russian"."""
    m = _article_at(context, start)
    if m is None or m.group(1).lower() not in ("a", "an"):
        return start, end, piece
    article = "an" if namekinds.takes_an(piece) else "a"
    if m.group(1).lower() == article:
        return start, end, piece
    said = article.capitalize() if m.group(1)[0].isupper() else article
    return m.start(1), end, f"{said}{context[m.end(1):start]}{piece}"


def apply(context: str, answer: str, answer_start: int | None, original: str,
          replacement: str, regions: list[Region], label: str = "",
          extra: Sequence[tuple[int, int, str]] = ()) -> Swap:
    """The swap itself: each mention replaced by its piece of the replacement, a figure
    that converts one into another unit worked out anew ("450 miles (720 km)" becomes
    "300 miles (480 km)"), and the answer span as it reads afterwards, with every start of
    it."""
    n_parts = len(_significant(original))
    pieces = [_piece(replacement, part, n_parts, context[s:e]) for s, e, part in regions]
    if label == PERSON:
        # a name opening a sentence opens with a capital, its particle too: "Stalin's
        # invasions were ..." had become "von Loesch's invasions were ..."
        pieces = [upper_first(piece) if _sentence_start(context, s) else piece
                  for (s, _, _), piece in zip(regions, pieces)]
    if war_article(context, original, label, regions, replacement):
        pieces = [("The " if _sentence_start(context, s) else "the ") + piece
                  if part == FULL else piece for (s, _, part), piece in zip(regions, pieces)]
    for (s, e, _), conv in conversions(context, regions, label):
        figure = arithmetic.rescaled(conv, context, context[s:e], replacement)
        if figure is None:  # fit() drew none such; a replacement given by hand may be
            raise Refused(reasons.TIED_FIGURE)
        regions = regions + [(conv.start, conv.end, CONVERTED)]
        pieces = pieces + [figure]
    for s, e, piece in extra:  # the place's people words (`people_swaps`)
        regions = regions + [(s, e, PEOPLE)]
        pieces = pieces + [piece]
    order = sorted(range(len(regions)), key=lambda i: regions[i][0])
    regions, pieces = [regions[i] for i in order], [pieces[i] for i in order]
    text, spans = splice(context, regions, pieces)
    start, end = answer_after(context, answer, answer_start, regions, spans, text,
                              parts_map=label not in _NAME_TYPES and label != "NORP")
    if any(part == CONVERTED and a < end and start < b
           for (_, _, part), (a, b) in zip(regions, spans)):
        # an answer with both figures ("1,214 km (754 mi)") would no longer be the
        # question's answer with the entity swapped in it, as readers check it
        raise Refused(reasons.TIED_FIGURE)
    faithful = text[start:end]
    return Swap(original, replacement, text, spans, faithful,
                answer_starts(text, faithful, start))
