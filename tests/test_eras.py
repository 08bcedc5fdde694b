"""When a story is set and when its names belong (`core.eras`)."""

from faithqa_spark.config import load_config
from faithqa_spark.core import eras
from faithqa_spark.core import fields as C
from faithqa_spark.core.matching import Entity
from faithqa_spark.core.outcomes import run_index
from faithqa_spark.core.process import Provenance, process_row
from faithqa_spark.core.sampling import SamplingIndex


def test_an_article_that_keeps_to_a_few_decades_dates_its_names():
    assert eras.era_of(["1989", "August 1991", "1991", "1990"]) == 1990
    assert eras.era_of(["1989", "1991"]) is None  # too few years to say
    # the history of a country names centuries of years: it dates nothing
    assert eras.era_of(["1066", "1215", "1688", "1815", "1914", "1945"]) is None
    near = {
        "a#1": {"DATE": ["1989", "1990", "1991", "1991"], "PERSON": ["Boris Yeltsin"]},
        "a#2": {"DATE": ["1960", "1962", "1964"], "PERSON": ["Nikita Khrushchev"]},
        "a#3": {"DATE": ["1066", "1500", "1945", "2001"], "PERSON": ["Boris Yeltsin"]},
        "a#4": {"PERSON": ["Ada Quell"]},
    }
    found = eras.name_eras(near)
    assert found == {"PERSON": {"Boris Yeltsin": 1990, "Nikita Khrushchev": 1962}}
    assert eras.context_era("In August 1991 the coup failed; by 1993 ...") == 1991
    assert eras.context_era("No year here.") is None
    assert eras.of_its_time(1990, 2000) and not eras.of_its_time(1962, 1991)
    assert eras.of_its_time(1208, 1320) and not eras.of_its_time(None, 1991)


def test_a_person_of_the_story_s_time_is_drawn_before_one_of_another():
    # "On August 23, 1991, in the presence of Nikita Khrushchev, Yeltsin signed a decree"
    # (Khrushchev died in 1971) read as an error
    people = ["Nikita Khrushchev", "Gennady Yanayev", "Louis Pasteur"]
    near = {
        "f#article=1": {"DATE": ["1989", "1990", "1991", "1991"], "PERSON": ["Gennady Yanayev"]},
        "f#article=2": {"DATE": ["1960", "1962", "1964"], "PERSON": ["Nikita Khrushchev"]},
        "f#article=3": {"DATE": ["1860", "1862", "1865"], "PERSON": ["Louis Pasteur"]},
    }
    index = run_index({"PERSON": people}, near)
    ctx = ("On August 23, 1991, in the presence of Mikhail Gorbachev, Yeltsin signed a "
           "decree suspending the party.")
    start = ctx.index("Mikhail Gorbachev")
    ents = [Entity("Mikhail Gorbachev", "PERSON", start, start + 17),
            Entity("August 23, 1991", "DATE", 3, 18)]
    got = set()
    for i in range(12):
        row = {C.ID: f"squad:era{i}", C.SOURCE: "squad", C.QUESTION: "Who was present?",
               C.CONTEXT: ctx, C.ANSWER: "Mikhail Gorbachev", C.ANSWER_START: start,
               C.INPUT_FILE: "f", C.RECORD_LOC: "article=9/paragraph=0/qa=0",
               C.CONTEXT_ID: "c"}
        out = process_row(row, ents, index, load_config(), Provenance("t", "h", "m"), None)
        assert out[C.STATUS] == C.OK, out[C.REASON]
        got.add(out[C.REPLACEMENT_ENTITY])
    assert got == {"Gennady Yanayev"}


def test_an_event_that_names_its_year_is_of_that_year():
    # "the Revolution of 1848" had been drawn for stories of 1794 and 1911: an event's own
    # year dates it, whatever the articles that name it say
    events = ["Revolution of 1848", "Hungarian Revolution of 1956", "Winter Uprising"]
    near = {
        "f#article=1": {"DATE": ["1950", "1952", "1954"], "EVENT": ["Winter Uprising"]},
        "f#article=2": {"DATE": ["1950", "1953", "1955"], "EVENT": ["Revolution of 1848"]},
    }
    index = run_index({"EVENT": events}, near)
    assert index.eras["EVENT"]["Revolution of 1848"] == 1953  # its articles' era
    ctx = ("The Egyptian Revolution of 1952 ended the monarchy, and by 1953 the new "
           "republic was declared in Cairo.")
    start = ctx.index("Egyptian Revolution of 1952")
    end = start + len("Egyptian Revolution of 1952")
    got = set()
    for i in range(12):
        row = {C.ID: f"squad:ev{i}", C.SOURCE: "squad", C.QUESTION: "What ended it?",
               C.CONTEXT: ctx, C.ANSWER: ctx[start:end], C.ANSWER_START: start,
               C.INPUT_FILE: "f", C.RECORD_LOC: "article=9/paragraph=0/qa=0",
               C.CONTEXT_ID: "c"}
        out = process_row(row, [Entity(ctx[start:end], "EVENT", start, end)], index,
                          load_config(), Provenance("t", "h", "m"), None)
        assert out[C.STATUS] == C.OK, out[C.REASON]
        got.add(out[C.REPLACEMENT_ENTITY])
    assert "Revolution of 1848" not in got and got, got


def _drawn_people(ctx: str, original: str, index: SamplingIndex, rows: int = 16) -> set[str]:
    start = ctx.index(original)
    ents = [Entity(original, "PERSON", start, start + len(original))]
    got = set()
    for i in range(rows):
        row = {C.ID: f"squad:initial{i}", C.SOURCE: "squad", C.QUESTION: "Who was met?",
               C.CONTEXT: ctx, C.ANSWER: original, C.ANSWER_START: start,
               C.INPUT_FILE: "f", C.RECORD_LOC: "article=9/paragraph=0/qa=0",
               C.CONTEXT_ID: "c"}
        out = process_row(row, ents, index, load_config(), Provenance("t", "h", "m"), None)
        assert out[C.STATUS] == C.OK, out[C.REASON]
        got.add(out[C.REPLACEMENT_ENTITY])
    return got


def test_a_name_written_with_an_initial_comes_last_in_a_story_before_such_names():
    # the article on Tibet's history dates the historians it cites with its story: a
    # samurai of 1547 had become "Samuel L. Jackson", and "Töregene Khatun" (1241) "Melvyn
    # C. Goldstein"
    people = ["Melvyn C. Goldstein", "Thomas Cromwell", "William Adams", "Peter C. Perdue"]
    near = {"f#article=1": {"DATE": ["1540", "1547", "1552"], "PERSON": people}}
    index = run_index({"PERSON": people}, near)
    old = ("In December 1547 Francis met a samurai named Yajiro Anjiro, who took notes of "
           "everything he said.")
    assert _drawn_people(old, "Yajiro Anjiro", index) == {"Thomas Cromwell", "William Adams"}
    # a story of modern times draws them all, and so does a name written with an initial
    near = {"f#article=1": {"DATE": ["1988", "1991", "1993"], "PERSON": people}}
    index = run_index({"PERSON": people}, near)
    new = old.replace("1547", "1991")
    assert _drawn_people(new, "Yajiro Anjiro", index, 24) == set(people)
    index = run_index({"PERSON": people}, {"f#article=1": {
        "DATE": ["1540", "1547", "1552"], "PERSON": people}})
    assert {"Melvyn C. Goldstein", "Peter C. Perdue"} & _drawn_people(
        old.replace("Yajiro Anjiro", "J. Anjiro"), "J. Anjiro", index, 24)
