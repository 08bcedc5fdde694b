"""Each audit flag on hand-written rows (invented text): a passing and a failing example, and
the cases where it does not apply or cannot be measured."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, strategies as st

from faithqa_spark.core import audit as A
from faithqa_spark.core import fields as C
from faithqa_spark.core.audit_summary import (
    audit_counts, audit_key, audit_report, audit_sample_ids, gender_lookup, merge_counts,
    row_gender_votes, vote_counts)
from faithqa_spark.core.substitution import substitute

BOUNDS = A.AuditBounds(0.3, 3.0)


def make_row(ctx: str, orig: str, rep: str, etype: str = "PERSON", *, answer: str | None = None,
             question: str = "Who wrote the suite?", faithful: str | None = None,
             ours: bool = True, **over: Any) -> dict[str, Any]:
    """A dataset row as the paper-mode pipeline makes it (our substitution)."""
    sub = substitute(ctx, orig, rep)
    row = {C.ID: "r1", C.SOURCE: "squad", C.QUESTION: question, C.ORIGINAL_CONTEXT: ctx,
           C.MODIFIED_CONTEXT: sub.text, C.ORIGINAL_ANSWER: answer or orig,
           C.FAITHFUL_ANSWER: faithful or rep, C.ORIGINAL_ENTITY: orig,
           C.REPLACEMENT_ENTITY: rep, C.ENTITY_TYPE: etype}
    if ours:
        row[C.ANSWER_STARTS] = [a for a, _ in sub.spans]
        row[C.MODIFIED_SPANS] = [{C.SPAN_START: a, C.SPAN_END: b} for a, b in sub.spans]
    row.update(over)
    return row


CHOPIN = "Frédéric Quillard wrote the suite in Lodz. Quillard's pupil later praised it."


def test_paper_four_pass_and_fail() -> None:
    r = make_row(CHOPIN, "Frédéric Quillard", "Ana-Sofía Ruiz")
    audit = A.audit_row(r, BOUNDS)
    assert set(audit) == set(C.AUDIT_FLAGS)
    assert audit["replacement_present"] and audit["original_removed"] and audit["context_modified"]
    assert audit["length_ratio"]
    # the replacement contains the original: the old answer survives
    g = make_row("Trade with Westland grew. Westland's ports...", "Westland", "North Westland", "GPE")
    assert A.original_removed(g) is False
    assert A.replacement_present(make_row(CHOPIN, "Lodz", "Kraków", "GPE", **{C.MODIFIED_CONTEXT: CHOPIN})) is False
    assert A.context_modified(make_row(CHOPIN, "Lodz", "Kraków", "GPE", **{C.MODIFIED_CONTEXT: CHOPIN})) is False
    assert A.length_ratio(make_row(CHOPIN, "Lodz", "The Grand Duchy of Upper Kraków", "GPE"), BOUNDS) is False
    assert A.length_ratio(make_row(CHOPIN, "Lodz", "X", "GPE"), BOUNDS) is False


def test_punctuation_entities() -> None:
    ctx = "The C++ (v2.0) spec and C++'s rival C#; the C++ team."
    r = make_row(ctx, "C++ (v2.0)", "[Q-Lang/3]", "ORG", question="What spec?")
    assert A.replacement_present(r) and A.original_removed(r) and A.inside_word(r)
    assert A.question_mentions_original(r)


def test_answer_offsets() -> None:
    r = make_row(CHOPIN, "Lodz", "Kraków", "GPE")
    assert A.answer_offsets(r)
    assert A.answer_offsets({**r, C.ANSWER_STARTS: [0]}) is False
    assert A.answer_offsets({**r, C.ANSWER_STARTS: []}) is False
    paper = make_row(CHOPIN, "Lodz", "Kraków", "GPE", ours=False)
    assert A.answer_offsets(paper) is None  # not measurable, not a pass


def test_inside_word() -> None:
    r = make_row("The US office sold USB cables.", "US", "Narnia", "GPE")
    assert A.inside_word(r)
    bad_text = "The Narnia office sold NarniaB cables."
    bad = {**r, C.MODIFIED_CONTEXT: bad_text,
           C.MODIFIED_SPANS: [{"start": 4, "end": 10}, {"start": 23, "end": 29}]}
    assert A.inside_word(bad) is False
    # the paper's format (no spans): a non-boundary occurrence disappeared
    paper = {k: v for k, v in bad.items() if k not in (C.MODIFIED_SPANS, C.ANSWER_STARTS)}
    assert A.inside_word(paper) is False
    ok_paper = {k: v for k, v in r.items() if k not in (C.MODIFIED_SPANS, C.ANSWER_STARTS)}
    assert A.inside_word(ok_paper)


def test_name_part_leak() -> None:
    leak = make_row(CHOPIN, "Frédéric Quillard", "Ana Ruiz")
    assert A.name_part_leak(leak) is False  # "Quillard's pupil" is left
    clean = make_row("Frédéric Quillard wrote the suite in Lodz.", "Frédéric Quillard", "Ana Ruiz")
    assert A.name_part_leak(clean)
    shared = make_row(CHOPIN, "Frédéric Quillard", "Marek Quillard")  # the part is in both
    assert A.name_part_leak(shared)
    other_person = make_row("Frédéric Quillard met Sonia Quillard there.", "Frédéric Quillard", "Ana Ruiz")
    assert A.name_part_leak(other_person)  # "Sonia Quillard" is someone else
    titled = make_row("Þórunn Ásgeirsdóttir sang. Mrs. Ásgeirsdóttir left.", "Þórunn Ásgeirsdóttir", "Ola Nderu")
    assert A.name_part_leak(titled) is False
    assert A.name_part_leak(make_row(CHOPIN, "Quillard", "Ruiz")) is None  # one word
    assert A.name_part_leak(make_row(CHOPIN, "Lodz", "Kraków", "GPE")) is None  # not a PERSON
    initials = make_row("J. R. R. Tolkar wrote it. Tolkar's maps.", "J. R. R. Tolkar", "Ana Ruiz")
    assert A.name_part_leak(initials) is False


def test_name_glue() -> None:
    glued = make_row("Count Afonso Henriques (future Afonso I) ruled.", "Afonso", "Jo Benet")
    assert A.name_glue(glued) is False
    fine = make_row("The ruler Afonso, later king, ruled. President Afonso left.", "Afonso", "Jo Benet")
    assert A.name_glue(fine)
    start = make_row("Afonso ruled. Later Afonso left.", "Afonso", "Jo Benet")
    assert A.name_glue(start)  # a capital that starts a sentence is no name
    paper = {k: v for k, v in glued.items() if k != C.MODIFIED_SPANS}
    assert A.name_glue(paper) is False  # found through the replacement's occurrences
    assert A.name_glue(make_row(CHOPIN, "Lodz", "Kraków", "GPE")) is None


def test_answer_span() -> None:
    ctx = "She studied at the University of Notre Dame in 1990."
    r = make_row(ctx, "Notre Dame", "Yale", "ORG", answer="the University of Notre Dame")
    assert A.answer_span(r) is False  # the faithful answer is the bare "Yale"
    good = {**r, C.FAITHFUL_ANSWER: "the University of Yale"}
    assert A.answer_span(good)
    article = make_row("They met the Velvet Owls.", "Velvet Owls", "Iron Lanterns", "ORG",
                       answer="the Velvet Owls")
    assert A.answer_span(article) is None  # only an article longer: SQuAD-equal, not applicable
    assert A.answer_span(make_row(ctx, "Notre Dame", "Yale", "ORG")) is None  # answer = entity
    partial = make_row("In 1990 Brannick burned.", "1990", "1881", "DATE", answer="In 1990 Bran")
    assert A.answer_span(partial) is False


def test_answer_span_counts_a_persons_surname_said_alone() -> None:
    # the coherent policy swaps "Clinton" too when Bill Clinton becomes Thomas Jefferson
    ctx = "Bill Clinton spoke. Critics said Clinton used his charm for political gain."
    r = make_row(ctx, "Bill Clinton", "Thomas Jefferson",
                 answer="Clinton used his charm for political gain",
                 faithful="Jefferson used his charm for political gain")
    assert A.answer_span(r)
    particle = make_row(ctx, "Adalbert von Bredow", "Helmuth von Moltke",
                        answer="von Bredow's Death Ride", faithful="von Moltke's Death Ride")
    assert A.answer_span(particle)
    # ... a wrong surname, or the old one left, still fails
    assert A.answer_span({**r, C.FAITHFUL_ANSWER: "Thomas used his charm for political gain"}) \
        is False
    assert A.answer_span({**particle, C.FAITHFUL_ANSWER: "von Moltke von Bredow's Death Ride"}) \
        is False
    # a given name said alone is as often another person's ("Princess Margaret" beside
    # Margaret Rhodes): not counted
    royal = make_row("Margaret Rhodes was a cousin of Princess Margaret.", "Margaret Rhodes",
                     "Gertrude Stein", answer="Princess Margaret", faithful="Princess Gertrude")
    assert A.answer_span(royal) is False
    # only a person has a surname to say alone
    place = make_row(ctx, "Bill Clinton", "Thomas Jefferson", "ORG",
                     answer="Clinton used his charm for political gain",
                     faithful="Jefferson used his charm for political gain")
    assert A.answer_span(place) is False


@pytest.mark.parametrize("etype, orig, rep, want", [
    ("DATE", "1907", "1888", True), ("DATE", "1907", "about 30,000", False),
    ("DATE", "4 July 1776", "March 3, 1912", True), ("DATE", "1907", "Tuesday", False),
    ("DATE", "the Middle Ages", "1907", None), ("CARDINAL", "four", "seven", True),
    ("CARDINAL", "four", "1,250", False), ("CARDINAL", "1,250", "9,400", True),
    ("GPE", "Lodz", "Kraków", None),
])
def test_shape_flags(etype: str, orig: str, rep: str, want: bool | None) -> None:
    r = make_row(f"It was {orig}, then more.", orig, rep, etype)
    flag = A.date_shape_flag(r) if etype == "DATE" else A.cardinal_shape_flag(r)
    assert flag is want


def test_doubled_article() -> None:
    bad = make_row("They qualified for the Cup of Tarn.", "Cup of Tarn", "the Velmora Games", "EVENT")
    assert A.doubled_article(bad) is False
    ok = make_row("They qualified for the Cup of Tarn.", "Cup of Tarn", "Velmora Games", "EVENT")
    assert A.doubled_article(ok)
    already = make_row("A typo: the the Cup of Tarn.", "Cup of Tarn", "Velmora Games", "EVENT")
    assert A.doubled_article(already)  # not created by the swap


def test_gender_conflict() -> None:
    ctx = "Marta Kowalczyk was born in Lodz. She studied physics."
    lexicon = {"John Brill": "m", "Ewa Lind": "f"}.get
    assert A.gender_conflict(make_row(ctx, "Marta Kowalczyk", "John Brill"), lexicon) is False
    assert A.gender_conflict(make_row(ctx, "Marta Kowalczyk", "Ewa Lind"), lexicon)
    assert A.gender_conflict(make_row(ctx, "Marta Kowalczyk", "Zorb Quib"), lexicon) is None
    no_pronoun = "Marta Kowalczyk was born in Lodz. The city grew."
    assert A.gender_conflict(make_row(no_pronoun, "Marta Kowalczyk", "John Brill"), lexicon) is None
    surname = "Marta Kowalczyk arrived. In 1990 Kowalczyk said he would stay."
    assert A.gender_conflict(make_row(surname, "Marta Kowalczyk", "Ewa Lind"), lexicon) is False


def test_question_mentions_original() -> None:
    r = make_row(CHOPIN, "Frédéric Quillard", "Ana Ruiz", question="What did Quillard's pupil praise?")
    assert A.question_mentions_original(r) is False
    r2 = make_row(CHOPIN, "Lodz", "Kraków", "GPE", question="Where did Frédéric Quillard write?")
    assert A.question_mentions_original(r2)
    r3 = make_row(CHOPIN, "Lodz", "Kraków", "GPE", question="Which LODZ suite?")
    assert A.question_mentions_original(r3) is False
    assert A.question_mentions_original({**r3, C.QUESTION: None}) is None


def test_paper_format_missing_fields_are_not_measurable() -> None:
    r = make_row(CHOPIN, "Lodz", "Kraków", "GPE", ours=False)
    audit = A.audit_row(r, BOUNDS)
    assert audit["answer_offsets"] is None
    assert A.audit_row({}, BOUNDS) == dict.fromkeys(C.AUDIT_FLAGS)


def test_counts_report_and_merge() -> None:
    a = A.audit_row(make_row(CHOPIN, "Frédéric Quillard", "Ana Ruiz"), BOUNDS)
    b = A.audit_row(make_row(CHOPIN, "Lodz", "Kraków", "GPE", source="triviaqa"), BOUNDS)
    rows = [("squad", a), ("triviaqa", b), ("squad", a)]
    counts = audit_counts(rows)
    assert merge_counts(audit_counts(rows[:1]), audit_counts(rows[1:])) == counts
    rep = audit_report(counts)
    leak = rep["sources"]["squad"]["flags"]["name_part_leak"]
    assert leak == {"applies": 2, "fails": 2, "not_measurable": 0, "rate": 1.0}
    tot = rep["total"]["flags"]["name_part_leak"]
    assert tot == {"applies": 2, "fails": 2, "not_measurable": 1, "rate": 1.0}
    assert rep["total"]["rows"] == 3
    assert rep["sources"]["triviaqa"]["flags"]["answer_offsets"]["rate"] == 0.0
    assert list(rep["total"]["flags"]) == list(C.AUDIT_FLAGS)
    # rows without a source count only in the total
    assert set(audit_report(audit_counts([(None, a)]))["sources"]) == set()


@given(st.lists(st.text(min_size=1, max_size=8), unique=True, max_size=40), st.integers(0, 10))
def test_sample_ids_are_order_free(ids: list[str], n: int) -> None:
    got = audit_sample_ids(ids, 42, n)
    assert got == audit_sample_ids(list(reversed(ids)), 42, n)
    assert len(got) == min(n, len(ids))
    assert [audit_key(42, i) for i in got] == sorted(audit_key(42, i) for i in got)


def test_dataset_gender_votes() -> None:
    r = make_row("Ewa Lind sang. She left.", "Ewa Lind", "John Brill")
    votes = vote_counts(row_gender_votes(r) + row_gender_votes(r))
    assert votes == {"Ewa Lind": (0, 2)}
    assert gender_lookup(votes)("Ewa Lind") == "f"
    assert row_gender_votes(make_row(CHOPIN, "Lodz", "Kraków", "GPE")) == []


_WORDS = st.sampled_from(["Ána", "Quill", "Brannick", "Øst", "Velmora", "C++", "(1907)", "Zed"])


@given(st.lists(st.sampled_from(["the", "met", "Ána", "Quill", "in", "C++", "(1907)", ",", "."]),
                min_size=1, max_size=30), _WORDS, st.sampled_from(["Lodz", "Kraków-Nowa", "St. Ives"]))
def test_our_substitution_passes_the_mechanical_flags(words: list[str], orig: str, rep: str) -> None:
    ctx = " ".join(words + [orig])
    r = make_row(ctx, orig, rep, "GPE")
    audit = A.audit_row(r, A.AuditBounds(0.0, 100.0))
    for flag in ("replacement_present", "original_removed", "context_modified", "length_ratio",
                 "answer_offsets", "inside_word"):
        assert audit[flag] is True, flag
