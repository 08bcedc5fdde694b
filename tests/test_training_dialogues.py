"""Training exports: the sentence rule and the clarification / correction dialogues."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from faithqa_spark.config import load_config
from faithqa_spark.core import fields as C
from faithqa_spark.core import reasons as R
from faithqa_spark.core.dialogues import ablate, dialogue_record
from faithqa_spark.core.sentences import remove_span, sentence_spans, sentences
from faithqa_spark.core.text import contains_ci
from faithqa_spark.core.training import row_id_of
from training_world import ALL, ROWS, WORLD, all_records, make_row, written  # noqa: F401


# ---------------------------------------------------------------- sentences

@pytest.mark.parametrize("text, expected", [
    ("Mr. Smith arrived. He left.", ["Mr. Smith arrived.", "He left."]),
    ("The U.S. Army came in 1907. It stayed.", ["The U.S. Army came in 1907.", "It stayed."]),
    ("It grew 3.5 percent. Then it fell.", ["It grew 3.5 percent.", "Then it fell."]),
    ("J. R. Orlan wrote it. Why? Nobody knows!",
     ["J. R. Orlan wrote it.", "Why?", "Nobody knows!"]),
    ('He said "stop." Then he ran.', ['He said "stop."', "Then he ran."]),
    ("First part\n\nsecond part.", ["First part", "second part."]),
    ("Liquid O\n2 boils. Then c. 1500 it was found.", ["Liquid O\n2 boils.",
                                                       "Then c. 1500 it was found."]),
    ("See Dr. Arlen, e.g. on Jan. 5. Done.", ["See Dr. Arlen, e.g. on Jan. 5.", "Done."]),
    ("lower case after. stays joined.", ["lower case after. stays joined."]),
])
def test_sentence_rule(text: str, expected: list[str]) -> None:
    assert sentences(text) == expected


@given(st.lists(st.text(st.sampled_from("ab .?!\nMU3"), min_size=1, max_size=12), max_size=6))
def test_sentence_spans_cover_every_non_space_char_in_order(parts: list[str]) -> None:
    text = "".join(parts)
    spans = sentence_spans(text)
    covered = set()
    for (s, e), nxt in zip(spans, spans[1:] + [(len(text), len(text))]):
        assert s < e <= nxt[0] and not text[s].isspace() and not text[e - 1].isspace()
        covered.update(range(s, e))
    assert all(i in covered for i, ch in enumerate(text) if not ch.isspace())


def test_remove_span_keeps_the_other_sentences() -> None:
    text = "One a. Two b. Three c."
    spans = sentence_spans(text)
    assert [remove_span(text, spans, i) for i in range(3)] == [
        "Two b. Three c.", "One a. Three c.", "One a. Two b."]


# ---------------------------------------------------------------- dialogues

def test_ablate_removes_the_answer_sentence_and_verifies() -> None:
    ctx = "Oda Renn built it. It stands in Grenwick. Nobody else lives there."
    cut = ablate(ctx, "Grenwick", [ctx.index("Grenwick")])
    assert cut.sentence == "It stands in Grenwick."
    assert cut.ablated_context == "Oda Renn built it. Nobody else lives there."
    two = "Grenwick is old. It stands in Grenwick."
    assert (ablate(two, "Grenwick", [0, two.rindex("Grenwick")])
            == R.DIALOGUE_ANSWER_ACROSS_SENTENCES)
    assert ablate("It stands in Grenwick.", "Grenwick", [13]) == R.DIALOGUE_SINGLE_SENTENCE
    # the word-boundary starts miss "Grenwickers"; the verification does not
    tricky = "It stands in Grenwick. The Grenwickers love it."
    assert ablate(tricky, "Grenwick", [13]) == R.DIALOGUE_ANSWER_REMAINS
    assert ablate(ctx, "Grenwick", []) == R.DIALOGUE_NO_ANSWER_SPAN


def test_every_dialogue_removes_the_answer_sentence(written) -> None:
    out, counts = written
    dialogues = all_records(out, "dialogues")
    assert {d[C.KIND] for d in dialogues} == {C.CLARIFICATION, C.CORRECTION}
    by_id = {r[C.ID]: r for r in ROWS}
    for d in dialogues:
        row = by_id[row_id_of(d[C.ID])]
        roles = [m[C.ROLE] for m in d[C.MESSAGES]]
        assert roles == ["system", "user", "assistant", "user", "assistant"]
        cut = ablate(row[C.MODIFIED_CONTEXT], row[C.FAITHFUL_ANSWER], row[C.ANSWER_STARTS])
        assert contains_ci(cut.sentence, row[C.FAITHFUL_ANSWER])
        assert not contains_ci(cut.ablated_context, row[C.FAITHFUL_ANSWER])
        first_user, supply = d[C.MESSAGES][1][C.CONTENT], d[C.MESSAGES][3][C.CONTENT]
        assert cut.ablated_context in first_user
        assert not contains_ci(first_user, row[C.FAITHFUL_ANSWER])
        assert cut.sentence in supply
        assert row[C.FAITHFUL_ANSWER] in d[C.MESSAGES][4][C.CONTENT]
        if d[C.KIND] == C.CORRECTION:
            assert row[C.ORIGINAL_ANSWER] in d[C.MESSAGES][2][C.CONTENT]
    assert sum(counts["dialogues"]["splits"].values()) == len(dialogues)


def test_dialogue_paths_and_phrasings_vary_by_hash() -> None:
    cfg = load_config(None, ALL)
    recs = [dialogue_record(make_row(i, WORLD[0][0], "Who founded it?", "Halvard Quist",
                                     "Oda Renn", "PERSON", "train"), cfg.training, 42)
            for i in range(40)]
    assert {r[C.KIND] for r in recs} == {C.CLARIFICATION, C.CORRECTION}
    assert len({r[C.MESSAGES][2][C.CONTENT] for r in recs if r[C.KIND] == C.CLARIFICATION}) > 1
