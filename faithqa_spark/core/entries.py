"""What the coherent policy needs to know about a bank entry, from its text and type alone:
whether it is well-formed for its type, and the *fit key* that a replacement must share with
the original (a date's shape, a number's shape, a person's name-part count and gender, a
NORP's form). Computed once per entry when the sampling index is built.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Iterator

from spacy.lang.en.stop_words import STOP_WORDS

from faithqa_spark.core import shapes
from faithqa_spark.core.gender import given_name_known, name_gender
from faithqa_spark.core.names import (EPITHET_ARTICLE, HYPHEN_PARTICLE, PARTICLES, TITLES,
                                      name_parts)
from faithqa_spark.core.namekinds import (_ACRONYM, BIG_CITY, CITY, COUNTRY, FORMER, STATE,
                                          big_place, city_country, city_population, city_state,
                                          continent, continent_of_code,
                                          common_word, former_country, head_before_preposition,
                                          is_country,
                                          is_language, is_place_name, name_class, numeral,
                                          place_kind, state_country)

ARTICLES = frozenset({"the", "a", "an"})
# capitalised words a proper name may start with that are not names of their own
_FUNCTION = frozenset(w.lower() for w in STOP_WORDS)
FUNCTION_WORDS = _FUNCTION
NAME_TYPES = _NAME_TYPES = frozenset({"PERSON", "ORG", "GPE", "LOC", "NORP", "EVENT", "FAC",
                                      "WORK_OF_ART", "PRODUCT", "LANGUAGE", "LAW"})
_BETWEEN_DIGITS = re.compile(r"(?<=\d)[:/](?=\d)")
_BAD_CHARS = re.compile(r"[\[\]{}<>@#=|\\/_*^~\"“”;:!?]")
_DATEISH = re.compile(r"^(?:\d{2,4}s?|\d+(?:st|nd|rd|th))$")
# ("Archdiocese" ends like "Chinese" but is a church's district)
_NORP_BAD = re.compile(r"(?:ism|isms|ity|ment|ness|tion|diocese|dioceses)$", re.IGNORECASE)
# nationality / religion / party words: adjectives in -an/-ese/-ish/-ic/-i/-ist and the like,
# plural nouns in -s; anything else ("Delhi Sultanate", "Heemstede") is not a NORP word
_NORP_ADJ = re.compile(r"(?:an|ese|ish|ic|i|ist|ite|ch|ss|ox|al|ar|ive|ed|sh)$")
# NORP words that end otherwise
_NORP_WORDS = frozenset({
    "greek", "muslim", "hindu", "sikh", "mormon", "basque", "inuit", "zulu", "maori", "jew",
    "kurd", "turk", "serb", "croat", "celt", "slav", "arab", "moor", "copt", "tamil", "malay",
    "hutu", "tutsi", "bantu", "yoruba", "igbo", "roma", "lao", "quaker", "protestant",
    "catholic", "democrat", "tory", "whig", "sunni", "shia", "druze", "pashtun", "uyghur",
    "uighur", "inca", "aztec", "maya", "hmong", "khmer", "berber", "tuareg", "swede", "dane",
    "finn", "pole", "scot", "briton", "nepali", "somali", "bengali", "punjabi", "gujarati"})
# words that end like a group's word but name no group: "the realignment of the Christ and
# Republican parties" (drawn for "Democratic")
_NOT_NORP_WORDS = frozenset({"christ", "antichrist",
                             # regions named like a people word ("Japanese")
                             "peloponnese", "dodecanese", "chersonese"}) | frozenset(
    # the geological eras and periods: "a Devonian sea" names a time, not a people
    # ("particularly the French and Permian" would read wrong)
    """hadean archean archaean proterozoic precambrian paleozoic palaeozoic mesozoic cenozoic
    cambrian ordovician silurian devonian carboniferous mississippian pennsylvanian permian
    triassic jurassic cretaceous paleogene palaeogene neogene quaternary tertiary paleocene
    eocene oligocene miocene pliocene pleistocene holocene""".split())
# a name needs two letters in a row somewhere ("E-5" is no organisation)
_TWO_LETTERS = re.compile(r"[^\W\d_]{2}")
# a doctrine or movement: "Orphism", "Newtonianism" (never drawn; an original one is NER's error)
DOCTRINE = re.compile(r"\w+isms?$")
# first words of place names that are given names too ("San Ángel" is no person)
_PLACE_FIRST = frozenset({"san", "santa", "santo", "são", "sao", "fort", "port", "lake",
                          "mount", "new", "los", "las", "rio", "río", "porto", "puerto",
                          "cape", "saint", "st.", "st", "sainte",
                          # streets and squares: "Calle de Salvador" is no person
                          "calle", "rue", "rua", "avenida", "plaza", "piazza", "praça"})
ADJECTIVE, PLURAL = "adj", "plural"
_SLUR = re.compile(r"\b(?:nigg\w*|fagg?ot\w*|kike\w*|spic|spics|chink\w*|wetback\w*|retard\w*|"
                   r"tranny|trannies|gook\w*|dyke\w*|whore\w*|slut\w*|cunt\w*|fuck\w*|shit\w*)",
                   re.IGNORECASE)
# amounts other than DATE and CARDINAL: only the same skeleton fits ("12 percent" for
# "45 percent", "$3 million" for "$5 million", "9 p.m." for "3 p.m.", "4th" for "2nd")
MEASURE_TYPES = frozenset({"PERCENT", "MONEY", "QUANTITY", "TIME", "ORDINAL"})
_ORDINAL_WORD = re.compile(
    r"(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth"
    r"|thirteenth|fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth"
    r"|twentieth|thirtieth|fortieth|fiftieth|hundredth|thousandth|last)", re.IGNORECASE)


def without_the(text: str) -> str:
    """The text without a leading "the" ("The 1960s" -> "1960s"); "a century" keeps its "a",
    which is its number."""
    return text[4:] if text[:4] in ("the ", "The ") and len(text) > 4 else text


def words(text: str) -> list[str]:
    return text.split()


# a ship's prefix: the name is a vessel's, whatever type NER gave it
# ("MS Word" and "SMS" are no ships: left out)
_SHIP_PREFIXES = frozenset({"USS", "HMS", "HMAS", "HMCS", "HMNZS", "RMS", "SS", "USNS", "INS",
                            "HMT"})
_SHIPLESS_TYPES = frozenset({"GPE", "LOC", "PERSON", "ORG", "FAC", "NORP"})


# a match's score after a name ("Barcelona 11–1", "Arsenal 2-0")
_SCORE_AFTER = re.compile(r"\s\d{1,2}\s?[–-]\s?\d{1,2}$")
# the endings of the Linnaean ranks' names above the genus: families (-aceae, -idae),
# subfamilies (-oideae), orders (-iformes, -ptera), classes (-opsida, -phyceae) and divisions
# (-phyta, -mycota)
_TAXON = re.compile(r"\b[A-Z][a-z]+(?:aceae|idae|oideae|iformes|ptera|opsida|phyceae|phyta|"
                    r"mycota)\b")


def well_formed(etype: str, text: str) -> bool:
    """Whether a bank entry may be drawn by the coherent policy: no leading or trailing
    function word ("South the"), a capitalised proper name for name types with no digits in
    a PERSON and no date glued on ("the 2010s Apple"), a known shape for DATE and CARDINAL,
    a nationality, religious or political word for NORP."""
    ws = words(text)
    # a ratio or a fraction keeps its colon or slash between digits ("16:9", "1/3"); anywhere
    # else the character is NER's junk. (A time or a date so written is left out: "at about
    # 05:00 (5 a.m.)" and "Starting in 2010/2011" read wrong after their swaps.)
    plain = _BETWEEN_DIGITS.sub("", text) if etype == "CARDINAL" else text
    if not ws or _BAD_CHARS.search(plain) or text[-1] in ",;:-–(" or not _balanced(text):
        return False
    if _SLUR.search(text):
        return False  # NER junk that must never be drawn into a context
    first = ws[0].lower()
    if etype in ("DATE", "CARDINAL"):
        if etype == "CARDINAL" and _DOTTED.search(text):
            return False  # "24.000": thousands or a decimal? It had stood for "22.9"
        if shapes.shape(etype, text) == shapes.OTHER and not _SKELETON_SLOT.search(
                skeleton(text)):
            return False  # no known shape and no number or month for a skeleton ("annual")
        if _CENTURIES.search(text) and len(_ORDINAL_IN.findall(text)) == 1:
            return False  # "early 20th centuries": NER's cut of "the late 19th and early 20th"
        return not (ws[-1].lower() in _GLUE_WORDS or ws[-1].lower() in _DATE_TAIL)
    if etype in MEASURE_TYPES:
        key = _measure_key(text)
        # an ordinal word is the whole entity, never a word left dangling from another
        # ("first" and "third" are function words: 176 rows of SQuAD train had been refused)
        return key == "ordinal" or (key != "" and not _dangling(ws[-1]))
    if etype not in _NAME_TYPES:
        return True
    if not _TWO_LETTERS.search(text):
        return False  # "E-5", "C0": no name
    if _ERA.fullmatch(text.strip()):
        return False  # "the 3rd century BCE", NER's ORG, had become "the 3rd century UNESCO"
    if etype in _NO_PERIOD_TYPES and ws[-1] in _PERIOD_HEADS:
        # a span of time NER read as a place or a body: "date back to the Middle Ages"
        # (LOC) had become "date back to the Horn of Africa", "during the Ordovician
        # Period" (ORG) "during BBC One"
        return False
    if etype == "NORP":
        return norp_form(text) is not None
    if etype != "LAW" and _CASE_NAME.search(text):
        return False  # "Everson v. Board of Education" is a court case, no organisation
    if _SCORE_AFTER.search(text):
        return False  # "beating Barcelona 11–1": a team and the match's score
    if _TAXON.search(text):
        # a family or order of living things is no one's name: NER's PERSON "Charophyta" had
        # become "Benito Juárez", its ORG "Rosaceae, or rose family" "Serae, or rose family",
        # and "Galliformes" had replaced seven "Birds"
        return False
    if _PEOPLE_COMPOUND.fullmatch(text):
        return False  # an adjective: "The Azerbaijanis wars" had stood for "The Russo-Persian"
    if first == "the" and (len(ws) == 1 or etype in ("PERSON", "NORP")):
        return False
    if etype not in _TITLE_TYPES and (_dangling(ws[-1]) or (first != "the" and _dangling(ws[0]))):
        return False  # "South the", "The International Criminal Tribunal for"
    body = ws[1:] if first == "the" else ws
    lead = body[1:] if etype == "PERSON" and body[0] in _PARTICLE_FIRST and len(body) > 1 else body
    # ... a person's name may open with an Arabic particle ("al-Farabi")
    if not (lead[0][:1].isupper() or _CAMEL.match(lead[0]) or etype == "PERSON" and
            HYPHEN_PARTICLE.match(lead[0])) or "," in text:
        return False  # lower-case ("nawabs"; "iPod" is fine), or a list ("Cologne, Düsseldorf")
    if any(_DATEISH.match(w) for w in body[:1]):
        return False
    if etype in ("GPE", "LOC", "NORP", "PERSON") and any(_GLUED_DIGIT.search(w) for w in body):
        return False  # "USD100" is no place
    if etype in _SHIPLESS_TYPES and len(body) > 1 and body[0] in _SHIP_PREFIXES:
        return False  # "USS Tripoli" is a ship, no place ("another, Hibernia, under construction")
    if etype == "PERSON":
        return _person_ok(body)
    if etype == "NORP":
        return norp_form(text) is not None
    return True


# titles of works and laws may begin or end with any word ("Is It Too Late", "Tie Your
# Mother Down"); other names may not begin or end with a function word
_TITLE_TYPES = frozenset({"WORK_OF_ART", "LAW"})
_GLUED_DIGIT = re.compile(r"[A-Za-z]-?\d|\d[A-Za-z]")  # "USD100", "NigeriaSat-2", "F-4"
# a compound of peoples, a combining form or "Proto-" before a people word ("Franco-Spanish",
# "Afro-Asiatic", "Proto-Slavic"), is an adjective, whatever NER typed it; "Nagorno-Karabakh"
# and "Radio-Canada" end in no people word
_PEOPLE_COMPOUND = re.compile(
    r"(?:[A-Z][a-z]+o|Proto|Paleo|Pre|Pan)-[A-Z][a-z]+(?:ian|ic|ish|ese|an|i)")
_CAMEL = re.compile(r"[a-z][A-Z]\w{2}")  # "iPod", "eBay"; not "kV"
_INITIAL = re.compile(r"[A-Z]\.")
# function words that end or begin a name only as NER's error, even capitalised ("Tribunal
# for", "The ... of"); other stop words are only such when lower-case ("US", "First Army")
_GLUE_WORDS = frozenset({"the", "of", "for", "and", "in", "on", "at", "to", "a", "an", "by",
                         "with", "from", "or", "as"})


# words that end a date or number only where NER cut it short ("the 1960s to")
_DATE_TAIL = frozenset({"to", "and", "or", "until", "through", "till", "than", "between"})


def _dangling(word: str) -> bool:
    if _INITIAL.fullmatch(word):
        return False  # "A. Lawrence Lowell"
    w = word.strip(".,")
    # nor does a lower-case compass word: NER's "the District south" (of the Potomac)
    return w.lower() in _GLUE_WORDS or (w.islower() and (w in _FUNCTION or w in _COMPASS))


def _balanced(text: str) -> bool:
    return text.count("(") == text.count(")") and text.count('"') % 2 == 0


_ELIDED_PARTICLE = re.compile(r"(?:d|l|dell)['’][A-ZÀ-Ý]")  # "Marie d'Agoult", "Gianni dell'Acqua"
# the last words of a place's, a body's, a building's, a work's or a prize's name that are
# nobody's surname ("Street", "Bay", "Hill", "Hall", "Temple" and "Rivers" are)
_PLACE_LAST = frozenset("""city county province provinces mountains islands university
republic kingdom empire company party gate bridge palace avenue square station airport
stadium cathedral abbey mosque museum library hotel theatre theater college school institute
railway overture symphony concerto sonata opera tapestry prize award trophy""".split())
# "24.000", "1.500.000": thousands grouped with dots, as German or Spanish write them ("2.239
# million" is a decimal), or a version number ("6.2.9200.16384"): no count in English prose
_DOTTED = re.compile(r"(?<![\d.])\d+(?:(?:\.\d+){2,}|\.000)(?![\d.])")
# "X v. Y", "X vs. Y": the name of a court case
_CASE_NAME = re.compile(r"\s(?:v|vs)\.?\s+[A-Z]")


def _person_ok(ws: list[str]) -> bool:
    if len(ws) > 5 or any(any(c.isdigit() for c in w) for w in ws):
        return False
    if len(ws) == 1 and DOCTRINE.search(ws[0]):
        # "McCarthyism", "Lutheranism": NER's persons that are doctrines; a surname in
        # "-ism" after a given name is still a name
        return False
    if len(ws) == 1 and (is_country(ws[0]) or (
            is_language(ws[0]) and given_name_known(f"{ws[0]} X") is not True)):
        return False  # "Manx", "Yiddish", "Romansh": a language NER took for a person
    if len(ws) > 1 and ws[-1].lower() in _PLACE_LAST:
        return False  # "Ho Chi Minh City", "Charles Mountains": a place NER took for a person
    if any(len(w) > 1 and w.isupper() and w.isalpha() and not _ROMAN.fullmatch(w) for w in ws):
        return False  # an acronym is no person's name ("KSEE", "NASA"); "Charles III" is
    # every word of a name is capitalised, except particles ("da", "van") and initials; a
    # title belongs to the context ("President Bishop Lloyd Wicke")
    parts = name_parts(" ".join(ws))
    if parts.suffixes[:1] == (EPITHET_ARTICLE,):
        ws = ws[:-2]  # an epithet ("the Great") after the name
    return bool(parts.significant) and not parts.titles and all(
        w[:1].isupper() or HYPHEN_PARTICLE.match(w) or _ELIDED_PARTICLE.match(w)
        or w.lower() in {"da", "de", "del", "della", "di", "do", "dos", "of", "du", "van", "von",
                         "der", "den", "bin", "ibn", "al", "el", "la", "le", "y", "ter", "ten",
                         "zu"}
        for w in ws)


_NORP_PREFIX = re.compile(r"^(anti|non|pro|pan|post|pre|neo)-(?=[A-Z])")


def norp_form(text: str) -> str | None:
    """'adj' ("French", "Buddhist", "Greek"), 'plural' ("Americans", "Democrats"), each after
    a prefix it keeps ("anti-Jewish" fits "anti-Semitic") or None for a text that is not a
    nationality, religious or political group word ("Protestantism", "communist")."""
    m = _NORP_PREFIX.match(text)
    prefix, body = (m.group(1) + "-", text[m.end():]) if m else ("", text)
    ws = words(body)
    if not 1 <= len(ws) <= 3 or not all(w[:1].isupper() for w in ws):
        return None
    last = ws[-1].rstrip(".,").split("-")[-1]
    if not last.isalpha() or _NORP_BAD.search(last) or len(last) < 3:
        return None
    # "Nazis", "Israelis" are plurals of "-i" words; "Swiss" is no plural
    if last.endswith("s") and not last.endswith(("ss", "us")) and len(last) > 3:
        return prefix + PLURAL
    return prefix + ADJECTIVE


# faiths, churches and orders, and parties and creeds: "the Protestant Reformation" is no
# "Javanese Reformation" and no "Fascist Reformation", "the Indian subcontinent" no
# "Albigensian subcontinent"
_FAITH_WORDS = frozenset("""catholic protestant christian muslim islamic jewish hindu sikh
jain buddhist lutheran calvinist anglican orthodox methodist baptist albigensian cathar
shia shiite sunni evangelical pentecostal mormon quaker taoist confucian zoroastrian coptic
presbyterian episcopal episcopalian puritan huguenot jesuit franciscan benedictine gnostic
arian nestorian maronite druze wahhabi salafi reformed catholics mennonite amish adventist
pagan sufi shinto wiccan yazidi alawite ismaili""".split())
_PARTY_WORDS = frozenset("""republican democrat democratic communist socialist conservative
liberal labour nazi fascist marxist zionist bolshevik menshevik whig tory jacobite royalist
loyalist unionist nationalist""".split())
# a language or a stage of one, not a people: "Standard German", "Middle English", "Koine
# Greek", "West Germanic" ("Hasidic and Haredi groups" had become "Bernese German and Haredi
# groups"); a qualifier of a language's stage or register, or a family word after a compass
# word
_LANGUAGE_FIRST = frozenset("""ancient middle old modern standard high low koine classical
literary vulgar written spoken proto late early""".split())
LANGUAGE_FAMILIES = frozenset("""germanic slavic romance celtic semitic turkic finnic uralic
dravidian bantu""".split())
# the faith each faith's word or each of its branches' words belongs to ("Orthodox" and
# "Reformed" are Christians' and Jews'): what `faiths_of` reads (`_FAITH_WORDS` says that a
# people word is a faith's, for its pool key; this says whose)
_FAITH_OF: dict[str, frozenset[str]] = {
    **dict.fromkeys("""muslim islamic sunni shia shiite sufi ismaili wahhabi salafi
alawite""".split(), frozenset({"islam"})),
    **dict.fromkeys("""christian catholic protestant anglican lutheran calvinist methodist
baptist evangelical pentecostal mormon quaker coptic presbyterian episcopal episcopalian
puritan huguenot mennonite amish adventist maronite nestorian""".split(),
                    frozenset({"christianity"})),
    **dict.fromkeys("jewish jew hasidic haredi ashkenazi sephardi sephardic".split(),
                    frozenset({"judaism"})),
    **dict.fromkeys("orthodox reformed".split(), frozenset({"christianity", "judaism"})),
    **dict.fromkeys("buddhist theravada mahayana".split(), frozenset({"buddhism"})),
    "hindu": frozenset({"hinduism"}), "sikh": frozenset({"sikhism"}),
    "jain": frozenset({"jainism"})}
_FAITH_WORD = re.compile(r"[A-Za-z]+")


def faith_mentions(text: str) -> Iterator[tuple[int, frozenset[str]]]:
    """Where `text` names a faith or a branch of one by a capitalised word, and whose
    (`faiths_of`)."""
    for m in _FAITH_WORD.finditer(text):
        if m.group(0)[:1].isupper() and (found := faiths_of(m.group(0))):
            yield m.start(), found


def faiths_of(text: str) -> frozenset[str]:
    """The faiths a people word names, or names a branch of ("Sunnis": islam, "Sephardic
    Jewish": judaism, "Orthodox": christianity and judaism); empty for none."""
    found: frozenset[str] = frozenset()
    for w in _FAITH_WORD.findall(text):
        low = w.lower()
        found |= _FAITH_OF.get(low) or (
            _FAITH_OF.get(low[:-1], frozenset()) if low.endswith("s") else frozenset())
    return found


FAITH, PARTY, PEOPLE, LANGUAGE, REGION = "faith", "party", "people", "language", "region"
STATE_PEOPLE = "state"  # the people of a US state ("Texans", "North Carolinians")
# the people of a continent or a region, not of a nation: "Despite Western isolation, Asian
# corporations ..." had become "... German corporations", and "Asian countries" in the
# question "German countries"
_REGION_NORP = frozenset("""asian european african western westerner eastern oriental
scandinavian nordic balkan caribbean mediterranean eurasian levantine""".split())
_REGION_FIRST = frozenset("""latin north south central east west northern southern eastern
western sub-saharan""".split())


def norp_kind(text: str) -> str:
    """REGION for the people of a continent or region ("Asian", "Western", "Latin American"),
    FAITH for a faith, church or order word ("Protestant", "Buddhists"), PARTY for a party
    or creed ("Communist", "Whigs", and other "-ist" words), LANGUAGE for a language's name
    of more than one word ("Middle English", "Swiss German", "West Germanic"), PEOPLE for a
    nationality or an ethnic group ("Indian", "Javanese")."""
    ws = [w.rstrip(".,").lower() for w in words(text)]
    last = ws[-1].split("-")[-1]
    family = last in LANGUAGE_FAMILIES and all(w.removesuffix("ern") in _COMPASS
                                                for w in ws[:-1])  # "Northern Germanic"
    if len(ws) > 1 and (ws[0] in _LANGUAGE_FIRST or is_language(text) or family):
        return LANGUAGE
    # "Tories" is the plural of "Tory" (a party), as "Whigs" is of "Whig"
    single = last[:-3] + "y" if last.endswith("ies") else \
        last[:-1] if last.endswith("s") and not last.endswith("ss") else last
    if single in _REGION_NORP or single == "american" and len(ws) > 1 and (
            ws[-2] in _REGION_FIRST):
        return REGION  # "Asian", "Western", "East Asians", "Latin American"
    if last in _FAITH_WORDS or single in _FAITH_WORDS:
        return FAITH
    if last in _PARTY_WORDS or single in _PARTY_WORDS or single.endswith("ist"):
        return PARTY
    if _of_a_state(" ".join(ws[:-1] + [single])):
        return STATE_PEOPLE
    return PEOPLE


def _of_a_state(demonym: str) -> bool:
    """Whether a people's word, singular and lower-case, names the people of a US state
    and of no country ("north carolinian", "texan", "new yorker"; "georgian" is a
    country's): "North Koreans" had become "North Carolinians"."""
    stems = {demonym[:-1], demonym[:-2], demonym[:-3] + "a", demonym[:-1] + "s"}
    return any(state_country(st) == "US" and place_kind(st) == STATE for st in stems
               if len(st) > 3)


REGNAL = "regnal"
_ROMAN = re.compile(r"[IVX]{1,5}")
_PARTICLE_FIRST = frozenset({"von", "van", "de", "da", "di", "du", "al", "el", "bin", "ibn"})


# a word a number after it makes a model's or a rule's name ("Mark II", "Basel III"), NER's
# persons seen once that had been drawn for King Peter II and King Nebuchadnezzar II
_MODEL_WORDS = frozenset({"mark", "mk", "basel", "type", "model", "series", "block", "class"})


def is_regnal(text: str) -> bool:
    """A monarch's or pope's name with its number ("Charles III", "John Paul II", "King
    Frederick William III"): after any title, one name, or two given names the lexicon
    knows ("Frederick William", "John Paul"). A longer name, or one with an initial or a
    surname, has a generational suffix ("Charles H. Bonesteel III", "Henry John Heinz III",
    "James Noyes II"): a bank of the people seen once holds them, and they had been drawn
    for kings ("On 17 April 1941, after King Charles H. Bonesteel III and other members of
    the government fled", for Peter II)."""
    ws = words(text)
    if len(ws) < 2 or not _ROMAN.fullmatch(ws[-1]):
        return False
    name = ws[:-1]
    while len(name) > 1 and name[0].lower().rstrip(".") in TITLES:
        name = name[1:]
    if len(name) == 1:
        return name[0].lower() not in _MODEL_WORDS
    return len(name) == 2 and not any(len(w.rstrip(".")) < 2 for w in name) \
        and all(given_name_known(f"{w} X") is True for w in name)


# names that only popes take with a number ("Pius XII", "Innocent III"): a pope is swapped
# for a pope and a king for a king ("John's father, Henry II" had become "Innocent III")
_PAPAL_NAMES = frozenset("""pius innocent gregory honorius urban clement sixtus boniface
benedict celestine callixtus calixtus gelasius sylvester pelagius paschal damasus eugenius
martin julius marcellus adrian anacletus hormisdas""".split())
POPE = "pope"


def regnal_key(text: str) -> str:
    """The fit key of a regnal name: a pope's ("Pius XII", "John Paul II", "Pope John
    XXIII") or a monarch's."""
    ws = [w.lower() for w in words(text)]
    if ws and ws[0] == POPE:
        return f"{REGNAL}:{POPE}"
    papal = ws[0] in _PAPAL_NAMES or ws[:2] == ["john", "paul"] or (
        len(ws) == 2 and _roman_value(ws[1]) >= _PAPAL_FROM.get(ws[0], 99))
    return f"{REGNAL}:{POPE}" if papal else REGNAL


# names popes and monarchs share, from the number on which only a pope has them ("John
# XXIII", "Paul VI", "Leo XIII"; King John VI of Portugal, Tsar Paul I, Emperor Leo VI)
_PAPAL_FROM = {"john": 7, "paul": 2, "leo": 9, "alexander": 4, "nicholas": 3, "felix": 1}
_ROMAN_DIGITS = {"i": 1, "v": 5, "x": 10}


def _roman_value(numeral: str) -> int:
    """The value of a roman numeral of I, V and X ("xxiii" -> 23); 0 for anything else."""
    if not _ROMAN.fullmatch(numeral.upper()):
        return 0
    values = [_ROMAN_DIGITS[c] for c in numeral.lower()]
    return sum(-v if i + 1 < len(values) and values[i + 1] > v else v
               for i, v in enumerate(values))


def person_size(text: str) -> int:
    """How many significant name parts (given names and surname) a PERSON name has, capped
    at 2: a one-part name ("Plato") or a name with a first name and a surname."""
    return min(len(name_parts(text).significant), 2)


LOOSE = "loose:"  # the prefix of a looser fit key (fit_keys)


MANY_WORDS = "name+"  # the fit key of an organisation's or building's name of 2+ words
_WORDS_COUNTED = frozenset({"ORG", "FAC"})
TEAM = "team"  # the fit key of a sports team's name (`team_name`)
PLANET = "planet"  # the fit key of a planet named as a place (NER's GPE or LOC)
# (not Earth: "the Earth" is said with "the", which no other planet takes)
PLANETS = frozenset("mercury venus mars jupiter saturn uranus neptune pluto".split())
# plurals after a place that name a firm's or a body's trade, not a team's nickname
_TRADE_PLURALS = frozenset('''communications instruments works apartments sports rules
standards associates archives ferries pavilions partners brothers enterprises services
solutions resources stores hotels homes records crimes affairs studies arts sciences news
markets mills motors foods farms gardens estates properties tools electronics investments
securities airways railways lines'''.split())


def team_name(text: str) -> bool:
    """Whether an organisation's name is a sports team's: a city's or a state's name, then
    one or two capitalised words ending in a plural ("New York Giants", "Los Angeles
    Avengers", "Carolina Hurricanes"). A team is swapped for a team: "the Grand Rapids
    Rampage, Colorado Crush, ... and the New York Dragons did not return" had become "...
    and the NFL Network did not return", and "the Chicago Cubs" became a catcher's name."""
    ws = words(text)
    last = ws[-1] if ws else ""
    if not 2 <= len(ws) <= 4 or not all(w[:1].isupper() for w in ws) or not (
            last.isalpha() and last.endswith("s") and not last.endswith(("ss", "us"))
            and last.lower() not in _TRADE_PLURALS):
        return False
    return any(len(ws) - k <= 2 and not ws[0].isupper() and _team_place(" ".join(ws[:k]))
               for k in range(1, len(ws)))


def _team_place(place: str) -> bool:
    """A state's or a city's name: a big city's even when it is a word too ("Boston", a
    dance), a small one's only when it is not ("Bear Stearns", "Imperial Russians" are no
    teams)."""
    kind = place_kind(place)
    return kind == STATE or kind == CITY and (
        city_population(place) >= BIG_CITY or not common_word(place))


# the prefix of the key of the names with one head noun (`head_key`)
HEAD = "head:"
# names whose head noun says what they are (a title's last word does not: WORK_OF_ART)
_HEADED_TYPES = frozenset({"ORG", "FAC", "EVENT", "LAW", "PRODUCT", "LOC"})
_HEAD_WORD = re.compile(r"[A-Z][a-z]{2,}")


def head_key(etype: str, text: str) -> str | None:
    """The key of the names with the same head noun, the word before "of" (or "in", "for",
    "on", "at") or else the last
    ("American Psychiatric Association", "Bank of England" and "World Bank"): a name is
    swapped for one with its head noun first ("... Psychological Association, American
    Counseling Association" takes "American Dental Association", never "Council of
    Ministers"), then for one of its kind. None for a name of one word, an acronym or a
    head that is no noun ("World War II")."""
    if etype not in _HEADED_TYPES:
        return None
    ws = words(text)
    if len(ws) < 2:
        return None
    # the noun a preposition follows ("Order in Council", "Institute for Advanced Study")
    head = head_before_preposition(ws) or (
        ws[-2] if numeral(ws[-1]) else ws[-1])  # "World War Two"
    if head.lower() == "house" and name_class(text) in _HOUSE_OF_KINDS:
        return None  # a chamber or a royal house: its kind, never "the White House"
    return HEAD + head.lower() if _HEAD_WORD.fullmatch(head) else None


# the kinds of "House of X" that share no head noun with a house (`namekinds.name_class`)
_HOUSE_OF_KINDS = frozenset({"legislature", "royal house"})


def fit_keys(etype: str, text: str) -> list[str]:
    """The key of the same head noun where the name has one (`head_key`), the fit key,
    then a looser one to fall back on when nothing fits the first: the same shape and hedge
    without the century, unit or number kind; the same skeleton whatever the numbers'
    magnitude. All keep the audit's shape classes."""
    head = head_key(etype, text)
    keys = _fit_keys(etype, text)
    if etype == "GPE" and keys == [COUNTRY] and (
            where := FORMER if former_country(text) else continent(text)):
        # a country of the same continent first: "France and Spain then entered the war"
        # had become "Australia and Spain", for the question's "two European countries";
        # and a state of the last century that is no more, one such ("Yugoslavia" for the
        # "Soviet Union": "the Czech Republic" had been drawn for it in Cold War stories).
        # One said with "the" ("the United States") takes its like where its "the" cannot
        # go (`coherent.drops_the`): few continents have more than two such
        return [f"{COUNTRY}:{where}", COUNTRY]
    if etype == "GPE" and keys in ([CITY], [STATE]) and (
            code := (city_country if keys == [CITY] else state_country)(text)):
        # a city or a state of the same country first: "The U.S. used atomic bombs on
        # Hiroshima and Nagasaki" had become "... on Washington and Nagasaki", for the
        # question's "two Japanese cities"; then one of the same continent ("born in
        # Budapest, Kingdom of Hungary" had become "born in Kyoto, ...": the bank holds no
        # other Hungarian city)
        kind, keys = keys[0], place_keys(keys[0], code)
        if kind == STATE and city_country(text) == code:
            # a state named for its city ("Hiroshima", "Kyoto", "Manchester") is that city
            # too: "the Japanese city of Hiroshima" takes a city of Japan
            keys = [k for pair in zip(keys, place_keys(CITY, code)) for k in pair]
        elif kind == CITY and (state := city_state(text)):
            # ... and a US city is of its state: what "Chicago, Illinois" needs
            # (`coherent.pool_keys`, `within`); no preference of its own otherwise
            keys.insert(0, in_state(state))
    return [head, *keys] if head else keys


def in_state(state: str) -> str:
    """The pool key of the cities of a US state (ISO 3166-2: "US-IL")."""
    return f"{CITY}:{state}"


def is_state_key(key: str) -> bool:
    """Whether a pool key is `in_state`'s (the country's keys have no "-")."""
    return key.startswith(f"{CITY}:") and "-" in key


def place_keys(kind: str, code: str) -> list[str]:
    """The pool keys of a city or a state (`kind`) of the country `code` (ISO 3166 alpha-2):
    its country's, its continent's (`CONTINENT_OF`), any."""
    where = continent_of_code(code)
    return [f"{kind}:{code}", *([f"{kind}{CONTINENT_OF}{where}"] if where else []), kind]


# what joins a city's or a state's kind to its continent in a pool key ("city@EU"): a
# continent's code may be a country's ("AS", "NA", "SA", "AF")
CONTINENT_OF = "@"


# a kind of name inside a broader one: its own kind first, then the broader kind (whose
# pool it stays in): a legislature takes a legislature where one fits, else a body, as
# before the kind was told apart (70 rows of SQuAD train had found no legislature); a
# museum or a gallery takes one, else a building
# a kind whose names are drawn from a broader one where none of their own fits ("House of
# Fraser", a firm, had been read as a royal house; a house was a building before)
_BROADER_KIND = {"legislature": "body", "museum": "site", "royal house": "site"}


def draw_keys(etype: str, text: str) -> list[str]:
    """The pools an original draws from, in order: its own (`fit_keys`), then, for a span of
    time or a measure that says no figure, the one of figures in its unit: "only a few
    months" may become "up to six months" and "several miles" "three miles", as "six
    months" never becomes "several months"."""
    keys = fit_keys(etype, text)
    loose = keys[-1]
    if _VAGUE in loose and (etype == "DATE" and loose.startswith(LOOSE + "duration|")
                            or etype == "CARDINAL" and loose.startswith("range:words|")):
        keys.append(loose.replace(_VAGUE, "", 1))  # "hundreds or thousands": "two or three"
    else:
        keys += [_VAGUE_SLOT.sub("w", k) for k in keys
                 if k.startswith(LOOSE) and "~" in k and _VAGUE_SLOT.search(k)]
    return keys


def _fit_keys(etype: str, text: str) -> list[str]:
    key = fit_key(etype, text)
    if etype in _NAME_TYPES and key in _BROADER_KIND:
        return [key, _BROADER_KIND[key]]
    if key.startswith("~"):
        loose = "~" + _MAGNITUDE_RUN.sub("0", key[1:])
        hedged = _hedged_key(text)
        if hedged and hedged != loose:
            # "almost $100 million" may take "nearly $90 million": another adverb that
            # hedges the same way, when no amount of its own hedge fits
            return [key, LOOSE + loose, LOOSE + hedged]
    elif etype in ("DATE", "CARDINAL") and key.split("|")[0] in _YEAR_SHAPES:
        parts = key.split("|")
        loose = "|".join(parts[:2] + parts[3:])  # a year of another century, written alike
    elif etype == "DATE" and key.startswith("month_day|"):
        loose = key.rsplit("|", 1)[0]  # a day written the other way if none fits
    elif etype == "CARDINAL" and key.startswith("mixed|"):
        loose = "|".join(key.split("|")[:3])  # the same scale word, another magnitude
    elif etype in _WORDS_COUNTED and key in ("name", MANY_WORDS):
        loose = "name"  # a one-word name for a longer one when no longer one fits
    elif etype == "NORP" and "|" in key:
        loose = key.split("|")[0]  # a people's word for a faith's, if nothing else fits
    elif key.endswith("|count-tens") or key.endswith("|count"):
        loose = key.rsplit("|", 1)[0] + "|count"  # "Four" at a sentence start: few fit it
    elif etype == "DATE" and key.startswith("duration|"):
        parts = key.split("|")
        # the same unit, another number form; tens stay tens ("fifty-year" is no "two-year")
        loose = "|".join(parts[:3]) + ("|tens" if parts[3:] and "t" in parts[3] else "") + \
            (_VAGUE if parts[3:] and parts[3].startswith("v") else "") + \
            "".join(f"|{p}" for p in parts[4:])  # "old", "ago" stay; a figure or none stays
    else:
        return [key]
    # marked as loose: an entry's loose key must not be another's strict key ("73.0%" in
    # the pool of one-digit percentages "~0%", whose strict key its loose key equals); an
    # entry whose loose key is its strict key is in both pools
    return [key, LOOSE + loose]


_VAGUE = "|vague"  # the mark of a span of time's loose key that says no figure ("many years")
_VAGUE_SLOT = re.compile(r"\bv\b")  # ... and a skeleton's slot of no figure ("~v miles")


# adverbs before an amount that read alike within their class ("an estimated" is no
# adverb: "an about $90 million")
_ADVERB_HEDGES = frozenset({"about", "around", "approximately", "nearly", "almost", "roughly",
                            "some", "just", "only", "over", "more than", "less than",
                            "fewer than", "at least", "at most", "up to", "just under",
                            "just over", "no more than", "as many as", "as much as"})


# the words that may open an amount or a date of the bank ("Between 1815 and 1830", "About
# 30", "From 1990 to 1995") and that take a capital only at a sentence's start, and those that
# govern the amount (a preposition): one of these before a mention takes no candidate that
# opens with one ("from Between 1815 and 1830")
PREPOSITIONS = frozenset({"between", "from", "in", "since", "until", "till", "by", "during",
                          "after", "before"})
LEADING_WORDS = PREPOSITIONS | frozenset(
    w for hedge in _ADVERB_HEDGES for w in hedge.split()[:1]) | frozenset(
    {"under", "early", "late", "mid", "approx.", "circa", "less", "more", "fewer"})


@lru_cache(maxsize=1 << 16)  # a pure function of a bank text, which many rows draw
def leading_word(text: str) -> str:
    """The first word of `text`, lower-cased, where it is one of LEADING_WORDS, else ""."""
    first = text.split(maxsplit=1)[0].lower() if text.strip() else ""
    return first if first in LEADING_WORDS else ""


def _hedged_key(text: str) -> str | None:
    """The skeleton of an amount after an adverb hedge, the hedge as its class ("almost
    $100 million" -> "h:approx~$0 million"), or None without such a hedge."""
    h = shapes.hedge(text)
    if h not in _ADVERB_HEDGES:
        return None
    t = text.strip()
    rest = t[len(h):].lstrip() if t.lower().startswith(h) else None
    if not rest:
        return None
    return f"h:{hedge_class(h)}~" + _MAGNITUDE_RUN.sub("0", skeleton(rest))


def fit_key(etype: str, text: str) -> str:
    """The key a replacement must share with the original: DATE and CARDINAL shapes, the
    NORP form, a PERSON's part count; the empty key for the other types."""
    if etype in ("DATE", "CARDINAL"):
        shape = shapes.shape(etype, text)
        if shape == shapes.OTHER:
            return "~" + skeleton(text)
        # the hedge too: "burned in 1907" must not become "burned in about 1137"
        return f"{shape}|{hedge_class(shapes.hedge(text))}{_date_detail(shape, text)}"
    if etype in MEASURE_TYPES:
        return _measure_key(text)
    if etype == "NORP":
        form = norp_form(text)
        return f"{form}|{norp_kind(text)}" if form else ""
    if etype in _NAME_TYPES and etype != "PERSON":
        if _ACRONYM.fullmatch(text):
            return "acronym." if "." in text else "acronym"  # "CBS" for "NBC"
        if etype == "GPE":
            # a country for a country, a state for a state, a city for a city: "the
            # territory that would become Austria", not "... Seattle"; "a gateway to Alaska
            # during the Klondike Gold Rush", not "... to Cairo"
            kind = place_kind(text)
            if kind:
                return kind
        if etype in ("GPE", "LOC") and text.strip().lower() in PLANETS:
            # a planet for a planet, and never one for a place on earth: "In Venus, the
            # area around Calais" (for "Northeastern France"); "Mars" had taken the plural
            # names' pool ("Himalayas")
            return PLANET
        kind = name_class(text)
        if kind == "name" and etype == "ORG" and team_name(text):
            return TEAM
        if kind == "name" and etype in _WORDS_COUNTED and len(words(text)) > 1:
            return MANY_WORDS  # "London Stock Exchange" is no "Hymenoptera"
        return kind
    if etype == "PERSON":
        return regnal_key(text) if is_regnal(text) else str(person_size(text))
    return ""


_DIGITS = re.compile(r"\d")
_PERIOD_PART = frozenset({"early", "late", "mid", "middle"})


_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


_NUMBER_WORDS = re.compile(
    rf"\b(?:(?:{'|'.join(shapes.UNIT_WORDS + shapes.TENS_WORDS)}"
    r"|hundred|thousand|half|a few|several)(?:[\s-]+|\b))+")


_MONTH = re.compile(r"\b(?:january|february|march|april|may|june|july|august|september|october"
                    r"|november|december)\b")
_MAGNITUDE_RUN = re.compile(r"0+")
_SKELETON_SLOT = re.compile(r"\d|\b[wvM]\b")


def _magnitude(m: re.Match[str]) -> str:
    # 0, 00 or 000: one, two, three or more integer digits ("80%" is not "171%"); "0.0" for
    # a number below one ("0.28%" is not "99%"; "$1.5 million" fits "$5 million")
    whole, _, frac = m.group(0).partition(".")
    if frac and not whole.strip("0"):
        return "0.0"
    digits = whole.replace(",", "")
    # a figure of four digits or more keeps its grouping: "between 2,800 and 3,200" never
    # "between 2250 and 3,200"
    grouped = "," if len(digits) > 3 and "," in whole else ""
    return "0" * min(3, len(digits)) + grouped


def skeleton(text: str) -> str:
    """An amount or a date of no known shape, lower-cased, each number (digits, or number
    words as w) as a placeholder and without a leading article ("age of 35" -> "age of 0",
    "$1.5 million" -> "$0 million", "five inches" -> "w inches"): only the same skeleton
    fits it."""
    t = text.strip().lower()
    if t.startswith("the "):
        t = t[4:]
    t = _MONTH.sub("M", _NUMBER.sub(_magnitude, t))
    # a run with no figure is another slot ("several seconds" is no "ten seconds")
    return _NUMBER_WORDS.sub(lambda m: ("v" if vague_amount(m.group(0)) else "w")
                             + (" " if m.group(0)[-1].isspace() else ""), t)


def _measure_key(text: str) -> str:
    """The fit key of a PERCENT, MONEY, QUANTITY, TIME or ORDINAL text: its skeleton when it
    has a number in it, "ordinal" for an ordinal word, else "" (nothing fits it)."""
    if _ORDINAL_WORD.fullmatch(text.strip()):
        return "ordinal"
    sk = skeleton(text)
    return "~" + sk if _SKELETON_SLOT.search(sk) else ""


_YEAR_IN = re.compile(r"(?<!\d)(\d{3,4})(?!\d)")
_UNIT_IN = re.compile(r"(second|minute|hour|day|night|week|fortnight|month|year|decade|"
                      r"centur|millenni|semester|term|season)", re.IGNORECASE)
_UNIT_WORD = re.compile(r"\b(?:second|minute|hour|day|night|week|fortnight|month|year|decade|"
                        r"century|centuries|millennium|millennia|semester|term|season)s?\b",
                        re.IGNORECASE)
_DURATION_TAIL = re.compile(r"\b(?:old|long|later|earlier|ago)$", re.IGNORECASE)
_YEAR_SHAPES = frozenset({"year", "decade", "full_date", "month_year", "year_range", "era"})


def _date_detail(shape: str, text: str) -> str:
    """What else a date must share: the century of a year ("in 1291" is not "in 1978"), the
    unit of a duration ("six years" is not "a century")."""
    if shape in _YEAR_SHAPES:
        m = _YEAR_IN.search(text)
        century = f"|c{int(m.group(1)) // 100}" if m else ""
        if shape in ("full_date", "month_year"):
            # as the context writes dates: "June 24, 2003" is no "1 October 2007"
            return f"{century}|{written_form(text)}"
        return century
    if shape == "month_day":
        return f"|{written_form(text)}"  # "June 12" is no "7 November" ("August 19 ...")
    if shape == "duration":
        # the unit as written (singular or plural) and the number's form: "six years" fits
        # "three years", not "12 years", "a century" or "2015 season"
        m = _UNIT_WORD.search(text)
        n = _NUMBER.search(text)
        number = len(n.group(0)) if n else ("v" if vague_amount(text) else "w") + str(
            len(_WORD_RUN.findall(text))) + (
            "t" if _TENS.search(text) else "")  # "two-year terms" never "fifty-year terms"
        # and what follows the unit: "several centuries old" is no "many centuries ago"
        tail = _DURATION_TAIL.search(text)
        return (f"|{m.group(0).lower() if m else ''}|{number}{'-' if '-' in text else ''}"
                + (f"|{tail.group(0).lower()}" if tail else ""))
    if shape == "relative":
        # "each week" fits "every week", not "summer 1918"
        ws = text.lower().split()
        last = _NUMBER.sub("0", ws[-1])
        # "each week" (how often) is not "that week" (which one)
        first = ws[0] if len(ws) > 1 else ""
        # a season's name for a season's name; the word "season" is none ("formed in spring"
        # never "formed in season")
        return f"|{first}|" + ("a-season" if last in _SEASONS else last)
    if shape == "fraction":
        return "|n" if _DIGITS.search(text) else "|w"  # "half-castes" never "3⁄4-castes"
    if shape == "weekday":
        # "on Fridays" (each week) is no "on Monday" (one day), "Friday night" no "Monday"
        ws = text.lower().split()
        return f"|{'s' if ws[0].endswith('s') else ''}|{' '.join(ws[1:])}"
    if shape == "words":
        return f"|{_number_words(text)}"
    if shape == "range:words":
        # "two or three" is no "thousands or millions"
        return _VAGUE if vague_amount(text) else ""
    if shape == "mixed":
        # "6 million" is no "16 billion": the same scale word, the number's integer digits
        scale = _SCALE.search(text)
        n = _NUMBER.search(text)
        return (f"|{scale.group(0).lower().rstrip('s') if scale else ''}"
                f"|{_magnitude(n) if n else ''}")
    if shape == "century":
        # "the 19th century" / "the nineteenth century" / "19th-century"; "the 19th and
        # 20th centuries" is no "the 12th century"
        plural = "s" if _CENTURIES.search(text) else ""
        # "the early 20th century" is no "the early in the 7th century", "the 19th
        # century" no "the 6th century AD"
        joined = "+" if _IN_THE.search(text) else ""
        era = _ERA.search(text)
        joined += f"|{'bc' if era.group(0).upper().startswith('B') else 'ad'}" if era else ""
        return (f"|{'n' if _DIGITS.search(text) else 'w'}{'-' if '-' in text else ''}{plural}"
                f"{joined}")
    return ""


_CENTURIES = re.compile(r"\bcenturies\b", re.IGNORECASE)
# the head words of a span of time's name ("the Middle Ages", "the Reconstruction Era"), and
# the types whose names are none (a work may be titled so: "The Jazz Age")
_PERIOD_HEADS = frozenset({"Period", "Era", "Epoch", "Eon", "Age", "Ages"})
_NO_PERIOD_TYPES = frozenset({"ORG", "GPE", "LOC", "FAC", "PERSON", "PRODUCT"})
_ERA = re.compile(r"\b(?:AD|CE|BC|BCE|A\.D\.|B\.C\.|B\.C\.E\.)(?!\w)")
_IN_THE = re.compile(r"\b(?:in|of) the\b", re.IGNORECASE)
_ORDINAL_IN = re.compile(r"\b\d{1,2}(?:st|nd|rd|th)\b|\b(?:first|second|third|fourth|fifth|sixth"
                         r"|seventh|eighth|ninth|tenth|eleventh|twelfth|thirteenth|fourteenth"
                         r"|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|twentieth)\b",
                         re.IGNORECASE)
_MONTH_WORD = re.compile(rf"\b(?:{shapes.MONTHS})\b\.?", re.IGNORECASE)
_DAY_SUFFIX = re.compile(r"(?<=\d)(?:st|nd|rd|th)\b")


def written_form(text: str) -> str:
    """How a date is written, its numbers and month left out: "June 24, 2003" -> "M 0, 0",
    "1 October 2007" -> "0 M 0", "July 4th, 1776" -> "M 0th, 0", "1776-07-04" -> "0-0-0"."""
    t = re.sub(r"\d+", "0", _DAY_SUFFIX.sub("th", _MONTH_WORD.sub("M", text.strip())))
    first = min((i for i in (t.find("M"), t.find("0")) if i >= 0), default=0)
    return t[first:]  # the hedge ("about", "early") is in the key already


_SCALE = re.compile(r"\b(?:hundred|thousand|million|billion|trillion)s?\b", re.IGNORECASE)
_SINGULAR = frozenset({"one", "a", "an", "single"})


def _number_words(text: str) -> str:
    """Number words that read alike: "one" (a singular noun follows it), a plain count
    ("seven", "twenty-one"), a scaled count ("five million"), a vague plural ("thousands",
    "several", "dozens")."""
    ws = text.lower().replace("-", " ").split()
    if ws and ws[0] in ("the", "about", "some", "nearly", "almost", "over"):
        ws = ws[1:]
    if ws in (["one"], ["a"], ["an"]) or (len(ws) == 1 and ws[0] in _SINGULAR):
        return "one"
    if vague_amount(text) or len(ws) == 1 and ws[0].endswith("s"):
        return "vague"
    if _SCALE.search(text):
        return "scaled"
    # "three major periods" must not become "ninety": tens stay tens, units units
    return "count-tens" if _TENS.search(text) else "count"


# the words of an amount that give no figure: "six years" never becomes "many years", nor
# "twenty-four" "few dozens" (the question's "How many years ...?" would be answered "many")
_VAGUE_WORDS = frozenset("""several few many couple numerous countless dozens scores hundreds
thousands millions billions trillions""".split())


def vague_amount(text: str) -> bool:
    """Whether an amount says no figure: a word of `_VAGUE_WORDS` after its hedges ("several
    years", "a few hundred", "thousands"; not "as many as five", whose "many" is a hedge's)."""
    return not _DIGITS.search(text) and any(
        w in _VAGUE_WORDS for w in shapes.core(text).replace("-", " ").split())


_SEASONS = frozenset({"spring", "summer", "autumn", "fall", "winter"})
_WORD_RUN = re.compile(r"[a-z]+", re.IGNORECASE)
_TENS = re.compile(r"\b(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|"
                   r"thousand|dozens?|scores?)\b", re.IGNORECASE)
_UPPER_BOUND = ("up to", "less than", "fewer than", "at most", "under", "below", "nearly",
                "almost", "just under", "only", "just")
_LOWER_BOUND = ("over", "more than", "at least", "above", "in excess of", "just over")


def hedge_class(hedge: str) -> str:
    """Hedges that read alike: none, a part of a period (early, late, mid), "year", or any
    approximation or bound ("about", "nearly", "over", "only")."""
    if not hedge:
        return ""
    first = hedge.split()[0]
    if first in _PERIOD_PART:
        return "part"
    if first == "year":
        return "year"
    if hedge.startswith(_UPPER_BOUND):
        return "upto"  # "up to 5 kF" must not become "more than 2 kF"
    if hedge.startswith(_LOWER_BOUND):
        return "over"
    return "approx"


_NOT_ONE_BEFORE = frozenset("""twenty thirty forty fifty sixty seventy eighty ninety hundred
thousand million and""".split())


def counts_one(text: str) -> bool:
    """Whether an amount is the number one ("one", "at least 1"): the noun after it is
    singular, after any other number plural ("one hundred", "twenty-one", "21" are not
    one)."""
    ws = text.strip().lower().split()
    return bool(ws) and ws[-1] in ("one", "1") and (
        len(ws) == 1 or ws[-2] not in _NOT_ONE_BEFORE)


def starts_with_article(text: str) -> bool:
    ws = words(text)
    return bool(ws) and ws[0].lower() in ARTICLES


# single-word names of these types that are also common English words are NER's errors
# more often than not ("the Board", "the Duchy", "Conqueror" as a place): never drawn. NORP
# ("German", "Catholic") and titles ("Thriller") are words by nature, so they are exempt.
_WORD_CHECKED_TYPES = frozenset({"PERSON", "ORG", "GPE", "LOC", "FAC", "EVENT", "PRODUCT"})


# the kinds of body that an organisation's head word names ("Western Union", "Epic Records",
# "Memorial University"): `namekinds.name_class`
_BODY_CLASSES = frozenset({"edu", "company", "body", "legislature", "government", "league",
                           "party", "military", "church", "mosque", "synagogue", "temple",
                           "press", "broadcast", "club"})


def generic_org(text: str) -> bool:
    """Whether an organisation's name is common English words only, no head word naming a
    body among them ("Deep House", "Total Recall", "Department Store", "Boot Camp",
    "Exclusive Jurisdiction"): most often a genre, a title or a thing that NER typed as an
    organisation. Said with "the" ("the Central Committee") such a name is a body's
    (`SamplingIndex.said_with_the`): the pools keep those."""
    ws = words(text)
    content = [w for w in ws if w.lower() not in _FUNCTION]
    return len(ws) > 1 and bool(content) and all(common_word(w) for w in content) \
        and name_class(text) not in _BODY_CLASSES and not team_name(text)


def misfiled_org(text: str, product_firsts: frozenset[str]) -> bool:
    """Whether an organisation's name that says no kind (`namekinds.name_class`) names
    another type's thing: a country, a state or a big city ("Uttar Pradesh", "Lyon"; a
    town's name may be a firm's: "Gallup"), a monarch ("Philip II"), or a product line,
    whose first word (lower-case) begins one of the bank's products ("Windows 7", "Xbox
    Live Arcade", "MacBook Pro"). Such names had been drawn for an organisation: "the
    director of the MacBook Air (W3C)"."""
    body = text[4:] if text[:4] in ("the ", "The ") else text
    if not body or name_class(body) != "name" or _ACRONYM.fullmatch(body):
        return False
    ws = words(body)
    return (big_place(body) or is_regnal(body) or ws[0].lower() in product_firsts
            # ... or a product line after its maker ("Microsoft Windows", drawn for 60 rows
            # of SQuAD train: "The Microsoft Windows covered most of North America")
            or (len(ws) > 1 and ws[-1].lower() in product_firsts)
            # ... or a person's name with a particle ("Hernando de Soto", 36 rows) or an
            # epithet ("Conan the Barbarian"): no organisation is named so
            or (_PARTICLE_NAME.fullmatch(body) is not None and given_name_known(body) is True)
            or _EPITHET_NAME.fullmatch(body) is not None)


# "Hernando de Soto", "Ludwig van Beethoven": capitalised words with a particle between
_PARTICLE_NAME = re.compile(r"[A-Z][\w'’-]+(?: (?:" + "|".join(sorted(PARTICLES)) +
                            r")){1,2} [A-Z][\w'’-]+")
# "Conan the Barbarian", "Alexander the Great"
_EPITHET_NAME = re.compile(r"[A-Z][\w'’-]+ the [A-Z][\w'’-]+")


# what a one-word product's name has: a figure, a brand's inner capital, or capitals alone
_PRODUCT_MARK = re.compile(r"\d|[a-z][A-Z]|^[A-Z]{3,}$")
_SURNAME_PREFIX = re.compile(r"Ma?c[A-Z]")  # ... but "McKerrow" is a surname


# a pure function of a bank entry: the people's surnames (`SamplingIndex.surnames_of_people`)
# and the people's pool both ask it of every person of the bank
@lru_cache(maxsize=1 << 17)
def drawable(etype: str, text: str) -> bool:
    """Whether the coherent policy may draw a bank entry: well formed, a person's name
    with a known given name, no common word as a one-word name."""
    if not well_formed(etype, text):
        return False
    if etype == "PERSON" and (not person_like(text) or name_class(text) not in ("name", "plural")
                              or words(text)[0].lower() in _PLACE_FIRST):
        return False  # "Telewizja Polska"; "Van Cortlandt Park", "San Ángel": places
    if etype == "CARDINAL" and text.strip().lower() in ("zero", "0", "none", "nil"):
        return False  # "one of the zero dimensions": nothing counts as none
    if etype == "ORDINAL" and text.strip().lower() == "first":
        # "the first largest city", "the first most populous": a superlative says "first"
        # without the word (it stays an entity that can be replaced)
        return False
    if etype == "NORP" and not norp_word(text):
        return False  # "Seine", "Delhi Sultanate": NER's NORP that is no people's word
    if etype in _WORD_CHECKED_TYPES and DOCTRINE.search(text):
        return False  # "Orphism" is a movement, not an organisation or a place
    if etype in ("GPE", "LOC") and any(not (w[:1].isupper() or w.lower() in _FUNCTION
                                            or w.lower() in _PARTICLE_FIRST)
                                        for w in words(text)):
        return False  # "Eastern bloc": a place's words are capitalised
    if etype == "EVENT" and len(words(text)) > 1 and numeral(words(text)[-1]) \
            and name_class(text) == "name":
        return False  # "World Three", "Game 4": a number after no word of an event's kind
    if etype == "EVENT" and text.endswith("."):
        return False  # "World War I.": a sentence's full stop
    if etype == "EVENT" and " " not in text and "-" in text:
        return False  # "Digi-Egg", "UCS-2": a thing's code, no event (drawn for 101 rows)
    if etype == "FAC" and name_class(text) == "name" and (
            is_regnal(text) or (" " not in text and place_kind(text) is not None)
            or (len(words(text)) > 1 and words(text)[-1][:1].isdigit()
                and words(text)[0].lower() not in _NUMBERED_PLACES)):
        # "Henry VII" a king, "Sevastopol" a city, "Ju 88" an aeroplane, "Yeezy Season 3" a
        # show: none a building or a road ("Route 66", "Interstate 95" are)
        return False
    if etype != "EVENT" and words(text)[0].lower() in _STORMS:
        return False  # "according to Cyclone Pam": NER's ORG for a storm, an event
    if etype in _TITLE_CHECKED_TYPES and _office(text):
        return False  # "Holy Roman Emperor", "Secretary of State": an office, not a body
    if etype in ("GPE", "LOC") and all(w.lower().strip(".,") in _COMPASS for w in words(text)):
        return False  # "North West", "the South": a direction, no place to name
    if etype in ("GPE", "LOC") and " " not in text and is_language(text) \
            and not is_place_name(text):
        return False  # "the Mongolian Sack of Kazakh": a language (ISO 639-3) is no place
    if etype in ("GPE", "LOC") and place_kind(text) is None and (
            (" " not in text and text not in _PLACE_ADJECTIVES and not text.endswith("stan")
             and (people_adjective(text) or _BELIEVER.search(text) is not None))
            or words(text)[-1] in _CLUB_LAST
            or (words(text)[-1] == "City"
                and place_kind(" ".join(words(text)[:-1])) is not None)):
        # "species found in Punjabi", "born in Lutheran", "Baptist", "Manchester United",
        # "Cardiff City" (a city's club: "Mexico City" is a city the lists know): a people's
        # or a faith's word, or a club, that no list of places knows
        return False
    if etype == "LAW" and not _LAW_WORDS.intersection(w.lower() for w in words(text)):
        # "Fortune 500", "Communion", "Xbox 360", "the Stanley Cup": NER's laws that name
        # none had replaced "the Kyoto Protocol" and "Resolution 83" ("published Fortune 500
        # recommending member states ...")
        return False
    if etype == "PRODUCT" and " " not in text.strip() and (
            not _PRODUCT_MARK.search(text) or _SURNAME_PREFIX.match(text)):
        # "Kuiper", "Alkan", "Calidris", "Werra", "Madaris": a one-word product of NER's is
        # a surname, a genus, a river or a word more often than not (drawn for 60 of SQuAD
        # train's 219 products); one with a figure or a brand's inner capital stays
        # ("Xbox 360" is two words, "GameCube", "iPods", "ARPANET")
        return False
    if etype == "ORG" and (named_like_person(text) or _named_of_place(text)):
        # a person NER took for an organisation ("Walt Disney" goes too); "Gregory of Tours"
        # and "Isidore of Seville" had replaced 40 SQuAD train organisations ("the
        # establishment of the Isidore of Seville in 1480")
        return False
    if etype == "ORG" and _BRAND_FIRST.match(text):
        return False  # "iPod Nano", "eMac": a product ("The use of iPad microprocessors")
    if etype == "ORG" and " " not in text and (_ADJECTIVE_END.search(text)
                                               or given_name_known(f"{text} X") is True):
        return False  # "Italianate", "Fryderyk": NER's one-word organisations
    # a country, state or main city is no common word, whatever the lexicon holds ("Paris":
    # its "pari" + s; "Tonga")
    return not (etype in _WORD_CHECKED_TYPES and common_word(text)
                and not (etype in ("GPE", "LOC") and is_place_name(text)))


# a word that says a name is a law, a treaty or a part of one ("the Voting Rights Act",
# "Article 29", "Chapter 11", "the Marshall Plan")
_LAW_WORDS = frozenset("""act acts amendment amendments article articles bill charter code
constitution convention covenant declaration decree directive doctrine edict law laws accord
accords agreement pact plan protocol regulation regulations resolution rights section chapter
statute statutes treaty treaties clause ordinance""".split())

# places whose names are adjectives too ("the Caribbean"), which the lists of countries,
# states and cities do not hold; "Kurdistan" and "Turkestan" end like "Afghan" too
_PLACE_ADJECTIVES = frozenset({"Caribbean", "Mediterranean", "Antarctic", "Arctic", "Baltic",
                               "Adriatic", "Aegean", "Levant", "Balkans", "Sahel"})
# a faith's follower ("Baptist", "Methodist"), and the last word of a club's name
_BELIEVER = re.compile(r"[a-z]ists?$")
# a lower-case prefix glued to a capitalised word: Apple's and others' product names, which
# NER types as organisations ("iPod Classic", "iTunes", "eMac")
_BRAND_FIRST = re.compile(r"[a-z]{1,2}[A-Z]")
# the first words of buildings' and roads' names that end in a number
_NUMBERED_PLACES = frozenset("""route interstate highway i us pier gate terminal platform studio
building hangar dock lock bridge exit junction""".split())
_CLUB_LAST = frozenset({"United", "Rovers", "Wanderers", "Athletic", "Albion", "Hotspur"})
_TITLE_CHECKED_TYPES = frozenset({"ORG", "GPE", "LOC", "FAC"})
_STORMS = frozenset({"hurricane", "cyclone", "typhoon", "superstorm", "tropical"})
# "Wrigley Field", "River Don": titles that end place names too
_OFFICES = TITLES - {"field", "don"}
_COMPASS = frozenset("""north south east west northeast northwest southeast southwest
north-east north-west south-east south-west midwest the""".split())


def _office(text: str, offices: frozenset[str] = _OFFICES) -> bool:
    ws = [w.lower().strip(".,") for w in words(text)]
    head = ws[ws.index("of") - 1] if "of" in ws[1:] else ws[-1]
    return head in offices


# titles that also end the names of places and bodies ("Notre Dame", "States General",
# "Sisters of Mercy"), or that are common words of their own ("major", "private")
_OFFICES_PLAIN = _OFFICES - {"dame", "st", "saint", "master", "father", "mother", "brother",
                             "sister", "elder", "general", "count", "private", "major",
                             "justice", "leader", "agent", "officer", "manager", "director",
                             "speaker", "founder", "nurse", "coach", "deputy", "vice",
                             "explorer"} | {
    "maharaja", "maharajah", "raja", "rajah", "nawab", "nizam", "shogun", "khedive", "doge"}


def office(etype: str, text: str) -> bool:
    """Whether NER's organisation, place or building is an office or a title ("Yongle
    Emperor", "Archbishop of Canterbury", "Maharaja"): no name to swap for another of
    its kind, and nothing the policy draws fits it ("the title of Maharaja" had become "the
    title of Deccan")."""
    return etype in _TITLE_CHECKED_TYPES and _office(text, _OFFICES_PLAIN)


def lone_names(texts: list[str]) -> list[str]:
    """The one-word PERSON entries of `texts` that are a person's name: a given name the
    first-name lexicon knows ("Michelle"), or a part of a longer name of `texts` ("Holmes"
    for "Sherlock Holmes"). NER's one-word "persons" that are neither are mostly places,
    languages and species ("Sicily", "Aramaic", "Penicillium")."""
    parts = {p for t in texts if " " in t for p in name_parts(t).significant}
    return [t for t in texts if " " not in t
            and (t in parts or given_name_known(f"{t} X") is not False)]


_ADJECTIVE_END = re.compile(r"(?:ate|ian|ic|ese|ish|ised|ized)$")  # "Hellenised" too


def _named_of_place(text: str) -> bool:
    """A known given name, no common word, and "of" or "the" and one name: a saint's, a
    ruler's or a scholar's way of naming ("Gregory of Tours", "Isidore of Seville", "Conan
    the Barbarian"; not "Bill of Rights", "Bay of Bengal")."""
    m = _GIVEN_OF.fullmatch(text)
    return m is not None and not common_word(m.group(1)) \
        and given_name_known(f"{m.group(1)} X") is True


_GIVEN_OF = re.compile(r"([A-Z][a-z]+) (?:of|the) [A-Z][\w'-]+")


def named_like_person(text: str) -> bool:
    """Two or three capitalised words, no head word, that start with a given name the
    first-name lexicon knows: a person's name ("Millard Sheets", "Daniel-Henry
    Kahnweiler")."""
    ws = text.split()
    return (2 <= len(ws) <= 3 and all(w[:1].isupper() for w in ws)
            and name_class(text) == "name" and given_name_known(text) is True)


def norp_word(text: str) -> bool:
    """Whether a NORP text ends in a nationality, religious or political group word: a
    plural, an adjective ending ("-an", "-ese", "-ish", "-ic", "-i", ...) or a known word
    ("Greek", "Muslim")."""
    form = norp_form(text)
    if form is None or is_country(text):
        return False  # "Tajikistan" ends like "Afghan" but is a country, no people's word
    if form.endswith(PLURAL):
        return True
    last = words(text)[-1].rstrip(".,").split("-")[-1].lower()
    if last in _NOT_NORP_WORDS or last.endswith(("ized", "ised")):
        return False  # ... nor is "Hellenized", a participle
    return bool(_NORP_ADJ.search(last)) or last in _NORP_WORDS


_PEOPLE_ADJ = re.compile(r"(?:an|ese|ish|i|ch)$")  # narrower than _NORP_ADJ: no "Royal"


def people_adjective(word: str) -> bool:
    """Whether one capitalised word is a people's adjective ("Italian", "British",
    "Dutch", "Greek"), as no part of the name it stands before ("the Italian Parliament");
    "Royal", "United", "Atlantic" are not."""
    w = word.lower()
    return word[:1].isupper() and (bool(_PEOPLE_ADJ.search(w)) or w in _NORP_WORDS)


def person_like(text: str) -> bool:
    """Whether a PERSON text of two or more parts starts with a given name the first-name
    lexicon knows: "Telewizja Polska" and "Magasin du Nord" are NER's errors. True when the
    lexicon cannot say (one part, initials, or not installed)."""
    return given_name_known(text) is not False


def entry_gender(text: str) -> str | None:
    """The gender of a PERSON bank entry (first-name lexicon; None when unknown)."""
    return name_gender(text)
