from __future__ import annotations

from faithqa_spark.core.matching import EXACT, POSITIONAL, SUBSTRING, Entity, match_answer

CTX = "In 1907 the Velmora Rail Company opened a line from Ostrava Nova to Pellin Bay."
ENTS = [Entity(t, label, CTX.index(t), CTX.index(t) + len(t)) for t, label in [
    ("1907", "DATE"), ("the Velmora Rail Company", "ORG"), ("Ostrava Nova", "GPE"),
    ("Pellin Bay", "LOC")]]


def test_offsets_of_fixture_are_real():
    for e in ENTS:
        assert CTX[e.start:e.end] == e.text


def test_exact_match_is_case_and_space_insensitive():
    m = match_answer("  ostrava NOVA ", CTX, ENTS)
    assert m is not None and m.strategy == EXACT and m.entity.text == "Ostrava Nova"


def test_substring_answer_inside_entity():
    m = match_answer("Velmora Rail Company", CTX, ENTS)
    assert m is not None and m.strategy == SUBSTRING
    assert m.entity.label == "ORG"


def test_substring_entity_inside_answer_keeps_largest_overlap():
    m = match_answer("from Ostrava Nova to Pellin Bay", CTX, ENTS)
    assert m is not None and m.strategy == SUBSTRING
    assert m.entity.text == "Ostrava Nova"  # overlap 12 beats "Pellin Bay"'s 10


def test_substring_needs_minimum_overlap():
    ents = [Entity("Bo", "PERSON", 0, 2)]
    # overlap 2 < 3, and positionally 2 chars of a 7-char answer is under half
    assert match_answer("Bo Rinn", "Bo Rinn sailed.", ents, min_substring_overlap=3) is None
    m = match_answer("Bo Rinn", "Bo Rinn sailed.", ents, min_substring_overlap=2)
    assert m is not None and m.strategy == SUBSTRING


def test_positional_match_by_span_overlap():
    ctx = "The Orvane Tower, built by Lida Marsh, stands 40 m tall."
    ents = [Entity("Orvane", "ORG", 4, 10)]
    # "Orvane Tower" contains "Orvane" (overlap 6 >= 3) -> substring, so use text that
    # does not contain the entity but overlaps its span.
    m = match_answer("Orvane Tower", ctx, ents)
    assert m is not None and m.strategy == SUBSTRING
    ents2 = [Entity("Tower, built", "FAC", 11, 23)]
    m2 = match_answer("Orvane Tower", ctx, ents2)
    # overlap of [4,16) and [11,23) is 5 < 6 = half of 12
    assert m2 is None
    ents3 = [Entity("ane Tower, b", "FAC", 7, 19)]
    m3 = match_answer("Orvane Tower", ctx, ents3)
    assert m3 is not None and m3.strategy == POSITIONAL  # overlap 9 >= 6


def test_no_match_returns_none():
    assert match_answer("Quillon", CTX, ENTS) is None
    assert match_answer("", CTX, ENTS) is None


def test_exact_beats_substring_even_if_later():
    ents = [Entity("Pellin Bay Harbour", "LOC", 0, 18), Entity("Pellin Bay", "LOC", 30, 40)]
    m = match_answer("pellin bay", "Pellin Bay Harbour is next to. Pellin Bay", ents)
    assert m is not None and m.strategy == EXACT and m.entity.start == 30


def test_positional_uses_original_offsets_with_length_changing_lowercase():
    # 'İ' lower-cases to two code points; offsets must still be the original string's.
    ctx = "İİİ Karsk Dam was finished."
    ents = [Entity("Karsk Dam was", "FAC", 4, 17)]
    m = match_answer("Karsk Dam was finished", ctx, ents)
    assert m is not None and m.strategy == SUBSTRING
    ents = [Entity("k Dam was fin", "FAC", 8, 21)]
    m = match_answer("Karsk Dam", ctx, ents)
    assert m is not None and m.strategy == POSITIONAL
