"""The coherent substitution policy on hand-written contexts (every case of issue 14), and
its properties: no part of the original name is left, the offsets are right, and
`modified_spans` covers exactly what changed."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings, strategies as st

from faithqa_spark.config import load_config
from faithqa_spark.core import bank as cbank
from faithqa_spark.core import entries
from faithqa_spark.core import fields as C
from faithqa_spark.core import arithmetic, reasons, shapes
from faithqa_spark.core.audit import answer_span
from faithqa_spark.core.gender import lexicon_available
from faithqa_spark.core.matching import Entity
from faithqa_spark.core.names import name_parts
from faithqa_spark.core.process import Provenance, process_row
from faithqa_spark.core.sampling import ANY, SamplingIndex
from faithqa_spark.core.text import boundary_matches

from test_properties import fake_rows

COHERENT = load_config()
PAPER = load_config("conf/paper.toml")
PROV = Provenance("test", "hash", "model")
BANK = {
    "PERSON": ["John Smith", "Mary Jones", "Pierre Dubois", "Anna Kowalska", "Olaf Berg",
               "Lena Hart", "Plato", "south the", "Agent 007"],
    "DATE": ["1888", "1934", "1946", "the 1960s", "March 1950", "4 July 1812", "Mondays",
             "65Zn", "three years", "a century"],
    "GPE": ["Norway", "Peru", "the Netherlands", "West Germany", "United Arab Emirates"],
    "ORG": ["Yale", "the Hanseatic League", "Orvane Mills"],
    "CARDINAL": ["17", "42", "3,400", "2,750", "three", "nine"],
    "NORP": ["Danish", "Peruvians", "Delhi Sultanate"],
}
INDEX = SamplingIndex.from_bank(BANK)


def entities(ctx: str, spec: list[tuple[str, str]]) -> list[Entity]:
    out = [Entity(text, label, m.start(), m.end())
           for text, label in spec for m in re.finditer(re.escape(text), ctx)]
    return sorted(out, key=lambda e: (e.start, -e.end))


def run(ctx: str, answer: str, spec: list[tuple[str, str]], question: str = "Who was it?",
        cfg=COHERENT, bank: SamplingIndex = INDEX, row_id: str = "squad:r1",
        answer_start: int | None = None) -> dict:
    start = ctx.find(answer) if answer_start is None else answer_start
    row = {C.ID: row_id, C.SOURCE: "squad", C.QUESTION: question, C.CONTEXT: ctx,
           C.ANSWER: answer, C.ANSWER_START: start, C.INPUT_FILE: "f.json",
           C.RECORD_LOC: "qa=1"}
    return process_row(row, entities(ctx, spec), bank, cfg, PROV)


def assert_consistent(o: dict) -> None:
    """Offsets exact: every answer start reads the faithful answer."""
    assert o[C.STATUS] == C.OK, o[C.REASON]
    mod = o[C.MODIFIED_CONTEXT]
    assert o[C.ANSWER_STARTS]
    for s in o[C.ANSWER_STARTS]:
        assert mod[s:s + len(o[C.FAITHFUL_ANSWER])] == o[C.FAITHFUL_ANSWER]


def made_rows(ctx: str, answer: str, ents: list[tuple[str, str]], bank: SamplingIndex,
              prefix: str, question: str = "Who was it?", rows: int = 6) -> list[dict]:
    """`rows` rows of one answer (ids squad:<prefix>0, 1, ...: each draws anew), each
    checked consistent."""
    out = []
    for i in range(rows):
        o = run(ctx, answer, ents, bank=bank, question=question, row_id=f"squad:{prefix}{i}")
        assert_consistent(o)
        out.append(o)
    return out


def replacements(ctx: str, entity: str, label: str, bank: SamplingIndex, prefix: str,
                 question: str = "Who was it?", rows: int = 6) -> set[str]:
    """What `rows` rows of one entity (`made_rows`) are given."""
    return {o[C.REPLACEMENT_ENTITY]
            for o in made_rows(ctx, entity, [(entity, label)], bank, prefix, question, rows)}


def made(ctx: str, entity: str, label: str, bank: SamplingIndex, question: str,
         row_id: str = "squad:r1") -> tuple[str, str]:
    """(type, replacement) of the row whose answer is `entity`, NER-typed `label`, each row
    checked consistent: what a question's noun made of a misread answer."""
    o = run(ctx, entity, [(entity, label)], bank=bank, question=question, row_id=row_id)
    assert_consistent(o)
    return o[C.ENTITY_TYPE], o[C.REPLACEMENT_ENTITY]


def pieces(o: dict) -> list[str]:
    mod = o[C.MODIFIED_CONTEXT]
    return [mod[s[C.SPAN_START]:s[C.SPAN_END]] for s in o[C.MODIFIED_SPANS]]


CHOPIN = ("Frédéric Chopin was born in Żelazowa Wola. Chopin's father was a teacher. "
          "Later, Chopin left Warsaw and he never returned; Frédéric wrote to friends.")
CHOPIN_ENTS = [("Frédéric Chopin", "PERSON"), ("Chopin", "PERSON"), ("Frédéric", "PERSON"),
               ("Warsaw", "GPE"), ("Żelazowa Wola", "GPE")]


def test_every_mention_of_a_person_is_swapped_with_the_matching_part():
    o = run(CHOPIN, "Frédéric Chopin", CHOPIN_ENTS)
    assert_consistent(o)
    rep = o[C.REPLACEMENT_ENTITY]
    first, last = name_parts(rep).significant[0], name_parts(rep).significant[-1]
    mod = o[C.MODIFIED_CONTEXT]
    assert "Chopin" not in mod and "Frédéric" not in mod
    assert mod.startswith(rep + " was born")
    assert f"{last}'s father" in mod and f"Later, {last} left" in mod
    assert f"; {first} wrote" in mod
    assert pieces(o) == [rep, last, last, first]
    assert o[C.FAITHFUL_ANSWER] == rep and o[C.NUM_REPLACEMENTS] == 4
    # "he" in the context: a man's name
    assert rep in ("John Smith", "Pierre Dubois", "Olaf Berg")


def test_a_surname_match_takes_the_longer_name_of_the_context():
    o = run(CHOPIN, "Chopin", CHOPIN_ENTS, question="Whose father was a teacher?",
            answer_start=CHOPIN.index("Chopin's"))
    assert_consistent(o)
    assert o[C.ORIGINAL_ENTITY] == "Frédéric Chopin"
    # the answer span was a lone surname: it now reads the replacement's surname
    assert o[C.FAITHFUL_ANSWER] == name_parts(o[C.REPLACEMENT_ENTITY]).significant[-1]
    # where the answer span is inside the full name, it reads the full replacement
    o = run(CHOPIN, "Chopin", CHOPIN_ENTS, question="Whose father was a teacher?")
    assert o[C.FAITHFUL_ANSWER] == o[C.REPLACEMENT_ENTITY]


def test_titles_stay_and_the_name_changes():
    ctx = "President Abel Tasman spoke first. Later President Tasman signed the act in 1907."
    o = run(ctx, "Abel Tasman", [("Abel Tasman", "PERSON"), ("Tasman", "PERSON")])
    assert_consistent(o)
    last = name_parts(o[C.REPLACEMENT_ENTITY]).significant[-1]
    assert f"President {o[C.REPLACEMENT_ENTITY]} spoke" in o[C.MODIFIED_CONTEXT]
    assert f"Later President {last} signed" in o[C.MODIFIED_CONTEXT]


def test_initials_and_non_ascii_names():
    ctx = ("J. R. R. Tolkien taught at Oxford with Łucja Żółw. Tolkien's books sold well, "
           "and Tolkien kept writing.")
    o = run(ctx, "J. R. R. Tolkien", [("J. R. R. Tolkien", "PERSON"), ("Tolkien", "PERSON"),
                                      ("Łucja Żółw", "PERSON")])
    assert_consistent(o)
    assert "Tolkien" not in o[C.MODIFIED_CONTEXT] and "Łucja Żółw" in o[C.MODIFIED_CONTEXT]
    o = run(ctx, "Łucja Żółw", [("Łucja Żółw", "PERSON"), ("Tolkien", "PERSON")])
    assert_consistent(o)
    assert "Żółw" not in o[C.MODIFIED_CONTEXT] and "Łucja" not in o[C.MODIFIED_CONTEXT]


def test_a_part_shared_with_another_person_is_ambiguous():
    ctx = "Frédéric Chopin studied music. His father Nicolas Chopin taught French. Chopin left."
    o = run(ctx, "Frédéric Chopin", [("Frédéric Chopin", "PERSON"),
                                     ("Nicolas Chopin", "PERSON"), ("Chopin", "PERSON")])
    assert o[C.REASON] == reasons.AMBIGUOUS_NAME_PART


def test_a_mention_inside_another_name_is_refused():
    ctx = "Ada Quell founded a school. The Quell Institute still teaches her method."
    o = run(ctx, "Ada Quell", [("Ada Quell", "PERSON"), ("Quell Institute", "ORG")])
    assert o[C.REASON] == reasons.NAME_INSIDE_NAME
    ctx = "The Golden mean was taught in the old schools of the town."
    o = run(ctx, "Golden", [("Golden", "PERSON")])
    assert o[C.REASON] == reasons.MALFORMED_ENTITY  # a "person" after an article


def test_gender_of_the_context_is_kept():
    ctx = "Ada Quell founded the school in 1907. She taught there for years."
    o = run(ctx, "Ada Quell", [("Ada Quell", "PERSON"), ("1907", "DATE")])
    assert_consistent(o)
    assert o[C.REPLACEMENT_ENTITY] in ("Mary Jones", "Anna Kowalska", "Lena Hart")
    men = SamplingIndex.from_bank({"PERSON": ["John Smith", "Pierre Dubois"]})
    o = run(ctx, "Ada Quell", [("Ada Quell", "PERSON")], bank=men)
    assert o[C.REASON] == reasons.NO_GENDER_MATCH


@pytest.mark.skipif(not lexicon_available(), reason="first-name lexicon not installed")
def test_the_names_own_gender_is_preferred_where_the_context_gives_none():
    ctx = "Ada Quell founded the school in 1907 and taught there for years."  # no pronoun
    for i in range(8):
        o = run(ctx, "Ada Quell", [("Ada Quell", "PERSON")], row_id=f"squad:n{i}")
        assert_consistent(o)
        assert o[C.REPLACEMENT_ENTITY] in ("Mary Jones", "Anna Kowalska", "Lena Hart")
    # a preference, not a rule: with no woman's name in the bank, a man's is taken
    men = SamplingIndex.from_bank({"PERSON": ["John Smith", "Pierre Dubois"]})
    o = run(ctx, "Ada Quell", [("Ada Quell", "PERSON")], bank=men)
    assert o[C.REPLACEMENT_ENTITY] in ("John Smith", "Pierre Dubois")


@pytest.mark.skipif(not lexicon_available(), reason="first-name lexicon not installed")
def test_a_given_name_said_alone_takes_a_given_name():
    bank = SamplingIndex.from_bank({"PERSON": [
        "John Smith", "Mary Jones", "Pierre Dubois", "Lena Hart", "Paul", "Susan", "Peter",
        "Hart", "Roger Taylor", "Francis Drake", "Drake"]})
    assert bank.given_only("Roger") and bank.given_only("Paul")
    assert not bank.given_only("Drake")  # the surname of "Francis Drake"
    assert not bank.given_only("Roger Taylor") and not bank.given_only("Hart")
    ctx = "Brian told the fans that Roger and I get on much better these days."
    found = replacements(ctx, "Roger", "PERSON", bank, "g", rows=8)
    assert found <= {"Paul", "Peter"}  # a man's given name: never "John Smith and I"
    # a surname said alone may still take a whole name
    ctx = "The fleet sailed west under Drake, who took the port within a week."
    found = replacements(ctx, "Drake", "PERSON", bank, "d", rows=8)
    assert any(" " in f for f in found)


def test_dates_keep_their_shape():
    ctx = "The old town of Brannick burned in 1907, and the new hall opened in March 1961."
    o = run(ctx, "1907", [("1907", "DATE"), ("March 1961", "DATE"), ("Brannick", "GPE")])
    assert_consistent(o)
    assert o[C.REPLACEMENT_ENTITY] in ("1934", "1946")  # a year of the same century
    o = run(ctx, "March 1961", [("1907", "DATE"), ("March 1961", "DATE")])
    assert o[C.REPLACEMENT_ENTITY] == "March 1950"
    o = run("The war lasted six years, and the town was rebuilt after it ended.", "six years",
            [("six years", "DATE")])
    assert o[C.REPLACEMENT_ENTITY] == "three years"  # a duration in the same unit
    o = run("The hall opened in the autumn of that year, after the long war.", "autumn",
            [("the autumn of that year", "DATE")])
    assert o[C.STATUS] == C.FILTERED


def test_a_compound_of_peoples_is_no_organisation():
    # NER's ORG "Russo-Persian" had become "The Azerbaijanis wars of 1804-1813"
    o = run("The Russo-Persian wars of 1804-1813 cost Iran the Caucasus.", "Russo-Persian",
            [("Russo-Persian", "ORG")])
    assert (o[C.STATUS], o[C.REASON]) == (C.FILTERED, reasons.MALFORMED_ENTITY)


def test_a_decimal_keeps_its_magnitude():
    # "the total fertility rate was 6.4 children per woman" had become "97.0 children"
    figures = SamplingIndex.from_bank({"CARDINAL": ["97.0", "3.1", "45.5", "2.8", "130.25"]})
    ctx = "The birth rate was high, and the total fertility rate was 6.4 children per woman."
    assert replacements(ctx, "6.4", "CARDINAL", figures, "f", rows=8) == {"3.1", "2.8"}


def test_a_name_glossed_in_another_language_is_not_swapped():
    # "Hungary (Portuguese: República Portuguesa)" keeps the old name beside the new one
    ctx = "Portugal (Portuguese: República Portuguesa) lies on the Iberian coast of Europe."
    o = run(ctx, "Portugal", [("Portugal", "GPE")])
    assert (o[C.STATUS], o[C.REASON]) == (C.FILTERED, reasons.DERIVED_WORD_LEFT)
    ctx = "Kelmar (formerly: Orvane Landing) is a river town that grew up around its mill."
    o = run(ctx, "Kelmar", [("Kelmar", "GPE")])
    assert (o[C.STATUS], o[C.REASON]) == (C.FILTERED, reasons.DERIVED_WORD_LEFT)
    # a page reference in brackets is no gloss
    ctx = "Portugal (2007: 12) lies on the Iberian coast of Europe, west of Spain."
    o = run(ctx, "Portugal", [("Portugal", "GPE"), ("Spain", "GPE")])
    assert_consistent(o)
    assert o[C.STATUS] == C.OK


def test_an_age_keeps_the_words_around_its_figure():
    # "At the age of 35" had become "At the age 29": "age 29" and "the age of 35" were one shape
    ages = SamplingIndex.from_bank({"DATE": ["age 29", "age 41", "age of 30", "age of 52",
                                             "40 years of age", "Age of Discovery"]})
    ctx = "At the age of 35, the monk sat down under the fig tree and did not rise again."
    assert replacements(ctx, "age of 35", "DATE", ages, "a", rows=8) == {"age of 30",
                                                                         "age of 52"}
    ctx = "The poet left the village at age 29 and never saw the mill again."
    assert replacements(ctx, "age 29", "DATE", ages, "b", rows=8) == {"age 41"}


def test_an_age_in_figures_stays_near_the_original_where_one_fits():
    # "Beyoncé has had deals ... since the age of 18" had become "since the age of 81"
    ages = SamplingIndex.from_bank({"DATE": ["age of 81", "age of 76", "age of 22",
                                             "age of 64", "age of ten"]})
    ctx = "The singer has had deals with three fashion houses since the age of 18."
    assert replacements(ctx, "age of 18", "DATE", ages, "a", rows=8) == {"age of 22"}
    # an age in words takes one in words: "at the temple at age three" had become "age 39"
    words = SamplingIndex.from_bank({"DATE": ["age 39", "age 3", "age four", "age forty",
                                              "age twenty-one"]})
    temple = "She was consecrated as a virgin at the temple at age three, the account says."
    assert replacements(temple, "age three", "DATE", words, "w", rows=6) == {"age four"}
    assert shapes.age_years("the age of twenty-one") == (21, False)
    assert shapes.age_years("38 years of age") == (38, True)
    # where none is near, a far one is still drawn: a preference, no row is lost
    far = SamplingIndex.from_bank({"DATE": ["age of 81", "age of 76"]})
    assert replacements(ctx, "age of 18", "DATE", far, "b", rows=4) <= {"age of 81",
                                                                        "age of 76"}


def test_a_name_that_makes_one_man_with_the_original_is_not_drawn():
    # "Tito" had become "Josip Broz" (7 rows of SQuAD train): the bank's Josip Broz Tito
    people = SamplingIndex.from_bank({"PERSON": ["Josip Broz", "Josip Broz Tito",
                                                 "Ante Pavelic", "Milan Nedic"]})
    ctx = "Tito's estrangement from the USSR enabled Yugoslavia to obtain US aid."
    got = replacements(ctx, "Tito", "PERSON", people, "t", rows=10)
    assert got and "Josip Broz" not in got


def test_a_people_word_said_for_the_people_takes_one_that_can_be():
    # "To confuse the British, radio silence was observed" had become "To confuse the
    # American, ..."
    peoples = SamplingIndex.from_bank({"NORP": ["American", "French", "Norwegian", "Czech"]})
    ctx = ("To confuse the British, radio silence was observed until the bombs fell, and the "
           "beams were moved to new frequencies for each raid of the winter.")
    assert replacements(ctx, "British", "NORP", peoples, "p", rows=8) == {"French"}
    # a preference: where none can be, the row is still made
    others = SamplingIndex.from_bank({"NORP": ["American", "Norwegian"]})
    assert replacements(ctx, "British", "NORP", others, "p", rows=4) <= {"American",
                                                                         "Norwegian"}
    assert replacements(ctx, "British", "NORP", others, "p", rows=4)
    # ... and so does one followed by an adverb and a verb: "The French officially abandoned
    # the experiment" had become "The American officially abandoned ..."
    ctx = ("The British officially abandoned the experiment in the early nineteenth century, "
           "and the lodges that had admitted women were closed within a decade.")
    assert replacements(ctx, "British", "NORP", peoples, "o", rows=8) == {"French"}
    # ... and a people's thing takes any: "the British army"
    ctx = ("The British army landed in the north, and its ships held the coast for the rest "
           "of the year while the towns of the region were taken one by one.")
    assert len(replacements(ctx, "British", "NORP", peoples, "q", rows=12)) > 1
    ctx = ("The British family lived in the north for years, and its ships held the coast "
           "while the towns of the region were taken one by one.")
    assert len(replacements(ctx, "British", "NORP", peoples, "q", rows=12)) > 1


def test_a_year_its_sentence_sets_in_a_world_war_stays_in_it():
    from faithqa_spark.core.coherent import war_years
    ctx = ("During the Second World War, the United States built Wideawake airport on "
           "Ascension in 1942. The island was surveyed in 1965.")
    regions = [(ctx.index("1942"), ctx.index("1942") + 4, 0)]
    assert war_years(ctx, regions, 1942) == (1939, 1945)
    assert war_years(ctx, [(ctx.index("1965"), ctx.index("1965") + 4, 0)], 1965) is None
    assert war_years("After World War I ended in 1918, it grew.", [(28, 32, 0)], 1918) \
        == (1914, 1918)
    years = SamplingIndex.from_bank({"DATE": ["1965", "1978", "1941", "1903"]})
    assert replacements(ctx, "1942", "DATE", years, "w", rows=8) == {"1941"}


def test_a_year_of_a_four_yearly_event_keeps_its_place_in_the_cycle():
    # "since the 1984 Summer Olympics, professional players have been permitted" had become
    # "since the 1971 Summer Olympics", which never were
    years = SamplingIndex.from_bank({"DATE": ["1971", "1988", "1990", "1993", "1996", "1998"]})
    ctx = ("Originally the event was for amateurs only; since the 1984 Summer Olympics, "
           "professionals have been permitted to play in the tournament.")
    assert replacements(ctx, "1984", "DATE", years, "o", rows=10) == {"1988", "1996"}
    ctx = "She skated at the 1992 Winter Olympics in Albertville before she retired."
    assert replacements(ctx, "1992", "DATE", years, "o", rows=10) == {"1988"}
    ctx = "The team reached the final of the 1994 FIFA World Cup in Pasadena, and lost."
    assert replacements(ctx, "1994", "DATE", years, "o", rows=10) == {"1990", "1998"}
    # a year said of no such event draws any year
    ctx = "The team reached the final of the 1994 tournament in Pasadena, and lost."
    assert {"1971", "1993"} & replacements(ctx, "1994", "DATE", years, "o", rows=10)


def test_a_one_word_name_that_makes_one_man_with_another_name_of_the_context_is_not_drawn():
    # "Bonaparte told Napoleon these were the best terms": the bank's Napoleon Bonaparte
    people = SamplingIndex.from_bank({"PERSON": ["Bonaparte", "Napoleon Bonaparte", "Lucien",
                                                 "Grenville", "Ottavio Grenville"]})
    ctx = ("Metternich told Napoleon these were the best terms the Allies would offer; "
           "Metternich wanted France to balance Russia.")
    got = set()
    for i in range(10):
        o = run(ctx, "Metternich", [("Metternich", "PERSON"), ("Napoleon", "PERSON")],
                bank=people, row_id=f"squad:n{i}")
        assert_consistent(o)
        got.add(o[C.REPLACEMENT_ENTITY])
    assert "Bonaparte" not in got and got & {"Lucien", "Grenville"}


def test_years_keep_the_order_of_events_and_stay_in_the_past():
    years = SamplingIndex.from_bank({"DATE": ["1888", "1934", "1946", "1998", "2039"]})
    ctx = "The mill was renamed Orvane in 1931, and again in 1950, after the war."
    o = run(ctx, "1950", [("1931", "DATE"), ("1950", "DATE")], bank=years)
    assert_consistent(o)
    assert o[C.REPLACEMENT_ENTITY] in ("1934", "1946")  # after 1931, never "again in 1888"
    o = run(ctx, "1931", [("1931", "DATE"), ("1950", "DATE")], bank=years)
    assert o[C.REPLACEMENT_ENTITY] in ("1934", "1946")  # before 1950, not after it
    ctx = "Kelmar held its first free election in 2010, watched by two hundred observers."
    o = run(ctx, "2010", [("2010", "DATE")], bank=years)
    assert o[C.REPLACEMENT_ENTITY] != "2039"  # never past the corpus's present
    between = "Orvane built the dam in 1936 and the canal in 1940, both before 1941."
    o = run(between, "1940", [("1936", "DATE"), ("1940", "DATE"), ("1941", "DATE")], bank=years)
    assert o[C.REASON] == reasons.NO_FITTING_REPLACEMENT  # no year between 1936 and 1941
    # a story's latest year stays near its others ("World War I broke out in August 1914 ...
    # In 1945 the Germans resumed submarine attacks"): 1946 is within ten years of 1937,
    # 1998 is not
    war = "The war on Tessary broke out in 1934. In 1937 the fleet resumed its raids."
    got = {run(war, "1937", [("1934", "DATE"), ("1937", "DATE")], bank=years,
               row_id=f"squad:w{i}")[C.REPLACEMENT_ENTITY] for i in range(12)}
    assert got == {"1946"}


def test_numbers_keep_their_shape_and_grouping():
    ctx = "The company built 1,250 wagons and 12 engines in its first decade of trade."
    o = run(ctx, "1,250", [("1,250", "CARDINAL"), ("12", "CARDINAL")])
    assert_consistent(o)
    assert o[C.REPLACEMENT_ENTITY] in ("3,400", "2,750")
    o = run("It had four mills and a dozen kilns along the long river bank.", "four",
            [("four", "CARDINAL")])
    assert o[C.REPLACEMENT_ENTITY] in ("three", "nine")
    o = run("ABC and NBC split the rights to the games that season, as before.", "NBC",
            [("ABC", "ORG"), ("NBC", "ORG")], bank=SamplingIndex.from_bank(
                {"ORG": ["Trump Hotels", "CBS", "Orvane Mills"]}))
    assert o[C.REPLACEMENT_ENTITY] == "CBS"  # an acronym for an acronym
    o = run("Estimates vary by over 10% from one source to the next, as no census was held.",
            "over 10%", [("over 10%", "PERCENT")], bank=SamplingIndex.from_bank(
                {"PERCENT": ["Over 20%", "over 40%", "the 30%"]}))
    assert o[C.REPLACEMENT_ENTITY] == "over 40%"  # lower case mid-sentence, no article


def test_norp_keeps_its_form_and_junk_is_never_drawn():
    ctx = "The Germans settled the valley, and German farms spread along the river banks."
    o = run(ctx, "Germans", [("Germans", "NORP"), ("German", "NORP")])
    assert_consistent(o)
    assert o[C.REPLACEMENT_ENTITY] == "Peruvians"
    for i in range(40):
        o = run("Ada Quell founded the school that year and ran it well for a long time.",
                "Ada Quell", [("Ada Quell", "PERSON")], row_id=f"squad:j{i}")
        assert o[C.REPLACEMENT_ENTITY] not in ("south the", "Agent 007")


def test_no_doubled_article_and_the_kept_right():
    ctx = "The envoy travelled to the United States and then home again by sea."
    o = run(ctx, "the United States", [("the United States", "GPE")])
    assert_consistent(o)
    # a country's own "the" goes with it to one said without ("to Peru", never "to the Peru")
    assert o[C.REPLACEMENT_ENTITY] == "Peru"
    assert o[C.MODIFIED_CONTEXT].startswith("The envoy travelled to Peru and then")
    assert o[C.FAITHFUL_ANSWER] == "Peru"
    # ... but a "the" that is the noun's after it stays ("the Peru delegation")
    ctx = "The envoy met the United States delegation and then went home again by sea."
    o = run(ctx, "the United States", [("the United States", "GPE")])
    assert_consistent(o)
    assert "met the Peru delegation and" in o[C.MODIFIED_CONTEXT]
    # ... and so does a longer name's, which takes a country said with "the" in it
    ctx = "The envoy joined the United States Navy and then went home again by sea."
    o = run(ctx, "the United States", [("the United States", "GPE")])
    assert_consistent(o)
    assert "joined the United Arab Emirates Navy and" in o[C.MODIFIED_CONTEXT]
    assert "the the" not in o[C.MODIFIED_CONTEXT]
    ctx = "The envoy travelled to Sweden and then home again by sea, tired."
    o = run(ctx, "Sweden", [("Sweden", "GPE")])
    assert o[C.REPLACEMENT_ENTITY] in ("Norway", "Peru")


def test_the_faithful_answer_is_what_the_answer_span_reads():
    ctx = "He studied at the University of Notre Dame, which Notre Dame alumni still praise."
    o = run(ctx, "the University of Notre Dame", [("Notre Dame", "ORG")])
    assert_consistent(o)
    rep = o[C.REPLACEMENT_ENTITY]
    assert o[C.FAITHFUL_ANSWER] == f"the University of {rep}"
    assert o[C.ANSWER_STARTS] == [o[C.MODIFIED_CONTEXT].index("the University")]
    p = run(ctx, "the University of Notre Dame", [("Notre Dame", "ORG")], cfg=PAPER)
    assert p[C.FAITHFUL_ANSWER] == p[C.REPLACEMENT_ENTITY]


def test_a_defined_short_form_becomes_the_replacement_s_initials():
    orgs = SamplingIndex.from_bank({"ORG": ["Yale", "Harbour Hockey League",
                                            "Orvane Sailing League", "HAL"]})
    ctx = ("The Kelmar Rowing League (KRL) was founded by six clubs. Since then the KRL "
           "has run the spring regatta, and KRL crews train on the lake.")
    o = run(ctx, "Kelmar Rowing League", [("Kelmar Rowing League", "ORG")], bank=orgs)
    assert_consistent(o)
    rep = o[C.REPLACEMENT_ENTITY]
    assert rep in ("Harbour Hockey League", "Orvane Sailing League")  # a league, with initials
    short = "".join(w[0] for w in rep.split())
    mod = o[C.MODIFIED_CONTEXT]
    assert f"{rep} ({short})" in mod and "KRL" not in mod and mod.count(short) == 3
    assert [mod[sp[C.SPAN_START]:sp[C.SPAN_END]] for sp in o[C.MODIFIED_SPANS]] == \
        [rep, short, short, short]
    asks = run(ctx, "Kelmar Rowing League", [("Kelmar Rowing League", "ORG")], bank=orgs,
               question="What does KRL stand for?")
    assert_consistent(asks)
    rep = asks[C.REPLACEMENT_ENTITY]
    assert asks[C.QUESTION] == f"What does {''.join(w[0] for w in rep.split())} stand for?"
    assert asks[C.ORIGINAL_QUESTION] == "What does KRL stand for?"
    # the entity is the short form, and the context spells it out: refused
    o = run(ctx, "KRL", [("KRL", "ORG")], bank=orgs, answer_start=ctx.index("KRL) was") - 0)
    assert o[C.REASON] == reasons.DEFINED_SHORT_FORM


def test_an_answer_with_the_short_form_reads_the_new_initials():
    # the answer takes in the short form: its faithful answer has the new initials, and the
    # audit (which verifies every coherent row) expects just that; the row was filtered
    # as incoherent before the audit knew of short forms
    orgs = SamplingIndex.from_bank({"ORG": ["Harbour Hockey League", "Orvane Sailing League"]})
    ctx = ("Six clubs founded the Kelmar Rowing League (KRL) in 1901. Since then the KRL "
           "has run the spring regatta.")
    answer = "the Kelmar Rowing League (KRL)"
    o = run(ctx, answer, [("Kelmar Rowing League", "ORG")], bank=orgs,
            question="Which body did six clubs found?")
    assert_consistent(o)
    rep = o[C.REPLACEMENT_ENTITY]
    short = "".join(w[0] for w in rep.split())
    assert o[C.FAITHFUL_ANSWER] == f"the {rep} ({short})"
    assert o[C.AUDIT]["answer_span"] is True
    row = {**o, C.FAITHFUL_ANSWER: f"the {rep} (KRL)"}  # the old short form left: a failure
    assert answer_span(row) is False


def test_the_short_form_of_a_longer_name_the_entity_opens_takes_the_new_initials():
    # "The New York City Police Department (NYPD) ... Members of the NYPD" had become "The
    # Utah City Police Department (NYPD) ... the NYPD": the old city's letters stayed
    from faithqa_spark.core.names import head_short_form
    for ctx, name, short in (
            ("The Kelmar City Police Department (KPD) met.", "Kelmar", "KPD"),
            ("the New Kelmar Municipal Council (NKMC) met.", "New Kelmar", "NKMC"),
            ("the Kelmar Institute of Management and Public Administration (KIMPA) met.",
             "Kelmar", "KIMPA"),
            ("the Congress for Progressive Change (CPC) won.", "Congress", "CPC")):
        assert head_short_form(ctx, name, [ctx.index(name) + len(name)]) == short, name
    for ctx, name in (("the Kelmar Knicks (NBA) met.", "Kelmar"),  # not its initials
                      ("the Kelmar Knicks (K) met.", "Kelmar"),  # nothing of the rest
                      ("the Kelmar Knicks (KX) met.", "Kelmar"),  # no capital X after it
                      # another place's: "located in Matsapha and the Manzini Industrial and
                      # Training Centre (MITC)"
                      ("located in Kelmar and the Kelmar Industrial Centre (KIC).", "Kelmar")):
        assert head_short_form(ctx, name, [ctx.index(name) + len(name)]) is None, ctx
    places = SamplingIndex.from_bank({"GPE": ["Dunmore", "Orvane"]})
    ctx = ("The Kelmar City Police Department (KPD) is the largest police force of the state. "
           "Members of the KPD are called Kelmar's Finest by the city's papers.")
    got = set()
    for o in made_rows(ctx, "Kelmar", [("Kelmar", "GPE")], places, "k",
                       question="Which city's police are the largest force?"):
        rep, mod = o[C.REPLACEMENT_ENTITY], o[C.MODIFIED_CONTEXT]
        got.add(rep)
        assert "KPD" not in mod and f"{rep} City Police Department ({rep[0]}PD)" in mod
        assert f"Members of the {rep[0]}PD" in mod
        assert [mod[sp[C.SPAN_START]:sp[C.SPAN_END]] for sp in o[C.MODIFIED_SPANS]] == \
            [rep, f"{rep[0]}PD", f"{rep[0]}PD", rep]
    assert got == {"Dunmore", "Orvane"}
    # the answer that takes in the short form reads the new one, as the audit expects
    answer = "The Kelmar City Police Department (KPD)"
    o = run(ctx, answer, [("Kelmar", "GPE")], bank=places, question="Who is the largest?")
    assert_consistent(o)
    rep = o[C.REPLACEMENT_ENTITY]
    assert o[C.FAITHFUL_ANSWER] == f"The {rep} City Police Department ({rep[0]}PD)"
    assert o[C.AUDIT]["answer_span"] is True
    assert answer_span({**o, C.FAITHFUL_ANSWER: f"The {rep} City Police Department (KPD)"}) \
        is False
    # the new short form said already: refused, never two forces of one name
    said = ctx + " The DPD and the OPD patrol the suburbs."
    o = run(said, "Kelmar", [("Kelmar", "GPE")], bank=places, question="Which city?")
    assert o[C.REASON] == reasons.DEFINED_SHORT_FORM
    # the question says the old one: the same swap there, the source's question kept
    o = run(ctx, "Kelmar", [("Kelmar", "GPE")], bank=places, question="Whose is the KPD?")
    assert_consistent(o)
    rep = o[C.REPLACEMENT_ENTITY]
    assert o[C.QUESTION] == f"Whose is the {rep[0]}PD?"
    assert o[C.ORIGINAL_QUESTION] == "Whose is the KPD?"
    # the replacement's letters are the original's: nothing to change
    same = SamplingIndex.from_bank({"GPE": ["Kyrvale"]})
    o = run(ctx, "Kelmar", [("Kelmar", "GPE")], bank=same, question="Which city?")
    assert_consistent(o)
    assert "Kyrvale City Police Department (KPD)" in o[C.MODIFIED_CONTEXT]


def test_an_s_that_ends_a_clause_belongs_to_the_name():
    ctx = "Signal Ridge overlooks the harbour town of Port Ellis's. Tourists love Port Ellis's."
    o = run(ctx, "Port Ellis's", [("Port Ellis", "GPE")])
    assert o[C.REASON] == reasons.MALFORMED_ENTITY


def test_a_place_said_with_the_keeps_it():
    places = SamplingIndex.from_bank({"LOC": ["Manchuria", "Sahara", "Siberia"]})
    ctx = "Cotton came from farms in the Levant and from the hills beyond the river."
    o = run(ctx, "Levant", [("Levant", "LOC")], bank=places)
    assert_consistent(o)
    assert o[C.REPLACEMENT_ENTITY] == "Sahara"
    o = run("Cotton came from farms in Siberia and from the hills beyond the river.", "Siberia",
            [("Siberia", "LOC")], bank=places)
    assert o[C.REPLACEMENT_ENTITY] == "Manchuria"  # never "in Sahara"


def test_a_question_naming_the_entity_gets_the_same_swap():
    o = run(CHOPIN, "Frédéric Chopin", CHOPIN_ENTS, question="What was Chopin's first name?")
    assert_consistent(o)
    last = name_parts(o[C.REPLACEMENT_ENTITY]).significant[-1]
    assert o[C.QUESTION] == f"What was {last}'s first name?"
    assert o[C.ORIGINAL_QUESTION] == "What was Chopin's first name?"
    assert o[C.AUDIT]["question_mentions_original"] is True
    plain = run(CHOPIN, "Frédéric Chopin", CHOPIN_ENTS, question="Who was born there?")
    assert plain[C.QUESTION] == plain[C.ORIGINAL_QUESTION] == "Who was born there?"
    # the replacement is in the question's text already: the swap would read as another
    bank = SamplingIndex.from_bank({"PERSON": ["Pierre Dubois"]})
    o = run(CHOPIN, "Frédéric Chopin", CHOPIN_ENTS, bank=bank,
            question="Was it Chopin or Pierre Duboisson who left Warsaw?")
    assert o[C.REASON] == reasons.QUESTION_NAMES_ENTITY
    # ... and a replacement the question names as a name of its own is never drawn
    o = run(CHOPIN, "Frédéric Chopin", CHOPIN_ENTS, bank=bank,
            question="Was it Chopin or Pierre Dubois who left Warsaw?")
    assert o[C.REASON] == reasons.NO_FITTING_REPLACEMENT
    paper = run(CHOPIN, "Frédéric Chopin", CHOPIN_ENTS, cfg=PAPER,
                question="Where was Chopin born?")
    assert paper[C.QUESTION] == paper[C.ORIGINAL_QUESTION] == "Where was Chopin born?"


def test_a_question_mention_running_into_a_longer_name_is_no_mention():
    # "Who would absorb the good bank of Cyprus Popular Bank?" had become "... the good World
    # Bank Popular Bank?": the question's "bank of Cyprus" is the start of no name of its own
    banks = SamplingIndex.from_bank({"ORG": ["Bank of Dunmore", "Bank of Kelso"]})
    ctx = ("The Orvane Popular Bank was split into a bad bank and a good bank, which the "
           "Bank of Orvane took over in May.")
    spec = [("Orvane Popular Bank", "ORG"), ("Bank of Orvane", "ORG")]
    o = run(ctx, "Bank of Orvane", spec, bank=banks,
            question="Who took over the good bank of Orvane Popular Bank?")
    assert o[C.REASON] == reasons.QUESTION_NAMES_ENTITY
    # ... but a longer name the context says too is swapped there as here
    ctx2 = ctx + " The Bank of Orvane Tower stands in the square."
    o = run(ctx2, "Bank of Orvane", spec, bank=banks,
            question="Where does the Bank of Orvane Tower stand?")
    assert_consistent(o)
    assert o[C.QUESTION] == f"Where does the {o[C.REPLACEMENT_ENTITY]} Tower stand?"
    # the same name before a word of no name of the context is the name
    o = run(ctx, "Bank of Orvane", spec, bank=banks,
            question="When did the Bank of Orvane Take over the good bank?")
    assert_consistent(o)
    assert o[C.QUESTION] == f"When did the {o[C.REPLACEMENT_ENTITY]} Take over the good bank?"


@pytest.mark.parametrize("cfg", [COHERENT, PAPER], ids=["coherent", "paper"])
def test_a_replacement_never_contains_the_original(cfg):
    bank = SamplingIndex.from_bank({"GPE": ["West Germany", "Germany East", "Peru"]})
    for i in range(30):
        o = run("The treaty was signed in Germany after a long winter of talks.", "Germany",
                [("Germany", "GPE")], cfg=cfg, bank=bank, row_id=f"squad:g{i}")
        assert o[C.REPLACEMENT_ENTITY] in (None, "Peru")


def test_same_row_same_outcome():
    assert run(CHOPIN, "Frédéric Chopin", CHOPIN_ENTS) == run(CHOPIN, "Frédéric Chopin",
                                                              CHOPIN_ENTS)


# ---- properties ----

_UPPER = "ABCDEFGHKLMNPRSTVZÉŁŻÖ"
_LOWER = "aeioulnrstvkmzéóąöü"
_NAME = st.builds(lambda a, b: a + b, st.sampled_from(_UPPER),
                  st.text(alphabet=_LOWER, min_size=3, max_size=8))
_FILLER = st.sampled_from(["was born in the valley.", "wrote many letters.",
                           "left the city in winter.", "taught music for years,",
                           "and the others agreed."])


@settings(max_examples=150, deadline=None)
@given(first=_NAME, last=_NAME, forms=st.lists(st.sampled_from(["full", "last", "poss", "first"]),
                                              min_size=1, max_size=5),
       fillers=st.lists(_FILLER, min_size=5, max_size=5), rid=st.integers(0, 10 ** 6))
def test_properties_of_person_swaps(first, last, forms, fillers, rid):
    full = f"{first} {last}"
    mention = {"full": full, "last": last, "poss": f"{last}'s", "first": first}
    ctx = f"{full} {fillers[0]} " + " ".join(
        f"Then {mention[f]} {fillers[(i + 1) % 5]}" for i, f in enumerate(forms))
    o = run(ctx, full, [(full, "PERSON"), (last, "PERSON")], question="Who was it?",
            row_id=f"squad:{rid}")
    if first == last or last in first or first in last:
        return
    assert_consistent(o)
    mod = o[C.MODIFIED_CONTEXT]
    # no part of the original name is left
    assert not boundary_matches(mod, first) and not boundary_matches(mod, last)
    # modified_spans covers exactly what changed: the text between the spans is the
    # original's text between its mentions, in order, and every span holds a new name piece
    spans = [(s[C.SPAN_START], s[C.SPAN_END]) for s in o[C.MODIFIED_SPANS]]
    gaps, prev = [], 0
    for a, b in spans:
        gaps.append(mod[prev:a])
        prev = b
    gaps.append(mod[prev:])
    pattern = "(" + "|".join(map(re.escape, [full, first, last])) + ")"
    assert re.fullmatch(pattern.join(map(re.escape, gaps)), ctx, flags=re.S)
    rep_words = set(o[C.REPLACEMENT_ENTITY].split()) | {o[C.REPLACEMENT_ENTITY]}
    assert all(p in rep_words for p in pieces(o))


@settings(max_examples=300, deadline=None)
@given(fake=fake_rows())
def test_coherent_rows_of_random_contexts_are_consistent(fake) -> None:
    """On the paper policy's generator (random entities, case variants, odd fillers): a
    coherent row is deterministic, its offsets exact, and its spans hold replacement pieces
    with the original context's text between them."""
    row, ents, bank = fake
    out = process_row(row, ents, SamplingIndex.from_bank(bank), COHERENT, PROV)
    assert out == process_row(row, ents, SamplingIndex.from_bank(bank), COHERENT, PROV)
    if out[C.STATUS] != C.OK:
        assert out[C.REASON] in reasons.FILTER_REASONS
        return
    assert_consistent(out)
    mod, ctx = out[C.MODIFIED_CONTEXT], row[C.CONTEXT]
    rep = out[C.REPLACEMENT_ENTITY]
    assert set(pieces(out)) <= {rep, *name_parts(rep).significant}
    assert not boundary_matches(mod, out[C.ORIGINAL_ENTITY])
    # outside the spans nothing changed
    prev, rebuilt = 0, []
    for sp in out[C.MODIFIED_SPANS]:
        rebuilt.append(re.escape(mod[prev:sp[C.SPAN_START]]))
        prev = sp[C.SPAN_END]
    rebuilt.append(re.escape(mod[prev:]))
    assert re.fullmatch("(.+?)".join(rebuilt), ctx, flags=re.S | re.I)


def test_corpus_gender_votes_reach_the_pools():
    votes = [("Sasha Vell's", "f", 3), ("Sasha Vell", "m", 0), ("Rin Oto", "m", 2),
             ("Rin Oto", "f", 2)]
    genders = cbank.bank_genders(votes, COHERENT.bank)
    assert genders == {"Sasha Vell": "f"}  # Rin Oto's votes do not decide
    index = SamplingIndex.from_bank({"PERSON": ["Sasha Vell", "Rin Oto", "John Smith"]},
                                    genders)
    ctx = "Ada Quell founded the school in 1907. She taught there for years."
    o = run(ctx, "Ada Quell", [("Ada Quell", "PERSON")], bank=index)
    assert o[C.REPLACEMENT_ENTITY] == "Sasha Vell"


@pytest.mark.parametrize("etype,text,ok", [
    ("PERSON", "south the", False), ("PERSON", "Agent 007", False), ("PERSON", "KSEE", False),
    ("PERSON", "Bishop Lloyd Wicke", False), ("PERSON", "Charles III", True),
    ("PERSON", "Łucja Żółw", True), ("PERSON", "J. R. R. Tolkien", True),
    ("ORG", "the 2010s Apple", False), ("ORG", "nawabs", False), ("GPE", "South the", False),
    ("GPE", "Cologne, Düsseldorf", False), ("DATE", "65Zn", True), ("DATE", "annual", False),
    ("DATE", "the 1960s to", False), ("NORP", "Delhi Sultanate", True),
    ("NORP", "Protestantism", False), ("NORP", "communist", False), ("NORP", "Danes", True),
    ("PERSON", "Franco-Spanish", False), ("ORG", "Russo-Persian", False),
    ("LOC", "Proto-Slavic", False), ("GPE", "Nagorno-Karabakh", True),
    ("ORG", "Radio-Canada", True), ("NORP", "Anglo-Saxon", True),
    ("GPE", "NigeriaSat-2", False), ("LOC", "F-4 Phantom II", False), ("ORG", "F-4 Group", True),
    # a place's name is no person's; a surname that is a word stays one
    ("PERSON", "Ho Chi Minh City", False), ("PERSON", "Charles Mountains", False),
    ("PERSON", "Michael Bay", True), ("PERSON", "John F. Street", True),
    # ... nor is a building's, a work's or a prize's ("William Tell Overture", "Zhonghua
    # Gate" had been drawn as people); "Stuart Hall" and "Shirley Temple" stay people
    ("PERSON", "William Tell Overture", False), ("PERSON", "Zhonghua Gate", False),
    ("PERSON", "Leopold Lucas Prize", False), ("PERSON", "Stuart Hall", True),
    ("PERSON", "Shirley Temple", True),
    ("PERSON", "Marie d'Agoult", True), ("PERSON", "Gianni dell'Acqua", True),
    # a court case is a LAW, never an organisation or a person
    ("ORG", "Everson v. Board of Education", False), ("PERSON", "Roe v. Wade", False),
    ("LAW", "Everson v. Board of Education", True),
    # thousands grouped with dots and version numbers are no counts ("averaged 24.000
    # approvals a year" had stood for "22.9"); a decimal before a scale word is one
    ("CARDINAL", "24.000", False), ("CARDINAL", "1.500.000", False),
    ("CARDINAL", "6.2.9200.16384", False), ("CARDINAL", "2.239 million", True),
    ("CARDINAL", "22.9", True), ("DATE", "12.05.2010", True),
    # a lower-case compass word ends no name ("the portion of the District south of the
    # Potomac" had become "... of the Secretariat of State of the Potomac")
    ("LOC", "District south", False), ("LOC", "South District", True),
])
def test_well_formed_entries(etype, text, ok):
    from faithqa_spark.core.entries import well_formed
    assert well_formed(etype, text) is ok


@pytest.mark.parametrize("etype,a,b,same", [
    ("DATE", "1907", "1934", True), ("DATE", "1907", "1888", False),  # another century
    ("DATE", "1907", "about 1934", False), ("DATE", "six years", "three years", True),
    ("DATE", "six years", "12 years", False), ("DATE", "March 1921", "March 1950", True),
    ("DATE", "two-year", "fifty-year", False), ("DATE", "two-year", "four-year", True),
    ("DATE", "twenty years", "three years", False),
    ("CARDINAL", "1,250", "3,400", True), ("CARDINAL", "1,250", "3400", False),
    ("CARDINAL", "seven", "five million", False), ("CARDINAL", "one", "three", False),
    ("NORP", "Germans", "Danes", True), ("NORP", "German", "Danes", False),
    ("MONEY", "$5 million", "$1.5 million", True), ("QUANTITY", "five inches", "2 inches", False),
    ("PERCENT", "0.28%", "0.44%", True), ("PERCENT", "0.28%", "9%", False),
    ("PERSON", "Charles III", "Louis XIV", True), ("PERSON", "Charles III", "Louis Blanc", False),
    ("ORG", "CBS", "NBC", True), ("ORG", "CBS", "Cornell", False),
])
def test_fit_keys(etype, a, b, same):
    from faithqa_spark.core.entries import fit_key
    assert (fit_key(etype, a) == fit_key(etype, b)) is same


def test_the_published_bank_loads_and_draws_without_frequencies():
    from pathlib import Path
    published = Path(__file__).resolve().parents[2] / "shared" / "reference" / "paper_entity_bank"
    if not published.is_dir():
        pytest.skip("../shared/reference not present")
    bank = cbank.load(published, COHERENT.bank.types)
    assert bank.frequency == {}  # unknown: nothing is dropped for rarity
    index = SamplingIndex.from_bank(bank.entities)
    o = run(CHOPIN, "Frédéric Chopin", CHOPIN_ENTS, bank=index)
    assert_consistent(o)
    assert len(index.pool("DATE", "year||c19")[0]) > 50


@settings(max_examples=400, deadline=None)
@given(text=st.text(alphabet="aAbkKsSiI _-.'1(é\u0301\u212a\u017f\u0130\u0131ß", max_size=30),
       entity=st.text(alphabet="aAbkKsiI _.1(", min_size=1, max_size=4))
def test_boundary_matches_fast_path_equals_the_regex(text, entity):
    """The regex-free path for ASCII entities gives the regex's matches on any text."""
    from faithqa_spark.core import text as T
    pat = T.literal_pattern(entity, True)
    want, pos = [], 0
    while (m := pat.search(text, pos)) is not None:
        s, e = m.span()
        glued = (e < len(text) and T._is_mark(text[e])) or (s > 0 and T._is_mark(text[s - 1]))
        if glued:
            pos = s + 1
            continue
        want.append((s, e))
        pos = e
    assert T.boundary_matches(text, entity) == want


@settings(max_examples=300, deadline=None)
@given(text=st.text(alphabet="aAbkKsSiI _-.1é\u0301\u212a\u017f\u0130\u0131ß", max_size=30),
       needle=st.text(alphabet="aAbkKsiI _.1", min_size=1, max_size=4))
def test_find_ci_fast_path_equals_the_regex(text, needle):
    from faithqa_spark.core import text as T
    m = T.literal_pattern(needle, False).search(text)
    assert T.find_ci(text, needle) == (m.start() if m else -1)


def test_the_corpus_type_overrides_a_one_off_ner_label():
    bank = SamplingIndex.from_bank({"NORP": ["Kelmari Settlers", "Peruvians"],
                                    "ORG": ["Orvane Mills", "Harbour Trust"]})
    ctx = "The Kelmari Settlers kept their own courts, and the Kelmari Settlers voted apart."
    o = run(ctx, "Kelmari Settlers", [("Kelmari Settlers", "ORG")], bank=bank)
    assert_consistent(o)
    assert o[C.ENTITY_TYPE] == "NORP" and o[C.REPLACEMENT_ENTITY] == "Peruvians"
    # held under its own type too (or not at all): NER's label stands
    both = SamplingIndex.from_bank({"NORP": ["Kelmari Settlers", "Peruvians"],
                                    "ORG": ["Kelmari Settlers", "Orvane Mills"]})
    assert run(ctx, "Kelmari Settlers", [("Kelmari Settlers", "ORG")],
               bank=both)[C.ENTITY_TYPE] == "ORG"
    # ... but a building the corpus reads as a person's stays a building: "married at
    # Westminster Abbey" had become "married at Martin Charteris"
    abbey = SamplingIndex.from_bank({"PERSON": ["Kelmar Abbey", "Orvane Kelm", "Ada Quell"],
                                     "FAC": ["Harbour Cathedral", "St. Ives Church"]})
    ctx = "The two were married on 20 May 1911 at Kelmar Abbey before a crowd of thousands."
    o = run(ctx, "Kelmar Abbey", [("Kelmar Abbey", "FAC")], bank=abbey,
            question="At what church were they married?")
    assert_consistent(o)
    assert o[C.ENTITY_TYPE] == "FAC" and o[C.REPLACEMENT_ENTITY] in ("Harbour Cathedral",
                                                                     "St. Ives Church")


@pytest.mark.skipif(not lexicon_available(), reason="needs the gender-guesser extra")
def test_a_place_ner_read_as_an_organisation_or_a_building_is_a_place():
    towns = ["Harwich", "Dover", "Leeds", "Barnsley", "Wakefield"]
    bank = SamplingIndex.from_bank({"GPE": towns + ["Peru", "Norway"],
                                    "ORG": ["Luftwaffe", "Orvane Mills", "Bermuda"],
                                    "PERSON": ["Mary Jones", "Olaf Berg"]})
    # a town GeoNames knows, one-off ORG or FAC: a town takes its place, never "Luftwaffe"
    for text, label in (("Felixstowe", "ORG"), ("Doncaster", "FAC"), ("Majuro", "PRODUCT")):
        ctx = f"The ferry sailed from {text} at dawn. Crowds in {text} cheered."
        o = run(ctx, text, [(text, label)], bank=bank)
        assert_consistent(o)
        assert o[C.ENTITY_TYPE] == "GPE" and o[C.REPLACEMENT_ENTITY] in towns
    # a country, even one the corpus mostly calls an ORG; a country of two words as a PERSON
    ctx = "The only native mammals of Bermuda are bats. Bermuda has no rivers."
    o = run(ctx, "Bermuda", [("Bermuda", "ORG")], bank=bank)
    assert o[C.ENTITY_TYPE] == "GPE" and o[C.REPLACEMENT_ENTITY] in ("Peru", "Norway")
    ctx = "In 1808, Sierra Leone was made a colony, and Sierra Leone grew."
    assert run(ctx, "Sierra Leone", [("Sierra Leone", "PERSON")],
               bank=bank)[C.ENTITY_TYPE] == "GPE"
    # a country NER calls a LOC is a country; a continent stays a LOC
    ctx = "Portugal found the Azores, Madeira, and Cape Verde. Cape Verde was empty."
    assert run(ctx, "Cape Verde", [("Cape Verde", "LOC")], bank=bank)[C.ENTITY_TYPE] == "GPE"
    ctx = "Explorers reached Antarctica late. Antarctica has no towns."
    assert run(ctx, "Antarctica", [("Antarctica", "LOC")], bank=bank)[C.ENTITY_TYPE] == "LOC"
    # a town's name that is also a common word or a given name, a one-word country as a
    # person, an acronym, a name with a head word: NER's label stands
    for text, label in (("Paradise", "ORG"), ("Estrella", "ORG"), ("Jordan", "PERSON"),
                        ("University of Texas", "ORG")):
        ctx = f"Then {text} came. Later {text} left the room."
        o = run(ctx, text, [(text, label)], bank=bank)
        assert o[C.ENTITY_TYPE] == label, text


@pytest.mark.skipif(not lexicon_available(), reason="needs the gender-guesser extra")
def test_a_person_entry_without_a_known_given_name_is_never_drawn():
    bank = SamplingIndex.from_bank({"PERSON": ["Telewizja Polska", "Magasin Nordic",
                                              "Kip Thorne", "Mary Jones"]})
    texts, _ = bank.pool("PERSON", "2")
    assert set(texts) == {"Kip Thorne", "Mary Jones"}
    # a street that NER took for a person: "the Valencian government spokesman Calle de
    # Salvador" read wrong
    assert not entries.drawable("PERSON", "Calle de Salvador")
    assert entries.drawable("PERSON", "Salvador Dalí")


def test_a_common_word_is_never_drawn_as_a_one_word_name():
    bank = SamplingIndex.from_bank({"ORG": ["Board", "Associates", "Orvane", "Yankees"],
                                    "NORP": ["German", "Peruvians"]})
    assert set(bank.pool("ORG", "name")[0]) == {"Orvane"}
    assert set(bank.pool("ORG", "plural")[0]) == {"Yankees"}
    assert entries.drawable("NORP", "German")  # a nationality is a word by nature
    assert entries.drawable("PERSON", "Mary Jones") and not entries.drawable("PERSON", "Bush")


@pytest.mark.parametrize("text,label,shaped", [
    ("Prince Adam Kelmarski", "LOC", True), ("Queen Ottilie", "GPE", True),
    ("Newtonianism", "GPE", True), ("St. Louis", "GPE", False),
    ("General Electric", "ORG", False), ("World War II", "EVENT", False),
    ("Lake Victoria", "LOC", False), ("Queen Ottilie", "PERSON", False),
])
def test_a_thing_named_like_a_person_is_ner_s_error(text, label, shaped):
    from faithqa_spark.core.coherent import person_shaped
    assert person_shaped(text, label) is shaped


def test_a_figure_another_depends_on_is_not_swapped():
    bank = SamplingIndex.from_bank({"CARDINAL": ["42,000", "61,500"], "PERCENT": ["25%", "44%"]})
    ctx = "The relay carried the torch 137,000 km (85,000 mi), the longest relay so far."
    o = run(ctx, "85,000", [("85,000", "CARDINAL"), ("137,000", "CARDINAL")], bank=bank)
    assert o[C.REASON] == reasons.TIED_FIGURE
    ctx = "Their ancestry was 50% Kelmari, 37% Orvanese and 13% Tallic, the survey found."
    o = run(ctx, "37%", [("50%", "PERCENT"), ("37%", "PERCENT"), ("13%", "PERCENT")], bank=bank)
    assert o[C.REASON] == reasons.TIED_FIGURE
    ctx = "Native peoples make up 0.4% of the population, or about 700,000 people, it said."
    o = run(ctx, "0.4%", [("0.4%", "PERCENT"), ("about 700,000", "CARDINAL")], bank=bank)
    assert o[C.REASON] == reasons.TIED_FIGURE


def test_the_looser_duration_pool_keeps_tens_apart():
    from faithqa_spark.core.entries import fit_keys
    assert fit_keys("DATE", "twenty years")[-1] != fit_keys("DATE", "three years")[-1]
    assert fit_keys("DATE", "three years")[-1] == fit_keys("DATE", "12 years")[-1]


def test_an_organisation_plainly_named_like_a_person_is_made_again_as_a_person_s():
    # "Who directed the operas they enjoyed in Berlin?" answered by NER's ORG "Gaspare
    # Spontini" was filtered as a misread name; it is a person's name
    from faithqa_spark.core.coherent import plainly_a_name
    assert plainly_a_name("Gaspare Spontini") and plainly_a_name("Krugman")
    assert not plainly_a_name("Noble Energy") and not plainly_a_name("Brittany Ferries")
    if not lexicon_available():
        return
    bank = SamplingIndex.from_bank({"PERSON": ["Orvane Kelm", "Ada Quell"],
                                    "ORG": ["Kelmar Gazette"]})
    ctx = "In Berlin they enjoyed the operas directed by Gaspare Spontini at the court theatre."
    o = run(ctx, "Gaspare Spontini", [("Gaspare Spontini", "ORG")], bank=bank,
            question="Who directed the operas they enjoyed in Berlin?")
    assert_consistent(o)
    assert o[C.ENTITY_TYPE] == "PERSON" and o[C.REPLACEMENT_ENTITY] in ("Orvane Kelm",
                                                                         "Ada Quell")
    # a firm with a common word in its name stays refused
    ctx = "The rights to the field went to Noble Energy, a firm based in Houston, in 2008."
    o = run(ctx, "Noble Energy", [("Noble Energy", "ORG")], bank=bank,
            question="Which firm won the rights?")
    assert o[C.STATUS] == C.FILTERED


def test_a_replacement_is_no_name_the_question_says_for_something_else():
    # "On which continent other than Europe is the Premier League especially popular?" had
    # been answered "Europe", and "What television network in Asia shows American Idol?"
    # "American Idol"
    bank = SamplingIndex.from_bank({"LOC": ["Europe", "Oceania", "Antarctica"]})
    ctx = "The league is particularly popular in Asia, where it is widely broadcast."
    q = "On which continent other than Europe is the league especially popular?"
    drawn = {run(ctx, "Asia", [("Asia", "LOC")], bank=bank, question=q,
                 row_id=f"squad:r{i}")[C.REPLACEMENT_ENTITY] for i in range(8)}
    assert drawn and drawn <= {"Oceania", "Antarctica"}
    # a question without the name leaves it drawable
    drawn = {run(ctx, "Asia", [("Asia", "LOC")], bank=bank, question="Where is it popular?",
                 row_id=f"squad:r{i}")[C.REPLACEMENT_ENTITY] for i in range(8)}
    assert "Europe" in drawn


def test_a_who_question_s_answer_that_reads_as_a_person_s_name_is_made_again_as_a_person_s():
    # "Who transferred the district ...?" answered by NER's ORG "Khrushchev", a surname of
    # the bank's people, had been swapped for an organisation ("Caucasus transferred ...")
    from faithqa_spark.core.coherent import asked_person
    bank = SamplingIndex.from_bank({"PERSON": ["Nikita Khrushchev", "Orvane Kelm", "Ada Quell"],
                                    # NER read the surname as an organisation elsewhere too
                                    "ORG": ["Kelmar Gazette", "Barclays", "Quellton Bank",
                                            "Khrushchev"],
                                    "GPE": ["Prussia", "Saxony"]})
    ctx = "In 1954 Khrushchev transferred the district to the republic, against advice."
    q = "Who transferred the district to the republic?"
    o = run(ctx, "Khrushchev", [("Khrushchev", "ORG")], bank=bank, question=q)
    assert_consistent(o)
    assert o[C.ENTITY_TYPE] == "PERSON"
    assert o[C.REPLACEMENT_ENTITY] in ("Orvane Kelm", "Ada Quell")
    entity = Entity("Khrushchev", "ORG", 8, 18)
    assert asked_person(q, "Khrushchev", entity, "ORG", bank)
    for asks in ("With whom did the party agree?", "Which Soviet leader spoke first?"):
        assert asked_person(asks, "Khrushchev", entity, "ORG", bank) == ("whom" in asks)
    assert asked_person("Which Soviet statesman spoke first?", "Khrushchev", entity, "ORG", bank) \
        is False  # no noun of the list: left as NER typed it
    assert asked_person("Which scientist spoke first?", "Khrushchev", entity, "ORG", bank)
    # not a "who" question, an answer that is more than the name, NER's PERSON already
    assert not asked_person("What did Khrushchev transfer?", "Khrushchev", entity, "ORG", bank)
    assert not asked_person(q, "Khrushchev and Bulganin", entity, "ORG", bank)
    assert not asked_person(q, "Khrushchev", entity, "PERSON", bank)
    # an organisation or a country answers "who" too: no surname of the bank's people, a
    # known place, a name with a head word, a common word
    for name, label in (("Barclays", "ORG"), ("Prussia", "GPE"), ("Quellton Bank", "ORG"),
                        ("Apple", "ORG")):
        assert not asked_person("Who won?", name, Entity(name, label, 0, len(name)), label,
                                bank), name
    o = run("In 1871 Prussia won the war against its neighbour.", "Prussia",
            [("Prussia", "GPE")], bank=bank, question="Who won the war?")
    assert o[C.ENTITY_TYPE] == "GPE" and o[C.REPLACEMENT_ENTITY] not in ("Orvane Kelm", "Ada Quell")
    if lexicon_available():
        # a known given name before a surname: "Enrico Fermi" (NER's ORG) is a person
        name = "Enrico Fermi"
        assert asked_person("Who led the team?", name, Entity(name, "ORG", 0, 12), "ORG", bank)
    # ... and so is any name that the context's pronouns give a gender ("Who caused Oda
    # Nobunaga's death?" "Akechi Mitsuhide", NER's ORG, had become "France 2")
    ctx = "In 1582 Mitsuhide betrayed his lord at the temple, and he was killed soon after."
    q = "Who betrayed his lord at the temple?"
    m = Entity("Mitsuhide", "ORG", 8, 17)
    assert asked_person(q, "Mitsuhide", m, "ORG", bank, ctx)
    assert not asked_person(q, "Mitsuhide", m, "ORG", bank)  # without the context: no sign
    o = run(ctx, "Mitsuhide", [("Mitsuhide", "ORG")], bank=bank, question=q)
    assert_consistent(o)
    assert o[C.ENTITY_TYPE] == "PERSON" and o[C.REPLACEMENT_ENTITY] in (
        "Orvane Kelm", "Ada Quell", "Nikita Khrushchev")
    ctx = "In 1582 Mitsuhide bought the temple, and its grounds were sold soon after."
    assert not asked_person(q, "Mitsuhide", m, "ORG", bank, ctx)  # no pronoun of a person


def test_a_place_or_body_named_with_a_title_or_a_regnal_name_is_made_again_as_a_person_s():
    # NER's GPE "Queen Victoria" and ORG "Philip II" were filtered as malformed places and
    # bodies; they are people's names, and the title stays before the new name
    from faithqa_spark.core.coherent import misread_person
    bank = SamplingIndex.from_bank({"PERSON": ["Orvane Kelm", "Ada Quell", "Ludwika",
                                               "Casimir IV"],
                                    "GPE": ["Kelmar"], "ORG": ["Kelmar Gazette"]})
    assert not misread_person("Philip II", "PERSON", bank)
    # a common word after the title: a firm, a bus service, a festival's figure
    assert not misread_person("Princess Cruises", "ORG", bank)
    assert not misread_person("King County Metro", "ORG", bank)
    assert not misread_person("Newtonianism", "GPE", bank)  # a doctrine
    if not lexicon_available():
        return
    # a regnal name is a person's where its first word is a given name (the lexicon's)
    assert misread_person("Philip II", "ORG", bank)
    assert misread_person("Queen Victoria", "GPE", bank)
    ctx = ("The museum was opened by Queen Victoria in 1857. Victoria had asked for a hall "
           "of science.")
    o = run(ctx, "Queen Victoria", [("Queen Victoria", "GPE")], bank=bank,
            question="Who opened the museum?")
    assert_consistent(o)
    assert o[C.ENTITY_TYPE] == "PERSON" and o[C.ORIGINAL_ENTITY] == "Victoria"
    new = o[C.REPLACEMENT_ENTITY]
    assert o[C.FAITHFUL_ANSWER] == f"Queen {new}" and "Victoria" not in o[C.MODIFIED_CONTEXT]
    assert o[C.MODIFIED_CONTEXT].count(new) == 2
    ctx = "Pope Gregory's reform was decreed by Philip II of Spain, who ruled from Madrid."
    o = run(ctx, "Philip II", [("Philip II", "ORG")], bank=bank,
            question="Who decreed the reform?")
    assert_consistent(o)
    assert o[C.ENTITY_TYPE] == "PERSON" and o[C.REPLACEMENT_ENTITY] == "Casimir IV"
    # the firm stays refused
    ctx = "The brands of the group include Princess Cruises and two other cruise lines."
    o = run(ctx, "Princess Cruises", [("Princess Cruises", "ORG")], bank=bank,
            question="Which brand does the group own?")
    assert o[C.STATUS] == C.FILTERED and o[C.REASON] == reasons.MALFORMED_ENTITY


def test_the_noun_next_to_an_organisation_says_which_kind_it_takes():
    # "Forbes magazine" had become "Danaans magazine", and "her twelfth studio album, NVT"
    # came from NER's ORG "MDNA"
    from faithqa_spark.core.coherent import named_with
    assert named_with("A story in Dunmore magazine said so.", "Dunmore", "ORG") == ("ORG", "press")
    assert named_with("She released the album Quiet Harbour in May.", "Quiet Harbour",
                      "ORG") == ("WORK_OF_ART", None)
    # a noun after the name that is no newspaper's names no work: "the Telugu film industry"
    assert named_with("the Kelmari film industry grew", "Kelmari", "ORG") is None
    # "single" before a name is an adjective
    assert named_with("the single Kelmar market opened", "Kelmar", "ORG") is None
    # every mention must have the noun
    assert named_with("Dunmore magazine said so; Dunmore also sold cars.", "Dunmore",
                      "ORG") is None
    assert named_with("A story in Dunmore magazine said so.", "Dunmore", "GPE") is None
    bank = SamplingIndex.from_bank({"ORG": ["Ash Gazette", "Kelmarco", "Ostrava Bank"],
                                    "WORK_OF_ART": ["Silver Tides"]})
    ctx = "A cover story in Dunmore magazine claims that economists failed to see the crisis."
    o = run(ctx, "Dunmore", [("Dunmore", "ORG")], bank=bank, question="Who ran the story?")
    assert_consistent(o)
    assert o[C.ENTITY_TYPE] == "ORG" and o[C.REPLACEMENT_ENTITY] == "Ash Gazette"
    ctx = "In 2012 she released the album Quiet Harbour to good reviews."
    o = run(ctx, "Quiet Harbour", [("Quiet Harbour", "ORG")], bank=bank,
            question="What did she release in 2012?")
    assert_consistent(o)
    assert o[C.ENTITY_TYPE] == "WORK_OF_ART" and o[C.REPLACEMENT_ENTITY] == "Silver Tides"


def test_a_feature_whose_name_stays_without_its_head_word_is_refused():
    # "the majority of the mandolin scene in Portugal is in Roosevelt Island. Madeira has
    # over 17 active mandolin orchestras": the island's own name stayed
    from faithqa_spark.core.coherent import _stem_left, mentions

    def left(ctx: str, name: str) -> bool:
        return _stem_left(ctx, name, mentions(ctx, name, "LOC"))
    assert left("The scene is on Kelmar Island. Kelmar has 17 orchestras.", "Kelmar Island")
    assert left("Storms cross the Vasqua Ocean; the Vasqua coast floods.", "Vasqua Ocean")
    # a river's, after "the" and before no other word of a name
    assert left("Troops crossed the Orvane River, then the Orvane and the hills.",
                "Orvane River")
    assert not left("Troops crossed the Orvane River near the Orvane district.", "Orvane River")
    assert not left("It flows by the Orvane River and Orvane City.", "Orvane River")
    assert not left("The Kelmar Island ferry; Kelmar-Dunmore bridge.", "Kelmar Island")
    assert not left("the North Sea and the North", "North Sea")
    ctx = "The mandolin scene is centred on Kelmar Island. Kelmar has over 17 orchestras."
    o = run(ctx, "Kelmar Island", [("Kelmar Island", "LOC")],
            bank=SamplingIndex.from_bank({"LOC": ["Dunmore Island", "Vasqua Island"]}),
            question="Where is the mandolin scene?")
    assert o[C.STATUS] == C.FILTERED and o[C.REASON] == reasons.DERIVED_WORD_LEFT
    o = run("The mandolin scene is centred on Kelmar Island, where 17 orchestras play.",
            "Kelmar Island", [("Kelmar Island", "LOC")],
            bank=SamplingIndex.from_bank({"LOC": ["Dunmore Island", "Vasqua Island"]}),
            question="Where is the mandolin scene?")
    assert_consistent(o)


def test_a_norp_word_naming_an_age_is_refused():
    ctx = "The Kelmaric period saw new comedy, and Kelmaric poets wrote for the stage."
    o = run(ctx, "Kelmaric", [("Kelmaric", "NORP")])
    assert o[C.REASON] == reasons.MALFORMED_ENTITY


def test_more_of_ner_s_errors_and_names_inside_names():
    from faithqa_spark.core.coherent import person_shaped
    from faithqa_spark.core.namekinds import name_class
    from faithqa_spark.core.coherent import org_named_like_person
    if lexicon_available():
        known = SamplingIndex.from_bank({"ORG": ["Walter Kelm"]})
        assert org_named_like_person("Millard Sheets", "ORG", known)
        assert not org_named_like_person("Walter Kelm", "ORG", known)  # the corpus's ORG
        assert not org_named_like_person("San Jose", "GPE", known)
        assert not person_shaped("San Jose", "GPE")
    assert name_class("National Rowing Act") == "law" and name_class("Mont Kelmar") == "mountain"
    # "Peace of Amasya" (NER's LOC) is a treaty, never drawn for a region; a "Peace" at the
    # end of a name is no head word
    assert name_class("Peace of Amasya") == "treaty"
    assert name_class("Institute for International Peace") == "edu"
    # a newspaper, a station, a firm by the word their names end with
    assert name_class("Ann Arbor Business Review") == name_class("Times of India") == "press"
    assert name_class("BBC Radio") == "broadcast" and name_class("Lehman Brothers") == "company"
    assert name_class("Mirror of Twilight") == "name"  # "Mirror" leads: no newspaper
    # ... and one named by its head word alone: "the Guardian" had taken "Boeing", "Beyoncé"
    assert name_class("Guardian") == name_class("Times") == name_class("Tribune") == "press"
    assert name_class("Titans") == "plural"
    # a store is a firm: "the Department Store" had replaced "Parliament" and "the Senate"
    assert name_class("Department Store") == name_class("iTunes Store") == "company"
    assert not entries.drawable("CARDINAL", "zero") and entries.drawable("CARDINAL", "six")
    # a one-word product of NER's is a surname, a genus or a river more often than not
    for junk in ("Kuiper", "Calidris", "Werra", "McKerrow"):
        assert not entries.drawable("PRODUCT", junk), junk
    for product in ("GameCube", "iPods", "ARPANET", "Windows 8.1", "Soyuz 2"):
        assert entries.drawable("PRODUCT", product), product
    assert not entries.drawable("PERSON", "Walter Kelm Park")
    ctx = "The tomb lies beneath St Peter's Basilica, and Peter was buried there, tradition says."
    o = run(ctx, "Peter", [("Peter", "PERSON")])
    assert o[C.REASON] == reasons.NAME_INSIDE_NAME


def test_a_loose_key_is_never_another_entry_s_strict_key():
    # "73.0%" falls back to the pool of any one-digit percentage, but is not one itself
    index = SamplingIndex.from_bank({"PERCENT": ["73.0%", "6%"]})
    assert index.pool("PERCENT", entries.fit_keys("PERCENT", "1%")[0])[0] == ["6%"]
    loose = index.pool("PERCENT", entries.fit_keys("PERCENT", "1%")[1])[0]
    assert set(loose) == {"73.0%", "6%"}
    o = run("Russian was the main language of 1% of the people.", "1%", [("1%", "PERCENT")],
            bank=index)
    assert o[C.REPLACEMENT_ENTITY] == "6%"


@pytest.mark.parametrize("etype, text, drawn", [
    ("NORP", "Seine", False), ("NORP", "Delhi Sultanate", False), ("NORP", "Greek", True),
    ("NORP", "Han", True), ("NORP", "Methodists", True), ("NORP", "Swiss", True),
    ("ORG", "E-5", False), ("ORG", "HP", True), ("ORG", "Orphism", False),
    ("GPE", "Cubism", False), ("ORG", "Lehman Brothers", True),
    # a language is no place ("the Mongolian Sack of Kazakh"); a place with its name is
    ("GPE", "Kazakh", False), ("GPE", "Urdu", False), ("LOC", "Neapolitan", False),
    ("GPE", "Brunei", True), ("GPE", "Georgia", True), ("GPE", "Punjab", True),
    # a place's name is no common word, whatever the lexicon holds ("pari", "tonga")
    ("GPE", "Paris", True), ("GPE", "Tonga", True), ("GPE", "Board", False),
    # a storm is an event whatever NER typed it: "according to Cyclone Pam" read wrong
    ("ORG", "Cyclone Pam", False), ("PERSON", "Hurricane Katrina", False),
    ("EVENT", "Hurricane Katrina", True),
    # a people's or a faith's word, or a club, is no place unless a list of places knows it
    ("GPE", "Punjabi", False), ("GPE", "Lutheran", False), ("GPE", "Baptist", False),
    ("LOC", "Methodists", False), ("GPE", "Manchester United", False),
    ("GPE", "Leicester City", False), ("GPE", "Mexico City", True), ("GPE", "Oman", True),
    ("GPE", "Tehran", True), ("GPE", "Kansas City", True), ("LOC", "Caribbean", True),
    ("GPE", "Kurdistan", True),
    # a product name NER typed as an organisation ("The use of iPad microprocessors")
    ("ORG", "iPod Classic", False), ("ORG", "eMac", False), ("ORG", "IBM", True),
    # a code is no event, and an aeroplane, a show, a king or a city no building or road
    ("EVENT", "Digi-Egg", False), ("EVENT", "UCS-2", False), ("EVENT", "WWII", True),
    ("FAC", "Ju 88", False), ("FAC", "Yeezy Season 3", False), ("FAC", "Henry VII", False),
    ("FAC", "Sevastopol", False), ("FAC", "Route 66", True), ("FAC", "Interstate 95", True),
    ("FAC", "Camp Nou", True),
    # "Christ" ends like "Buddhist" but names no group ("the Christ and Republican parties")
    ("NORP", "Christ", False), ("NORP", "Christian", True), ("NORP", "Antichrist", False),
    # a ratio or a fraction keeps its colon or slash; a time or a date so written does not
    ("CARDINAL", "16:9", True), ("CARDINAL", "1/3", True), ("CARDINAL", "3:", False),
    ("TIME", "10:30 pm", False), ("DATE", "2010/2011", False), ("ORG", "A/B", False),
    # a span of time is no place or body ("date back to the Middle Ages" had taken a LOC);
    # a work may be titled so
    ("LOC", "Middle Ages", False), ("ORG", "Ordovician Period", False),
    ("ORG", "Reconstruction Era", False), ("WORK_OF_ART", "The Jazz Age", True),
])
def test_only_a_people_s_word_is_drawn_as_norp_and_a_name_has_letters(etype, text, drawn):
    assert entries.drawable(etype, text) is drawn


def test_a_planet_takes_a_planet_and_no_place_on_earth_takes_one():
    bank = SamplingIndex.from_bank({"LOC": ["Venus", "Jupiter", "Sahara", "Siberia"]})
    assert entries.fit_keys("LOC", "Saturn") == [entries.PLANET]
    assert entries.fit_keys("GPE", "Uranus") == [entries.PLANET]
    assert entries.fit_keys("GPE", "Jupiter") != [entries.PLANET]  # a Florida town first
    assert entries.fit_keys("ORG", "Mercury") != [entries.PLANET]  # a record label
    assert entries.fit_keys("LOC", "Earth") != [entries.PLANET]  # "the Earth"
    ctx = "The probe flew past Saturn in 1980 and sent back pictures of its rings."
    drawn = set()
    for rid in ("squad:a", "squad:b", "squad:c", "squad:d"):
        o = run(ctx, "Saturn", [("Saturn", "LOC")], bank=bank, row_id=rid)
        assert_consistent(o)
        drawn.add(o[C.REPLACEMENT_ENTITY])
    assert drawn <= {"Venus", "Jupiter"} and drawn
    ctx = "Caravans crossed the Gobi for weeks before they reached a well."
    for rid in ("squad:a", "squad:b", "squad:c", "squad:d"):
        o = run(ctx, "Gobi", [("Gobi", "LOC")], bank=bank, row_id=rid)
        assert_consistent(o)
        assert o[C.REPLACEMENT_ENTITY] in ("Sahara", "Siberia")


def test_the_month_the_question_names_stays_in_the_date():
    bank = SamplingIndex.from_bank({"DATE": ["20 August", "May 3", "June 9", "May 17"]})
    ctx = "The relay race ends in Belgrade on May 25, as it has for decades."
    for rid in ("squad:a", "squad:b", "squad:c"):
        o = run(ctx, "May 25", [("May 25", "DATE")], bank=bank, row_id=rid,
                question="On what day in May does the race end?")
        assert_consistent(o)
        assert o[C.REPLACEMENT_ENTITY] in ("May 3", "May 17")
    # "may" as a verb names no month
    o = run(ctx, "May 25", [("May 25", "DATE")], bank=bank, row_id="squad:d",
            question="When may the race end?")
    assert o[C.STATUS] == C.OK


def test_a_bare_apostrophe_after_a_plural_name_keeps_a_name_ending_in_s():
    bank = SamplingIndex.from_bank({"ORG": ["DiscoVision", "Orvane Mills", "Tellmark"]})
    ctx = ("Shell agreed to acquire East Resources for cash. The deal included "
           "East Resources' tight gas fields.")
    for rid in ("squad:a", "squad:b", "squad:c", "squad:d"):
        o = run(ctx, "East Resources", [("East Resources", "ORG")], bank=bank, row_id=rid)
        assert_consistent(o)
        assert o[C.REPLACEMENT_ENTITY] == "Orvane Mills"
        assert "Orvane Mills' tight" in o[C.MODIFIED_CONTEXT]


def test_a_figure_compared_with_another_keeps_the_direction_of_the_change():
    bank = SamplingIndex.from_bank({"CARDINAL": ["24", "31", "92", "88"]})
    ctx = "FUNAI confirmed 67 different uncontacted tribes in Brazil, up from 40 in 2005."
    for rid in ("squad:a", "squad:b", "squad:c", "squad:d"):
        o = run(ctx, "67", [("67", "CARDINAL"), ("40", "CARDINAL")], bank=bank, row_id=rid)
        assert_consistent(o)
        assert int(o[C.REPLACEMENT_ENTITY]) > 40
    down = ctx.replace("up from", "down from")
    o = run(down, "67", [("67", "CARDINAL"), ("40", "CARDINAL")], bank=bank)
    assert int(o[C.REPLACEMENT_ENTITY]) < 40


def test_a_replacement_never_contains_another_name_of_the_context():
    bank = SamplingIndex.from_bank({"GPE": ["Federal Republic of Germany", "Kingdom of Norway",
                                            "Republic of Chile"]})
    ctx = ("In August 1940, the Soviet Union suspended its deliveries. Germany was supposed "
           "to have consulted with the Soviet Union first.")
    spec = [("Soviet Union", "GPE"), ("Germany", "GPE")]
    found = set()
    for rid in ("squad:a", "squad:b", "squad:c", "squad:d", "squad:e", "squad:f"):
        o = run(ctx, "Soviet Union", spec, bank=bank, row_id=rid)
        assert_consistent(o)
        found.add(o[C.REPLACEMENT_ENTITY])
    assert found and "Federal Republic of Germany" not in found
    from faithqa_spark.core.coherent import other_names
    ents = entities(ctx, spec + [("Soviet", "NORP")])
    assert other_names(ents, "Soviet Union") == ("Germany",)  # a part of the original: no


def test_another_name_of_the_same_country_is_no_swap():
    bank = SamplingIndex.from_bank({"GPE": ["Persia", "Pakistan"]})
    ctx = "By 1974, the economy of Iran was experiencing inflation. Iran borrowed abroad."
    for rid in ("squad:a", "squad:b", "squad:c", "squad:d"):
        o = run(ctx, "Iran", [("Iran", "GPE")], bank=bank, row_id=rid)
        assert_consistent(o)
        assert o[C.REPLACEMENT_ENTITY] == "Pakistan"
    from faithqa_spark.core.namekinds import country_code
    assert country_code("Persia") == country_code("Islamic Republic of Iran") == "IRN"
    assert country_code("Paris") is None


def test_a_country_cut_short_and_half_a_number_are_refused():
    bank = SamplingIndex.from_bank({"GPE": ["Peru", "Norway", "Chile"],
                                    "CARDINAL": ["twenty", "ninety", "thirty"]})
    ctx = "The islands lie east of the Federated States of Micronesia, as the Federated States say."
    o = run(ctx, "Federated States", [("Federated States", "GPE")], bank=bank)
    assert o[C.STATUS] == C.FILTERED and o[C.REASON] == reasons.NAME_INSIDE_NAME
    ctx = "It is named for the seventy translators (seventy-two, in some versions)."
    o = run(ctx, "seventy", [("seventy", "CARDINAL")], bank=bank)
    assert o[C.STATUS] == C.FILTERED and o[C.REASON] == reasons.NAME_INSIDE_NAME
    plain = "It is named for the seventy translators who worked apart."
    assert_consistent(run(plain, "seventy", [("seventy", "CARDINAL")], bank=bank))


def test_a_name_takes_one_with_its_head_noun_first():
    from faithqa_spark.core.entries import HEAD, head_key
    assert head_key("ORG", "American Psychiatric Association") == HEAD + "association"
    assert head_key("ORG", "Bank of England") == head_key("ORG", "World Bank") == HEAD + "bank"
    # a numbered name's head is the word before its number
    assert head_key("EVENT", "World War II") == head_key("EVENT", "World War Two") == HEAD + "war"
    assert head_key("EVENT", "Operation Overlord") == HEAD + "overlord"
    assert head_key("LAW", "Order in Council") == HEAD + "order" != head_key("ORG", "Council")
    assert head_key("ORG", "Apple") is None and head_key("WORK_OF_ART", "Pride and Joy") is None
    # (the corpus says "the" before the association, as before the original)
    bank = SamplingIndex.from_bank({"ORG": ["Council of Ministers", "Harbour Trust",
                                            "American Dental Association", "Orvane Mills",
                                            "the American Dental Association"]})
    ctx = ("These include the American Psychiatric Association, American Psychological "
           "Association, American Counseling Association and others.")
    spec = [("American Psychiatric Association", "ORG"),
            ("American Psychological Association", "ORG"),
            ("American Counseling Association", "ORG")]
    for rid in ("squad:a", "squad:b", "squad:c", "squad:d"):
        o = run(ctx, "American Psychiatric Association", spec, bank=bank, row_id=rid)
        assert_consistent(o)
        assert o[C.REPLACEMENT_ENTITY] == "American Dental Association"
    # no name with its head noun: one of its kind, as before
    alone = SamplingIndex.from_bank({"ORG": ["Council of Ministers", "Harbour Trust"]})
    o = run(ctx, "American Psychiatric Association", spec, bank=alone)
    assert_consistent(o)


def test_a_word_made_from_the_name_refuses_the_row():
    bank = SamplingIndex.from_bank({"NORP": ["Amish", "Lutheran", "Baptist"],
                                    "PERSON": ["John Smith", "Olaf Berg"]})
    ctx = "Protestantism is a faith that began with the Protestant Reformation in Europe."
    o = run(ctx, "Protestant", [("Protestant", "NORP")], bank=bank)
    assert o[C.STATUS] == C.FILTERED and o[C.REASON] == reasons.DERIVED_WORD_LEFT
    ctx = "Calvinist churches spread after Calvin wrote the Institutes."
    o = run(ctx, "Calvin", [("Calvin", "PERSON")], bank=bank)
    assert o[C.REASON] == reasons.DERIVED_WORD_LEFT
    plain = "The Protestant Reformation began in Europe, and the Protestant churches grew."
    assert_consistent(run(plain, "Protestant", [("Protestant", "NORP")], bank=bank))


def test_a_word_made_from_a_persons_surname_refuses_the_row():
    # "the new borders were to be drawn by President Woodrow Wilson ... 'Wilsonian Armenia'"
    # kept the old name in its adjective; "John Calvin" and "Calvinist" the same
    bank = SamplingIndex.from_bank({"PERSON": ["Olaf Berg", "Tomas Lund", "Erik Dahl"]})
    people = [("Woodrow Wilson", "PERSON")]
    for ctx in ("The borders were drawn by Woodrow Wilson, hence 'Wilsonian Armenia'.",
                "Woodrow Wilson spoke; the Wilsonians cheered and the Wilsonism spread.",
                "The Wilsonian era began when Woodrow Wilson was elected."):
        o = run(ctx, "Woodrow Wilson", people, bank=bank)
        assert (o[C.STATUS], o[C.REASON]) == (C.FILTERED, reasons.DERIVED_WORD_LEFT), ctx
    o = run("Calvinist churches spread after John Calvin wrote the Institutes.", "John Calvin",
            [("John Calvin", "PERSON")], bank=bank)
    assert o[C.REASON] == reasons.DERIVED_WORD_LEFT
    # the name itself, or another word that starts with it, leaves nothing behind
    for ctx in ("The borders were drawn by Woodrow Wilson, and Wilson's aides agreed.",
                "Woodrow Wilson met the Wilsons of Ohio at Wilsonville station."):
        assert_consistent(run(ctx, "Woodrow Wilson", people, bank=bank))


def test_a_ranked_figure_keeps_its_rank_and_a_part_stays_below_its_whole():
    bank = SamplingIndex.from_bank({"CARDINAL": ["12,500", "34,100", "45,900", "88,200",
                                                 "97,300"],
                                    "PERCENT": ["12%", "21%", "29%", "38%", "52%", "64%"]})
    ctx = ("The largest towns are Carrow (98,850), Lawdon (43,444) and Edfall (11,405). "
           "It has a port.")
    spec = [("98,850", "CARDINAL"), ("43,444", "CARDINAL"), ("11,405", "CARDINAL")]
    for rid in ("squad:a", "squad:b", "squad:c", "squad:d", "squad:e"):
        o = run(ctx, "43,444", spec, bank=bank, row_id=rid)
        assert_consistent(o)
        assert 11405 < int(o[C.REPLACEMENT_ENTITY].replace(",", "")) < 98850
    faith = "Most people are Christians (41%), particularly Catholics (33%). It is old."
    for rid in ("squad:a", "squad:b", "squad:c", "squad:d", "squad:e"):
        o = run(faith, "41%", [("41%", "PERCENT"), ("33%", "PERCENT")], bank=bank, row_id=rid)
        assert_consistent(o)
        assert int(o[C.REPLACEMENT_ENTITY].rstrip("%")) > 33


@pytest.mark.skipif(not lexicon_available(), reason="gender-guesser not installed")
def test_a_person_named_organisation_is_never_drawn():
    assert not entries.drawable("ORG", "Daniel-Henry Kahnweiler")
    assert not entries.drawable("ORG", "Millard Sheets")
    assert entries.drawable("ORG", "Lehman Brothers")
    assert entries.drawable("ORG", "George Washington University")  # a head word
    assert not entries.drawable("PERSON", "San Ángel") and entries.drawable("PERSON", "Ana Ruiz")


def test_a_name_of_a_kind_takes_one_of_that_kind_typed_otherwise():
    # NER typed the battle an ORG; the bank's battles are EVENTs
    bank = SamplingIndex.from_bank({"ORG": ["Orvane Mills", "Tellmark"],
                                    "EVENT": ["Battle of Hastings", "Olympic Games"]})
    ctx = "The Battle of Covadonga was fought in 722. After the Battle of Covadonga, it grew."
    o = run(ctx, "Battle of Covadonga", [("Battle of Covadonga", "ORG")], bank=bank)
    assert_consistent(o)
    assert o[C.REPLACEMENT_ENTITY] == "Battle of Hastings"
    assert o[C.ENTITY_TYPE] == "ORG"
    # a plain name has no kind to share: no fallback to another type
    o = run("Kelmar rose. Kelmar fell.", "Kelmar", [("Kelmar", "ORG")],
            bank=SamplingIndex.from_bank({"ORG": ["Kelmar Group"], "EVENT": ["Olympic Games"]}))
    assert o[C.REASON] == reasons.NO_FITTING_REPLACEMENT


def test_an_acronym_s_plural_is_swapped_with_it():
    orgs = SamplingIndex.from_bank({"ORG": ["CBS", "ESA", "Orvane Mills"]})
    ctx = ("Customers pay their ISP for access. ISPs themselves pay upstream ISPs, and an "
           "upstream ISP has a larger network.")
    q = "Why do ISPs pay an upstream ISP?"
    o = run(ctx, "ISP", [("ISP", "ORG")], bank=orgs, question=q)
    assert_consistent(o)
    # only an acronym whose plural reads as one: never "CBSs", never a name
    assert o[C.REPLACEMENT_ENTITY] == "ESA"
    mod = o[C.MODIFIED_CONTEXT]
    assert "ISP" not in mod and mod.count("ESAs") == 2 and mod.count("ESA ") == 2
    assert [mod[sp[C.SPAN_START]:sp[C.SPAN_END]] for sp in o[C.MODIFIED_SPANS]] == \
        ["ESA", "ESAs", "ESAs", "ESA"]
    assert o[C.QUESTION] == "Why do ESAs pay an upstream ESA?"


def test_a_saint_s_name_is_a_name_of_its_own():
    for ctx in ("The abbey was built where Saint Kelda Marrow preached in 1102.",
                "Saint Kelda Marrow preached here. The abbey honours Kelda Marrow still.",
                "Pilgrims came to St. Kelda Marrow every spring of the century."):
        o = run(ctx, "Kelda Marrow", [("Kelda Marrow", "PERSON")])
        assert o[C.REASON] == reasons.NAME_INSIDE_NAME, ctx


def test_a_full_date_keeps_the_way_the_context_writes_dates():
    dates = SamplingIndex.from_bank({"DATE": ["4 July 1812", "11 May 2008", "March 10, 1999",
                                              "May 2, 2001", "June 5, 1950"]})
    ctx = "The album was released on June 24, 2003, and toured for a year."
    for i in range(12):
        o = run(ctx, "June 24, 2003", [("June 24, 2003", "DATE")], bank=dates,
                row_id=f"squad:d{i}")
        assert_consistent(o)
        assert o[C.REPLACEMENT_ENTITY] in ("March 10, 1999", "May 2, 2001"), i
    assert entries.written_form("4th July 1776") == entries.written_form("1st May 1990")
    assert entries.written_form("July 4, 1776") != entries.written_form("4 July 1776")


def test_centuries_and_durations_keep_their_form():
    assert not entries.well_formed("DATE", "early 20th centuries")  # NER's cut of a range
    assert entries.well_formed("DATE", "the 19th and 20th centuries")
    assert entries.well_formed("DATE", "two centuries")
    assert entries.fit_key("DATE", "the 11th century") != entries.fit_key("DATE", "the 11th "
                                                                                  "and 12th centuries")
    old, ago = entries.fit_keys("DATE", "several centuries old"), \
        entries.fit_keys("DATE", "many centuries ago")
    assert not set(old) & set(ago)  # "a castle many centuries ago" is no castle's age


@pytest.mark.skipif(not lexicon_available(), reason="first-name lexicon not installed")
def test_a_one_word_person_to_draw_is_a_known_given_name_or_a_surname_of_the_bank():
    texts = ["Arthur Holmes", "Holmes", "Sicily", "Michelle", "Penicillium"]
    assert entries.lone_names(texts) == ["Holmes", "Michelle"]
    index = SamplingIndex.from_bank({"PERSON": texts})
    assert sorted(index.pool("PERSON", "*")[0]) == ["Arthur Holmes", "Holmes", "Michelle"]


def test_a_people_s_word_takes_a_people_s_word_and_a_faith_s_a_faith_s():
    norps = SamplingIndex.from_bank({"NORP": ["Javanese", "Peruvian", "Lutheran", "Buddhist"]})
    ctx = "The movement began with the Protestant Reformation in northern Europe."
    for i in range(8):
        o = run(ctx, "Protestant", [("Protestant", "NORP")], bank=norps, row_id=f"squad:n{i}")
        assert_consistent(o)
        assert o[C.REPLACEMENT_ENTITY] in ("Lutheran", "Buddhist"), i
    ctx = "Outbreaks of conflict spread across the Indian states."
    for i in range(8):
        o = run(ctx, "Indian", [("Indian", "NORP")], bank=norps, row_id=f"squad:n{i}")
        assert o[C.REPLACEMENT_ENTITY] in ("Javanese", "Peruvian"), i
    assert entries.norp_kind("Sunni Muslims") == entries.FAITH
    assert entries.norp_kind("Communists") == entries.norp_kind("Fascist") == entries.PARTY
    # "particularly the French and Germans" had become "... the French and Tories"
    assert entries.norp_kind("Tories") == entries.norp_kind("Tory") == entries.PARTY
    assert entries.norp_kind("Allies") == entries.PEOPLE
    # a geological period or a participle is no people's word: never drawn for one
    assert not entries.norp_word("Devonian") and not entries.norp_word("Hellenized")
    assert entries.norp_word("Bostonian") and entries.norp_word("Sumerian")
    assert entries.norp_kind("Protestant") != entries.norp_kind("Fascist")
    assert entries.norp_kind("Americans") == entries.PEOPLE


def test_a_ship_is_no_place():
    ctx = ("The first of this class, USS Kelmar, is now in active service with another, USS "
           "Tripoli, under construction, and nine more are planned for the next decade.")
    o = run(ctx, "USS Tripoli", [("USS Tripoli", "GPE")], question="Which other carrier?")
    assert o[C.STATUS] == C.FILTERED and o[C.REASON] == reasons.MALFORMED_ENTITY
    # nor drawn as one
    assert not entries.well_formed("GPE", "USS Tripoli") and entries.well_formed("GPE", "Tripoli")
    assert not entries.drawable("FAC", "HMS Victory")
    assert entries.well_formed("ORG", "MS Word")  # no ship


def test_a_language_s_name_takes_a_language_s_name():
    # "many Hasidic and Haredi groups" had become "many Standard German and Haredi groups"
    for language in ("Standard German", "Middle English", "Koine Greek", "West Germanic",
                     "Swiss German", "Old High German"):
        assert entries.norp_kind(language) == entries.LANGUAGE, language
    for people in ("Han Chinese", "South Slavs", "Greek", "German"):
        assert entries.norp_kind(people) == entries.PEOPLE, people
    for region in ("East Asian", "Eastern Europeans"):  # no language either
        assert entries.norp_kind(region) == entries.REGION, region
    norps = SamplingIndex.from_bank({"NORP": ["Standard German", "Middle Dutch", "Hasidic",
                                              "Javanese", "Koine Greek"]})
    ctx = ("Hebrew has replaced Yiddish as the first language of most Jews, although many "
           "Ashkenazi groups still speak Yiddish in daily life, at home and at school.")
    assert replacements(ctx, "Ashkenazi", "NORP", norps, "lp") == {"Hasidic", "Javanese"}
    ctx = ("The poem was written in Middle English around 1390, and its first printed "
           "edition followed almost a century later, from a press in Westminster.")
    assert replacements(ctx, "Middle English", "NORP", norps, "ll") <= {
        "Standard German", "Middle Dutch", "Koine Greek"}


def test_a_kinship_word_before_a_name_says_its_gender():
    from faithqa_spark.core.gender import pronoun_gender
    ctx = "The line honours Beyoncé's grandmother, Agnèz Deréon, a seamstress."
    s = ctx.index("Agnèz")
    assert pronoun_gender(ctx, [(s, s + len("Agnèz Deréon"))]) == "f"
    ctx = "Mehmet Ali agreed to send his son Ibrahim Pasha to Greece."
    s = ctx.index("Ibrahim")
    assert pronoun_gender(ctx, [(s, s + len("Ibrahim Pasha"))]) == "m"
    ctx = "The estate of Ibrahim Pasha was sold."  # no word for it: no gender
    s = ctx.index("Ibrahim")
    assert pronoun_gender(ctx, [(s, s + len("Ibrahim Pasha"))]) is None


def test_the_pronouns_after_a_name_s_kinship_word_are_the_kin_s():
    from faithqa_spark.core.gender import pronoun_gender
    # "his" is her father's: the context had read as a man's, and a man had been drawn for
    # Beyoncé ("... Lee Greenwood's family's income by half, and her parents were forced")
    ctx = ("In 1995 Beyoncé's father resigned from his job to manage the group. The move "
           "reduced Beyoncé's family's income by half, and her parents moved apart.")
    mentions = [(m, m + len("Beyoncé")) for m in (ctx.index("Beyoncé"),
                                                    ctx.rindex("Beyoncé"))]
    assert pronoun_gender(ctx, mentions) == "f"
    ctx = "Obama's wife spoke; she thanked the crowd."  # the wife's "she"
    assert pronoun_gender(ctx, [(0, 5)]) is None
    ctx = "Obama's speech ended; he thanked the crowd."  # no kin: his own
    assert pronoun_gender(ctx, [(0, 5)]) == "m"


def test_a_gendered_title_or_role_before_a_name_says_its_gender():
    from faithqa_spark.core.gender import pronoun_gender
    # "Sir John Conroy" had been replaced by a woman six times ("Sir Elizabeth Longford")
    for ctx, name, want in (
            ("The comptroller, Sir John Conroy, devised the rules.", "John Conroy", "m"),
            ("One of the torchbearers was Syrian actress Sulaf Fawakherji.",
             "Sulaf Fawakherji", "f"),
            ('Bell said "Mr. Watson, come here" into the transmitter.', "Watson", "m"),
            ("Months later, West and fiancée Alexis Phifer ended their engagement.",
             "Alexis Phifer", "f"),
            ("The report by John Conroy was read.", "John Conroy", None)):
        s = ctx.index(name)
        assert pronoun_gender(ctx, [(s, s + len(name))]) == want, ctx
    bank = SamplingIndex.from_bank({"PERSON": ["Elizabeth Longford", "Hector Bolitho"]})
    ctx = ("The system was devised by the Duchess and her comptroller, Sir John Conroy, "
           "who was rumoured to be her lover.")
    assert replacements(ctx, "John Conroy", "PERSON", bank, "c") == {"Hector Bolitho"}


def test_a_faith_is_never_swapped_for_a_branch_of_another_the_story_names():
    # "the Muslim and Christian world" had become "the Muslim and Sunni world"
    assert entries.faiths_of("Sunnis") == {"islam"}
    assert entries.faiths_of("Orthodox") == {"christianity", "judaism"}
    assert entries.faiths_of("Javanese") == frozenset()
    norps = SamplingIndex.from_bank({"NORP": ["Sunni", "Shia", "Orthodox", "Buddhist"]})
    ctx = ("Reviewers doubt the channels of transmission between the Muslim and Christian "
           "world, though Christian scholars knew the texts.")
    assert replacements(ctx, "Christian", "NORP", norps, "fa", rows=8) == {"Buddhist",
                                                                          "Orthodox"}
    # a branch of the original's own faith is another matter
    ctx = ("The Christian scholars of the town wrote much on the texts, and the Christian "
           "world read them.")
    assert replacements(ctx, "Christian", "NORP", norps, "fb", rows=8) > {"Orthodox"}


def test_one_is_swapped_for_one_and_a_plural_for_a_plural():
    for one in ("one", "One", "at least one", "1", "at least 1", "only one"):
        assert entries.counts_one(one), one
    for other in ("one hundred", "21", "11", "eight", "0.1", "at least eight", "twenty-one",
                  "twenty one", "a hundred and one"):
        assert not entries.counts_one(other), other
    nums = SamplingIndex.from_bank({"CARDINAL": ["at least one", "at least five",
                                                 "at least nine"]})
    ctx = ("The court ruled that the process was unconstitutional and that at least eight "
           "districts had to be redrawn before the next election could be held.")
    assert replacements(ctx, "at least eight", "CARDINAL", nums, "o",
                        question="How many districts?") == {"at least five", "at least nine"}


def test_a_hedged_figure_keeps_its_grouping_commas():
    # "receives between 2,400 and 2,800 hours" had become "... between 2250 and 3,200"
    assert entries.fit_keys("CARDINAL", "between 2,800") != \
        entries.fit_keys("CARDINAL", "between 2250")
    assert entries.fit_keys("CARDINAL", "between 2,800")[0] == \
        entries.fit_keys("CARDINAL", "between 7,100")[0]
    assert entries.fit_keys("CARDINAL", "about 900")[0] == \
        entries.fit_keys("CARDINAL", "about 350")[0]  # no grouping under a thousand
    nums = SamplingIndex.from_bank({"CARDINAL": ["between 2250", "between 3,900", "between 1,250"]})
    ctx = ("The north receives between 1,900 and 2,100 hours of sunshine a year; the rest of "
           "the state, including the coast, receives between 2,800 and 3,200 hours annually.")
    assert replacements(ctx, "between 2,800", "CARDINAL", nums, "c",
                        question="How many hours?") <= {"between 1,250", "between 3,900"}


def test_a_scaled_figure_keeps_its_scale_word_and_magnitude():
    assert entries.fit_keys("CARDINAL", "6 million")[0] == \
        entries.fit_keys("CARDINAL", "4 million")[0]
    assert entries.fit_keys("CARDINAL", "6 million")[0] != \
        entries.fit_keys("CARDINAL", "16 million")[0]
    assert not set(entries.fit_keys("CARDINAL", "6 million")) & \
        set(entries.fit_keys("CARDINAL", "6 billion"))


def test_name_type_errors_of_the_original_are_refused():
    orgs = SamplingIndex.from_bank({"ORG": ["Yale", "Orvane Mills", "Harbour Trust", "CBS"],
                                    "GPE": ["London", "Peru"]})
    ctx = "Beginning with St. Gregory Nazianzen, his explanation was read by all."
    o = run(ctx, "St. Gregory Nazianzen", [("St. Gregory Nazianzen", "ORG")], bank=orgs)
    assert o[C.REASON] == reasons.MALFORMED_ENTITY  # a saint, not an organisation
    ctx = "Ccmplx is the capacitance with the dielectric, and C0 the capacitance without it."
    o = run(ctx, "C0", [("C0", "ORG")], bank=orgs)
    assert o[C.REASON] == reasons.MALFORMED_ENTITY  # a symbol, no name
    # a given name, but a place of the bank in it: an organisation after all
    ctx = "The London Underground is the oldest underground railway network in the world."
    o = run(ctx, "London Underground", [("London Underground", "ORG")], bank=orgs)
    assert_consistent(o)


def test_a_name_at_the_tail_of_a_longer_name_after_an_article_is_refused():
    orgs = SamplingIndex.from_bank({"ORG": ["Kelmar College of Art", "Harbour Trust",
                                            "Orvane Senate"]})
    ctx = ("It merged with the Northern College of Music to form the Royal Northern College "
           "of Music in 1972.")
    o = run(ctx, "Northern College of Music", [("Northern College of Music", "ORG")],
            bank=orgs)
    assert o[C.REASON] == reasons.NAME_INSIDE_NAME
    # an adjective of a people or a "-based" before it is no part of a name
    for ctx in ("The law passed the Italian Senate of the Republic in 1990, after a long "
                "and bitter debate.",
                "A survey by the London-based Senate of the Republic found that most voters "
                "had never heard of it."):
        o = run(ctx, "Senate of the Republic", [("Senate of the Republic", "ORG")],
                bank=orgs)
        assert_consistent(o)


def test_an_organisation_of_several_words_takes_one_of_several_words():
    orgs = SamplingIndex.from_bank({"ORG": ["Hymenoptera", "Italianate", "Orvane Mills",
                                            "Harbour Kelp Trading"]})
    assert not entries.drawable("ORG", "Italianate")  # an adjective, no organisation
    assert not entries.drawable("ORG", "Hellenised")
    # a person named by a place or an epithet ("the establishment of the Isidore of Seville
    # in 1480" had read), but not a body whose first word is a common word
    assert not entries.drawable("ORG", "Gregory of Tours")
    assert not entries.drawable("ORG", "Conan the Barbarian")
    assert entries.drawable("ORG", "Bank of Orvane") and entries.drawable("ORG", "Bill of Rights")
    ctx = ("Shell has its primary listing on the Kelmar Stock Exchange, and a secondary "
           "listing elsewhere in the city.")
    for i in range(8):
        o = run(ctx, "Kelmar Stock Exchange", [("Kelmar Stock Exchange", "ORG")], bank=orgs,
                row_id=f"squad:o{i}")
        assert_consistent(o)
        assert o[C.REPLACEMENT_ENTITY] in ("Orvane Mills", "Harbour Kelp Trading"), i


def test_ranges_and_dynasties_are_said_with_the():
    from faithqa_spark.core.namekinds import takes_the
    assert takes_the("Appalachian Mountains") and takes_the("Qing dynasty")
    assert takes_the("English Channel") and not takes_the("Mount Everest")
    assert takes_the("Yalu River") and takes_the("Nile Valley") and takes_the("Persian Gulf")


def test_an_adverb_hedge_may_give_way_to_another_of_its_kind():
    money = SamplingIndex.from_bank({"MONEY": ["nearly $90 million", "over $70 million",
                                               "an estimated $20 million"]})
    ctx = "The stadium cost almost $100 million to build, paid for by the city and the club."
    o = run(ctx, "almost $100 million", [("almost $100 million", "MONEY")], bank=money)
    assert_consistent(o)
    assert o[C.REPLACEMENT_ENTITY] == "nearly $90 million"  # a bound the same way
    assert entries.fit_keys("MONEY", "an estimated $115 million")[-1].startswith(
        entries.LOOSE + "~")  # "an estimated" is no adverb: no hedged key


def test_a_field_is_a_stadium_and_a_drive_a_street():
    # "World Scientific" (a publisher) had become "FDR Drive"; "Ford Field" was drawn as
    # a company
    from faithqa_spark.core.namekinds import name_class
    assert name_class("Ford Field") == name_class("Wembley Stadium") == "venue"
    assert name_class("FDR Drive") == name_class("Canal Street") == "street"
    assert name_class("Silicon Alley") == "street"
    assert name_class("World Scientific") == "name"
    # the head noun before "for", "on", "at" as before "of": a body, not a name to draw for
    # any company
    assert name_class("International Association for the Study of Pain") == "body"
    assert name_class("National Memorial Cemetery of the Pacific") == "green"


def test_a_people_the_context_names_in_the_other_number_is_not_drawn():
    # "Muslims" had become "Catholics" in a context about the Catholic church
    peoples = SamplingIndex.from_bank({"NORP": ["Catholics", "Methodists"]})
    ctx = ("The Catholic church opposed the reform, and the Muslims of the city rose "
           "against it in 1820.")
    for i in range(4):
        o = run(ctx, "Muslims", [("Muslims", "NORP"), ("Catholic", "NORP")], bank=peoples,
                row_id=f"squad:n{i}", question="Who rose against the reform?")
        assert_consistent(o)
        assert o[C.REPLACEMENT_ENTITY] == "Methodists"
    # ... or by its place ("Frederick of Prussia ... the Prussians retreated")
    peoples = SamplingIndex.from_bank({"NORP": ["Prussians", "Bavarians"],
                                       "GPE": ["Prussia", "Bavaria"]})
    war = "Frederick of Prussia beat the Austrians at Leuthen, and the Austrians retreated."
    for i in range(4):
        o = run(war, "Austrians", [("Austrians", "NORP"), ("Prussia", "GPE")], bank=peoples,
                row_id=f"squad:p{i}", question="Who retreated?")
        assert_consistent(o)
        assert o[C.REPLACEMENT_ENTITY] == "Bavarians"
    only = SamplingIndex.from_bank({"NORP": ["Catholics"]})
    o = run(ctx, "Muslims", [("Muslims", "NORP"), ("Catholic", "NORP")], bank=only,
            question="Who rose against the reform?")
    assert o[C.STATUS] == C.FILTERED and o[C.REASON] == reasons.NO_FITTING_REPLACEMENT


def test_the_question_s_noun_types_a_misread_answer():
    # "In what county is the Tan Hill Inn located?": NER's PERSON "Yorkshire" had become
    # "Samuel Pepys"; a place is drawn for it, and the row says it is a GPE
    bank = SamplingIndex.from_bank({"PERSON": ["Samuel Pepys", "Ada Quell"],
                                    "GPE": ["Kelmarshire", "Orvane"]})
    ctx = "The Tan Hill Inn stands in Yorkshire, and walkers reach it from the north."
    q = "In what county is the Tan Hill Inn located?"
    for i in range(4):
        assert made(ctx, "Yorkshire", "PERSON", bank, q, row_id=f"squad:q{i}") in \
            {("GPE", "Kelmarshire"), ("GPE", "Orvane")}
    # a question that asks for no place leaves NER's type
    o = run(ctx, "Yorkshire", [("Yorkshire", "PERSON")], bank=bank,
            question="Who does the inn's name honour?")
    assert o[C.ENTITY_TYPE] == "PERSON" and o[C.REPLACEMENT_ENTITY] in ("Samuel Pepys", "Ada Quell")
    # with no place of the asked type in the bank, NER's type stands
    people = SamplingIndex.from_bank({"PERSON": ["Samuel Pepys"], "ORG": ["Orvane Trust"]})
    o = run(ctx, "Yorkshire", [("Yorkshire", "PERSON")], bank=people, question=q)
    assert o[C.STATUS] == C.OK and o[C.ENTITY_TYPE] == "PERSON"


def test_where_asks_for_a_place_or_a_building():
    # "Where was Napoleon born?" answered by NER's PRODUCT "Corsica" had become "Soyuz 2";
    # "Where was Victoria's coronation held?" by NER's PERSON "Westminster Abbey" "Abdul Karim"
    bank = SamplingIndex.from_bank({"PRODUCT": ["Soyuz 2"], "PERSON": ["Abdul Karim", "Ada Quell"],
                                    "GPE": ["Geneva", "Kelmarshire"],
                                    "FAC": ["Kelmar Cathedral", "Orvane Bridge"]})
    ctx = "Napoleon was born on Corsica in 1769, the year after the island passed to France."
    # a town GeoNames knows first: the bank's GPEs of no known kind hold NER's errors too
    assert made(ctx, "Corsica", "PRODUCT", bank, "Where was Napoleon born?") == \
        ("GPE", "Geneva")
    ctx = "Victoria was crowned at Westminster Abbey on 28 June 1838, a year after her accession."
    assert made(ctx, "Westminster Abbey", "PERSON", bank,
                "Where was Victoria's coronation held?") == ("FAC", "Kelmar Cathedral")
    # an organisation answers "where" as itself
    from faithqa_spark.core.coherent import asked
    assert asked("Where did she study?", "Harvard", Entity("Harvard", "ORG", 0, 7), "ORG") \
        is None


def test_a_company_or_magazine_ner_read_as_a_person_takes_one():
    # "Which magazine did Beyonce pose on the cover for?" answered by NER's PERSON "Vogue"
    # had become "Etta James"; "What company pleaded guilty ...?" by "GlaxoSmithKline" (PERSON)
    # "Maurice Hilleman"
    bank = SamplingIndex.from_bank({"PERSON": ["Etta James", "Ada Quell"],
                                    "ORG": ["Kelmar Gazette", "Orvane Electronics", "Yale"]})
    ctx = "In 2013 the singer posed on the cover of Vogue, and the issue sold out in days."
    assert made(ctx, "Vogue", "PERSON", bank,
                "Which magazine did the singer pose on the cover for?") == \
        ("ORG", "Kelmar Gazette")
    ctx = "In July 2012 GlaxoSmithKline pleaded guilty to criminal charges in a Boston court."
    assert made(ctx, "GlaxoSmithKline", "PERSON", bank,
                "What company pleaded guilty to criminal charges?") == \
        ("ORG", "Orvane Electronics")


def test_a_language_ner_misread_takes_a_language():
    # "What language ...?" answered by NER's ORG "Prakrit" had become "Windows 3.0"
    bank = SamplingIndex.from_bank({"LANGUAGE": ["Tagalog"], "ORG": ["Orvane"]})
    ctx = "The script was first used for Prakrit, and only later for Sanskrit texts."
    assert made(ctx, "Prakrit", "ORG", bank, "What language was the script first used for?") \
        == ("LANGUAGE", "Tagalog")


def test_the_question_s_noun_picks_the_kind_of_a_retyped_answer():
    # "Near what river ...?" answered by NER's ORG "Itchen": a river first
    bank = SamplingIndex.from_bank({"LOC": ["Yellow River", "Scandinavia", "Caribbean"],
                                    "ORG": ["Clausentum"]})
    ctx = "The Saxons built a new settlement across the Itchen, far from the old walls."
    for i in range(4):
        assert made(ctx, "Itchen", "ORG", bank,
                    "Across what river did the Saxons build their settlement?",
                    row_id=f"squad:k{i}") == ("LOC", "Yellow River")


def test_the_question_s_noun_picks_the_kind_of_ner_s_own_type():
    # "What mountain in Tennessee ...?" answered by NER's LOC "Clingmans Dome" had become
    # "Assyria", and "What country ...?" answered by NER's GPE "UK" had become "MD"
    bank = SamplingIndex.from_bank({"LOC": ["Assyria", "Caribbean", "Orvane Mountain"],
                                    "GPE": ["Kelmar", "Dunmore", "Peru"],
                                    "ORG": ["Pepsi", "Kelmar Records", "Orvane Gazette"]})
    ctx = "The highest point in the state is Clingmans Dome, on its eastern border."
    q = "What mountain in Tennessee is the highest point?"
    for i in range(4):
        assert made(ctx, "Clingmans Dome", "LOC", bank, q, row_id=f"squad:m{i}") == \
            ("LOC", "Orvane Mountain")
    ctx = "The charity is based in Orvania, where it was founded in 1990."
    for i in range(4):
        assert made(ctx, "Orvania", "GPE", bank, "In what country is the charity based?",
                    row_id=f"squad:c{i}") == ("GPE", "Peru")
    # a newspaper's kind is drawn first; a company's is not (the bank's companies of a head
    # word are mostly labels and studios: "Xerox" had become "Trident Studios")
    ctx = "The figures were first printed by Xerox in its annual review."
    assert {made(ctx, "Xerox", "ORG", bank, "What company printed the figures?",
                 row_id=f"squad:x{i}")[1] for i in range(6)} >= {"Pepsi"}
    assert made(ctx, "Xerox", "ORG", bank, "What newspaper printed the figures?") == \
        ("ORG", "Orvane Gazette")


@pytest.mark.parametrize("question,answer,expected", [
    ("In what county is the Tan Hill Inn located?", "Danube", ("GPE", None)),
    ("What city did Jose I make Spain's capital?", "the Danube", ("GPE", "city")),
    ("Near what river were the Avars based?", "Danube", ("LOC", "river")),
    ("Which book discusses bardo?", "Danube", ("WORK_OF_ART", None)),
    # a compound's noun is its second: a person, a firm, a studio
    ("Which opera director did Chopin see?", "Danube", None),
    ("Which film studio won the rights?", "Danube", None),
    ("What law firm used the archive?", "Danube", None),
    # the noun after the question's adjectives: a people's (in lower case too) or a common
    # one ("The Norman kingdom was in what italian city state?" answered by NER's PERSON
    # "Sicily" had become "Justinian")
    ("In what Italian village was Montini born?", "Danube", ("GPE", "city")),
    ("The Norman kingdom was in what italian city state?", "Danube", ("GPE", "city")),
    ("Which neighboring Mexican state does the desert reach?", "Danube", ("GPE", "state")),
    ("Which town's people surrendered?", "Danube", ("GPE", "city")),
    # ... but a noun that modifies another after an adjective is no head
    ("What Spanish language television station is in Miami?", "Danube", None),
    ("What major film production company calls London home?", "Danube", None),
    ("What can the river carry?", "Danube", None),
    # ... and after "is the" ("What's the common language that around 20% of Suriname's
    # people speak?" answered by NER's PERSON "Sranan Tongo" had become "Geert Driessen")
    ("What's the common language that most people speak?", "Danube", ("LANGUAGE", None)),
    ("What is the largest city in Texas?", "Danube", ("GPE", "city")),
    ("What was a river that they crossed?", "Danube", ("LOC", "river")),
    ("What is the name of the river?", "Danube", None),
    ("What is the film studio that won?", "Danube", None),
    # ... where the noun's phrase ends there, and not said of another noun or of no kind
    ("What is the country's main airport?", "Danube", None),
    ("What is the city landmark demolished in 2007?", "Danube", None),
    ("What is the location of the start of the relay?", "Danube", None),
    # the answer is more than the entity: the noun is the answer's
    ("What river did they cross?", "the Danube crossing", None),
    ("Who built it?", "Danube", None),
])
def test_what_the_question_asks_for(question, answer, expected):
    from faithqa_spark.core.coherent import asked
    assert asked(question, answer, Entity("Danube", "ORG", 0, 6), "ORG") == expected


@pytest.mark.parametrize("ctx,entity,label,kept", [
    # a house, a clan or a people, which NER read as a place, a body or a person
    ("Their rivalry finally pitted the rival Minamoto and Taira clans against each other.",
     "Minamoto", "GPE", False),
    ("Power passed to the Fujiwara, Minamoto, or Taira clans in turn.", "Minamoto", "GPE",
     False),
    ("Nanjing was the national capital as early as the Jin dynasty, when it grew.", "Jin",
     "PERSON", False),
    ("The city was ruled for two centuries by the Qutb Shahi dynasty of Golconda.",
     "Qutb Shahi", "ORG", False),
    ("Safia was a member of the Obeidat tribe, one of the largest.", "Obeidat", "GPE", False),
    # a place's family is the place's, and a long list of empires is no house
    ("She was born in 1550 to a Nuremberg family of printers.", "Nuremberg", "GPE", True),
    ("It was ruled by the Achaemenid Empire, the Sassanian Empire, the Samanid Empire, the "
     "Mongol Empire and the Timurid dynasty.", "Achaemenid Empire", "GPE", True),
])
def test_a_name_before_clans_or_dynasty_is_a_house(ctx, entity, label, kept):
    o = run(ctx, entity, [(entity, label)])
    assert (o[C.REASON] != reasons.MALFORMED_ENTITY) == kept, o[C.REASON]


def test_a_person_after_battle_of_is_a_place():
    # NER's PERSON "Wagram" in "the Battle of Wagram" had become "the Battle of Louis XVIII"
    ctx = ("Napoleon defeated the Austrians at the Battle of Wagram in 1809, and the war "
           "ended with a peace signed that autumn.")
    o = run(ctx, "Wagram", [("Wagram", "PERSON"), ("Napoleon", "PERSON")],
            question="Where were the Austrians defeated?")
    assert o[C.STATUS] == C.FILTERED and o[C.REASON] == reasons.MALFORMED_ENTITY
    ctx = "The battle was won by Wagram, who led the Austrian left wing in 1809."
    o = run(ctx, "Wagram", [("Wagram", "PERSON")])
    assert o[C.REASON] != reasons.MALFORMED_ENTITY


def test_a_league_is_a_league():
    from faithqa_spark.core.namekinds import name_class
    assert name_class("Premier League") == name_class("National Hockey League") == "league"
    assert name_class("Hampshire County Council") != "league"


def test_a_doctrine_or_a_language_is_no_person():
    for text in ("McCarthyism", "Lutheranism", "Manx", "Yiddish", "Romansh", "Germany"):
        assert not entries.well_formed("PERSON", text), text
    # "Dan" is a language and a given name; a surname in "-ism" is a surname
    for text in ("Chopin", "Dan", "Frédéric Chopin", "Aaaa Aism"):
        assert entries.well_formed("PERSON", text), text
    ctx = ("Promulgation consisted of reading the Act in English and Manx; after 1865 only "
           "the title was read in Manx.")
    o = run(ctx, "Manx", [("Manx", "PERSON")], question="Which other language?")
    assert o[C.STATUS] == C.FILTERED and o[C.REASON] == reasons.MALFORMED_ENTITY


def test_a_station_a_park_a_hill_and_a_unit_keep_their_kind():
    from faithqa_spark.core.namekinds import name_class
    assert name_class("South Station") == name_class("Kelmar Airport") == "transit"
    assert name_class("Glacier National Park") == name_class("Kew Gardens") == "green"
    assert name_class("Wembley Stadium") == "venue" and name_class("Main Street") == "street"
    assert name_class("First Hill") == name_class("Rocky Mountains") == "mountain"
    assert name_class("Science Communication Unit") == "body"
    places = SamplingIndex.from_bank({"LOC": ["Glacier National Park", "Orvane Central Station",
                                              "Kelmar Hill"]})
    ctx = "Trains to the north originate at South Station, which serves as a transport hub."
    assert replacements(ctx, "South Station", "LOC", places, "s") == {"Orvane Central Station"}


def test_a_weekday_keeps_its_number_and_a_holiday_is_no_weekday():
    assert entries.fit_keys("DATE", "Friday")[0] == entries.fit_keys("DATE", "Monday")[0]
    assert entries.fit_keys("DATE", "Friday")[0] != entries.fit_keys("DATE", "Mondays")[0]
    assert entries.fit_keys("DATE", "Friday night")[0] != entries.fit_keys("DATE", "Friday")[0]
    days = SamplingIndex.from_bank({"DATE": ["Mondays", "Tuesday"]})
    ctx = "The market opened on Friday after the storm, and traders came from far away."
    o = run(ctx, "Friday", [("Friday", "DATE")], bank=days, question="When did it open?")
    assert_consistent(o)
    assert o[C.REPLACEMENT_ENTITY] == "Tuesday"
    ctx = "On March 27, 1964, the Good Friday earthquake destroyed several villages."
    o = run(ctx, "Friday", [("Friday", "DATE")], bank=days, question="Which earthquake?")
    assert o[C.STATUS] == C.FILTERED and o[C.REASON] == reasons.NAME_INSIDE_NAME


def test_an_organisation_named_with_the_keeps_it():
    orgs = SamplingIndex.from_bank({"ORG": ["Shaw University", "University of Tarnow",
                                            "Kelmar University"]})
    ctx = "Gaddafi briefly studied History at the University of Libya in Benghazi."
    # never "the Shaw University"
    assert replacements(ctx, "University of Libya", "ORG", orgs, "u") == {"University of Tarnow"}
    ctx = "In a statement to the Financial Times in June, the chief confirmed the deal."
    news = SamplingIndex.from_bank({"ORG": ["Kelmar Mills", "Orvane Gazette",
                                            "the Orvane Gazette", "the Financial Times"]})
    # the corpus says "the" before it
    assert replacements(ctx, "Financial Times", "ORG", news, "f") == {"Orvane Gazette"}
    # without "the" before it, no "X of Y" ("studied at University of Tarnow")
    ctx = "She studied History at Shaw University before joining the army."
    assert replacements(ctx, "Shaw University", "ORG", orgs, "b") == {"Kelmar University"}


def test_where_the_the_is_plainly_the_name_s_one_said_with_the_is_preferred():
    ctx = ("The college gained its charter in 1966, although its origins go back to the "
           "Bristol Trade School (founded 1856) and a school of pharmacy in the city.")
    orgs = SamplingIndex.from_bank({"ORG": ["Bristol Trade School", "Harvard Medical School",
                                            "Kelmar Grammar School", "School of Oriental Arts"]})
    # never "go back to the Harvard Medical School (founded 1856)"
    assert replacements(ctx, "Bristol Trade School", "ORG", orgs, "t") == {
        "School of Oriental Arts"}
    # a preference: with none said with "the" in the bank, the row is still made
    plain = SamplingIndex.from_bank({"ORG": ["Harvard Medical School", "Kelmar Grammar School"]})
    assert replacements(ctx, "Bristol Trade School", "ORG", plain, "p") <= {
        "Harvard Medical School", "Kelmar Grammar School"}
    # "the ACC tournament": the "the" is the tournament's, anything fits
    ctx = ("The team won the Bristol Trade School tournament in 1999 and again two years "
           "later, beating every school of the county on the way.")
    assert replacements(ctx, "Bristol Trade School", "ORG", orgs, "n", rows=12) > {
        "School of Oriental Arts"}


def test_a_number_word_opening_a_sentence_takes_a_capital():
    ctx = "The survey ran for a year. Two of the villages were later abandoned by their people."
    nums = SamplingIndex.from_bank({"CARDINAL": ["three", "nine"]})
    o = run(ctx, "Two", [("Two", "CARDINAL")], bank=nums, question="How many villages?")
    assert_consistent(o)
    assert o[C.REPLACEMENT_ENTITY] in ("Three", "Nine")
    assert o[C.MODIFIED_CONTEXT].startswith(f"The survey ran for a year. {o[C.REPLACEMENT_ENTITY]} of")
    # inside a sentence a capital stays a capital's business: "six" never becomes "Six"
    ctx = "Of the villages, Two Rivers was the largest, and it still stands today."
    o = run(ctx, "Two", [("Two", "CARDINAL")], bank=nums, question="Which village?")
    assert o[C.STATUS] == C.FILTERED


def test_a_capitalised_hedge_opens_no_sentence_and_no_preposition_is_doubled():
    # "The conflict had forced Between 100,000 and 130,000 civilians": the bank holds the range
    # as it opened a sentence; inside one it is refused, at a sentence's start it fits
    bank = SamplingIndex.from_bank({"CARDINAL": ["Between 100,000 and 130,000", "15–20,000",
                                                 "About 90,000"]})
    ctx = "The fighting had forced 40,000 to 50,000 civilians to flee across the border."
    assert replacements(ctx, "40,000 to 50,000", "CARDINAL", bank, "h", rows=12) == {
        "15–20,000"}
    ctx = "The fighting went on for a month. 40,000 to 50,000 civilians fled across the border."
    assert "Between 100,000 and 130,000" in replacements(ctx, "40,000 to 50,000", "CARDINAL",
                                                         bank, "h", rows=12)
    # "During the Partitions of Poland from between 1774 and 1798", "not created until since
    # 1939": a preposition before the mention takes no candidate that opens with another ...
    bank = SamplingIndex.from_bank({"DATE": ["between 1774 and 1798", "since 1939",
                                             "1747-1822", "about 1906"]})
    ctx = "Its members began to lose their lands from 1772 to 1795, when the state was divided."
    assert replacements(ctx, "1772 to 1795", "DATE", bank, "p", rows=12) == {"1747-1822"}
    ctx = "The code itself was not written until about 1940, and it was little used at first."
    assert replacements(ctx, "about 1940", "DATE", bank, "p", rows=12) == {"about 1906"}
    # ... but one that opens with the original's own may ("in between 1950 and 1960")
    bank = SamplingIndex.from_bank({"DATE": ["between 1931 and 1936", "1931-1936"]})
    ctx = "The worst loans were made in between 1950 and 1960, the years of the boom in houses."
    assert replacements(ctx, "between 1950 and 1960", "DATE", bank, "b", rows=12) == {
        "between 1931 and 1936", "1931-1936"}


def test_a_people_in_i_has_its_plural_in_is():
    assert entries.norp_form("Nazis") == entries.norp_form("Israelis") == entries.PLURAL
    assert entries.norp_form("Swiss") == entries.norp_form("Israeli") == entries.ADJECTIVE
    assert entries.fit_keys("NORP", "Nazis")[0] == entries.fit_keys("NORP", "Communists")[0]


def test_an_office_or_a_direction_is_never_drawn():
    assert not entries.drawable("ORG", "Holy Roman Emperor")
    assert not entries.drawable("ORG", "Secretary of State")
    assert not entries.drawable("GPE", "North West") and not entries.drawable("LOC", "the South")
    for etype, text in (("ORG", "Department of Justice"), ("FAC", "Wrigley Field"),
                        ("GPE", "North Carolina"), ("LOC", "South East Asia")):
        assert entries.drawable(etype, text), text


def test_a_law_that_names_no_law_is_never_drawn():
    # "the Security Council published Fortune 500 recommending member states ..." (for
    # "Resolution 83"), "ratification of Constitutional" (for "the Kyoto Protocol")
    for text in ("Fortune 500", "Communion", "Constitutional", "Xbox 360", "the Stanley Cup",
                 "Annunciation"):
        assert not entries.drawable("LAW", text), text
    for text in ("the Voting Rights Act", "Article 29", "Chapter 11", "the Kyoto Protocol",
                 "Bill of Rights", "the Warsaw Treaty", "the Marshall Plan", "Canon Law"):
        assert entries.drawable("LAW", text), text


def test_a_country_is_no_people_s_word():
    assert not entries.norp_word("Tajikistan") and entries.norp_word("Pakistani")
    ctx = "The attacks were condemned by the Tajikistan government within a day of the news."
    o = run(ctx, "Tajikistan", [("Tajikistan", "NORP")], question="Who condemned them?")
    assert o[C.STATUS] == C.FILTERED and o[C.REASON] == reasons.MALFORMED_ENTITY


def test_houses_of_worship_crosses_and_continents_keep_their_kind():
    from faithqa_spark.core.namekinds import name_class
    assert name_class("Canons Park Synagogue") == "synagogue" != name_class("Christ Church")
    assert name_class("Badshahi Mosque") == "mosque" and name_class("Cross of Lothair") == "artefact"
    assert name_class("South America") == name_class("Southeast Europe") == "continent"
    assert name_class("Europe") == "continent" and name_class("Upper Alsace") == "name"
    assert name_class("Bank of America") == "company" and name_class("Radio Free Europe") == "name"
    places = SamplingIndex.from_bank({"LOC": ["South America", "Lower Lusatia"]})
    ctx = "In 1469 Upper Alsace was sold to Charles the Bold, who kept Upper Alsace until 1477."
    assert replacements(ctx, "Upper Alsace", "LOC", places, "a") == {"Lower Lusatia"}


def test_a_common_word_is_no_product_and_a_fraction_keeps_its_form():
    assert not entries.drawable("PRODUCT", "Empress") and entries.drawable("PRODUCT", "Walkman 2")
    # (a one-word product with no figure and no inner capital, "Walkman", is not drawn
    # either: most such entries of NER's are surnames, genera and rivers, below)
    assert entries.fit_keys("CARDINAL", "half")[0] == entries.fit_keys("CARDINAL", "one-third")[0]
    assert entries.fit_keys("CARDINAL", "half")[0] != entries.fit_keys("CARDINAL", "3⁄4")[0]
    assert entries.fit_keys("DATE", "early 20th century")[0] != \
        entries.fit_keys("DATE", "early in the 7th century")[0]


def test_a_place_said_without_the_anywhere_takes_no_the():
    gpe = SamplingIndex.from_bank({"GPE": ["the Bahamas", "Bahamas", "Namibia"]})
    ctx = ("Present-day Mali was once part of three West African empires: the Ghana Empire, "
           "the Mali Empire (for which Mali is named), and the Songhai Empire.")
    assert replacements(ctx, "Mali", "GPE", gpe, "m") == {"Namibia"}  # not "Present-day Bahamas"


def test_a_date_the_bank_holds_after_the_fits_without_it():
    # (a range that runs the other way, "The 7th and 6th centuries" BC, is never drawn)
    dates = SamplingIndex.from_bank({"DATE": ["The 7th and 6th centuries", "The 6th and 7th "
                                              "centuries", "1888"]})
    ctx = "Trade grew in the 15th and 16th centuries, when the town had its first charter."
    o = run(ctx, "15th and 16th centuries", [("15th and 16th centuries", "DATE")], bank=dates,
            question="When did trade grow?")
    assert_consistent(o)
    assert o[C.REPLACEMENT_ENTITY] == "6th and 7th centuries"
    assert "in the 6th and 7th centuries, when" in o[C.MODIFIED_CONTEXT]


def test_faiths_parties_seasons_and_lands_keep_their_kind():
    from faithqa_spark.core.namekinds import name_class
    assert entries.fit_keys("NORP", "Protestant")[0] != entries.fit_keys("NORP", "Fascist")[0]
    assert entries.fit_keys("NORP", "Protestant")[0] == entries.fit_keys("NORP", "Anglican")[0]
    assert entries.fit_keys("DATE", "spring")[0] == entries.fit_keys("DATE", "winter")[0]
    assert entries.fit_keys("DATE", "spring")[0] != entries.fit_keys("DATE", "season")[0]
    assert name_class("Sinai Peninsula") != name_class("Great Plains")
    assert name_class("Hawaiian Islands") == name_class("Thorn Island") == "island"
    assert name_class("Grand Lodges") == name_class("Grand Lodge") == "site"
    assert name_class("United States") == "name"  # no "state"


def test_a_storm_or_a_flood_is_swapped_for_one():
    from faithqa_spark.core.namekinds import name_class
    assert name_class("Hurricane Ike") == name_class("Cyclone Nargis") == \
        name_class("Great Mississippi Flood of 1927") == "disaster"
    assert name_class("Carolina Hurricanes") != "disaster"  # a team
    events = SamplingIndex.from_bank({"EVENT": ["Hurricane Katrina", "Democratic National "
                                                "Convention", "Paris Fashion Week"]})
    ctx = ("The foundation has since provided relief following Hurricane Ike, which struck "
           "the coast three years later.")
    assert replacements(ctx, "Hurricane Ike", "EVENT", events, "s",
                        "What did it provide relief after?") == {"Hurricane Katrina"}


def test_a_house_of_a_name_is_a_chamber_or_a_royal_house_not_a_building():
    from faithqa_spark.core.namekinds import name_class
    assert name_class("House of Commons") == name_class("House of Representatives") == \
        name_class("Senate") == "legislature"
    assert name_class("House of Hanover") == name_class("House of Osman") == "royal house"
    assert name_class("House of Wisdom") == "site"  # a common word: a building
    assert name_class("White House") == name_class("Marlborough House") == "site"
    orgs = SamplingIndex.from_bank({"ORG": ["House of Commons", "White House",
                                            "House of Habsburg", "House of Lords"]})
    ctx = ("Most of the Low Countries had come under the rule of the House of Burgundy and "
           "subsequently of the Spanish crown.")
    assert replacements(ctx, "House of Burgundy", "ORG", orgs, "h",
                        "Whose rule came first?") == {"House of Habsburg"}


def test_a_legislature_and_a_gallery_keep_their_kind_before_the_broader_one():
    from faithqa_spark.core.namekinds import name_class
    assert name_class("National Assembly") == name_class("Scottish Parliament") == \
        name_class("House") == "legislature"
    assert name_class("Millais Gallery") == name_class("British Museum") == "museum"
    assert name_class("House of Wisdom") == "site"  # a house with a name is a building
    # the broader kind comes next, and its pool keeps the narrower kind's names
    assert entries.fit_keys("ORG", "National Assembly") == [
        entries.HEAD + "assembly", "legislature", "body"]
    assert entries.fit_keys("ORG", "Millais Gallery")[-2:] == ["museum", "site"]
    bodies = SamplingIndex.from_bank({"ORG": ["Hampshire County Council", "Imperial Diet",
                                              "North Carolina Museum of Art"]})
    assert "Imperial Diet" in bodies.pool("ORG", "body")[0]
    ctx = "The unicameral National Assembly is Mali's sole legislative body."
    q = "What is Mali's legislative body?"
    assert replacements(ctx, "National Assembly", "ORG", bodies, "n", question=q) == \
        {"Imperial Diet"}
    # no legislature fits: a body, as before the kind was told apart
    councils = SamplingIndex.from_bank({"ORG": ["Hampshire County Council"]})
    assert replacements(ctx, "National Assembly", "ORG", councils, "n", question=q) == \
        {"Hampshire County Council"}
    ctx = "The Millais Gallery at Southampton Solent University shows new work."
    assert replacements(ctx, "Millais Gallery", "ORG", bodies, "g") == \
        {"North Carolina Museum of Art"}


def test_a_word_of_the_name_the_question_names_is_kept_where_it_can_be():
    places = SamplingIndex.from_bank({"LOC": ["Central America", "Continental Europe"]})
    ctx = ("Although serfdom declined in Western Europe, it became more common in Eastern "
           "Europe, as landlords imposed it on their tenants.")
    q = "In what part of Europe did serfdom increase?"
    assert replacements(ctx, "Eastern Europe", "LOC", places, "e",
                        question=q) == {"Continental Europe"}
    # none keeps it: the row is still made, as without the rule
    only = SamplingIndex.from_bank({"LOC": ["Central America"]})
    o = run(ctx, "Eastern Europe", [("Eastern Europe", "LOC")], bank=only, question=q)
    assert_consistent(o)
    assert o[C.REPLACEMENT_ENTITY] == "Central America"


def test_the_head_word_the_question_asks_for_is_kept_where_it_can_be():
    from faithqa_spark.core.coherent import question_name_parts
    q = "At which cathedral was the pointed arch first used?"
    assert question_name_parts(q, "Durham Cathedral", "FAC") == ("Cathedral",)
    # only the head word, and only where the question says it as a word
    assert question_name_parts("What film festival did he attend?", "Cannes Film Festival",
                               "EVENT") == ("Festival",)
    assert question_name_parts("Who was the stationmaster?", "Pennsylvania Station",
                               "ORG") == ()
    # no building of the type has the head word, a body of the kind has: "At which
    # cathedral ...?" had been answered "St. John's Church"
    ctx = "The pointed arch was first used at Durham Cathedral in the nave aisles in 1093."
    bank = SamplingIndex.from_bank({"FAC": ["Orvane Parish Church"], "ORG": ["Kelmar Cathedral"]})
    assert replacements(ctx, "Durham Cathedral", "FAC", bank, "d", question=q) == \
        {"Kelmar Cathedral"}
    assert replacements(ctx, "Durham Cathedral", "FAC", bank, "d",
                        question="Where was the pointed arch first used?") == \
        {"Orvane Parish Church"}
    # none keeps it: the row is still made, as without the rule
    bank = SamplingIndex.from_bank({"FAC": ["Orvane Parish Church"]})
    assert replacements(ctx, "Durham Cathedral", "FAC", bank, "d", question=q) == \
        {"Orvane Parish Church"}


def test_treaties_canals_and_governments_keep_their_kind():
    from faithqa_spark.core.namekinds import name_class
    assert name_class("Treaty of Paris") == "treaty" != name_class("Royal Charter")
    assert name_class("Suez Canal") == "canal" and name_class("Yalu River") == "river"
    assert name_class("San Bernardino Strait") == name_class("English Channel") == "strait"
    assert name_class("Equal Protection Clause") == "clause" != name_class("Royal Charter")
    assert name_class("Reagan Administration") == "government"
    assert name_class("Federal Aviation Administration") == "body"
    # "the Treaty of Versailles" in the bank fits "the Treaty of Paris" without its "the"
    laws = SamplingIndex.from_bank({"LAW": ["the Treaty of Versailles", "Royal Charter"]})
    ctx = "The war was ended by the Treaty of Paris, signed by both crowns in the spring."
    o = run(ctx, "Treaty of Paris", [("Treaty of Paris", "LAW")], bank=laws,
            question="What ended the war?")
    assert_consistent(o)
    assert o[C.REPLACEMENT_ENTITY] == "Treaty of Versailles"
    assert "ended by the Treaty of Versailles, signed" in o[C.MODIFIED_CONTEXT]


def test_a_city_for_a_city_a_state_for_a_state():
    from faithqa_spark.core.namekinds import place_kind
    assert place_kind("Geneva") == place_kind("Cairo") == "city"
    assert place_kind("Alaska") == place_kind("Punjab") == "state"
    assert place_kind("Austria") == place_kind("Georgia") == "country"
    assert place_kind("Washington") == "state" and place_kind("Lockerbie") is None
    gpe = SamplingIndex.from_bank({"GPE": ["Cairo", "Nevada", "Peru"]})
    ctx = "By 1890 the city had become a gateway to Alaska during the Klondike Gold Rush."
    assert replacements(ctx, "Alaska", "GPE", gpe, "k") == {"Nevada"}


def test_the_words_before_a_place_say_whether_it_is_a_city_or_a_state():
    gpe = SamplingIndex.from_bank({"GPE": ["Cairo", "Geneva", "Nevada", "Kansas", "Peru"]})
    # "Washington" is a state by its name; "downtown" makes it the city
    ctx = "The National Archives Building in downtown Washington holds the census records."
    assert replacements(ctx, "Washington", "GPE", gpe, "w") <= {"Cairo", "Geneva"}
    ctx = "He was elected mayor of Washington after two terms on the council of the city."
    assert replacements(ctx, "Washington", "GPE", gpe, "m") <= {"Cairo", "Geneva"}
    ctx = "Most of the orchards of the State of Washington lie east of the Cascade range."
    assert replacements(ctx, "Washington", "GPE", gpe, "s") <= {"Nevada", "Kansas"}
    # no word says it: its own kind
    ctx = "Most of the orchards of Washington lie east of the Cascade range, in dry valleys."
    assert replacements(ctx, "Washington", "GPE", gpe, "n") <= {"Nevada", "Kansas"}
    # a city with nothing of its kind in the bank still gets a place of its own kind
    states = SamplingIndex.from_bank({"GPE": ["Nevada", "Kansas"]})
    ctx = "The National Archives Building in downtown Washington holds the census records."
    assert replacements(ctx, "Washington", "GPE", states, "f") <= {"Nevada", "Kansas"}


def test_a_one_word_name_after_a_sovereign_s_title_takes_one_word_or_a_regnal_name():
    # "Rut wrote a letter to King Henry" had become "to King Jimmy Iovine"
    bank = SamplingIndex.from_bank({"PERSON": ["Jimmy Iovine", "Ada Quell", "Louis XVIII",
                                               "Edgar", "Orvane Kelm"]})
    ctx = "The Ogaden was given up in a treaty the British signed with Emperor Menelik in 1897."
    got = replacements(ctx, "Menelik", "PERSON", bank, "k", rows=8)
    assert got and got <= {"Louis XVIII", "Edgar"}
    # no title: any name
    ctx = "The Ogaden was given up in a treaty the British signed with Menelik in 1897."
    assert replacements(ctx, "Menelik", "PERSON", bank, "k", rows=8) - {"Louis XVIII", "Edgar"}
    # the title in lower case: "Taungoo's young, ambitious king Tabinshwehti" had become
    # "king Bassam Tibi"
    ctx = "The young and ambitious king Menelik defeated the more powerful Tigray in 1889."
    got = replacements(ctx, "Menelik", "PERSON", bank, "k", rows=8)
    assert got and got <= {"Louis XVIII", "Edgar"}


def test_a_place_named_before_its_state_or_country_is_a_city():
    # "the Joint Readiness Training Center at Fort Polk, Louisiana" had become "at Korea,
    # Louisiana": a place the lists do not know takes a city there
    gpe = SamplingIndex.from_bank({"GPE": ["Kelmarshire", "Geneva", "Peru", "Orvane"]})
    ctx = "The training center at Fort Polk, Louisiana, opened its new range in 1993."
    assert replacements(ctx, "Fort Polk", "GPE", gpe, "p") == {"Geneva"}
    # neither a list of places nor a county's name says it is a city
    ctx = "Troops served at Fort Polk, Kosovo, Somalia and in the Gulf between 1991 and 2001."
    assert replacements(ctx, "Fort Polk", "GPE", gpe, "l") == {"Kelmarshire", "Orvane"}
    ctx = "Most of its workers live in Hudson County, New Jersey, across the river from it."
    assert "Geneva" not in replacements(ctx, "Hudson County", "GPE", SamplingIndex.from_bank(
        {"GPE": ["Geneva", "Bergen County"]}), "c")


def test_a_diocese_an_era_and_a_dash_joined_name():
    assert not entries.norp_word("Archdiocese") and entries.norp_word("Chinese")
    assert entries.fit_keys("DATE", "19th century")[0] != entries.fit_keys("DATE", "6th century AD")[0]
    assert entries.fit_keys("DATE", "6th century BC")[0] != entries.fit_keys("DATE", "6th century AD")[0]
    assert entries.fit_keys("DATE", "the 6th century BC")[0] == entries.fit_keys("DATE", "2nd century BC")[0]
    ctx = ("Mycobacteria show acid-fastness on Ziehl–Neelsen or similar stains, which Franz "
           "Neelsen described.")
    o = run(ctx, "Neelsen", [("Neelsen", "PERSON"), ("Franz Neelsen", "PERSON")],
            answer_start=ctx.index("Neelsen"), question="Which stain?")
    assert o[C.STATUS] == C.FILTERED and o[C.REASON] == reasons.NAME_INSIDE_NAME


def test_an_event_at_the_tail_of_a_longer_name_is_refused():
    events = SamplingIndex.from_bank({"EVENT": ["Super Bowl", "Tour de France"]})
    ctx = ("After the World Cup, the most important competitions are the continental ones; "
           "their winners contest the FIFA Club World Cup.")
    o = run(ctx, "World Cup", [("World Cup", "EVENT")], bank=events,
            answer_start=ctx.index("World Cup"), question="What comes first?")
    assert o[C.STATUS] == C.FILTERED and o[C.REASON] == reasons.NAME_INSIDE_NAME


def test_a_country_takes_one_of_its_continent_first():
    from faithqa_spark.core.entries import fit_keys
    from faithqa_spark.core.namekinds import continent
    assert continent("France") == continent("England") == "EU"
    assert continent("Persia") == "AS" and continent("Soviet Union") is None
    assert continent("Paris") is None  # no country
    # "the United States" too: its "the" goes where the country's own (`drops_the`)
    assert fit_keys("GPE", "United States") == ["country:NA", "country"]
    bank = SamplingIndex.from_bank({"GPE": ["Australia", "Brazil", "Italy", "Japan", "Canada"]})
    ctx = ("France and Spain then entered the war against Great Britain as allies of the "
           "United States. The Netherlands later joined France.")
    spec = [("France", "GPE"), ("Spain", "GPE"), ("Great Britain", "GPE"),
            ("United States", "GPE"), ("Netherlands", "GPE")]
    got = {o[C.REPLACEMENT_ENTITY] for o in made_rows(
        ctx, "France", spec, bank, "eu", "What two European countries entered the war?", 8)}
    assert got == {"Italy"}  # the only other European country of the bank
    # with none of its continent, another country still fits
    bank = SamplingIndex.from_bank({"GPE": ["Australia", "Japan"]})
    o = run(ctx, "France", spec, bank=bank, row_id="squad:eu")
    assert_consistent(o)
    assert o[C.REPLACEMENT_ENTITY] in ("Australia", "Japan")


def test_a_state_that_is_no_more_takes_one_such_and_a_country_drops_its_own_the():
    from faithqa_spark.core.entries import fit_keys
    from faithqa_spark.core.namekinds import former_country
    assert former_country("Soviet Union") and former_country("Yugoslavia")
    assert not former_country("Russia") and not former_country("Persia")
    assert fit_keys("GPE", "East Germany") == ["country:former", "country"]
    bank = SamplingIndex.from_bank({"GPE": ["the Czech Republic", "Czech Republic",
                                            "Yugoslavia", "Czechoslovakia", "Kenya"]})
    ctx = ("During the Cold War the Soviet Union built missiles, and the United States "
           "watched the Soviet Union with care.")
    spec = [("Soviet Union", "GPE"), ("United States", "GPE")]
    got = set()
    for o in made_rows(ctx, "the Soviet Union", spec, bank, "su", "Who built missiles?", 8):
        got.add(o[C.REPLACEMENT_ENTITY])
        # the "the" went with the Soviet Union: "the Cold War the Yugoslavia" never
        assert f"Cold War {o[C.REPLACEMENT_ENTITY]} built" in o[C.MODIFIED_CONTEXT]
        assert f"watched {o[C.REPLACEMENT_ENTITY]} with care" in o[C.MODIFIED_CONTEXT]
        assert o[C.FAITHFUL_ANSWER] == o[C.REPLACEMENT_ENTITY]
    assert got == {"Yugoslavia", "Czechoslovakia"}  # never "the Czech Republic" of today
    # a mention said without "the" keeps none, and one said with it loses its own: "and
    # the Israel" had been written for "New Zealand, and the United Kingdom"
    bank = SamplingIndex.from_bank({"GPE": ["Israel", "Ghana"]})
    ctx = ("Intelligence goes to Australia, Canada, New Zealand, and the United Kingdom. A "
           "marking shows what may be shared with Canada, United Kingdom, and New Zealand.")
    spec = [("Australia", "GPE"), ("Canada", "GPE"), ("New Zealand", "GPE"),
            ("United Kingdom", "GPE")]
    o = run(ctx, "the United Kingdom", spec, bank=bank, question="Who gets it?")
    assert_consistent(o)
    rep = o[C.REPLACEMENT_ENTITY]
    assert f"New Zealand, and {rep}. A" in o[C.MODIFIED_CONTEXT]
    assert f"with Canada, {rep}, and" in o[C.MODIFIED_CONTEXT]
    assert f"the {rep}" not in o[C.MODIFIED_CONTEXT]


def test_a_numbered_event_is_of_its_head_word_kind_and_a_bare_number_name_is_junk():
    from faithqa_spark.core.entries import drawable
    from faithqa_spark.core.namekinds import name_class, numeral
    assert numeral("II") and numeral("4") and numeral("Two") and not numeral("War")
    assert name_class("World War II") == name_class("Korean War") == "conflict"
    assert name_class("Super Bowl 50") == "contest"
    # NER's events that are a word and a number: never drawn
    assert not drawable("EVENT", "World Three") and not drawable("EVENT", "Game 4")
    assert drawable("EVENT", "World War II") and drawable("EVENT", "Korean War")
    bank = SamplingIndex.from_bank({"EVENT": ["World Three", "New Year's Day", "Korean War",
                                              "Crimean War"]})
    ctx = "When the Falklands War broke out, the navy was ready. The Falklands War ended soon."
    got = {run(ctx, "Falklands War", [("Falklands War", "EVENT")], bank=bank,
               row_id=f"squad:w{i}")[C.REPLACEMENT_ENTITY] for i in range(6)}
    assert got <= {"Korean War", "Crimean War"} and got


def test_a_possessive_before_an_organisation_reads_as_the():
    bank = SamplingIndex.from_bank({"ORG": ["Department of Education", "Order Sons",
                                            "the Department of Education"]})
    ctx = ("The state manages all water in Arizona through its Arizona Department of Water "
           "Resources. The Arizona Department of Water Resources sets quotas.")
    for i in range(4):
        o = run(ctx, "Arizona Department of Water Resources",
                [("Arizona Department of Water Resources", "ORG")], bank=bank,
                row_id=f"squad:dw{i}")
        assert_consistent(o)
        # "through its Order Sons" had been drawn: without "the", no "X of Y" was allowed
        assert o[C.REPLACEMENT_ENTITY] == "Department of Education"


def test_a_pope_is_swapped_for_a_pope_and_a_king_for_a_king():
    from faithqa_spark.core.entries import fit_key, regnal_key
    assert regnal_key("Pius XII") == regnal_key("John Paul II") == regnal_key("John XXIII") \
        == regnal_key("Leo XIII") == "regnal:pope"
    # names both take: a pope's from the number on which only popes had them
    assert regnal_key("John III") == regnal_key("Paul I") == regnal_key("Henry II") == "regnal"
    assert fit_key("PERSON", "Innocent III") == "regnal:pope"
    bank = SamplingIndex.from_bank({"PERSON": ["Innocent III", "Gregory XIII", "Louis XVIII",
                                               "Edward III", "Honorius III"]})
    ctx = ("John's father, Henry II, had forced William the Lion to swear fealty to him. "
           "Henry II died in 1189.")
    kings = {run(ctx, "Henry II", [("Henry II", "PERSON"), ("William the Lion", "PERSON")],
                 bank=bank, row_id=f"squad:k{i}")[C.REPLACEMENT_ENTITY] for i in range(8)}
    assert kings == {"Louis XVIII", "Edward III"}
    ctx = "Pope Pius IX convened the council. Pius IX died in 1878."
    popes = {run(ctx, "Pius IX", [("Pius IX", "PERSON")], bank=bank,
                 row_id=f"squad:p{i}")[C.REPLACEMENT_ENTITY] for i in range(8)}
    assert popes <= {"Innocent III", "Gregory XIII", "Honorius III"} and popes


def test_a_name_with_a_generational_suffix_is_no_king():
    from faithqa_spark.core.entries import is_regnal
    assert all(is_regnal(t) for t in ("Charles III", "John Paul II", "Frederick William III",
                                      "King Henry VIII", "Pope John XXIII", "Ramesses III"))
    # an initial, a surname or a third name before the number: a person's suffix
    assert not any(is_regnal(t) for t in ("Charles H. Bonesteel III", "James Noyes II",
                                          "Henry John Heinz III", "Charles Dickens",
                                          "Mark II", "Basel III"))
    bank = SamplingIndex.from_bank({"PERSON": ["Charles H. Bonesteel III", "James Noyes II",
                                               "Louis XVIII", "Edward III"]})
    ctx = ("On 17 April 1941, after King Peter II and other members of the government fled "
           "the country, the army surrendered.")
    assert replacements(ctx, "Peter II", "PERSON", bank, "g", rows=8) == {"Louis XVIII",
                                                                         "Edward III"}


def test_a_surname_of_a_malformed_person_entry_names_no_one():
    # NER's "persons" seen once ("Bolton Wanderers", "Bush Intercontinental") are in a bank
    # that keeps every person; their last words are no people's surnames, and an
    # organisation named by one stays drawable, where a real person's surname does not
    index = SamplingIndex.from_bank({
        "PERSON": ["Perimeter Alcoa", "Purcell Vantor", "Marie Curie", "Samuel Morse"],
        "ORG": ["Alcoa", "Vantor", "Curie", "Morse", "Dunlop"]})
    assert {"Curie", "Morse"} <= index.surnames_of_people()
    assert not {"Alcoa", "Vantor"} & index.surnames_of_people()
    assert set(index.pool("ORG", ANY)[0]) == {"Alcoa", "Vantor", "Dunlop"}


def test_an_answer_that_is_a_part_of_a_date_or_figure_is_that_part_of_the_replacement():
    from faithqa_spark.core.coherent import part_after
    assert part_after("April 1879", "September 1876", 6, 10) == (10, 14)  # the year
    assert part_after("11 August", "7 July", 3, 9) == (2, 6)  # the month
    assert part_after("early June 2012", "late July 2011", 6, 15) == (5, 14)
    assert part_after("April 1879", "1876", 6, 10) is None  # they do not line up
    assert part_after("April 1879", "September 1876", 7, 10) is None  # not whole words
    bank = SamplingIndex.from_bank({"DATE": ["September 1876", "May 1865"]})
    ctx = "The Main Building was razed in a fire in April 1879. It was rebuilt in April 1879."
    for i in range(4):
        o = run(ctx, "1879", [("April 1879", "DATE")], bank=bank, row_id=f"squad:y{i}",
                question="In what year was the Main Building razed?")
        assert_consistent(o)
        assert o[C.FAITHFUL_ANSWER] == o[C.REPLACEMENT_ENTITY].split()[-1]
        mod = o[C.MODIFIED_CONTEXT]
        assert f"{o[C.REPLACEMENT_ENTITY]}." in mod and "1879" not in mod


def test_no_later_part_of_the_present_century_and_region_words_for_region_words():
    from faithqa_spark.core.chronology import century_until
    from faithqa_spark.core.entries import norp_kind
    of = century_until(2017)
    assert of("the late 21st century") is None and of("the mid-21st century") is None
    assert of("the early 21st century") == of("the 21st century") == 21
    assert of("the late 19th century") == 19
    bank = SamplingIndex.from_bank({"DATE": ["late 21st century", "mid 19th century"]})
    ctx = "Until the early 20th century, Boston remained one of the largest manufacturing centers."
    for i in range(4):
        o = run(ctx, "early 20th century", [("early 20th century", "DATE")], bank=bank,
                row_id=f"squad:c{i}")
        assert_consistent(o)
        assert o[C.REPLACEMENT_ENTITY] == "mid 19th century"
    assert norp_kind("Asian") == norp_kind("Western") == norp_kind("Latin American") == "region"
    assert norp_kind("German") == norp_kind("American") == norp_kind("Native American") == "people"
    bank = SamplingIndex.from_bank({"NORP": ["German", "French", "European", "African"]})
    ctx = "Despite Western isolation, Asian corporations have remained willing to invest."
    got = {run(ctx, "Asian", [("Asian", "NORP"), ("Western", "NORP")], bank=bank,
               row_id=f"squad:n{i}")[C.REPLACEMENT_ENTITY] for i in range(6)}
    assert got <= {"European", "African"} and got


def test_a_swapped_amount_s_conversion_is_worked_out_anew():
    bank = SamplingIndex.from_bank({"QUANTITY": ["300 miles", "3 million miles"]})
    ctx = "The road runs 450 miles (720 km) east of the city. It opened in 1931."
    for i in range(4):
        o = run(ctx, "450 miles", [("450 miles", "QUANTITY")], bank=bank, row_id=f"squad:m{i}",
                question="How long is the road?")
        assert_consistent(o)
        assert o[C.REPLACEMENT_ENTITY] == "300 miles" and o[C.FAITHFUL_ANSWER] == "300 miles"
        mod = o[C.MODIFIED_CONTEXT]
        assert "runs 300 miles (480 km) east" in mod
        # both changed regions are modified spans, and nothing else changed
        spans = [(sp[C.SPAN_START], sp[C.SPAN_END]) for sp in o[C.MODIFIED_SPANS]]
        assert [mod[a:b] for a, b in spans] == ["300 miles", "480"]
        assert o[C.NUM_REPLACEMENTS] == 1
    # an answer that holds both figures: still tied
    o = run(ctx, "450 miles (720 km)", [("450 miles", "QUANTITY")], bank=bank)
    assert o[C.STATUS] == C.FILTERED and o[C.REASON] == reasons.TIED_FIGURE


def test_an_office_ner_took_for_a_name_is_refused():
    from faithqa_spark.core.entries import office
    for title in ("Yongle Emperor", "Maharaja", "Archbishop of Canterbury", "Cardinal"):
        assert office("ORG", title), title
    for name in ("Notre Dame", "States General", "Bank of England", "File Explorer"):
        assert not office("ORG", name), name
    assert not office("PERSON", "Maharaja")  # a person's title is the names' business
    bank = SamplingIndex.from_bank({"ORG": ["Deccan", "Orvane Mills"]})
    ctx = "They crowned Harsha king, giving him the title of Maharaja when he was 16."
    o = run(ctx, "Maharaja", [("Maharaja", "ORG"), ("Harsha", "PERSON")], bank=bank)
    assert o[C.STATUS] == C.FILTERED and o[C.REASON] == reasons.MALFORMED_ENTITY


def test_a_name_a_river_or_an_island_goes_on_with_is_refused():
    bank = SamplingIndex.from_bank({"GPE": ["United States", "Mexico"],
                                    "ORG": ["Rule of St. Augustine", "Orvane Mills"]})
    for ctx, name, label in (
            ("Kathmandu lies north of the Bagmati River. South of the Bagmati is Patan.",
             "Bagmati", "ORG"),
            ("The Congo River is the deepest river. Congo is its name.", "Congo", "GPE")):
        o = run(ctx, name, [(name, label)], bank=bank)
        assert o[C.STATUS] == C.FILTERED and o[C.REASON] == reasons.NAME_INSIDE_NAME
    ok = run("Mexico borders the United States to the north. Mexico is a large country.",
             "Mexico",
             [("Mexico", "GPE"), ("United States", "GPE")], bank=SamplingIndex.from_bank(
                 {"GPE": ["Peru", "Chile"]}))
    assert_consistent(ok)


def test_a_century_keeps_its_place_among_the_years_of_the_context():
    bank = SamplingIndex.from_bank({"DATE": ["18th century", "8th century"]})
    ctx = ("Tibet was a strong power contemporaneous with Tang China (618–907). Until the "
           "Tibetan Empire's collapse in the 9th century, it was the Tang's major rival.")
    for i in range(4):
        o = run(ctx, "9th century", [("9th century", "DATE")], bank=bank, row_id=f"squad:t{i}")
        assert_consistent(o)
        assert o[C.REPLACEMENT_ENTITY] == "8th century"


def test_a_person_s_surname_typed_as_an_organisation_is_never_drawn():
    bank = SamplingIndex.from_bank({"ORG": ["Gladstone", "Orvane", "Western Electric"],
                                    "PERSON": ["William Gladstone", "Marie Curie"]})
    pool = bank.pool("ORG", "name")[0]
    assert "Gladstone" not in pool and "Orvane" in pool
    ctx = "Microsoft responded with its Internet Explorer in 1995, also heavily influenced."
    got = {run(ctx, "Microsoft", [("Microsoft", "ORG")], bank=bank,
               row_id=f"squad:s{i}")[C.REPLACEMENT_ENTITY] for i in range(6)}
    assert "Gladstone" not in got and got


def test_a_person_s_surname_typed_as_a_place_is_drawn_only_where_a_list_knows_it():
    # "The westernmost center of the culture was Velázquez": the bank's people say whose
    # name it is; "Washington" is a state the lists know, whoever else bears the name
    bank = SamplingIndex.from_bank({
        "GPE": ["Velázquez", "Washington", "Kelmarshire", "Upper Orvane"],
        "PERSON": ["Diego Velázquez", "George Washington", "Ana Orvane"]})
    drawn = {t for key in ("state", ANY) for t in bank.pool("GPE", key)[0]}
    assert "Velázquez" not in drawn
    assert {"Washington", "Kelmarshire", "Upper Orvane"} <= drawn


def test_a_place_s_people_word_is_swapped_with_it():
    from faithqa_spark.core.coherent import people_pieces, place_stem
    assert place_stem("Mexico") == "Mexic" and place_stem("Soviet Union") == "Soviet"
    assert place_stem("Peru") is None  # too short to tell
    norps = frozenset({"Romanian", "Roman", "German", "Germans", "Czech", "Czechs", "Turks"})
    assert people_pieces("Romania", [(0, 0, "")], norps) == ["Romanian"]  # never "Roman"
    assert people_pieces("Germany", [(0, 0, "s")], norps) == ["Germans"]
    assert people_pieces("Czech Republic", [(0, 0, "s"), (0, 0, "")], norps) == ["Czechs", "Czech"]
    assert people_pieces("Lagos", [(0, 0, "")], norps) is None
    bank = SamplingIndex.from_bank({"GPE": ["Czech Republic", "Dominican Republic",
                                            "Central African Republic"],
                                    "NORP": ["Soviets", "Soviet", "Czechs", "Czech"]})
    ctx = ("In August 1940, the Soviet Union briefly suspended its deliveries. The move raised "
           "tensions with the Soviets, who said Germany should have consulted the Soviet Union.")
    for i in range(8):
        o = run(ctx, "Soviet Union", [("Soviet Union", "GPE"), ("Soviets", "NORP"),
                                      ("Germany", "GPE")], bank=bank, row_id=f"squad:u{i}")
        assert_consistent(o)
        mod = o[C.MODIFIED_CONTEXT]
        assert o[C.REPLACEMENT_ENTITY] == "Czech Republic"  # the one with a people word
        assert "tensions with the Czechs, who" in mod and "Soviet" not in mod
        assert o[C.NUM_REPLACEMENTS] == 2 and len(o[C.MODIFIED_SPANS]) == 3


def test_a_people_word_takes_the_article_its_new_word_takes():
    # "sold to St1, a Finnish energy company" had become "a Italian energy company"
    bank = SamplingIndex.from_bank({"GPE": ["Italy"], "NORP": ["Italian", "Finnish"]})
    ctx = ("Its stations in Finland were sold in 2010 to St1, a Finnish energy company, and "
           "the firm left Finland for good.")
    o = run(ctx, "Finland", [("Finland", "GPE"), ("Finnish", "NORP")], bank=bank)
    assert_consistent(o)
    assert "to St1, an Italian energy company, and the firm left Italy" in o[C.MODIFIED_CONTEXT]
    assert "an Italian" in pieces(o)  # the article's change is a modified span too
    # ... and one that already fits stays as it was
    bank = SamplingIndex.from_bank({"GPE": ["Greece"], "NORP": ["Greek", "Finnish"]})
    o = run(ctx, "Finland", [("Finland", "GPE"), ("Finnish", "NORP")], bank=bank)
    assert "to St1, a Greek energy company" in o[C.MODIFIED_CONTEXT] and "Greek" in pieces(o)


def test_a_longer_name_a_people_word_opens_takes_its_new_short_form():
    # "the Scottish National Party (SNP)", its Scotland swapped for Israel, had become "the
    # Israeli National Party (SNP)"
    bank = SamplingIndex.from_bank({"GPE": ["Wales"], "NORP": ["Welsh", "Scottish"]})
    ctx = ("The oil campaign of the Scottish National Party (SNP) raised support for the SNP "
           "in Scotland. How big is the SNP?")
    spec = [("Scottish", "NORP"), ("Scotland", "GPE")]
    o = run(ctx, "Scotland", spec, bank=bank, question="How big is the SNP in Scotland?")
    assert_consistent(o)
    assert o[C.MODIFIED_CONTEXT] == ("The oil campaign of the Welsh National Party (WNP) raised "
                                     "support for the WNP in Wales. How big is the WNP?")
    assert o[C.QUESTION] == "How big is the WNP in Wales?"
    # the new short form said already: two parties of one name, filtered
    o = run(ctx + " The WNP is another.", "Scotland", spec, bank=bank)
    assert o[C.REASON] == reasons.DEFINED_SHORT_FORM


def test_a_word_beside_a_mention_is_not_said_again():
    # "the September issue of Vogue magazine" had become "of Time Magazine magazine"
    bank = SamplingIndex.from_bank({"ORG": ["Time Magazine", "Rolling Stone", "Harper's Bazaar"]})
    ctx = "Her photograph was on the cover of the September issue of Vogue magazine that year."
    got = replacements(ctx, "Vogue", "ORG", bank, "v", rows=12)
    assert got and "Time Magazine" not in got, got
    # "It supported the Labour Party led by Harold Wilson": never "the Green Party Party"
    bank = SamplingIndex.from_bank({"ORG": ["Green Party", "Whig", "Tories"]})
    ctx = "The paper supported the Labour Party led by Harold Wilson in the election of 1964."
    assert "Green Party" not in replacements(ctx, "Labour", "ORG", bank, "l", rows=12)
    # "Since about 1950, women have entered ...": at a sentence's start too ("Since since 1939")
    bank = SamplingIndex.from_bank({"DATE": ["since 1939", "about 1940", "about 1931"]})
    ctx = "The elites were men. Since about 1950, women have entered the professions in numbers."
    assert replacements(ctx, "about 1950", "DATE", bank, "s", rows=12) <= {
        "about 1940", "about 1931"}


def test_a_person_s_name_opening_a_sentence_takes_a_capital_and_parts_side_by_side_two():
    # "Stalin's invasions were a severe shock" had become "von Loesch's invasions were ..."
    bank = SamplingIndex.from_bank({"PERSON": ["von Loesch"]})
    ctx = "The pact was signed in August. Stalin's invasions were a severe shock to the West."
    o = run(ctx, "Stalin", [("Stalin", "PERSON")], bank=bank)
    assert_consistent(o)
    assert "August. Von Loesch's invasions" in o[C.MODIFIED_CONTEXT]
    # "the publishing house John Murray" (of "John Murray III") had become "William William"
    bank = SamplingIndex.from_bank({"PERSON": ["William IV", "Frederick William III"]})
    ctx = ("Darwin wrote to publisher John Murray III about the book, and the publishing house "
           "John Murray accepted it at once.")
    got = replacements(ctx, "John Murray III", "PERSON", bank, "m", rows=8)
    assert got == {"Frederick William III"}


def test_a_people_word_s_place_is_swapped_with_it():
    from faithqa_spark.core.coherent import places_of_people
    bank = SamplingIndex.from_bank({"NORP": ["Mexican", "Japanese", "Peruvian", "Bolivian"],
                                    "GPE": ["Mexico", "Japan", "Jefferson"],
                                    "PERSON": ["Thomas Jefferson"]})
    assert places_of_people(bank)["Mexican"] == "Mexico"
    assert "Peruvian" not in places_of_people(bank)
    ctx = ("As a result of the Mexican–American War of 1846–48, the territory was ceded to the "
           "United States by Mexico. The Mexican negotiators tried to retain San Diego.")
    spec = [("Mexican", "NORP"), ("United States", "GPE"), ("Mexico", "GPE")]
    for i in range(6):
        o = run(ctx, "Mexican", spec, bank=bank, row_id=f"squad:x{i}")
        assert_consistent(o)
        assert o[C.REPLACEMENT_ENTITY] == "Japanese"  # the one whose place the bank holds
        mod = o[C.MODIFIED_CONTEXT]
        assert "ceded to the United States by Japan. The Japanese negotiators" in mod
    # the question that names the place asks of the new one: "What are the people who live
    # in Hyderabad called?" had stayed so beside a context of Persia and Persians
    for question, asked in (("Who tried to keep San Diego for Mexico?",
                             "Who tried to keep San Diego for Japan?"),
                            # a word of another case or inside a word is no mention
                            ("Was MEXICO or Mexicoland ceded?", "Was MEXICO or Mexicoland ceded?")):
        o = run(ctx, "Mexican", spec, bank=bank, question=question)
        assert_consistent(o)
        assert o[C.QUESTION] == asked and o[C.ORIGINAL_QUESTION] == question
    # ... and one that names the new place already would ask of it twice: filtered
    o = run(ctx, "Mexican", spec, bank=bank, question="Did Japan help Mexico keep San Diego?")
    assert o[C.REASON] == reasons.QUESTION_NAMES_ENTITY
    # a place's name that NER found as no place stays ("Jeffersonian ... Jefferson" the man)
    ctx = ("Jeffersonian democracy grew after 1800. Jefferson himself wrote of it often, "
           "and Jeffersonian ideals spread west.")
    bank = SamplingIndex.from_bank({"NORP": ["Jeffersonian", "Japanese"],
                                    "GPE": ["Jefferson", "Japan"]})
    o = run(ctx, "Jeffersonian", [("Jeffersonian", "NORP"), ("Jefferson", "PERSON")],
            bank=bank)
    assert_consistent(o)
    assert "Jefferson himself" in o[C.MODIFIED_CONTEXT]


def test_a_war_is_said_with_the_and_a_world_war_without():
    from faithqa_spark.core.coherent import world_war
    assert world_war("World War Two") == world_war("the Second World War") == world_war("WWII") == 2
    assert world_war("World War I") == 1 and world_war("Korean War") is None
    bank = SamplingIndex.from_bank({"EVENT": ["Korean War", "World War Two", "World War I."]})
    ctx = "During World War II, the island was occupied. World War II ended in 1945 there."
    for i in range(4):
        o = run(ctx, "World War II", [("World War II", "EVENT")], bank=bank, row_id=f"squad:w{i}")
        assert_consistent(o)
        # never the same war by another name, never "During Korean War"
        assert o[C.REPLACEMENT_ENTITY] == "Korean War"
        mod = o[C.MODIFIED_CONTEXT]
        assert mod.startswith("During the Korean War, the island") and "The Korean War ended" in mod
    ctx = "After the Falklands War the navy changed. The Falklands War was short and costly."
    bank = SamplingIndex.from_bank({"EVENT": ["World War I", "Crimean War"]})
    got = {run(ctx, "Falklands War", [("Falklands War", "EVENT")], bank=bank,
               row_id=f"squad:f{i}")[C.REPLACEMENT_ENTITY] for i in range(4)}
    assert got == {"Crimean War"}  # never "the World War I"


def test_an_organisation_that_is_a_person_s_surname_is_refused():
    bank = SamplingIndex.from_bank({"ORG": ["Orvane Mills", "Sinop Works"],
                                    "PERSON": ["Hector Berlioz", "Marie Curie"]})
    ctx = ("Chopin's friend Berlioz wrote of him warmly. Berlioz called him the poet of the "
           "piano in a review.")
    o = run(ctx, "Berlioz", [("Berlioz", "ORG")], bank=bank)
    assert o[C.STATUS] == C.FILTERED and o[C.REASON] == reasons.MALFORMED_ENTITY


def test_an_answer_that_is_a_part_of_a_date_always_changes():
    # "2010" of "February 2010": "September 2010" would leave the answer as it was
    bank = SamplingIndex.from_bank({"DATE": ["September 2010", "March 2009"]})
    ctx = "The station opened in February 2010 after long delays. It closed again later."
    for i in range(6):
        o = run(ctx, "2010", [("February 2010", "DATE")], bank=bank, row_id=f"squad:p{i}",
                question="In what year did the station open?")
        assert_consistent(o)
        assert o[C.REPLACEMENT_ENTITY] == "March 2009" and o[C.FAITHFUL_ANSWER] == "2009"
    bank = SamplingIndex.from_bank({"DATE": ["September 2010"]})
    o = run(ctx, "2010", [("February 2010", "DATE")], bank=bank,
            question="In what year did the station open?")
    assert o[C.STATUS] == C.FILTERED  # no date that changes the year: no counterfactual


def test_a_people_word_that_begins_a_place_s_name_is_refused():
    # "the Indian subcontinent" had become "the Egyptian subcontinent"
    norps = SamplingIndex.from_bank({"NORP": ["Egyptian", "Peruvian"]})
    # ... and so is one that begins a Catholic rite's ("the Roman Catholic Church" had become
    # "the Phrygian Catholic Church")
    for ctx in ("Outbreaks of conflict spread across the Indian subcontinent.",
                "Ships crossed the Arabian Sea to reach the coast.",
                "Saint George was a Roman soldier; the Roman Catholic Church honours him."):
        name = next(n for n in ("Indian", "Arabian", "Roman") if n in ctx)
        o = run(ctx, name, [(name, "NORP")], bank=norps)
        assert o[C.STATUS] == C.FILTERED and o[C.REASON] == reasons.NAME_INSIDE_NAME, ctx
    ok = run("Indian troops crossed the border at dawn, and the fighting went on for weeks.",
             "Indian", [("Indian", "NORP")], bank=norps)
    assert_consistent(ok)
    assert ok[C.REPLACEMENT_ENTITY] in ("Egyptian", "Peruvian")


def test_a_name_listed_beside_a_person_s_that_reads_as_a_person_s_is_one():
    # "the idealism of Schopenhauer and Descartes" (NER's GPE "Descartes") had become "...
    # of Schopenhauer and Vandals"; "Saints Bernard of Clairvaux, Albertus Magnus and Thomas
    # Aquinas" (NER's ORG) "..., Johnson & Johnson and Thomas Aquinas"
    bank = SamplingIndex.from_bank({"PERSON": ["Mary Weldon", "John Smith", "Olaf Berg"],
                                    "GPE": ["Dunmore", "Orvane"]})
    ctx = "He attacked the idealism of Arthur Kessler and Weldon with one argument."
    spec = [("Arthur Kessler", "PERSON"), ("Weldon", "GPE")]
    o = run(ctx, "Weldon", spec, bank=bank, question="Whose idealism did he attack?")
    assert_consistent(o)
    assert o[C.ENTITY_TYPE] == "PERSON" and o[C.REPLACEMENT_ENTITY] in ("John Smith", "Olaf Berg")
    # ... a known place beside a person stays a place ("Kessler and Paris")
    ctx = "He attacked the idealism of Arthur Kessler and Paris with one argument."
    o = run(ctx, "Paris", [("Arthur Kessler", "PERSON"), ("Paris", "GPE")], bank=bank,
            question="Whose idealism did he attack?")
    assert o[C.ENTITY_TYPE] == "GPE"
    # ... and so does a name beside NER's "person" that reads as none
    ctx = "He walked the moors of Heathfield and Weldon with one friend."
    o = run(ctx, "Weldon", [("Heathfield", "PERSON"), ("Weldon", "GPE")], bank=bank,
            question="Where did he walk?")
    assert o[C.ENTITY_TYPE] == "GPE"


def test_a_hemisphere_takes_a_hemisphere():
    # "In which hemisphere does bird migration primarily happen?" had been answered "the
    # Gibraltar", "What hemisphere is the island located in?" "Caribbean"
    bank = SamplingIndex.from_bank({"LOC": ["Southern Hemisphere", "Caribbean", "Gibraltar",
                                            "Middle East"]})
    ctx = ("Bird migration happens mostly in the Northern Hemisphere, where the routes are "
           "long and the seasons sharp.")
    got = replacements(ctx, "Northern Hemisphere", "LOC", bank, "h", "In which hemisphere?")
    assert got == {"Southern Hemisphere"}


def test_a_gloss_of_another_word_is_no_fact():
    # "the environmental groups Zelenyi Svit ("Green World")" had become "Zelenyi Svit
    # ("Justify My Love")", "such as Chrétien in French" "such as Moldavia in French"
    bank = SamplingIndex.from_bank({"WORK_OF_ART": ["Blue Harbour", "Long Night"],
                                    "GPE": ["Dunmore", "Orvane"]})
    for ctx, name, label in (
            ('The groups Zelenyi Svit ("Green World") and Noosfera met in May.', "Green World",
             "WORK_OF_ART"),
            ('Kelmar (Old Norse: "Cold Harbour") is the town on the bay.', "Cold Harbour",
             "WORK_OF_ART"),
            ('The phrase Notre Dame du Lac means "Our Lady of the Lake" there.',
             "Our Lady of the Lake", "WORK_OF_ART"),
            ("Such words as Chrétien in French and Cristiano in Spanish are alike.", "Chrétien",
             "GPE")):
        o = run(ctx, name, [(name, label)], bank=bank)
        assert o[C.REASON] == reasons.DERIVED_WORD_LEFT, ctx
    # a place in a language's country is no gloss
    from faithqa_spark.core.coherent import a_gloss
    for ctx, name in (("He lived in Paris in French exile.", "Paris"),
                      ("The town was moved in 1900 to Paris in Spain.", "Paris")):
        i = ctx.index(name)
        assert not a_gloss(ctx, i, i + len(name)), ctx
    ctx = "The band moved to Dunwich in 1990, and the album was made in Dunwich."
    o = run(ctx, "Dunwich", [("Dunwich", "GPE")], bank=bank)
    assert_consistent(o)


def test_a_name_before_a_latin_word_is_a_part_of_a_longer_term():
    # "the most beautiful is the Rosalia alpina" (NER's EVENT "Rosalia") had become "the Paris
    # Fashion Week alpina", "under a Ficus religiosa tree" "under a Theravada religiosa tree"
    bank = SamplingIndex.from_bank({"EVENT": ["Harvest Festival"], "ORG": ["Zenith Group"],
                                    "NORP": ["German", "Welsh"]})
    for ctx, name, label in (
            ("The most beautiful beetle is the Rosalia alpina, now protected.", "Rosalia",
             "EVENT"),
            ("He sat under a Ficus religiosa tree for a week.", "Ficus", "ORG"),
            ("The term dialect (from Latin dialectus) is old.", "Latin", "NORP")):
        o = run(ctx, name, [(name, label)], bank=bank)
        assert o[C.REASON] == reasons.NAME_INSIDE_NAME, ctx
    # a lower-case English word after the name is no such term ("the Jewish diaspora")
    ctx = "The Latin diaspora grew in the north, and many settled in the towns there."
    o = run(ctx, "Latin", [("Latin", "NORP")], bank=bank)
    assert_consistent(o)


def test_an_x_of_y_title_said_with_the_keeps_the_and_takes_an_x_of_y():
    # "The Treaty of Kaynarca of 1774 ended the war" had become "Treaty of Paris of 1774"
    bank = SamplingIndex.from_bank({"WORK_OF_ART": ["Treaty of Paris", "Treaty of Ghent",
                                                    "Pumping Iron", "Silent Harbour"]})
    ctx = "The Treaty of Kaynarca of 1774 ended the war and gave freedom of worship."
    for i in range(6):
        o = run(ctx, "Treaty of Kaynarca", [("The Treaty of Kaynarca", "WORK_OF_ART")],
                bank=bank, row_id=f"squad:w{i}")
        assert_consistent(o)
        assert o[C.REPLACEMENT_ENTITY] in ("Treaty of Paris", "Treaty of Ghent")
        assert o[C.MODIFIED_CONTEXT].startswith(f"The {o[C.REPLACEMENT_ENTITY]} of 1774 ")
    # an "X of Y" title the context says with "the" takes one too: never "in the Pumping Iron"
    other = SamplingIndex.from_bank({"WORK_OF_ART": ["Pumping Iron", "Silent Harbour",
                                                     "Book of Mormon", "Laws of the Game"]})
    ctx = "The name came from a passage in the Book of Kells, which the monks had copied."
    got = replacements(ctx, "Book of Kells", "WORK_OF_ART", other, "w", rows=10)
    assert got and got <= {"Book of Mormon", "Laws of the Game"}, got
    # a title without "the" may take any title
    ctx = "He wrote Travels in Kaynarca in 1774, and it was read widely in the cities."
    got = replacements(ctx, "Travels in Kaynarca", "WORK_OF_ART", bank, "w", rows=12)
    assert len(got) > 1 and None not in got


def test_an_answer_that_is_the_figure_of_a_qualified_percentage_is_the_new_figure():
    bank = SamplingIndex.from_bank({"PERCENT": ["about 75%", "about 12%", "nearly 9%"]})
    ctx = "The study suggested that about 40% of the population descends from four women."
    for i in range(6):
        o = run(ctx, "40%", [("about 40%", "PERCENT")], bank=bank, row_id=f"squad:p{i}",
                question="What share descends from them?")
        assert_consistent(o)
        assert o[C.FAITHFUL_ANSWER] in ("75%", "12%", "9%"), o[C.FAITHFUL_ANSWER]
        assert o[C.MODIFIED_CONTEXT].count(o[C.REPLACEMENT_ENTITY]) == 1


def test_a_place_that_names_the_noun_after_it_takes_any_name_but_an_x_of_y():
    # "the Helwan steelworks" had become "the City of New York steelworks": the "the" is
    # the noun's, so the place need not be one said with "the", and an "X of Y" reads wrong
    bank = SamplingIndex.from_bank({"GPE": ["City of Paris", "Bronx", "Minsk", "Adelaide"]})
    ctx = ("Nasser initiated the Helwan steelworks, which became the largest enterprise of "
           "the country, and the Helwan steelworks employed thousands.")
    got = replacements(ctx, "Helwan", "GPE", bank, "h", rows=10)
    assert got and "City of Paris" not in got and got & {"Minsk", "Adelaide"}
    # a verb after the name is no noun the "the" could be for: a place said with "the"
    ctx = "After the war the Bronx collapsed into poverty, and the Bronx waited for years."
    bank = SamplingIndex.from_bank({"GPE": ["City of Paris", "Netherlands", "Minsk"]})
    got = {run(ctx, "Bronx", [("Bronx", "GPE")], bank=bank,
               row_id=f"squad:h{i}")[C.REPLACEMENT_ENTITY] for i in range(10)}
    assert got and "Minsk" not in got


def test_a_people_word_s_new_place_takes_the_where_the_old_one_did():
    # "characters used in Japan ... the Japanese script" had become "used in Roman Empire"
    bank = SamplingIndex.from_bank({"NORP": ["Japanese", "Roman", "Vietnamese"],
                                    "GPE": ["Japan", "Roman Empire", "Vietnam"]})
    ctx = ("Some simplified characters used in Japan are derived from the cursive script. "
           "The Japanese hiragana script is also derived from this script.")
    spec = [("Japanese", "NORP"), ("Japan", "GPE")]
    for i in range(6):
        o = run(ctx, "Japanese", spec, bank=bank, row_id=f"squad:j{i}")
        assert_consistent(o)
        assert o[C.REPLACEMENT_ENTITY] == "Vietnamese"
        assert "used in Vietnam are" in o[C.MODIFIED_CONTEXT]


def test_a_people_word_that_names_a_language_takes_one_that_names_a_language():
    # "the Spanish language" had become "the British language"
    bank = SamplingIndex.from_bank({"NORP": ["British", "Parisian", "Portuguese", "Germanic",
                                             "Iranian"]})
    ctx = ("The Spanish introduced cattle, horses and the Spanish language to Florida, and "
           "many settlers came.")
    got = replacements(ctx, "Spanish", "NORP", bank, "l", rows=8)
    assert got == {"Portuguese"}
    # "languages" after it names a family: "the Celtic languages" takes no "Portuguese"
    ctx = ("Scholars grouped the Celtic languages together long ago, and the grouping of "
           "those languages still stands today.")
    got = replacements(ctx, "Celtic", "NORP", bank, "l", rows=8)
    assert got and got <= {"Germanic", "Iranian"}
    # ... and so does one a text is translated into: "he was then able to translate the
    # Bible into German" had become "... into Swiss"
    bank = SamplingIndex.from_bank({"NORP": ["Swiss", "Parisian", "Hungarian", "British"]})
    ctx = ("Protected by the prince, the monk was then able to translate the Bible into "
           "German, which took him years.")
    assert replacements(ctx, "German", "NORP", bank, "t", rows=8) == {"Hungarian"}
    # ... where a people is no language, any people word fits as before
    ctx = "Protected by the prince, the German monk was then able to finish the new Bible."
    assert len(replacements(ctx, "German", "NORP", bank, "t", rows=12)) > 1


def test_a_people_word_that_answers_a_question_about_a_language_takes_a_language():
    # "What languages did Victoria study?" "French, German, Italian, and Latin" had become
    # "French, German, British, and Latin"
    bank = SamplingIndex.from_bank({"NORP": ["British", "Parisian", "Hungarian", "Germanic",
                                             "Iranian"]})
    ctx = ("Her lessons included French, German, Italian, and Latin, but she spoke only "
           "English at home.")
    asked = "What languages did Victoria study?"
    assert replacements(ctx, "Italian", "NORP", bank, "q", asked, rows=8) == {"Hungarian"}
    # a family of languages takes a family: "What language family is English in?"
    ctx = "English belongs to the Germanic branch, and it is written with the Latin alphabet."
    asked = "What language family is English in?"
    assert replacements(ctx, "Germanic", "NORP", bank, "q", asked, rows=8) == {"Iranian"}
    # ... and a people word that names no language answers such a question as before
    ctx = "The British ruled the island, and the language of its courts changed then."
    asked = "Who changed the language of the courts?"
    assert len(replacements(ctx, "British", "NORP", bank, "q", asked, rows=12)) > 1


def test_a_year_answered_inside_a_name_is_swapped_as_a_year():
    # "What year was the Great Sioux War?" "1876", of NER's EVENT "Great Sioux War of 1876":
    # the whole name had been swapped, and the year answered "American War"
    bank = SamplingIndex.from_bank({"EVENT": ["American War", "Revolution of 1848"],
                                    "DATE": ["1874", "1881", "1902"]})
    ctx = ("The Black Hills were taken from the Sioux after the Great Sioux War of 1876, and "
           "the treaty that ended it was signed a year later by the chiefs.")
    spec = [("Great Sioux War of 1876", "EVENT")]
    for i in range(6):
        o = run(ctx, "1876", spec, bank=bank, question="What year was the Great Sioux War?",
                row_id=f"squad:y{i}")
        assert_consistent(o)
        assert o[C.ENTITY_TYPE] == "DATE" and o[C.ORIGINAL_ENTITY] == "1876"
        assert o[C.FAITHFUL_ANSWER] == o[C.REPLACEMENT_ENTITY] in {"1874", "1881", "1902"}
        assert f"the Great Sioux War of {o[C.FAITHFUL_ANSWER]}, and" in o[C.MODIFIED_CONTEXT]
    # the name is the entity where the answer is the whole name
    o = run(ctx, "Great Sioux War of 1876", spec, bank=bank, question="Which war was it?")
    assert o[C.ENTITY_TYPE] == "EVENT"


def test_a_figure_answer_ner_missed_is_the_entity():
    # "the Woolworth Building (1913)": NER gave the year no entity, and the row had been
    # filtered as no_entity_match
    from faithqa_spark.core.coherent import figure_answer
    from faithqa_spark.core.matching import FIGURE
    bank = SamplingIndex.from_bank({"DATE": ["1908", "1931"], "CARDINAL": ["700", "2,400"],
                                    "FAC": ["the Chrysler Building"]})
    ctx = ("Tall towers include the Woolworth Building (1913), an early gothic skyscraper, "
           "whose lobby holds 900 people.")
    spec = [("the Woolworth Building", "FAC")]
    for question, answer, label in (("In what year was the Woolworth Building completed?",
                                     "1913", "DATE"),
                                    ("How many people does its lobby hold?", "900",
                                     "CARDINAL")):
        o = run(ctx, answer, spec, bank=bank, question=question)
        assert_consistent(o)
        assert (o[C.MATCH_STRATEGY], o[C.ENTITY_TYPE], o[C.ORIGINAL_ENTITY]) == \
            (FIGURE, label, answer)
        assert o[C.MODIFIED_CONTEXT] == ctx.replace(answer, o[C.REPLACEMENT_ENTITY])
        # the paper's policy matches as the paper does
        assert run(ctx, answer, spec, bank=bank, question=question, cfg=PAPER)[C.REASON] \
            == reasons.NO_ENTITY_MATCH
    # a year alone is a year where no amount is asked; any other figure a count
    assert figure_answer("Which was it?", "1913", ctx, ctx.index("1913"), []).label == "DATE"
    assert figure_answer("When?", "900", ctx, ctx.index("900"), []).label == "DATE"
    # no figure alone: a piece of a longer figure or word, an end of a range, a figure in
    # a unit of another, a figure an entity covers
    for text, answer in (("a crowd of 1,900,000 people", "1,900"), ("the A12 road", "12"),
                         ("Hume (1711–1776) wrote", "1711"), ("Hume (1711–1776) wrote", "1776"),
                         ("aged between 23 and 37 years", "37"),
                         ("aged between 23 and 37 years", "23"), ("(200,000/km²)", "200,000"),
                         ("it cost $5 then", "5"), ("the 1990s", "1990"), ("a 12% rise", "12"),
                         ("the fourth man", "fourth")):
        assert figure_answer("When?", answer, text, text.index(answer), []) is None, text
    assert figure_answer("When?", "1913", ctx, ctx.index("1913"),
                         [Entity("1913), an", "DATE", ctx.index("1913"), ctx.index(", an"))]) \
        is None
    assert figure_answer("When?", "1913", ctx, ctx.index("Tall"), []) is None  # not at start


def test_a_scale_word_after_a_takes_another_scale_word():
    # "Over a hundred bird species have gone extinct" had become "Over a four million bird
    # species"
    bank = SamplingIndex.from_bank({"CARDINAL": ["four million", "thousand", "twenty"]})
    ctx = ("Over a hundred bird species have gone extinct in historical times, and many "
           "more are threatened.")
    assert replacements(ctx, "hundred", "CARDINAL", bank, "s", "How many?", rows=8) \
        == {"thousand"}
    # without the "a", a count fits as before
    ctx = "One of the hundred cities was chosen, and the rest were not, that year."
    assert len(replacements(ctx, "hundred", "CARDINAL", bank, "s", "How many?",
                            rows=12)) > 1


def test_an_x_of_y_for_a_law_said_with_its_the_keeps_the_the():
    # "with the updating of the Comics Code achieved moderate success" had become "with the
    # updating of Bill of Rights ...": the pools hold "X of Y" names without their "the"
    bank = SamplingIndex.from_bank({"LAW": ["the Bill of Rights"]})
    ctx = ("Once again, Marvel attempted to diversify, and with the updating of the Comics Code "
           "achieved moderate to strong success with new titles.")
    o = run(ctx, "the Comics Code", [("the Comics Code", "LAW")], bank=bank,
            question="What was updated?")
    assert_consistent(o)
    assert o[C.REPLACEMENT_ENTITY] == "the Bill of Rights"
    assert "with the updating of the Bill of Rights achieved" in o[C.MODIFIED_CONTEXT]


def test_a_range_of_years_keeps_the_context_s_other_years_in_place():
    # "Suleiman the Magnificent (1520–1566) captured Belgrade in 1521" had become
    # "(1908–1922)": the years the context names inside the range stay inside it
    from faithqa_spark.core.arithmetic import years_of_range
    assert years_of_range("1520–1566") == (1520, 1566)
    assert years_of_range("1838–39") == (1838, 1839) and years_of_range("10 to 15") is None
    bank = SamplingIndex.from_bank({"CARDINAL": ["1908–1950", "1505–1552", "1601–1648"]})
    ctx = ("Suleiman the Magnificent (1520–1566) captured Belgrade in 1521 and won at "
           "Mohács in 1526, they say.")
    assert replacements(ctx, "1520–1566", "CARDINAL", bank, "y", rows=8) == {"1505–1552"}
    # ... a preference: with none that keeps them, another range as before
    bank = SamplingIndex.from_bank({"CARDINAL": ["1908–1950", "1601–1648"]})
    assert replacements(ctx, "1520–1566", "CARDINAL", bank, "y", rows=8)


def test_a_range_in_words_takes_a_range_in_words():
    # "for hundreds or thousands of years" had become "for 4500–4000 of years"
    bank = SamplingIndex.from_bank({"CARDINAL": ["4500–4000", "two or three", "tens or hundreds"]})
    ctx = "Roofs and domes have been made from copper for hundreds or thousands of years now."
    assert replacements(ctx, "hundreds or thousands", "CARDINAL", bank, "r") <= {
        "two or three", "tens or hundreds"}


def test_a_figure_always_changes_and_a_round_one_takes_a_round_one():
    # "About 30" had become "Approximately 30": the hedge changed, not the fact
    bank = SamplingIndex.from_bank({"CARDINAL": ["Approximately 30", "around 30", "about 46,226",
                                                 "about 60", "some 319"]})
    ctx = "About 30 delegates attended the first meeting, which was held in the old town hall."
    got = replacements(ctx, "About 30", "CARDINAL", bank, "f", rows=10)
    assert got and not got & {"Approximately 30", "around 30"}, got
    # ... and a round figure takes a round one where one fits ("about 500" never "about 319")
    bank = SamplingIndex.from_bank({"CARDINAL": ["about 319", "about 723", "about 412",
                                                 "about 800", "about 655"]})
    ctx = "About 500 slaves stayed on the island while the rest were sent on to the Cape."
    got = replacements(ctx, "About 500", "CARDINAL", bank, "f", rows=10)
    assert got == {"About 800"}, got
    # ... a whole one for a whole one: "around 40 per cent" had become "approximately 2.4
    # per cent"
    bank = SamplingIndex.from_bank({"PERCENT": ["about 2.4%", "about 7%", "about 1.5%"]})
    ctx = "About 4% of the pupils were girls, the study of the schools found in the end."
    assert replacements(ctx, "About 4%", "PERCENT", bank, "w", rows=10) == {"About 7%"}
    from faithqa_spark.core.arithmetic import round_figure, significant_figures
    assert significant_figures("1,214,516") == 7 and significant_figures("about 30,000") == 1
    assert round_figure("10,000") and round_figure("some 80") and not round_figure("29,029")
    assert not round_figure("42")  # a plain small count is no round figure


def test_a_range_runs_the_way_the_original_runs():
    # "fell from 27% to 8%" had become "fell from 10% to 15%": a fall turned into a rise
    from faithqa_spark.core.arithmetic import direction
    assert direction("27% to 8%") == -1 and direction("10% to 15%") == 1
    assert direction("1838–39") == 1 and direction("3500–3100") == -1 and direction("3–0") == -1
    assert direction("100 to 97") == -1 and direction("about 30") == 0
    bank = SamplingIndex.from_bank({"PERCENT": ["10% to 15%", "21% to 34%", "59% to 41%",
                                                "43% to 13%"]})
    ctx = "Between 1990 and 2010 the share of the poor fell from 27% to 8% in the region."
    got = replacements(ctx, "27% to 8%", "PERCENT", bank, "d", rows=10)
    assert got and got <= {"59% to 41%", "43% to 13%"}, got


def test_a_combining_form_before_a_hyphen_is_a_part_of_its_compound():
    # "an Anglo-Irish philosopher" had become "an Aristotelian-Irish philosopher"
    norps = SamplingIndex.from_bank({"NORP": ["Aristotelian", "British", "Danish"]})
    ctx = ("Proponents include Berkeley, Bishop of Cloyne, an Anglo-Irish philosopher who "
           "advanced a theory he called immaterialism.")
    o = run(ctx, "Anglo", [("Anglo", "NORP")], bank=norps)
    assert o[C.STATUS] == C.FILTERED and o[C.REASON] == reasons.NAME_INSIDE_NAME
    ok = run("Danish settlers came in the ninth century and many of them stayed on the coast.",
             "Danish", [("Danish", "NORP")], bank=norps)
    assert_consistent(ok)


def test_an_organisation_said_with_the_may_lose_it_to_one_said_without():
    # only the few names the corpus says "the" before had fitted an organisation of no kind
    # said with "the", and they were drawn again and again ("condemned by the Ocarina of
    # Time", "the MacBook Air")
    orgs = SamplingIndex.from_bank({"ORG": ["Gallup", "Carrow", "the Wayback Machine"]})
    ctx = ("In 2003 Kerry was rated the Meridian's top Senate liberal; a year later "
           "he was rated so again by the Meridian.")
    got = set()
    for i in range(12):
        o = run(ctx, "the Meridian", [("Meridian", "ORG")], bank=orgs,
                row_id=f"squad:j{i}")
        assert_consistent(o)
        new, mod = o[C.REPLACEMENT_ENTITY], o[C.MODIFIED_CONTEXT]
        got.add(new)
        if new == "Wayback Machine":  # said with "the": it keeps it
            assert "rated the Wayback Machine's top" in mod and o[C.FAITHFUL_ANSWER] == \
                "the Wayback Machine"
        else:
            assert f"rated {new}'s top" in mod and f"again by {new}." in mod
            assert "the " + new not in mod and o[C.FAITHFUL_ANSWER] == new
    assert got & {"Gallup", "Carrow"}
    # the "the" of an acronym, of two names, or of a longer name stays with it
    orgs = SamplingIndex.from_bank({"ORG": ["Gallup", "Carrow", "BBC"]})
    for ctx, entity in (("The report was read by the NJR in 2003 and quoted widely.", "NJR"),
                        ("The report was read by the Meridian and Gazette in 2003.",
                         "Meridian"),
                        ("The trade in pesticides is governed by the Meridian Guidelines of 2003.",
                         "Meridian")):
        for i in range(6):
            o = run(ctx, entity, [(entity, "ORG")], bank=orgs, row_id=f"squad:k{i}")
            assert_consistent(o)
            assert f"by the {o[C.REPLACEMENT_ENTITY]}" in o[C.MODIFIED_CONTEXT]


def test_a_range_of_years_takes_a_range_of_years_and_one_of_counts_one_of_counts():
    # "Under the Qing dynasty (1644–1911)" had become "(211-280)"; "10 to 15" "1987–2005"
    ranges = SamplingIndex.from_bank({"CARDINAL": ["211-280", "1950–1985", "12 to 18"]})
    ctx = "Under the Qing dynasty (1644–1911), the area was known as Jiangning and grew."
    assert replacements(ctx, "1644–1911", "CARDINAL", ranges, "y", rows=6) == {"1950–1985"}
    ctx = "Each of the towns sent 10 to 15 delegates to the assembly at Kelmar that year."
    assert replacements(ctx, "10 to 15", "CARDINAL", ranges, "c", rows=6) <= {"211-280",
                                                                             "12 to 18"}
    assert arithmetic.year_range("1891–92") and not arithmetic.year_range("2,000–3,000")


def test_a_year_after_an_is_read_as_a_year():
    # "an 1830 sonnet" reads "an eighteen-thirty sonnet": a year of the 1800s or 1100s fits
    # it, where a count reads "a 1,830-seat hall" (before, every such row was filtered as
    # no_fitting_replacement)
    from faithqa_spark.core.namekinds import takes_an
    assert takes_an("1830", year=True) and takes_an("1150", year=True)
    assert not takes_an("1830") and not takes_an("1950", year=True)
    dates = SamplingIndex.from_bank({"DATE": ["1848", "1912"]})
    ctx = "The earliest tribute was probably an 1830 sonnet by Leon Ulrich, printed in Paris."
    assert replacements(ctx, "1830", "DATE", dates, "an", rows=4) == {"1848"}
    ctx = "The earliest tribute was probably a 1930 sonnet by Leon Ulrich, printed in Paris."
    assert replacements(ctx, "1930", "DATE", dates, "a", rows=4) == {"1912"}


def test_a_century_keeps_its_hyphen_or_its_lack_of_one():
    # "promoted the unification of Germany in the mid-19th century" had become "in the early
    # 20th-century": the hyphen makes an adjective of it
    dates = SamplingIndex.from_bank({"DATE": ["mid-14th-century", "mid-17th century"]})
    ctx = "Lasker promoted the unification of the duchies in the mid-19th century."
    assert replacements(ctx, "mid-19th century", "DATE", dates, "h", rows=6) == \
        {"mid-17th century"}
    ctx = "The abbey holds mid-19th-century glass from the workshop of the Kelmar brothers."
    assert replacements(ctx, "mid-19th-century", "DATE", dates, "a", rows=6) == \
        {"mid-14th-century"}


def test_a_range_takes_one_of_its_width_and_scale_where_one_fits():
    # "the Third Dynasty of Ur ... (approximately 2100-2000 BC)" had become "(about 1750 to
    # 500 BC)"; "approximately 25 to 50" "as many as 20,000–30,000"
    ranges = SamplingIndex.from_bank({"CARDINAL": ["1271–1368", "1611–1621", "211–1280",
                                                   "20 to 40", "20,000 to 30,000"]})
    ctx = "Under the Qing dynasty (1644–1911), the area was known as Jiangning and grew."
    assert replacements(ctx, "1644–1911", "CARDINAL", ranges, "w", rows=8) == {"1271–1368"}
    ctx = "Each of the towns sent 25 to 50 delegates to the assembly at Kelmar that year."
    assert replacements(ctx, "25 to 50", "CARDINAL", ranges, "s", rows=8) == {"20 to 40"}
    # a preference: with none of its width, another range still fits
    wide = SamplingIndex.from_bank({"CARDINAL": ["1611–1621"]})
    ctx = "Under the Qing dynasty (1644–1911), the area was known as Jiangning and grew."
    assert replacements(ctx, "1644–1911", "CARDINAL", wide, "v", rows=2) == {"1611–1621"}
    assert arithmetic.span("1644–1912") == (268.0, 1912.0)
    assert arithmetic.span("1838–39") == (1.0, 1839.0)  # the second year written short
    assert arithmetic.span("50-50") == (0.5, 50.0) and arithmetic.span("about 30") is None
    assert arithmetic.span("1, 2 and 3") is None


def test_a_person_whose_head_word_names_a_place_a_building_or_an_event_is_made_as_that():
    # NER's PERSON "Mount Lamlam" had read "The highest point is Ernst Stavro Blofeld at 406
    # meters", "John F. Kennedy Stadium" "the Live Aid concert at Tom Robinson"
    from faithqa_spark.core.coherent import _named_thing
    bank = SamplingIndex.from_bank({"PERSON": ["Orvane Kelm", "Ada Quell", "Tomas Brandt"],
                                    "LOC": ["Mount Kelvor", "Dunmore Bay"],
                                    "FAC": ["Kelmar Stadium", "Quell Palace"],
                                    "EVENT": ["Kelmar War"]})
    assert _named_thing("Mount Lamlam") == "LOC"
    assert _named_thing("John F. Kennedy Stadium") == "FAC"  # a given name, then a stadium
    assert _named_thing("Hussite Wars") == "EVENT"
    # a head word that is a surname too leaves a person's name a person's
    for person in ("Glenallen Hill", "W. C. Fields", "William Temple", "Bill Clinton",
                   "Sally Field", "Mungo Park", "Eve"):
        assert _named_thing(person) is None, person
    ctx = ("The island's highest point is Mount Lamlam at 406 meters. Mount Lamlam is "
           "climbed every year.")
    o = run(ctx, "Mount Lamlam", [("Mount Lamlam", "PERSON")], bank=bank,
            question="What is the highest point?")
    assert_consistent(o)
    assert (o[C.ENTITY_TYPE], o[C.REPLACEMENT_ENTITY]) == ("LOC", "Mount Kelvor")
    assert o[C.MODIFIED_CONTEXT].count("Mount Kelvor") == 2
    ctx = "In 1985 the concert was held at John F. Kennedy Stadium before 90,000 people."
    o = run(ctx, "John F. Kennedy Stadium", [("John F. Kennedy Stadium", "PERSON")],
            bank=bank, question="Where was the concert held?")
    assert_consistent(o)
    assert (o[C.ENTITY_TYPE], o[C.REPLACEMENT_ENTITY]) == ("FAC", "Kelmar Stadium")
    # a person stays a person
    ctx = "In 2000 Glenallen Hill hit a ball onto the roof of a building across the street."
    o = run(ctx, "Glenallen Hill", [("Glenallen Hill", "PERSON")], bank=bank,
            question="Who hit the ball?")
    assert_consistent(o)
    assert o[C.ENTITY_TYPE] == "PERSON" and o[C.REPLACEMENT_ENTITY] in ("Orvane Kelm",
                                                                        "Ada Quell",
                                                                        "Tomas Brandt")


def test_an_organisation_of_common_words_only_is_drawn_when_the_corpus_says_it_with_the():
    # "Deep House" (a genre), "Total Recall" (a film), "Department Store" were drawn as
    # organisations for 30 to 50 rows each
    assert entries.generic_org("Deep House") and entries.generic_org("Ocarina of Time")
    # a head word that names a body, or a word no dictionary holds, makes a name a body's
    assert not entries.generic_org("Western Union") and not entries.generic_org("Epic Records")
    assert not entries.generic_org("Kelmar Gazette") and not entries.generic_org("Dunmore")
    bank = SamplingIndex.from_bank({"ORG": ["Deep House", "Boot Camp", "Round Table",
                                            "the Round Table", "the Open Road",
                                            "Western Union", "Kelmar Records", "Dunmore"]})
    assert set(bank.pool("ORG", ANY)[0]) == {"Round Table", "the Round Table", "the Open Road",
                                             "Western Union", "Kelmar Records", "Dunmore"}


def test_a_common_word_that_ner_took_for_a_product_is_refused():
    # "the Beagle expedition" had become "the GameCube expedition", "the Age of Discovery"
    # "the Age of PlayStation Plus"
    bank = SamplingIndex.from_bank({"PRODUCT": ["Kelvor 9", "Dunmore X2", "Quellbook"]})
    ctx = "In December 1831 he joined the Beagle expedition as a naturalist."
    o = run(ctx, "Beagle", [("Beagle", "PRODUCT")], bank=bank,
            question="Which expedition did he join?")
    assert o[C.STATUS] == C.FILTERED and o[C.REASON] == reasons.MALFORMED_ENTITY
    # a product's own name is swapped
    ctx = "In 2009 the firm released the Zelvox 3, its first phone with a keyboard."
    o = run(ctx, "Zelvox 3", [("Zelvox 3", "PRODUCT")], bank=bank,
            question="What did the firm release?")
    assert_consistent(o)
    assert o[C.REPLACEMENT_ENTITY] in ("Kelvor 9", "Dunmore X2", "Quellbook")


def test_an_era_marker_is_no_name():
    # NER's ORG "BCE" in "the 3rd century BCE" had become "the 3rd century UNESCO" (35 rows of
    # SQuAD train), and "BC" was drawn for "NATO": "the predecessor to BC"
    for era in ("BCE", "BC", "CE", "AD", "A.D.", "B.C."):
        assert not entries.well_formed("ORG", era) and not entries.drawable("ORG", era), era
    assert entries.well_formed("ORG", "BCE Inc") and entries.well_formed("ORG", "NATO")
    bank = SamplingIndex.from_bank({"ORG": ["OECD", "UNESCO", "BC"]})
    ctx = "Indian influence in the region dates back to at least the 3rd century BCE."
    o = run(ctx, "BCE", [("BCE", "ORG")], bank=bank,
            question="How far back does the influence date?")
    assert o[C.STATUS] == C.FILTERED and o[C.REASON] == reasons.MALFORMED_ENTITY
    assert "BC" not in bank.pool("ORG", ANY)[0]


def test_a_city_or_a_state_takes_one_of_its_own_country_first():
    # "The U.S. used atomic bombs on Hiroshima and Nagasaki" had become "... on Washington
    # and Nagasaki", for the question's "two Japanese cities"
    # ... then one of its continent ("born in Budapest, Kingdom of Hungary" had become "born
    # in Kyoto, ..."); a state named for its city is that city too
    assert entries.fit_keys("GPE", "Hiroshima") == ["state:JP", "city:JP", "state@AS",
                                                    "city@AS", "state", "city"]
    assert entries.fit_keys("GPE", "Rangoon") == ["city:MM", "city@AS", "city"]  # English
    assert entries.fit_keys("GPE", "London") == ["city:GB", "city@EU", "city"]  # the biggest
    assert entries.fit_keys("GPE", "Nevada") == ["state:US", "state@NA", "state"]
    assert entries.fit_keys("GPE", "Punjab") == ["state"]  # two countries' province
    # ... a name of states of two countries, one ten times as populous, is that one's
    assert entries.fit_keys("GPE", "Florida")[0] == "state:US"  # not Uruguay's
    bank = SamplingIndex.from_bank({"GPE": ["Osaka", "Seattle", "Denver", "Toulouse",
                                            "Marseille", "Boston"]})
    ctx = ("The U.S. used atomic bombs on Hiroshima and Nagasaki to end the war. Hiroshima "
           "was rebuilt after it.")
    found = replacements(ctx, "Hiroshima", "GPE", bank, "hiro",
                         question="Which two Japanese cities were hit?")
    assert found == {"Osaka"}
    ctx = "The bank moved its offices from Lyon to Paris in 1921."
    assert replacements(ctx, "Lyon", "GPE", bank, "lyon") <= {"Toulouse", "Marseille"}
    # none of the country: one of the continent (Osaka, a prefecture and its city, for
    # Rangoon), before any other
    assert replacements(ctx.replace("Lyon", "Rangoon"), "Rangoon", "GPE", bank, "rang") == {
        "Osaka"}
    ctx = "Von Neumann was born in Budapest, then a city of the Kingdom of Hungary, in 1903."
    assert replacements(ctx, "Budapest", "GPE", bank, "buda") == {"Toulouse", "Marseille"}
    bank = SamplingIndex.from_bank({"GPE": ["Seattle", "Denver"]})
    assert replacements(ctx, "Budapest", "GPE", bank, "buda") <= {"Seattle", "Denver"}
    # a state named for its city said as a city: a city of its country first, never a
    # state said as the city ("downtown Nevada")
    bank = SamplingIndex.from_bank({"GPE": ["Kyoto", "Chicago", "Nevada"]})
    ctx = "Little Boy was detonated over the Japanese city of Hiroshima in August 1945."
    assert replacements(ctx, "Hiroshima", "GPE", bank, "jc") == {"Kyoto"}
    ctx = "The National Archives Building in downtown Washington holds the census records."
    assert replacements(ctx, "Washington", "GPE", bank, "dc") == {"Chicago"}


def test_a_sports_team_takes_a_team():
    # "the Grand Rapids Rampage, ... and the New York Dragons did not return" had become
    # "... and the NFL Network did not return"
    for team in ("New York Dragons", "Carolina Hurricanes", "Chicago Cubs",
                 "Seattle SuperSonics", "Toronto Maple Leafs"):
        assert entries.team_name(team), team
    for other in ("Texas Instruments", "SBC Communications", "Bear Stearns", "NFL Network",
                  "Boston University", "Chicago Tribune", "Manchester United"):
        assert not entries.team_name(other), other
    assert entries.TEAM in entries.fit_keys("ORG", "New York Dragons")
    bank = SamplingIndex.from_bank({"ORG": ["Denver Kestrels", "Boston Herons",
                                            "Kelmar Network", "Dunmore Arcade Live"]})
    ctx = ("The Colorado Crush and the New York Dragons did not return for the 2011 season, "
           "and the New York Dragons folded.")
    assert replacements(ctx, "New York Dragons", "ORG", bank, "team") <= {
        "Denver Kestrels", "Boston Herons"}


_PARALLEL = ("In June 1950 the North Koreans crossed the 38th parallel with tanks and took the "
             "capital within three days.")


def test_a_people_after_a_compass_word_is_part_of_a_longer_name():
    # "Some South Africans", for the entity "Africans", had become "Some South Latin
    # Americans"
    bank = SamplingIndex.from_bank({"NORP": ["Bolivians", "Latin Americans", "Danes"]})
    ctx = ('The laws define "Black" people to include "Africans" and "Asians". Some South '
           'Africans say that they suffered more.')
    o = run(ctx, "Africans", [("Africans", "NORP")], bank=bank,
            question="Who is included?")
    assert o[C.STATUS] == C.FILTERED and o[C.REASON] == reasons.NAME_INSIDE_NAME
    # ... even at a sentence's start
    o = run("North Koreans crossed the river. The Koreans fled.", "Koreans",
            [("Koreans", "NORP")], bank=bank, answer_start=len("North Koreans crossed the "
                                                               "river. The "))
    assert o[C.STATUS] == C.FILTERED and o[C.REASON] == reasons.NAME_INSIDE_NAME
    # a people's own compass word is the name's
    o = run(_PARALLEL, "North Koreans", [("North Koreans", "NORP")], bank=bank,
            question="Who crossed it?")
    assert_consistent(o)


def test_the_people_of_a_state_are_swapped_for_another_state_s():
    # "North Koreans" had become "North Carolinians"
    assert entries.fit_keys("NORP", "Texans")[0] == "plural|state"
    assert entries.fit_keys("NORP", "North Carolinians")[0] == "plural|state"
    assert entries.fit_keys("NORP", "New Yorkers")[0] == "plural|state"
    assert entries.fit_keys("NORP", "Californian")[0] == "adj|state"
    for people in ("North Koreans", "Georgians", "Americans", "Indians", "Romans"):
        assert entries.fit_keys("NORP", people)[0] == "plural|people", people
    bank = SamplingIndex.from_bank({"NORP": ["North Carolinians", "Bolivians", "Virginians"]})
    assert replacements(_PARALLEL, "North Koreans", "NORP", bank, "nk",
                        question="Who crossed it?") == {"Bolivians"}
    ctx = "Most Texans voted for the measure in 1845, and it passed by a wide margin that year."
    assert replacements(ctx, "Texans", "NORP", bank, "tx") <= {"North Carolinians",
                                                                "Virginians"}


def test_an_organisation_whose_name_says_no_kind_draws_famous_names_before_obscure_ones(monkeypatch):
    # a small bank: its pools of one story are drawn first however few (`MIN_OBSCURE`)
    monkeypatch.setattr("faithqa_spark.core.coherent.MIN_OBSCURE", 1)
    # the bank's unclassed organisations of one article were mostly NER's errors ("Bois de
    # Vincennes", "Xbox Live Arcade"): 132 of them had replaced 2,402 SQuAD train rows
    from faithqa_spark.core.coherent import _pools_in_order
    bank = {"ORG": ["Kelmar Arcade", "Dunmore Vale", "Quell Varnam", "Orvane Hall Trust",
                    "Northwind Society"]}
    index = SamplingIndex.from_bank(bank).knowing_famous(
        {"ORG": frozenset({"Quell Varnam", "Northwind Society"})})
    key = entries.MANY_WORDS
    pools = _pools_in_order(index, "ORG", key, ["Dunmore Vale"], "Tamar Ostia")
    assert [list(p[0]) for p in pools] == [["Dunmore Vale"], ["Quell Varnam"],
                                           ["Dunmore Vale", "Kelmar Arcade"]]
    pools = _pools_in_order(index, "ORG", key, None, "Tamar Ostia")
    assert [list(p[0]) for p in pools] == [["Quell Varnam"], ["Dunmore Vale", "Kelmar Arcade"]]
    # a kind of organisation draws the obscure names first, then the whole pool
    body = _pools_in_order(index, "ORG", "body", None, "Tamar Society")
    assert [list(p[0]) for p in body] == [["Orvane Hall Trust"],
                                          ["Northwind Society", "Orvane Hall Trust"]]


def test_an_article_s_own_figure_replaces_only_another_such(monkeypatch):
    # "Beyoncé was featured on Lady Gaga's single" had become "... Etta James's single":
    # a person the article names in many paragraphs (up to `nearby.MAX_WEIGHT` times in its
    # list) is drawn from its story only for another such, never for a passing name
    monkeypatch.setattr("faithqa_spark.core.coherent.MIN_OBSCURE", 1)
    from faithqa_spark.core.coherent import _pools_in_order
    people = ["Etta James", "Tina Knowles", "Mira Holt", "Dana Vell", "Jesus Christ"]
    index = SamplingIndex.from_bank({"PERSON": people}).knowing_famous(
        {"PERSON": frozenset({"Jesus Christ"})})  # several articles name him
    local = sorted(["Etta James"] * 3 + ["Tina Knowles"] * 3 + ["Mira Holt", "Dana Vell"])
    story = _pools_in_order(index, "PERSON", "2", local, "Lara Gaines")[0][0]
    assert set(story) == {"Mira Holt", "Dana Vell"}
    story = _pools_in_order(index, "PERSON", "2", local, "Tina Knowles")[0][0]
    assert set(story) == {"Etta James", "Tina Knowles", "Mira Holt", "Dana Vell"}


def test_a_pool_with_few_names_of_one_story_is_drawn_from_whole():
    # "International Association for the Study of Pain", the one association of SQuAD train
    # that a single article names, had replaced 91 ("the Football Association is the
    # governing body ..."): so few obscure names are no pool of their own
    from faithqa_spark.core import coherent
    from faithqa_spark.core.coherent import _pools_in_order
    famous = [f"Association of {c}ville" for c in "ABCDEFGHIJ"]
    bank = {"ORG": [*famous, "Pain Study Association"]}
    index = SamplingIndex.from_bank(bank).knowing_famous({"ORG": frozenset(famous)})
    key = "head:association"
    assert len(index.obscure_pool("ORG", key)[0]) == 1 < coherent.MIN_OBSCURE
    pools = _pools_in_order(index, "ORG", key, None, "Tamar Association")
    assert [len(p[0]) for p in pools] == [11]
    # ... while a pool of enough such names is drawn first, as before
    obscure = [f"Guild Association of {c}ton" for c in "KLMNOPQRST"]
    index = SamplingIndex.from_bank({"ORG": [*famous, *obscure]}).knowing_famous(
        {"ORG": frozenset(famous)})
    pools = _pools_in_order(index, "ORG", key, None, "Tamar Association")
    assert [len(p[0]) for p in pools] == [10, 20]


def test_places_monarchs_and_product_lines_filed_as_organisations_are_not_drawn():
    # "the director of the MacBook Air (W3C)", "Uttar Pradesh" and "Philip II" as ORG
    products = frozenset({"macbook", "xbox", "windows"})
    for misfiled in ("Uttar Pradesh", "Lyon", "Philip II", "MacBook Air", "the Xbox Live",
                     # a product line after its maker, a person with a particle or an
                     # epithet ("The Microsoft Windows covered most of North America")
                     "Microsoft Windows", "Hernando de Soto", "Conan the Barbarian"):
        assert entries.misfiled_org(misfiled, products), misfiled
    for org in ("Goldman Sachs", "Real Madrid", "Xbox Division Inc.", "NATO",
                "University of Texas", "Bank of America", "Banco de Bogotá",
                "Windows Media Group"):
        assert not entries.misfiled_org(org, products), org
    index = SamplingIndex.from_bank({"ORG": ["Uttar Pradesh", "Philip II", "MacBook Air",
                                             "Goldman Sachs", "Kelmar Guild"],
                                     "PRODUCT": ["MacBook Pro", "the Zelvox 3"]})
    assert set(index.pool("ORG", ANY)[0]) == {"Goldman Sachs", "Kelmar Guild"}



def test_a_short_form_in_another_order_or_language_becomes_the_replacement_s_initials():
    # "The New York City Fire Department (FDNY)" had become "The Department of the Air Force
    # (FDNY)", and "the Congolese Labour Party (PCT)" (French initials) "the Communist Party
    # of Ukraine (PCT)"
    from faithqa_spark.core.names import short_form_after
    for ctx, name, short in (
            ("The Kelmar City Rowing Board (RBKC) met.", "Kelmar City Rowing Board", "RBKC"),
            ("the Kelmar Rowing League (LAK) met.", "Kelmar Rowing League", "LAK")):
        assert short_form_after(ctx, name, [ctx.index(name) + len(name)]) == short, name
    # a one-word name's capitals in brackets are no short form of it: "Rwanda (ICTR)"
    ctx = "the tribunal for Dunmore (ICTR) sat in Arusha."
    assert short_form_after(ctx, "Dunmore", [ctx.index("Dunmore") + 7]) is None
    orgs = SamplingIndex.from_bank({"ORG": ["Harbour Hockey League", "Orvane Sailing League"]})
    ctx = ("The Kelmar Rowing League (LAK) was founded by six clubs. Since then the LAK "
           "has run the spring regatta, and LAK crews train on the lake.")
    o = run(ctx, "Kelmar Rowing League", [("Kelmar Rowing League", "ORG")], bank=orgs)
    assert_consistent(o)
    rep, mod = o[C.REPLACEMENT_ENTITY], o[C.MODIFIED_CONTEXT]
    short = "".join(w[0] for w in rep.split())
    assert f"{rep} ({short})" in mod and "LAK" not in mod and mod.count(short) == 3


def test_a_street_s_and_a_prize_giving_s_head_word_says_what_they_are():
    # "16 Portland Place, London" had become "16 ETH Zurich, London", "Seminary Row ... runs
    # by two seminaries" "Boston College ...", "earned two Grammy Awards" "earned two
    # Pantokrator"
    from faithqa_spark.core import namekinds
    for street in ("Portland Place", "Seminary Row", "Savile Row", "Kelmar Terrace"):
        assert namekinds.name_class(street) == "street", street
    assert namekinds.name_class("Grammy Awards") == "awards"
    # a head word at the end before one at the start; a head word anywhere still counts
    assert namekinds.name_class("University Gazette") == "press"
    assert namekinds.name_class("Seminary of Kelmar") == "edu"
    assert namekinds.name_class("Place de la Concorde") == "name"
    bank = SamplingIndex.from_bank({"ORG": ["Kelmar Avenue", "Dunmore Institute",
                                            "Orvane Records"]})
    ctx = ("In 1934 the studio moved to larger quarters in 16 Portland Place, London, and it "
           "stayed there for years.")
    assert replacements(ctx, "Portland Place", "ORG", bank, "st",
                        question="Where did the studio move?") == {"Kelmar Avenue"}


def test_a_country_the_context_places_in_a_region_takes_one_of_that_region():
    # "Greece has the largest economy in the Balkans" had become "Great Britain has ..."
    from faithqa_spark.core import namekinds
    assert namekinds.named_region("the largest economy in the Balkans", "Greece") == \
        frozenset("ALB BIH BGR HRV GRC MNE MKD ROU SRB SVN XKX".split())
    assert namekinds.named_region("the largest economy in the Balkans", "France") is None
    assert namekinds.named_region("no region named here", "Greece") is None
    bank = SamplingIndex.from_bank({"GPE": ["Portugal", "Belgium", "Croatia", "Austria"]})
    ctx = ("Greece has the largest economy in the Balkans and is an important regional "
           "investor. Greece was the largest foreign investor in Albania in 2013.")
    assert replacements(ctx, "Greece", "GPE", bank, "bk",
                        question="What was Albania's largest foreign investor?") == {"Croatia"}
    # a preference, not a rule: with no country of the region, another country
    bank = SamplingIndex.from_bank({"GPE": ["Portugal", "Belgium"]})
    assert replacements(ctx, "Greece", "GPE", bank, "bk2") <= {"Portugal", "Belgium"}


def test_a_score_glued_to_a_team_is_malformed_and_a_title_of_a_law_is_a_law():
    # "Real Madrid won the second leg, beating Barcelona 11–1" had become "... beating
    # Athletic Bilbao", the score gone with NER's ORG
    for text in ("Barcelona 11–1", "Sevilla FC 5–4", "Arsenal 2-0"):
        assert not entries.well_formed("ORG", text), text
    assert entries.well_formed("ORG", "Apollo 11") and entries.well_formed("EVENT", "Super Bowl 50")
    # "a Title IX complaint was filed" (NER's ORG) had become "a USA Today complaint"
    from faithqa_spark.core.namekinds import name_class
    assert name_class("Title IX") == name_class("Civil Rights Act") == "law"
    bank = SamplingIndex.from_bank({"ORG": ["USA Today", "Yale Daily"],
                                    "LAW": ["Civil Rights Act"]})
    ctx = "In March 2011 a Title IX complaint was filed against the university by students."
    o = run(ctx, "Title IX", [("Title IX", "ORG")], bank=bank,
            question="What complaint was filed?")
    assert_consistent(o)
    assert o[C.REPLACEMENT_ENTITY] == "Civil Rights Act"


def test_a_party_by_its_one_word_is_a_party():
    # "The 19th-century Liberal Prime Minister" (NER's ORG "Liberal") had become "The
    # 19th-century Iliad Prime Minister", "Labour" "Hillsborough"
    from faithqa_spark.core.namekinds import name_class
    for word in ("Labour", "Liberal", "Whigs", "Tory"):
        assert name_class(word) == "party", word
    assert name_class("Green Party") == "party"
    assert name_class("Confederacy") == name_class("Powhatan Confederacy") == "polity"
    bank = SamplingIndex.from_bank({"ORG": ["Green Party", "Hillsborough", "Normandy"]})
    ctx = "The 19th-century Liberal Prime Minister William Gladstone admired Burke."
    o = run(ctx, "Liberal", [("Liberal", "ORG"), ("William Gladstone", "PERSON")],
            bank=bank, question="What party was Gladstone in?")
    assert_consistent(o)
    assert o[C.REPLACEMENT_ENTITY] == "Green Party"


def test_a_city_named_before_its_us_state_takes_one_of_that_state():
    # "In 1565 the Spaniards founded St. Augustine, Florida" had become "... founded Los
    # Angeles, Florida"
    from faithqa_spark.core.namekinds import city_state, us_state
    assert city_state("Chicago") == "US-IL" and city_state("Paris") is None
    assert us_state("Florida") == "US-FL" and us_state("Ontario") is None
    bank = SamplingIndex.from_bank({"GPE": ["Chicago", "Denver", "Dallas", "Lyon"]})
    ctx = "Born and raised in Houston, Texas, she sang in local talent shows as a child."
    assert replacements(ctx, "Houston", "GPE", bank, "tx") == {"Dallas"}
    # ... with none of the state, one of the country before any other
    ctx = "Born and raised in Houston, Ohio, she sang in local talent shows as a child."
    assert replacements(ctx, "Houston", "GPE", bank, "oh") <= {"Chicago", "Denver", "Dallas"}
    # ... and so a city named before its country ("Dublin, Ireland" had become "Dublin,
    # Switzerland"; Dublin is an Irish county too)
    bank = SamplingIndex.from_bank({"GPE": ["Geneva", "Cork", "Boston"]})
    ctx = "Its history can be traced to Dublin, Ireland, in the late 1820s, they say."
    assert replacements(ctx, "Dublin", "GPE", bank, "ie") == {"Cork"}
    # a state of a list is no city's state: "Washington, Alaska, Montana, and Idaho"
    ctx = "It is the referral center for Washington, Alaska, Montana, and Idaho, they say."
    from faithqa_spark.core.coherent import mentions, said_as, state_after
    regions = mentions(ctx, "Alaska", "GPE")
    assert said_as(ctx, regions, "Alaska") is None and state_after(ctx, regions) is None


def test_a_us_city_whose_state_the_context_names_takes_a_city_of_that_state_first():
    # "Florida High Speed Rail ... would have connected Miami, Orlando, and Tampa" had
    # become "... and New York City"
    from faithqa_spark.core.coherent import mentions, state_named
    from faithqa_spark.core.namekinds import us_state_name
    assert us_state_name("US-FL") == "Florida" and us_state_name("XX") is None
    ctx = ("Florida High Speed Rail was a proposed system that would have connected Miami, "
           "Orlando, and Tampa, they say.")
    assert state_named(ctx, "Tampa", mentions(ctx, "Tampa", "GPE")) == "US-FL"
    bank = SamplingIndex.from_bank({"GPE": ["Jacksonville", "Houston", "Denver", "Chicago",
                                            "Seattle", "Boston"]})
    assert replacements(ctx, "Tampa", "GPE", bank, "fl") == {"Jacksonville"}
    # ... where the state is named outside the city's own name, with its capital
    ctx = "New York City grew fast; New York City is big, and florida is lower-case here."
    assert state_named(ctx, "New York City", mentions(ctx, "New York City", "GPE")) is None
    # ... and with no state named, any city of the country, as before
    ctx = "The system would have connected Miami, Orlando, and Tampa, they say, by rail."
    assert state_named(ctx, "Tampa", mentions(ctx, "Tampa", "GPE")) is None
    assert len(replacements(ctx, "Tampa", "GPE", bank, "fl", rows=12)) > 1


def test_a_body_that_names_a_country_takes_one_of_that_country_or_of_none():
    # "In 1976 the High Court of Australia held that Norfolk Island is a part of the
    # Commonwealth" had become "... the United States Court of Appeals held ..."
    from faithqa_spark.core.namekinds import countries_in
    assert countries_in("High Court of Australia") == {"AUS"}
    assert countries_in("Bank of England") == {"GBR"} and not countries_in("Court of Appeal")
    bank = SamplingIndex.from_bank({"ORG": ["United States Court of Appeals",
                                            "Supreme Court of Canada", "Court of Appeal"]})
    ctx = ("In 1976 the High Court of Australia held unanimously that Norfolk Island is a "
           "part of the Commonwealth.")
    got = {o[C.REPLACEMENT_ENTITY] for o in made_rows(
        ctx, "the High Court of Australia", [("High Court of Australia", "ORG")], bank, "hc",
        "Who decided it?")}
    assert got == {"Court of Appeal"}


def test_an_ordinal_word_is_an_entity_and_a_fixed_term_keeps_its_ordinal():
    # "first" and "third" are function words, and were refused as left dangling
    assert entries.well_formed("ORDINAL", "third") and entries.well_formed("ORDINAL", "first")
    bank = SamplingIndex.from_bank({"ORDINAL": ["first", "second", "third", "fourth", "fifth",
                                                "sixth"]})
    assert not entries.drawable("ORDINAL", "first")  # "the first largest city"
    ctx = "A 2014 report placed the city third in the world university rankings."
    got = {o[C.REPLACEMENT_ENTITY] for o in made_rows(ctx, "third", [("third", "ORDINAL")],
                                                        bank, "ord")}
    assert got and got <= {"second", "fourth", "fifth", "sixth"}
    # a fraction after "a" is never "a second"
    ctx = "Exported services amount to a third of exports, the bank said."
    got = {o[C.REPLACEMENT_ENTITY] for o in made_rows(ctx, "third", [("third", "ORDINAL")],
                                                        bank, "frac")}
    assert got and got <= {"fourth", "fifth", "sixth"}
    # "first-world countries", "third-party developers", "the third person": fixed terms
    for ctx, ordinal in (("In most first-world countries, eating insects is taboo.", "first"),
                         ("It never courted third-party developers at all.", "third"),
                         ("The story is narrated in the third person throughout.", "third")):
        o = run(ctx, ordinal, [(ordinal, "ORDINAL")], bank=bank)
        assert (o[C.STATUS], o[C.REASON]) == (C.FILTERED, reasons.NAME_INSIDE_NAME), ctx
    # NER's ORDINAL that is no ordinal: a unit of time, an adverb
    for ctx, ordinal in (("Film is projected at a rate of 24 frames per second.", "second"),
                         ("When Sanskrit was written down, it was first used for texts.",
                          "first"),
                         ("The lockout chip would reset the console once per second.",
                          "second")):
        o = run(ctx, ordinal, [(ordinal, "ORDINAL")], bank=bank)
        assert (o[C.STATUS], o[C.REASON]) == (C.FILTERED, reasons.MALFORMED_ENTITY), ctx
    # ... but an ordinal after "was" before a noun is one: "he was third overall"
    ctx = "In the final standings he was third overall, behind two Kenyans."
    assert_consistent(run(ctx, "third", [("third", "ORDINAL")], bank=bank))


def test_a_name_the_context_also_writes_in_lower_case_is_a_common_word():
    bank = SamplingIndex.from_bank({"PERSON": ["Peng Dehuai", "John Marshall"],
                                    "LOC": ["Sahara", "Siberia"]})
    ctx = ("The Order was awarded for Gallantry from 1940. The grade was set by the same "
           "criteria as usual, and not by the level of gallantry.")
    o = run(ctx, "Gallantry", [("Gallantry", "PERSON")], bank=bank)
    assert (o[C.STATUS], o[C.REASON]) == (C.FILTERED, reasons.MALFORMED_ENTITY)
    ctx = "The Mediterranean coast has a mild, mediterranean climate all year."
    o = run(ctx, "Mediterranean", [("Mediterranean", "LOC")], bank=bank)
    assert (o[C.STATUS], o[C.REASON]) == (C.FILTERED, reasons.MALFORMED_ENTITY)
    # written with its capital throughout, the same name is swapped
    ctx = "The Mediterranean coast has a mild climate; the Mediterranean is warm."
    assert_consistent(run(ctx, "Mediterranean", [("Mediterranean", "LOC")], bank=bank))


@pytest.mark.parametrize("original, cand, same", [
    ("around ten years", "about ten years", True), ("over half", "more than half", True),
    ("only a few months", "just a few months", True), ("the 1990s", "1990s", True),
    ("late 1850s", "mid 1850s", False), ("about ten years", "ten years", False),
    ("around ten years", "about six years", False), ("over half", "up to half", False),
])
def test_a_hedge_of_the_same_kind_alone_changes_no_fact(original, cand, same):
    from faithqa_spark.core import shapes
    from faithqa_spark.core.coherent import _hedge_alone
    assert _hedge_alone((shapes.core(original), shapes.hedge(original)), cand) is same


def test_a_duration_in_words_takes_another_figure_not_another_hedge():
    bank = SamplingIndex.from_bank({"DATE": ["about ten years", "some six years",
                                             "nearly ten years"]})
    ctx = "Alcoholism often reduces a person's life expectancy by around ten years."
    for o in made_rows(ctx, "around ten years", [("around ten years", "DATE")], bank, "hedge"):
        assert o[C.REPLACEMENT_ENTITY] == "some six years"


@pytest.mark.parametrize("label, exact, vague", [
    ("DATE", "six years", "many years"), ("DATE", "nine days", "several days"),
    ("DATE", "two years later", "several years later"), ("CARDINAL", "twenty-four", "few dozens"),
    ("CARDINAL", "two or three", "thousands or millions"), ("TIME", "ten seconds", "several seconds"),
    ("QUANTITY", "three miles", "several miles"),
])
def test_an_amount_with_a_figure_never_takes_one_without(label, exact, vague):
    # "nominated for the Emmy for nine years" had become "for many years": the question's
    # "How many times ...?" was answered "many"
    assert entries.vague_amount(vague) and not entries.vague_amount(exact)
    exact_pools = set(entries.draw_keys(label, exact))
    assert not exact_pools & set(entries.fit_keys(label, vague))
    bank = SamplingIndex.from_bank({label: [vague, exact]})
    assert not any(vague in pool for key in exact_pools for pool in bank.pool(label, key))


def test_a_year_at_one_end_of_a_range_stays_near_its_other_end():
    # "The Fed raised the rate between July 2004 and July 2006" had become "between October
    # 1853 and July 2006", "fought between 1959 and 1975" "between 1917 and 1975"
    from faithqa_spark.core.coherent import _range_end
    ctx = "The war was fought between 1959 and 1975 on the ground in the south of the country."
    at = ctx.index("1959")
    assert _range_end(ctx, [(at, at + 4, "=")]) == 1975
    at = ctx.index("1975")
    assert _range_end(ctx, [(at, at + 4, "=")]) == 1959
    pair = "In 1348 and 1349 the plague reached the ports of the kingdom."
    assert _range_end(pair, [(3, 7, "=")]) is None  # two years, no range
    bank = SamplingIndex.from_bank({"DATE": ["1917", "1913", "1944", "1921"]})
    got = replacements(ctx, "1959", "DATE", bank, "end", question="When did the war begin?")
    assert got == {"1944"}


def test_a_name_whose_death_or_father_the_context_names_is_a_person_s():
    # NER's ORG "Mercury": "a song dedicated to Disney ... since Disney's death" read wrong
    from faithqa_spark.core.coherent import said_of_a_person
    ctx = ("The song was dedicated to Mercury and all those that die too soon. It was the "
           "band's first concert since Mercury's death.")
    assert said_of_a_person(ctx, "Mercury") and said_of_a_person(ctx, "Mercury's")
    assert not said_of_a_person("Mercury's orbit is the smallest.", "Mercury")
    assert not said_of_a_person("the firm's death spiral", "firm")  # no name
    bank = SamplingIndex.from_bank({"ORG": ["Kelmar Records", "Disney"],
                                    "PERSON": ["Orvane Kelm", "Ada Quell"]})
    for o in made_rows(ctx, "Mercury", [("Mercury", "ORG")], bank, "kin",
                       question="Who was the song dedicated to?"):
        assert o[C.ENTITY_TYPE] == "PERSON"
        assert o[C.REPLACEMENT_ENTITY] in ("Orvane Kelm", "Ada Quell")


def test_an_organisation_said_before_a_place_s_head_word_is_made_a_place():
    # NER's ORG "Maycomb" in "Maycomb County" had become "Blu-ray County"
    from faithqa_spark.core.coherent import place_before_head
    ctx = "The trial was held in Maycomb County. Maycomb was a quiet town then."
    assert place_before_head(ctx, "Maycomb", "ORG")
    assert not place_before_head("Shares of Maycomb Holdings fell.", "Maycomb", "ORG")
    assert not place_before_head(ctx, "Maycomb", "GPE")  # a place already
    bank = SamplingIndex.from_bank({"ORG": ["Blu-ray", "Kelmar Gazette"],
                                    "GPE": ["Dover", "Leeds", "Barnsley"]})
    for o in made_rows(ctx, "Maycomb", [("Maycomb", "ORG")], bank, "county",
                       question="Where was the trial held?"):
        assert o[C.ENTITY_TYPE] == "GPE" and o[C.REPLACEMENT_ENTITY] in ("Dover", "Leeds",
                                                                        "Barnsley")


def test_a_span_of_time_without_a_figure_may_take_one_with_a_figure():
    # "only a few months" may become "up to six months" (the other way is refused above)
    bank = SamplingIndex.from_bank({"DATE": ["up to six months", "several years"],
                                    "TIME": ["five minutes"]})
    ctx = "The colonists stayed only a few months before the fever drove them back to the coast."
    for o in made_rows(ctx, "only a few months", [("only a few months", "DATE")], bank, "few"):
        assert o[C.REPLACEMENT_ENTITY] == "up to six months"
    ctx = "The engine ran for several minutes before the valve failed in the test."
    for o in made_rows(ctx, "several minutes", [("several minutes", "TIME")], bank, "min"):
        assert o[C.REPLACEMENT_ENTITY] == "five minutes"


def test_a_country_s_people_word_that_is_no_stem_s_is_swapped_with_it():
    from faithqa_spark.core.coherent import people_pieces, places_of_people
    norps = frozenset({"French", "Spanish", "Mexican", "Mexicans", "German", "Germans"})
    # an irregular word takes the new place's adjective, or its plural said of the people
    assert people_pieces("Mexico", [(0, 0, "="), (0, 0, "=s")], norps) == ["Mexican",
                                                                            "Mexicans"]
    assert people_pieces("Spain", [(0, 0, "=s"), (0, 0, "an")], norps) == ["Spanish",
                                                                           "Spanish"]
    assert people_pieces("Lagos", [(0, 0, "=")], norps) is None
    bank = SamplingIndex.from_bank({"GPE": ["Spain", "Lagos", "Germany"],
                                    "NORP": ["French", "Spanish", "German", "Germans",
                                             "Portuguese"]})
    assert "French" not in places_of_people(bank)  # the bank holds no France
    ctx = ("The loss of France's ally in Bengal ended French power in India. The French "
           "were gone by 1765; British Columbia and French Guiana were far away.")
    spec = [("France", "GPE"), ("French", "NORP"), ("Bengal", "GPE"), ("India", "GPE"),
            ("British Columbia", "GPE"), ("French Guiana", "GPE")]
    got = set()
    for o in made_rows(ctx, "France", spec, bank, "irr", question="Whose ally was lost?"):
        mod, new = o[C.MODIFIED_CONTEXT], o[C.REPLACEMENT_ENTITY]
        got.add(new)
        people = {"Spain": ("Spanish", "Spanish"), "Germany": ("German", "Germans")}[new]
        assert f"ended {people[0]} power in India. The {people[1]} were gone" in mod
        assert "French Guiana" in mod  # a place's own name keeps its word
    assert "Lagos" not in got  # the one without a people word is not preferred
    # a people word's place that is no stem's: "Portuguese ... Portugal" -> "French ... France"
    bank = SamplingIndex.from_bank({"GPE": ["France", "Portugal"],
                                    "NORP": ["French", "Portuguese"]})
    assert places_of_people(bank)["Portuguese"] == "Portugal"
    ctx = "Portugal was long a land of emigration: most Brazilians have Portuguese ancestry."
    for o in made_rows(ctx, "Portuguese", [("Portugal", "GPE"), ("Portuguese", "NORP")],
                       bank, "port", question="What ancestry do most Brazilians have?"):
        assert o[C.MODIFIED_CONTEXT].startswith("France was long a land of emigration")


def test_a_year_before_christ_keeps_the_context_s_order_of_bc_years():
    # "founded a fort in 495 BC. Later in 473 BC, the State of Yue conquered Wu" had become
    # "Later in 937 BC": a plain number said with BC keeps the other BC years' order
    bank = SamplingIndex.from_bank({"CARDINAL": ["937", "612", "480", "460", "3,500"]})
    ctx = ("Fuchai, King of Wu, founded a fort named Yecheng in 495 BC. Later in 473 BC, "
           "the State of Yue conquered Wu and built a fort of its own.")
    assert replacements(ctx, "473", "CARDINAL", bank, "bc", rows=8) == {"480", "460"}
    # the same number of things, not a year, is free to take any
    ctx = "The fort of Yecheng was built in 495 BC. Later, 473 soldiers held it for Wu."
    assert "937" in replacements(ctx, "473", "CARDINAL", bank, "n", rows=16)


def test_a_surname_said_alone_takes_its_particles_with_it():
    # "As the King's confidence in de Melo increased" had become "... in de Pessoa"
    ctx = ("Sebastião de Melo rose quickly. As the King's confidence in de Melo increased, "
           "the King gave him more control. De Melo's rivals fell.")
    spec = [("Sebastião de Melo", "PERSON")]
    plain = SamplingIndex.from_bank({"PERSON": ["Fernando Pessoa"]})
    o = run(ctx, "Sebastião de Melo", spec, bank=plain)
    assert_consistent(o)
    assert pieces(o) == ["Fernando Pessoa", "Pessoa", "Pessoa"]
    assert "de Pessoa" not in o[C.MODIFIED_CONTEXT]
    # a replacement with particles of its own brings them, capitalised where a sentence
    # starts with the mention
    particled = SamplingIndex.from_bank({"PERSON": ["Helmuth von Moltke"]})
    o = run(ctx, "Sebastião de Melo", spec, bank=particled)
    assert_consistent(o)
    assert pieces(o) == ["Helmuth von Moltke", "von Moltke", "Von Moltke"]
    # a surname said alone without the particles stays one word
    o = run("Sebastião de Melo rose quickly at the court of the King. Later Melo ruled the "
            "kingdom alone for many years.", "Sebastião de Melo", spec, bank=particled)
    assert_consistent(o)
    assert pieces(o) == ["Helmuth von Moltke", "Moltke"]


def test_a_century_is_drawn_near_its_own():
    # "decisions from American courts were not regularly reported until the mid-19th
    # century" had become "until the mid-2nd century"
    ctx = ("Appellate decisions from many American courts were not regularly reported until "
           "the mid-19th century; lawyers used English legal materials to fill the gap.")
    bank = SamplingIndex.from_bank({"DATE": ["mid-2nd century", "mid-8th century",
                                             "mid-11th century", "mid-17th century",
                                             "mid-5th century BC", "mid-13th century"]})
    got = replacements(ctx, "mid-19th century", "DATE", bank, "c", rows=8)
    assert got == {"mid-17th century"}
    # none near: a far one still serves
    far = SamplingIndex.from_bank({"DATE": ["mid-2nd century", "mid-8th century"]})
    assert replacements(ctx, "mid-19th century", "DATE", far, "c", rows=4) <= {
        "mid-2nd century", "mid-8th century"}
    # a century before Christ is no neighbour of the same number after
    ctx = ("The city was founded in the 2nd century BC by settlers from the coast, who built "
           "its first walls and a harbour.")
    bc = SamplingIndex.from_bank({"DATE": ["2nd century", "3rd century", "4th century BC",
                                           "9th century BC"]})
    assert replacements(ctx, "2nd century BC", "DATE", bc, "c", rows=6) == {"4th century BC"}


@pytest.mark.parametrize("name,kind", [
    # a broadcaster whatever its head word says, but not one named after its subject
    ("Cyprus Broadcasting Corporation", "broadcast"), ("Public Broadcasting Service", "broadcast"),
    ("Melcher Center for Public Broadcasting", "site"), ("Canadian Mechanized Brigade Group", "company"),
    ("Broadcasting House", "site"), ("Columbia Broadcasting System", "broadcast"),
    # a list of places, an index, a pact, a cooperative
    ("UNESCO World Heritage Sites", "listing"), ("National Register of Historic Places", "listing"),
    ("Human Development Index", "index"), ("Warsaw Pact", "pact"), ("Treaty of Utrecht", "treaty"),
    ("Cooperative for Assistance and Relief Everywhere", "body"),
])
def test_a_name_s_kind_from_its_words(name, kind):
    from faithqa_spark.core.namekinds import name_class
    assert name_class(name) == kind


def test_a_broadcaster_a_pact_and_an_index_take_their_own_kind():
    # "the state owned Cyprus Broadcasting Corporation which runs two television channels"
    # had become "... Canadian Mechanized Brigade Group which ...", "joined the military
    # alliance known as the Warsaw Pact" "... the Irish Council", and "its Human Development
    # Index is one of the lowest" "its United Nations is one of the lowest"
    bank = SamplingIndex.from_bank({"ORG": [
        "Canadian Mechanized Brigade Group", "Irish Council", "United Nations", "Kelmar Radio",
        "Baghdad Pact", "Kelmar Index", "UNESCO World Heritage Sites"]})
    ctx = "The state owned Cyprus Broadcasting Corporation runs two television channels."
    assert replacements(ctx, "Cyprus Broadcasting Corporation", "ORG", bank, "b") == \
        {"Kelmar Radio"}
    ctx = "The Soviet bloc joined the military alliance known as the Warsaw Pact in 1955."
    assert replacements(ctx, "Warsaw Pact", "ORG", bank, "p") == {"Baghdad Pact"}
    ctx = "The country ranks near the bottom of the Human Development Index, as in 1990."
    assert replacements(ctx, "Human Development Index", "ORG", bank, "i") == \
        {"Kelmar Index"}


def test_a_work_s_whole_quoted_title_is_swapped():
    # NER's WORK_OF_ART "Single Ladies" of '"Single Ladies (Put a Ring on It)"' had become
    # '"Halo (Put a Ring on It)"', and "Independent Women Part" of '"Independent Women Part
    # I"' '"Crazy in Love I"'
    from faithqa_spark.core.coherent import quoted_title
    bank = SamplingIndex.from_bank({"WORK_OF_ART": ["Kelmar Nights", "Orvane Blues"]})
    ctx = 'Her single "Single Ladies (Put a Ring on It)" won Song of the Year in 2010.'
    o = run(ctx, "Single Ladies", [("Single Ladies", "WORK_OF_ART")], bank=bank,
            question="Which single won Song of the Year?")
    assert_consistent(o)
    assert o[C.ORIGINAL_ENTITY] == "Single Ladies (Put a Ring on It)"
    assert "Put a Ring" not in o[C.MODIFIED_CONTEXT]
    assert o[C.FAITHFUL_ANSWER] == o[C.REPLACEMENT_ENTITY]
    assert quoted_title('"Independent Women Part I," she sang', "Independent Women Part") == \
        "Independent Women Part I"
    # a name said outside its quoted title too, or a title that is the name, stays the name
    assert quoted_title('"Single Ladies (Put a Ring on It)" won. Single Ladies sold.',
                        "Single Ladies") is None
    assert quoted_title('Her single "Single Ladies" won.', "Single Ladies") is None
    assert quoted_title("She sang Single Ladies (Put a Ring on It).", "Single Ladies") is None


def test_a_name_with_an_epithet_is_swapped_with_its_lone_mentions():
    # "Alexander the Great" had been refused as malformed; "Alexander" alone is his too
    bank = SamplingIndex.from_bank({"PERSON": ["Kelmar", "Peter III", "Dunstan Hale"]})
    ctx = ("Orvald the Great founded the city in 1190. Orvald's heirs ruled it until "
           "1260, when Orvald's line died out.")
    for o in made_rows(ctx, "Orvald the Great", [("Orvald the Great", "PERSON")], bank, "e",
                       question="Who founded the city?"):
        assert "Orvald" not in o[C.MODIFIED_CONTEXT] and "the Great" not in o[C.MODIFIED_CONTEXT]
        assert o[C.FAITHFUL_ANSWER] == o[C.REPLACEMENT_ENTITY]
    # "Ibn al-Haytham ... al-Haytham's": the name said alone goes with him
    ctx = "Ibn al-Qasim wrote on optics in 1021. Later scholars read al-Qasim's books."
    for o in made_rows(ctx, "Ibn al-Qasim", [("Ibn al-Qasim", "PERSON")], bank, "a",
                       question="Who wrote on optics?"):
        assert "Qasim" not in o[C.MODIFIED_CONTEXT]


def test_a_people_word_s_place_is_swapped_by_each_of_its_names():
    # "British dominance ... Britain emerged" had become "Dutch dominance ... Britain
    # emerged": the bank's place of "British" is the United Kingdom, the context's Britain
    from faithqa_spark.core.coherent import place_words
    bank = SamplingIndex.from_bank({"GPE": ["United Kingdom", "France", "Lagos"],
                                    "NORP": ["British", "French", "Yoruba"]})
    ctx = ("After 1815 Britain emerged as the principal naval power. British dominance of "
           "trade grew, and Great Britain kept its lead.")
    spec = [("Britain", "GPE"), ("British", "NORP"), ("Great Britain", "GPE")]
    at = place_words(ctx, "British", [], bank, [(e.start, e.end) for e in entities(ctx, spec)])
    assert [ctx[s:e] for s, e in at] == ["Britain", "Great Britain"]  # the longest name
    made = made_rows(ctx, "British", spec, bank, "brit", question="Whose dominance grew?")
    assert made
    for o in made:
        assert o[C.REPLACEMENT_ENTITY] == "French"  # the one whose place the bank holds
        assert o[C.MODIFIED_CONTEXT] == (
            "After 1815 France emerged as the principal naval power. French dominance of "
            "trade grew, and France kept its lead.")


def test_a_party_is_never_one_the_story_names_apart():
    # "the Liberals' coalition partner, the Country Party" had become "..., the Liberal Party"
    bank = SamplingIndex.from_bank({"ORG": ["Liberal Party", "Labour Party"]})
    ctx = ("At that time the Liberals' coalition partner, the Country Party, had considerable "
           "influence. The Country Party was the older of the two.")
    for o in made_rows(ctx, "Country Party", [("Liberals", "NORP"), ("Country Party", "ORG")],
                       bank, "party", question="Which party was older?"):
        assert o[C.REPLACEMENT_ENTITY] == "Labour Party"
    # a longer name of the word is another party: "the Liberal Democrats" leave it drawable
    ctx = ("In 2004 29% of its readers voted for the Liberal Democrats. It supported the "
           "Country Party in 2005.")
    got = {o[C.REPLACEMENT_ENTITY] for o in made_rows(
        ctx, "Country Party", [("Liberal Democrats", "ORG"), ("Country Party", "ORG")], bank,
        "lib", question="Which party did it support?")}
    assert "Liberal Party" in got


def test_a_people_word_in_its_other_number_is_swapped_with_it():
    # "levied (along with Albanians and Serbs) ... of Greek (or Albanian or Serb) origin"
    # had kept "Albanian" beside the new people
    from faithqa_spark.core.coherent import other_number_words
    ctx = ("Boys were levied (along with Albanians and Serbs) into service. Many men of "
           "Albanian origin served, and an Albanian Orthodox Church stood in the city.")
    i = ctx.index("Albanians")
    assert [ctx[s:e] for s, e in other_number_words(ctx, "Albanians", [(i, i + 9, "")])] \
        == ["Albanian"]  # not the first word of a longer name
    bank = SamplingIndex.from_bank({"NORP": ["Croats", "Croat", "Sephardic Jews"]})
    spec = [("Albanians", "NORP"), ("Serbs", "NORP"), ("Albanian", "NORP"),
            ("Albanian Orthodox Church", "ORG")]
    made = made_rows(ctx, "Albanians", spec, bank, "alb", question="Who was levied?")
    for o in made:
        assert o[C.REPLACEMENT_ENTITY] == "Croats"  # the one the bank holds in both numbers
        assert o[C.MODIFIED_CONTEXT] == ctx.replace("Albanians", "Croats").replace(
            "of Albanian origin", "of Croat origin")


def test_a_day_of_the_year_keeps_the_story_s_order_and_way_of_writing():
    # "captured Beijing on June 6. The Shunzhi Emperor was invested on October 30" had become
    # "... on May 27"; "June 12" had become "7 November" beside "August 19"
    bank = SamplingIndex.from_bank({"DATE": ["May 27", "July 2", "September 14", "4 July"]})
    ctx = ("The allied armies captured Beijing on June 6. The Shunzhi Emperor was invested "
           "as the Son of Heaven on October 30.")
    got = {o[C.REPLACEMENT_ENTITY] for o in made_rows(
        ctx, "October 30", [("June 6", "DATE"), ("October 30", "DATE")], bank, "day",
        question="When was the emperor invested?")}
    assert got == {"July 2", "September 14"}  # after June 6, and written month first


def test_an_amount_takes_a_figure_of_its_scale_where_one_fits():
    # "a farm of 2,700 acres" had become "5,200,000 acres": the shape keeps only up to three
    # digits, so every figure of four or more fitted
    bank = SamplingIndex.from_bank({"QUANTITY": ["5,200,000 acres", "8,900 acres",
                                                 "640,000 acres"]})
    ctx = "The family bought a farm of 2,700 acres near the river in 1850."
    got = {o[C.REPLACEMENT_ENTITY] for o in made_rows(
        ctx, "2,700 acres", [("2,700 acres", "QUANTITY")], bank, "acre",
        question="How large was the farm?")}
    assert got == {"8,900 acres"}
    # a preference: with no figure of its scale, the row still gets one
    bank = SamplingIndex.from_bank({"QUANTITY": ["5,200,000 acres"]})
    assert {o[C.REPLACEMENT_ENTITY] for o in made_rows(
        ctx, "2,700 acres", [("2,700 acres", "QUANTITY")], bank, "acre2",
        question="How large was the farm?")} == {"5,200,000 acres"}


def test_a_span_of_time_takes_one_of_its_scale_where_one_fits():
    # "about 200,000 years" had become "about 5.2 years"; a count scaled in words is none
    from faithqa_spark.core.coherent import _one_figure
    assert _one_figure("about 200,000 years") == 200_000 and _one_figure("fifteen years") == 15
    assert _one_figure("fifteen hundred") is None and _one_figure("one third") is None
    assert _one_figure("10 to 15") is None
    bank = SamplingIndex.from_bank({"DATE": ["about 5.2 years", "around 50,000 years"]})
    ctx = "Modern humans appeared about 200,000 years ago in East Africa."
    got = {o[C.REPLACEMENT_ENTITY] for o in made_rows(
        ctx, "about 200,000 years", [("about 200,000 years", "DATE")], bank, "yrs",
        question="When did modern humans appear?")}
    assert got == {"around 50,000 years"}


def test_a_party_s_own_word_said_alone_is_swapped_with_it():
    # "it supported the Labour Party ... 26% for Labour" had kept Labour beside the new party
    from faithqa_spark.core.coherent import party_words
    ctx = ("The paper supported the Labour Party in 2005. Churchill and the Labours met; 26% "
           "voted for Labour, while Labour Day and the National Labours were other names. A "
           "Labour member spoke.")
    at = ctx.index("Labour Party")
    assert [ctx[s:e] for s, e in party_words(ctx, "Labour Party", [(at, at + 12, "")])] \
        == ["Labours", "Labour", "Labour"]
    bank = SamplingIndex.from_bank({"ORG": ["Independent Party", "Communist Party of China"]})
    for o in made_rows(ctx, "Labour Party", [("Labour Party", "ORG"), ("Churchill", "PERSON")],
                       bank, "lab", question="Which party did the paper support?"):
        assert o[C.REPLACEMENT_ENTITY] == "Independent Party"  # one that has its own word
        assert o[C.MODIFIED_CONTEXT] == (
            "The paper supported the Independent Party in 2005. Churchill and the Independents "
            "met; 26% voted for Independent, while Labour Day and the National Labours were "
            "other names. An Independent member spoke.")


def test_an_organisation_whose_name_says_no_kind_is_dropped_on_request():
    # NER's ORG "Nishapur" (a city) had become "Alhazen", and "Ficus religiosa" "Theravada
    # religiosa": a name with no head word says nothing of what it names
    from faithqa_spark.core.coherent import kindless_org
    assert kindless_org("Nishapur") and kindless_org("London Eye") and kindless_org("Microsoft")
    assert not kindless_org("Royal Society of London") and not kindless_org("RIBA")
    orgs = SamplingIndex.from_bank({"ORG": ["Orvane Mills", "Kelvar Trading Company",
                                            "Harbour Kelp Society"]})
    strict = load_config(None, ["substitution.drop_kindless_orgs=true"])
    ctx = "Ibn Sina wandered through the districts of Nishapur and Merv seeking work."
    kept = run(ctx, "Nishapur", [("Nishapur", "ORG")], bank=orgs)
    assert_consistent(kept)
    dropped = run(ctx, "Nishapur", [("Nishapur", "ORG")], bank=orgs, cfg=strict)
    assert dropped[C.STATUS] == C.FILTERED and dropped[C.REASON] == reasons.KINDLESS_ORG
    assert dropped[C.ORIGINAL_ENTITY] == "Nishapur" and dropped[C.ENTITY_TYPE] == "ORG"
    assert dropped[C.REPLACEMENT_ENTITY] == kept[C.REPLACEMENT_ENTITY]
    # a body whose name says what it is stays
    ctx = "The Lindqvist Trading Company opened a branch in the port that year."
    o = run(ctx, "Lindqvist Trading Company", [("Lindqvist Trading Company", "ORG")],
            bank=orgs, cfg=strict)
    assert_consistent(o)
    assert o[C.REPLACEMENT_ENTITY] == "Kelvar Trading Company"


def test_an_ordinal_that_counts_centuries_keeps_to_the_centuries_and_their_order():
    # "During the 99th and 12th centuries the Catalan rulers ..." (for "11th"), "in the
    # 35th century", and "the late 4th and early 6th centuries" (for "5th") had read
    from faithqa_spark.core.chronology import century_bounds
    ords = SamplingIndex.from_bank({"ORDINAL": ["99th", "35th", "13th", "10th", "3rd",
                                                "4th", "6th"]})
    ctx = "During the 11th and 12th centuries the Catalan rulers expanded to the south."
    got = {o[C.REPLACEMENT_ENTITY] for o in made_rows(
        ctx, "11th", [("11th", "ORDINAL")], ords, "cen", rows=12)}
    assert got and got <= {"10th", "3rd", "4th", "6th"}
    ctx = "Varsity was also common usage in the UK in the 19th century, at the time."
    got = {o[C.REPLACEMENT_ENTITY] for o in made_rows(
        ctx, "19th", [("19th", "ORDINAL")], ords, "cent", rows=12)}
    assert got and not got & {"99th", "35th"}
    # a late century before an early one is the one before it: nothing else fits
    ctx = "It became the realm of Burgundy in the late 5th and early 6th centuries, they say."
    s = ctx.index("5th")
    assert century_bounds(ctx, [(s, s + 3)], 2017) == (4, 6)
    assert century_bounds("between the 6th and 4th centuries BCE, in Nepal", [(12, 15)],
                          2017) == (0, 22)  # before Christ the pair runs back
    assert century_bounds("on the 5th floor of the tower", [(7, 10)], 2017) is None
