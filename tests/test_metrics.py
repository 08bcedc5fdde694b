"""Every metric of core.metrics and core.evaluation, on hand-written cases."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from faithqa_spark.core import evaluation as E
from faithqa_spark.core import fields as C
from faithqa_spark.core import metrics as M

PHRASES = ("not", "i don't know", "cannot answer")
SETTINGS = E.Settings(PHRASES, 0.8)


# ---------------------------------------------------------------- normalisation, EM, F1

@pytest.mark.parametrize("raw, norm", [
    ("The  Velmora Rail Company!", "velmora rail company"),
    ("an apple, a pear", "apple pear"),
    ("Theatre", "theatre"),  # an article only as a whole word
    ("“Ostrava—Nova”", "ostravanova"),  # Unicode punctuation goes like ASCII punctuation
    ("Ｋａｒｓｌａｎｄ", "karsland"),  # NFKC folds full-width letters
    ("ﬁve\u00a0Bays", "five bays"),  # ligature and no-break space
    ("Cafe\u0301 Renn", "café renn"),  # NFD input composes to the precomposed form
])
def test_normalize_answer(raw, norm):
    assert M.normalize_answer(raw) == norm


def test_unicode_forms_compare_equal_but_accents_stay():
    assert M.exact_match("Zu\u0308rich", "Zürich")  # NFD vs NFC
    assert not M.exact_match("Zurich", "Zürich")  # accents are kept, as in SQuAD
    assert M.contains_answer("It was in ｚüｒｉｃｈ, 1907.", "Zu\u0308rich")


def test_exact_match():
    assert M.exact_match("the Tarrow River.", "Tarrow river")
    assert not M.exact_match("Tarrow", "Tarrow River")


def test_f1_by_hand():
    # prediction 3 tokens, gold 2, 2 in common: P=2/3, R=1, F1=0.8
    assert M.f1_score("Lida Marsh herself", "Lida Marsh") == pytest.approx(0.8)
    assert M.f1_score("Anna Velt", "Oda Renn") == 0.0
    assert M.f1_score("the", "a") == 1.0  # both normalise to nothing (SQuAD's rule)
    assert M.f1_score("Hollin", "the") == 0.0


def test_contains_at_token_boundaries():
    assert M.contains_answer("They sailed to Pellin Bay in 1921", "pellin bay")
    assert not M.contains_answer("Yorkshire", "York")
    assert not M.contains_answer("19211", "1921")
    assert not M.contains_answer("anything", "The")  # an empty answer is contained nowhere


# ---------------------------------------------------------------- p_s, p_o, nesting

@pytest.mark.parametrize("prediction, flags", [
    ("Grenwick", (True, False)),
    ("Brannick", (False, True)),
    ("Grenwick or Brannick", (True, True)),
    ("Skarn Island", (False, False)),
])
def test_substitution_flags(prediction, flags):
    assert M.substitution_flags(prediction, "Grenwick", "Brannick") == flags


@pytest.mark.parametrize("prediction, p_o, p_s", [
    ("New York", False, True),  # the shorter answer inside the longer one is masked
    ("York", True, False),
    ("New York, not York", True, True),
    ("new york city", False, True),
])
def test_answers_that_contain_each_other(prediction, p_o, p_s):
    assert M.substitution_flags(prediction, "York", "New York") == (p_o, p_s)
    # and the other way round: the original is the longer answer
    assert M.substitution_flags(prediction, "New York", "York") == (p_s, p_o)


def test_numbers_keep_their_marks_for_p_s_and_p_o():
    # SQuAD's normalisation makes "2.1" and "21" equal; the substitution flags do not
    assert M.exact_match("2.1", "21")
    assert M.substitution_flags("2.1 million", "21", "2.1") == (False, True)
    assert M.substitution_flags("21", "21", "2.1") == (True, False)
    assert M.distinguishable("21", "2.1") and not M.distinguishable("U.S.", "US")


def test_indistinguishable_answers_are_ambiguous_and_left_out():
    rows = [cf_row(id="a"), cf_row(id="b", **{C.ORIGINAL_ANSWER: "U.S.", C.EVAL_ANSWER: "US"})]
    pairs = [p for r in rows for p in E.contributions(r, "Grenwick", False, SETTINGS)]
    o = E.metrics(E.add_up(pairs))["overall"]
    assert (o["n"], o["ambiguous"], o["p_o"], o["mr"]) == (2, 1, 1.0, 1.0)


# ---------------------------------------------------------------- refusals

def test_refusals_at_word_boundaries_the_another_trap():
    assert not M.is_refusal("another ship arrived", PHRASES)
    assert not M.is_refusal("Nothing", PHRASES)
    assert M.is_refusal("That is not stated.", PHRASES)
    assert M.is_refusal("I DON’T   KNOW.", PHRASES)  # curly apostrophe, case, spaces
    assert not M.is_refusal("I cannot answered", PHRASES)
    assert not M.is_refusal("not", ())


# ---------------------------------------------------------------- grounding

CTX = "Lida Marsh founded the Velmora Rail Company in 1907. It carried 30,000 people."


def test_sentences_and_content_words():
    assert M.sentences("One. Two!  Three? ") == ["One.", "Two!", "Three?"]
    assert M.content_words("The company was in Hollin") == ["company", "hollin"]


def test_sentence_support():
    # 1: all content words in the context; 2: "moon" and "cheese" are not; 3: no content word
    pred = "Lida Marsh founded it. The moon is cheese. It was."
    assert M.sentence_support(pred, CTX, 1.0) == (1, 2)
    # 4 of 5 content words present: supported at 0.8, not at 1.0
    assert M.sentence_support("Lida Marsh founded Velmora Hollin", CTX, 0.8) == (1, 1)
    assert M.sentence_support("Lida Marsh founded Velmora Hollin", CTX, 1.0) == (0, 1)


def test_prediction_entities():
    assert M.prediction_entities("In 1907 the Velmora Rail Company, not Hjelm, won 3.5 votes") \
        == ["1907", "Velmora Rail Company", "Hjelm", "3.5"]
    assert M.prediction_entities("The answer is no.") == []
    assert M.prediction_entities("the Seven Years' War, in 3D") == ["Seven Years' War", "3D"]
    assert M.prediction_entities("H2O and 2O") == ["H2O", "2O"]  # no name "O" inside "2O"


def test_entity_support():
    assert M.entity_support("Lida Marsh, in 1907, with 30000 people", CTX) == (3, 3)
    assert M.entity_support("Anna Velt in 1921", CTX) == (0, 2)
    assert M.entity_support("nothing to check", CTX) == (0, 0)
    assert M.entity_support("Seven Years' War in 3D", "the Seven Years' War, shown in 3D") \
        == (2, 2)


# ---------------------------------------------------------------- rows and aggregation

def cf_row(**kw):
    row = {C.ID: "q1", C.KIND: C.COUNTERFACTUAL, C.SPLIT: "dev", C.SOURCE: "squad",
           C.ENTITY_TYPE: "GPE", C.MATCH_STRATEGY: "exact",
           C.EVAL_CONTEXT: "Trains reach Brannick daily.", C.EVAL_ANSWER: "Brannick",
           C.ORIGINAL_ANSWER: "Grenwick", C.SOURCE_ID: None}
    row.update(kw)
    return row


def test_row_counts_missing_and_empty_are_not_scored():
    assert E.row_counts(cf_row(), None, SETTINGS) == {"rows": 1, "missing": 1}
    assert E.row_counts(cf_row(), "  ", SETTINGS) == {"rows": 1, "empty": 1}


def test_row_counts_counterfactual():
    c = E.row_counts(cf_row(), "Brannick", SETTINGS)
    assert (c["n"], c["em"], c["f1_e9"], c["p_s"], c["p_o"], c["neither"]) == (1, 1, 10**9, 1, 0, 0)


def test_source_row_id_is_the_training_exports_rule():
    assert E.source_row_id("squad-12#factual") == "squad-12"
    assert E.source_row_id("squad:a#b#abstention") == "squad:a#b"
    assert E.source_row_id("squad-12-abstention") is None  # not the exports' separator
    assert E.source_row_id("squad-12#other") is None  # not a record kind
    assert E.source_row_id("squad-12") is None


def test_eval_row_of_a_control_from_messages_and_inheritance():
    rec = {"id": "q1#factual", "kind": "factual", "messages": [
        {"role": "system", "content": "s"}, {"role": "user", "content": "ctx Q"},
        {"role": "assistant", "content": "Grenwick"}]}
    row = E.inherit(E.eval_row(rec, "dev"), cf_row())
    assert (row[C.EVAL_CONTEXT], row[C.EVAL_ANSWER], row[C.SOURCE_ID]) == ("ctx Q", "Grenwick", "q1")
    assert (row[C.SPLIT], row[C.ENTITY_TYPE], row[C.ORIGINAL_ANSWER]) == ("dev", "GPE", "Grenwick")


def test_eval_row_rejects_incomplete_records():
    with pytest.raises(E.RecordError, match="faithful_answer"):
        E.eval_row({"id": "x", "modified_context": "c", "original_answer": "a"})
    with pytest.raises(E.RecordError, match="unknown kind"):
        E.eval_row({"id": "x", "kind": "dialogue"})


def test_metrics_by_hand():
    rows = [cf_row(id="a"), cf_row(id="b", **{C.ENTITY_TYPE: "PERSON"}), cf_row(id="c"),
            cf_row(id="d")]
    preds = ["Brannick", "Grenwick", "Grenwick or Brannick", None]
    ctl = {C.ID: "a#abstention", C.KIND: C.ABSTENTION, C.EVAL_CONTEXT: "Other text.",
           C.EVAL_ANSWER: "I don't know.", C.SPLIT: "dev"}
    pairs = [p for r, x in zip(rows, preds) for p in E.contributions(r, x, False, SETTINGS)]
    pairs += E.contributions(ctl, "I don't know", False, SETTINGS)
    pairs += E.contributions(None, "Hollin", False, SETTINGS)
    pairs += E.contributions(rows[0], "Brannick", True, SETTINGS)
    m = E.metrics(E.add_up(pairs))
    o = m["overall"]
    assert (o["n"], o["rows"], o["missing"]) == (3, 4, 1)
    assert (o["em"], o["p_s"], o["p_o"], o["both"], o["neither"]) == (
        round(1 / 3, 6), round(2 / 3, 6), round(2 / 3, 6), round(1 / 3, 6), 0.0)
    assert o["mr"] == 0.5
    assert (m["missing"], m["unknown"], m["duplicate"]) == (1, 1, 1)
    assert m["by_entity_type"]["PERSON"]["mr"] == 1.0
    assert m["by_entity_type"]["GPE"]["n"] == 2
    assert m["abstention"] == {"tp": 1, "fp": 0, "fn": 0, "precision": 1.0, "recall": 1.0,
                               "f1": 1.0}
    assert "em" not in m["by_kind"]["abstention"]


def test_mr_is_null_when_neither_answer_appears():
    m = E.metrics(E.add_up(E.contributions(cf_row(), "Skarn Island", False, SETTINGS)))
    assert m["overall"]["mr"] is None and m["overall"]["neither"] == 1.0


@given(st.text(max_size=40), st.text(max_size=40))
def test_f1_and_em_are_fractions_and_em_implies_f1_one(pred, gold):
    f1 = M.f1_score(pred, gold)
    assert 0.0 <= f1 <= 1.0
    if M.exact_match(pred, gold):
        assert f1 == 1.0


def test_sentence_support_threshold_is_exact_at_the_edge():
    # 7 of 10 content words in the context: supported at 0.7 (no float rounding up to 8)
    ctx = "alpha beta gamma delta epsilon zeta eta"
    pred = "alpha beta gamma delta epsilon zeta eta theta iota kappa"
    assert M.sentence_support(pred, ctx, 0.7) == (1, 1)
    assert M.sentence_support(pred, ctx, 0.71) == (0, 1)
