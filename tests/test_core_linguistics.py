"""Shapes of dates and numbers, parts of names, and pronoun gender (invented text)."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from faithqa_spark.core import gender as G
from faithqa_spark.core.names import (
    in_longer_name, lone_part_mentions, name_parts, part_mentions, word_before)
from faithqa_spark.core.shapes import cardinal_shape, date_shape, same_shape


@pytest.mark.parametrize("text, shape", [
    ("1907", "year"), ("early 1842", "year"), ("the year 1820", "year"),
    ("1990s", "decade"), ("the mid-1980s", "decade"), ("'60s", "decade"),
    ("the nineties", "decade"),
    ("the 19th century", "century"), ("nineteenth-century", "century"), ("the 1800s", "century"),
    ("4 July 1776", "full_date"), ("July 4, 1776", "full_date"), ("March 3rd, 1912", "full_date"),
    ("1776-07-04", "full_date"), ("the 12th of Sept. 1888", "full_date"),
    ("July 1776", "month_year"), ("Sept. 1911", "month_year"),
    ("July 4", "month_day"), ("the 4th of July", "month_day"),
    ("October", "month"), ("Monday", "weekday"), ("Friday night", "weekday"),
    ("summer", "relative"), ("the next day", "relative"), ("last year", "relative"),
    ("AD 79", "era"), ("300 BC", "era"), ("44 BCE", "era"),
    ("1990-1995", "year_range"), ("1990–95", "year_range"), ("between 1901 and 1905", "year_range"),
    ("three years", "duration"), ("10 days", "duration"), ("two decades", "duration"),
    ("several months", "duration"), ("the age of 60", "age:of"), ("41 years of age", "age:years"),
    ("age 29", "age"), ("age sixty", "age"), ("the Age of Enlightenment", "age:era"),
    ("age year", "other"),
    ("about 30,000", "other"), ("the Middle Ages", "other"), ("", "other"),
])
def test_date_shapes(text: str, shape: str) -> None:
    assert date_shape(text) == shape


@pytest.mark.parametrize("text, shape", [
    ("7", "digits:1:plain"), ("42", "digits:2:plain"), ("350", "digits:3:plain"),
    ("1250", "digits:4:plain"), ("1,250", "digits:4:comma"), ("30,000", "digits:5-6:comma"),
    ("about 30,000", "digits:5-6:comma"), ("2,500,000", "digits:7+:comma"),
    ("12000000", "digits:7+:plain"), ("3.5", "decimal:1"), ("0.25", "decimal:0"), ("97.0", "decimal:2"), ("four", "words"),
    ("twenty-one", "words"), ("one hundred", "words"), ("a dozen", "words"),
    ("hundreds", "words"), ("2 million", "mixed"), ("3.5 billion", "mixed"),
    ("3-4", "range"), ("two or three", "range:words"), ("hundreds or thousands", "range:words"), ("between 5 and 10", "range"),
    ("two-thirds", "fraction"), ("about a third", "fraction"), ("5½", "fraction"),
    ("an estimated 32,463", "digits:5-6:comma"), ("4,097.9", "decimal:4"),
    ("#1", "other"), ("Ω-7", "other"),
])
def test_cardinal_shapes(text: str, shape: str) -> None:
    assert cardinal_shape(text) == shape


def test_same_shape() -> None:
    assert same_shape("DATE", "1907", "1888")
    assert not same_shape("DATE", "1907", "Tuesday")
    assert not same_shape("CARDINAL", "four", "1,250")
    assert not same_shape("CARDINAL", "1,250", "1250")  # grouping commas are part of it
    assert not same_shape("DATE", "the Middle Ages", "the Middle Ages")  # unknown: not known same
    assert same_shape("PERSON", "Ana Ruiz", "Bo")  # no shapes for other types


@given(st.integers(min_value=1000, max_value=10**12))
def test_grouped_and_plain_digits_keep_magnitude(n: int) -> None:
    grouped, plain = f"{n:,}", str(n)
    assert cardinal_shape(grouped).startswith("digits:") and cardinal_shape(grouped).endswith(":comma")
    assert cardinal_shape(plain).split(":")[1] == cardinal_shape(grouped).split(":")[1]


@pytest.mark.parametrize("name, titles, given, surname, suffixes, significant", [
    ("Sir J. R. R. Tolkien Jr.", ("Sir",), ("J.", "R.", "R."), "Tolkien", ("Jr.",), ("Tolkien",)),
    ("Leonardo da Vinci", (), ("Leonardo",), "da Vinci", (), ("Leonardo", "Vinci")),
    ("President Abraham Lincoln", ("President",), ("Abraham",), "Lincoln", (), ("Abraham", "Lincoln")),
    ("Mr. Quillon", ("Mr.",), ("Quillon",), "", (), ("Quillon",)),
    ("Yusra bin Haddad", (), ("Yusra",), "bin Haddad", (), ("Yusra", "Haddad")),
    ("Pieter van der Molk", (), ("Pieter",), "van der Molk", (), ("Pieter", "Molk")),
    ("Afonso Velar I", (), ("Afonso",), "Velar", ("I",), ("Afonso", "Velar")),
    ("Harold Tamsin III", (), ("Harold",), "Tamsin", ("III",), ("Harold", "Tamsin")),
    ("Oren Blake King, Jr.", (), ("Oren", "Blake"), "King", ("Jr.",), ("Oren", "Blake", "King")),
    ("Þórunn Ásgeirsdóttir", (), ("Þórunn",), "Ásgeirsdóttir", (), ("Þórunn", "Ásgeirsdóttir")),
    ("Zelmira", (), ("Zelmira",), "", (), ("Zelmira",)),
    # an epithet is no surname, and an Arabic name joined to its particle is said alone
    ("Orvald the Great", (), ("Orvald",), "", ("the", "Great"), ("Orvald",)),
    ("Harun al-Qasim", (), ("Harun",), "al-Qasim", (), ("Harun", "al-Qasim")),
    ("Ibn al-Qasim", (), ("Ibn",), "al-Qasim", (), ("al-Qasim",)),
])
def test_name_parts(name, titles, given, surname, suffixes, significant) -> None:
    p = name_parts(name)
    assert (p.titles, p.given, p.surname, p.suffixes, p.significant) == (
        titles, given, surname, suffixes, significant)


CTX = ("Frédéric Quillard wrote the suite. Later Quillard's pupil, Mr. Quillard and Sonia "
       "Quillard met. The Quillardian style; quillard is a bird.")


def test_part_mentions_case_sensitive_with_possessives() -> None:
    parts = [(CTX[s:e], p) for s, e, p in part_mentions(CTX, "Frédéric Quillard")]
    assert parts == [("Frédéric", "Frédéric"), ("Quillard", "Quillard"), ("Quillard", "Quillard"),
                     ("Quillard", "Quillard"), ("Quillard", "Quillard")]
    lone = lone_part_mentions(CTX, "Frédéric Quillard")
    assert [s for s, _, _ in lone] == [CTX.index("Quillard's"), CTX.index("Mr. Quillard") + 4,
                                       CTX.index("Sonia Quillard") + 6]


def test_in_longer_name() -> None:
    own = ("Frédéric", "Quillard")
    at = {s: in_longer_name(CTX, s, e, own) for s, e, _ in lone_part_mentions(CTX, "Frédéric Quillard")}
    assert list(at.values()) == [False, False, True]  # "Later" starts a sentence; "Mr." is a title
    text = "Count Jo Benet Henriques (future Jo Benet I) ruled."
    s = text.index("Jo Benet")
    assert in_longer_name(text, s, s + 8)  # followed by Henriques
    s2 = text.index("Jo Benet I")
    assert in_longer_name(text, s2, s2 + 8)  # a regnal numeral after it
    assert word_before(text, s) == ""  # "Count" starts the text: its capital says nothing
    t2 = "the ruler Jo Benet, who ruled"
    assert not in_longer_name(t2, t2.index("Jo"), t2.index("Jo") + 8)


def test_window_rule_and_votes() -> None:
    ctx = ("Marta Kowalczyk was born in Lodz. She studied physics. Her brother Tomas Brill "
           "said he was proud. In 1990 she left.")
    ents = [{"text": "Marta Kowalczyk", "label": "PERSON", "start": 0, "end": 15},
            {"text": "Tomas Brill ", "label": "PERSON", "start": ctx.index("Tomas"),
             "end": ctx.index("Tomas") + 11},
            {"text": "Lodz", "label": "GPE", "start": ctx.index("Lodz"), "end": ctx.index("Lodz") + 4}]
    assert G.mention_gender_votes(ctx, ents) == [("Marta Kowalczyk", "f"), ("Tomas Brill", "m")]
    assert G.pronoun_gender(ctx, [(0, 15)]) == "f"
    # the window ends at the end of the next sentence: a pronoun two sentences on is not hers
    far = "Ola Nderu came. The rain fell. The river rose. He swam."
    assert G.pronoun_gender(far, [(0, 9)]) is None
    assert G.pronoun_gender("No pronoun near Ola Nderu at all.", [(16, 25)]) is None


def test_gender_from_votes() -> None:
    assert G.gender_from_votes(3, 0) == "m"
    assert G.gender_from_votes(1, 3) == "f"
    assert G.gender_from_votes(2, 2) is None
    assert G.gender_from_votes(0, 0) is None
    assert G.gender_from_votes(1, 0, min_votes=2) is None


@pytest.mark.skipif(not G.lexicon_available(), reason="gender-guesser not installed")
def test_name_gender_lexicon() -> None:
    assert G.name_gender("Marta Kowalczyk") == "f"
    assert G.name_gender("Sir John Zedd") == "m"
    assert G.name_gender("Álfrún Þórsdóttir") == "f"
    assert G.name_gender("J. R. R. Zedd") is None  # initials only
    assert G.name_gender("Zorblax Quib") is None  # not in the lexicon
    # a Korean name, family name first: "Kim" (a woman's given name) is no given name here
    assert G.name_gender("Kim Il-sung") is None and G.name_gender("Park Chung-hee") is None
    assert G.name_gender("Kim Basinger") == "f" and G.name_gender("Jean-Paul Sartre") == "m"


def test_words_before_a_name_that_are_not_names() -> None:
    t = "the Venetian Marco Polo met NASA Administrator Ola Nderu and Ana Marco Polo."
    s = t.index("Marco Polo")
    assert not in_longer_name(t, s, s + 10)  # an adjective after an article
    s = t.index("Ola Nderu")
    assert not in_longer_name(t, s, s + 9)  # a job title
    s = t.rindex("Marco Polo")
    assert in_longer_name(t, s, s + 10)  # another given name in front


def test_window_stops_at_another_person() -> None:
    t = "The Master (Jonathan Pryce) meets the Daleks and his ship burns."
    assert G.pronoun_gender(t, [(4, 10)]) is None  # "his" is after another person's name
    t2 = "Ewa Lind sang. Then the choir praised her."
    assert G.pronoun_gender(t2, [(0, 8)]) is None  # next sentence: only a leading pronoun counts
    t3 = "Ewa Lind sang in Lodz. Her voice carried."
    assert G.pronoun_gender(t3, [(0, 8)]) == "f"
    # ... and it is the sentence's first person's: "Madonna starred in the film, with Warren
    # Beatty playing the title role. Her performance ..." gave Beatty "Her"
    t4 = "Ewa Lind starred in the film, with Bo Karlsson in the lead. Her voice carried."
    s = t4.index("Bo Karlsson")
    assert G.pronoun_gender(t4, [(s, s + 11)]) is None
    assert G.pronoun_gender(t4, [(s, s + 11)], others=[(0, 8)]) is None
    ents = [{"text": "Ewa Lind", "label": "PERSON", "start": 0, "end": 8},
            {"text": "Bo Karlsson", "label": "PERSON", "start": s, "end": s + 11}]
    assert G.mention_gender_votes(t4, ents) == []  # Bo Karlsson gets no "Her"
    ents = [{"text": "Ewa Lind", "label": "PERSON", "start": 0, "end": 8},
            {"text": "Bo", "label": "PERSON", "start": 15, "end": 17}]
    assert G.mention_gender_votes("Ewa Lind met Bo and his dog.", ents) == [("Bo", "m")]


def test_compound_titles_and_adjectives() -> None:
    for t in ("Secretary-General Ola Nderu spoke.", "the Russian-backed Ola Nderu spoke.",
              "Private Ola Nderu spoke."):
        s = t.index("Ola")
        assert not in_longer_name(t, s, s + 9), t
def test_a_sentence_end_before_a_name_is_no_part_of_it() -> None:
    text = "She taught in Paris. Curie's daughter won too. Dr. Curie spoke."
    s = text.index("Curie's")
    assert not in_longer_name(text, s, s + 5)
    s = text.index("Curie spoke")
    assert not in_longer_name(text, s, s + 5)  # a title abbreviation


def test_hedge_is_what_precedes_the_date_or_number() -> None:
    from faithqa_spark.core.shapes import hedge
    assert hedge("about 30,000") == "about"
    assert hedge("the early 1990s") == "early"
    assert hedge("mid-1980s") == "mid"
    assert hedge("1907") == hedge("the 1960s") == ""


def test_an_epithet_or_an_arabic_particle_is_a_well_formed_person() -> None:
    # "Alexander the Great" (20 rows of SQuAD train) and "Ibn al-Haytham" had been refused
    # as malformed; a lower-case word or an article alone still is no name
    from faithqa_spark.core.entries import well_formed
    for name in ("Orvald the Great", "Ibn al-Qasim", "al-Qasim", "Harun al-Qasim"):
        assert well_formed("PERSON", name), name
    for name in ("the Great", "orvald the great", "Orvald the", "al-qasim"):
        assert not well_formed("PERSON", name), name


def test_a_family_or_order_of_living_things_is_no_name() -> None:
    # NER's PERSON "Charophyta" had become "Benito Juárez", its ORG "Rosaceae, or rose
    # family" "Serae, or rose family", and the bank's "Galliformes" had replaced "Birds"
    from faithqa_spark.core.entries import well_formed
    for taxon in ("Rosaceae", "Poaceae", "Charophyta", "Galliformes", "Lepidoptera",
                  "Mycetophilidae (Diptera)", "Asteroideae"):
        for etype in ("PERSON", "ORG", "GPE", "PRODUCT"):
            assert not well_formed(etype, taxon), (etype, taxon)
    for name in ("Florida", "Candida", "Ida Tarbell", "Acer", "Serae"):
        assert well_formed("ORG", name) or well_formed("PERSON", name), name
