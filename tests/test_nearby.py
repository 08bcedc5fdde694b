"""Drawing from the row's article first (`core.nearby`): the key of an article, the mapping
both runners build, and the preference itself."""

from __future__ import annotations

from faithqa_spark.core import fields as C
from faithqa_spark.core.nearby import (FAMOUS_ARTICLES, MAX_WEIGHT, article_key, article_of,
                                       famous, nearby_entities, wanted)
from faithqa_spark.core.outcomes import outcome_of, run_index
from faithqa_spark.core.sampling import SamplingIndex

from test_coherent import COHERENT, PAPER, PROV, assert_consistent, entities

CTX = ("A succession of skyscrapers was built in the 1970s, many by real estate developer "
       "Gerald Hines, and the tallest of them opened downtown in 1982.")
PEOPLE = ["Gerald Hines", "Philip Johnson", "Pablo Picasso", "Marie Curie", "Oscar Wilde",
          "Ada Lovelace", "Jane Austen", "Isaac Newton"]
BANK = SamplingIndex.from_bank({"PERSON": PEOPLE})


def row(i: int, loc: str = "article=4/paragraph=2/qa=0") -> dict:
    return {C.ID: f"squad:h{i}", C.SOURCE: "squad", C.QUESTION: "Which developer built them?",
            C.CONTEXT: CTX, C.ANSWER: "Gerald Hines", C.ANSWER_START: CTX.index("Gerald"),
            C.INPUT_FILE: "s3a://b/train.json", C.RECORD_LOC: loc}


def test_an_article_is_a_file_s_article_index():
    assert article_key("train.json", "article=4/paragraph=2/qa=0") == "train.json#article=4"
    assert article_key("dev.json", "article=4/paragraph=0/qa=1") == "dev.json#article=4"
    assert article_key("train.json", "question=12") is None  # TriviaQA: no article
    assert article_key("train.json", None) is None
    assert article_of(row(0)) == "s3a://b/train.json#article=4"
    assert wanted("coherent") and not wanted("paper")


def test_the_mapping_is_sorted_holds_pool_texts_and_weighs_what_the_story_names_most():
    got = nearby_entities([("a#article=1", "PERSON", "Philip Johnson", 2),
                           ("a#article=0", "DATE", "the 1990s", 1),
                           ("a#article=1", "PERSON", "Ada Lovelace", 1),
                           ("a#article=1", "GPE", "France", 7),
                           ("a#article=0", "DATE", "1990s", 1),
                           ("a#article=1", "ORG", "the Financial Times", 1)])
    # "the 1990s" and "1990s" are one pool text, named by two contexts; France by seven is
    # listed MAX_WEIGHT times, no more
    assert got == {"a#article=0": {"DATE": ["1990s", "1990s"]},
                   "a#article=1": {"GPE": ["France"] * MAX_WEIGHT,
                                   "ORG": ["the Financial Times"],
                                   "PERSON": ["Ada Lovelace", "Philip Johnson",
                                              "Philip Johnson"]}}
    assert list(got) == sorted(got) and MAX_WEIGHT == 3


def test_a_fitting_entity_of_the_article_is_drawn_first():
    near = {"s3a://b/train.json#article=4": {"PERSON": ["Gerald Hines", "Philip Johnson"]}}
    ents = entities(CTX, [("Gerald Hines", "PERSON")])
    made = [outcome_of(row(i), ents, BANK, COHERENT, PROV, near) for i in range(8)]
    for o in made:
        assert_consistent(o)
    assert {o[C.REPLACEMENT_ENTITY] for o in made} == {"Philip Johnson"}
    # another article's entities are not this row's; without any, the whole bank
    other = [outcome_of(row(i, "article=5/paragraph=0/qa=0"), ents, BANK, COHERENT, PROV, near)
             for i in range(8)]
    assert len({o[C.REPLACEMENT_ENTITY] for o in other}) > 1
    # the paper policy draws as the paper does, whatever it is given
    paper = [outcome_of(row(i), ents, BANK, PAPER, PROV, near)[C.REPLACEMENT_ENTITY]
             for i in range(8)]
    assert paper == [outcome_of(row(i), ents, BANK, PAPER, PROV)[C.REPLACEMENT_ENTITY]
                     for i in range(8)]


def test_an_entity_of_the_article_that_does_not_fit_gives_way_to_the_bank():
    # in the context already, or no bank entry (the bank decides what may be drawn), or of
    # another shape: the whole bank's draw, as without the article
    near = {"s3a://b/train.json#article=4": {"PERSON": ["Gerald Hines", "Walt Unbanked",
                                                        "Plato"]}}
    ents = entities(CTX, [("Gerald Hines", "PERSON")])
    for i in range(8):
        with_near = outcome_of(row(i), ents, BANK, COHERENT, PROV, near)
        assert with_near == outcome_of(row(i), ents, BANK, COHERENT, PROV)
        assert with_near[C.REPLACEMENT_ENTITY] not in ("Walt Unbanked", "Plato")


def test_spark_s_article_column_is_the_core_s_key(spark):
    from faithqa_spark.spark.transforms import article_column

    rows = [("a.json", "article=0/paragraph=1/qa=2"),
            ("s3a://b/a.json", "article=12/paragraph=0/qa=0"), ("a.json", "article=3"),
            ("t.json", "question=4"), ("t.json", "question=4/article=1"),
            (None, "article=1/paragraph=0/qa=0"), ("a.json", None)]
    df = spark.createDataFrame(rows, f"{C.INPUT_FILE} string, {C.RECORD_LOC} string")
    got = [r[0] for r in df.select(article_column()).collect()]
    assert got == [article_key(f, loc) for f, loc in rows]
    assert got[:3] == ["a.json#article=0", "s3a://b/a.json#article=12", "a.json#article=3"]


def test_a_name_several_articles_name_is_drawn_from_the_bank_last(monkeypatch):
    # a small bank: its pools of one story are drawn first however few (`MIN_OBSCURE`)
    monkeypatch.setattr("faithqa_spark.core.coherent.MIN_OBSCURE", 1)
    near = {"f#article=1": {"PERSON": ["Isaac Newton", "Marie Curie"], "GPE": ["France"]},
            "f#article=2": {"PERSON": ["Isaac Newton", "Isaac Newton", "Oscar Wilde"],
                            "GPE": ["France"]},
            "f#article=3": {"PERSON": ["Ada Lovelace"]}}
    # famous: named by FAMOUS_ARTICLES articles (a repeat within one counts once); a place
    # many stories name is no one's own and never famous
    assert FAMOUS_ARTICLES == 2 and famous(near) == {"PERSON": frozenset({"Isaac Newton"})}
    assert famous(None) == {}
    ents = entities(CTX, [("Gerald Hines", "PERSON")])
    index = run_index({"PERSON": PEOPLE}, near)  # the row's article 4 names no one
    drawn = [outcome_of(row(i), ents, index, COHERENT, PROV, near)[C.REPLACEMENT_ENTITY]
             for i in range(40)]
    plain = [outcome_of(row(i), ents, BANK, COHERENT, PROV, near)[C.REPLACEMENT_ENTITY]
             for i in range(40)]
    assert "Isaac Newton" in plain and "Isaac Newton" not in drawn
    assert set(drawn) == {"Philip Johnson", "Pablo Picasso", "Oscar Wilde"}  # men, as Gerald
    # where only a famous name fits, it is drawn
    only = run_index({"PERSON": ["Gerald Hines", "Isaac Newton"]}, near)
    o = outcome_of(row(0), ents, only, COHERENT, PROV, near)
    assert_consistent(o)
    assert o[C.REPLACEMENT_ENTITY] == "Isaac Newton"


def test_a_famous_name_the_article_names_in_passing_is_not_its_story_s(monkeypatch):
    # a small bank: its pools of one story are drawn first however few (`MIN_OBSCURE`)
    monkeypatch.setattr("faithqa_spark.core.coherent.MIN_OBSCURE", 1)
    # both names are famous (two articles name them), and so is Hines; the row's article
    # names Newton in one paragraph (a passing mention) and Johnson in two (its story's)
    near = {"s3a://b/train.json#article=4": {"PERSON": ["Isaac Newton", "Philip Johnson",
                                                        "Philip Johnson", "Gerald Hines"]},
            "f#article=1": {"PERSON": ["Isaac Newton", "Philip Johnson", "Gerald Hines"]}}
    ents = entities(CTX, [("Gerald Hines", "PERSON")])
    index = run_index({"PERSON": PEOPLE}, near)
    drawn = {outcome_of(row(i), ents, index, COHERENT, PROV, near)[C.REPLACEMENT_ENTITY]
             for i in range(12)}
    assert drawn == {"Philip Johnson"}
    # an obscure name's place takes no famous one, even of the story: "former Yale president
    # and professor George Washington" read wrong
    obscure = {k: {"PERSON": [n for n in v["PERSON"] if n != "Gerald Hines"]}
               for k, v in near.items()}
    index = run_index({"PERSON": PEOPLE}, obscure)
    drawn = {outcome_of(row(i), ents, index, COHERENT, PROV, obscure)[C.REPLACEMENT_ENTITY]
             for i in range(12)}
    assert drawn and not drawn & {"Philip Johnson", "Isaac Newton"}
    # without the mapping's fame every name of the article is the story's
    plain = {outcome_of(row(i), ents, BANK, COHERENT, PROV, near)[C.REPLACEMENT_ENTITY]
             for i in range(12)}
    assert plain == {"Isaac Newton", "Philip Johnson"}


def test_spark_s_mapping_is_the_reference_s(spark):
    """`actions.nearby_mapping` (the job's) against `nearby.from_contexts` (the reference
    runner's): a text a context names twice counts once for it, a context two articles
    share counts for each, a context of no article for none."""
    from faithqa_spark.config import load_config
    from faithqa_spark.core.nearby import from_contexts
    from faithqa_spark.spark.actions import nearby_mapping

    mentions = {"c1": [("PERSON", "Ada Lovelace"), ("PERSON", "Ada Lovelace"), ("GPE", "Paris")],
                "c2": [("PERSON", "Ada Lovelace"), ("DATE", "the 1840s")],
                "c3": [("GPE", "Paris"), ("PERSON", "Isaac Newton")]}
    # (input file, record location, context id) of each question
    questions = [("a.json", "article=0/paragraph=0/qa=0", "c1"),
                 ("a.json", "article=0/paragraph=0/qa=1", "c1"),
                 ("a.json", "article=0/paragraph=1/qa=0", "c2"),
                 ("a.json", "article=1/paragraph=0/qa=0", "c2"),
                 ("t.json", "question=7", "c3")]
    qa = spark.createDataFrame(
        questions, f"{C.INPUT_FILE} string, {C.RECORD_LOC} string, {C.CONTEXT_ID} string")
    ner = spark.createDataFrame(
        [(cid, [{C.ENTITY_TYPE: t, C.ENT_TEXT: x} for t, x in m]) for cid, m in mentions.items()],
        f"{C.CONTEXT_ID} string, {C.BANK_MENTIONS} "
        f"array<struct<{C.ENTITY_TYPE}: string, {C.ENT_TEXT}: string>>")
    got = nearby_mapping(qa, ner, load_config(None, []))
    pairs = sorted({(a, cid) for f, loc, cid in questions if (a := article_key(f, loc))})
    want = from_contexts((a, mentions[cid]) for a, cid in pairs)  # as reference.py does
    assert got == want
    assert got == {"a.json#article=0": {"DATE": ["1840s"], "GPE": ["Paris"],
                                        "PERSON": ["Ada Lovelace", "Ada Lovelace"]},
                   "a.json#article=1": {"DATE": ["1840s"], "PERSON": ["Ada Lovelace"]}}
    assert nearby_mapping(qa, ner, load_config(None, ["substitution.policy=paper"])) is None


def test_work_in_background_gives_its_value_or_its_error(spark):
    from faithqa_spark.spark.actions import in_background

    with in_background(spark, "a count", lambda: spark.range(5).count()) as value:
        assert value() == 5
    # the caller's local properties (a job group, a scheduler pool) reach the thread's jobs
    sc = spark.sparkContext
    sc.setLocalProperty("faithqa.test.caller", "kept")
    try:
        with in_background(spark, "a property",
                           lambda: sc.getLocalProperty("faithqa.test.caller")) as value:
            assert value() == "kept"
    finally:
        sc.setLocalProperty("faithqa.test.caller", None)
    try:
        with in_background(spark, "a failure", lambda: 1 // 0) as value:
            value()
    except ZeroDivisionError:
        pass
    else:
        raise AssertionError("the thread's error was lost")
