from __future__ import annotations

import pytest

from faithqa_spark.core.substitution import occurrences, substitute


def test_replaces_all_case_insensitive_occurrences_and_keeps_spans():
    ctx = "Mirelle won. MIRELLE lost. mirelle drew."
    s = substitute(ctx, "Mirelle", "Oskar Venn")
    assert s.text == "Oskar Venn won. Oskar Venn lost. Oskar Venn drew."
    assert s.count == 3
    for a, b in s.spans:
        assert s.text[a:b] == "Oskar Venn"


def test_word_boundaries_protect_longer_words():
    s = substitute("The US sold USB sticks to USA buyers; US-made.", "US", "Peru")
    assert s.text == "The Peru sold USB sticks to USA buyers; Peru-made."
    assert s.count == 2


def test_without_boundaries_matches_inside_words():
    s = substitute("US and USB", "US", "Peru", word_boundaries=False)
    assert s.text == "Peru and PeruB"


@pytest.mark.parametrize("entity", ["C++", "$5", "(1990)", "a.b*c", "x|y", "[1]", "\\d+"])
def test_regex_metacharacters_are_literal(entity):
    ctx = f"Before {entity} after {entity}."
    s = substitute(ctx, entity, "ZZ")
    assert s.text == "Before ZZ after ZZ."
    assert s.count == 2


def test_no_boundary_false_positive_for_symbols():
    # "C++" must not match inside "C++11" (followed by a word character)
    assert occurrences("C++11 and C++", "C++") == [(10, 13)]


def test_spans_shift_with_length_change():
    s = substitute("ab X cd X", "X", "LONGER")
    assert s.spans == [(3, 9), (13, 19)]
    assert s.text == "ab LONGER cd LONGER"


def test_no_occurrence_leaves_text_unchanged():
    s = substitute("nothing here", "Zed", "Ann")
    assert s.text == "nothing here" and s.spans == []


def test_unicode_entities():
    ctx = "Café Noël opened near Tel Aviv, شارع and 🚀 Launch."
    s = substitute(ctx, "Café Noël", "Bäckerei Süß")
    assert s.text.startswith("Bäckerei Süß opened")
    s2 = substitute(ctx, "شارع", "رحلة")
    assert "رحلة" in s2.text and s2.count == 1
