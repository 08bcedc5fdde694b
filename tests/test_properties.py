"""Property-based tests (hypothesis) of the pure-Python core: no Spark.

What each property claims, and under which assumptions, is written next to it. The text
strategies deliberately mix regex metacharacters, quotes, combining accents, right-to-left
letters, emoji, digits, whitespace and characters whose case mapping is unusual, drawn from
a small alphabet so that entities really do recur inside contexts.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from hypothesis import assume, event, given, settings, strategies as st

from faithqa_spark.config import load_config
from faithqa_spark.core import fields as C
from faithqa_spark.core import reasons, splitting
from faithqa_spark.core.hashing import split_key
from faithqa_spark.core.matching import EXACT, POSITIONAL, SUBSTRING, Entity, match_answer
from faithqa_spark.core.process import Provenance, process_row
from faithqa_spark.core.sampling import overlaps_original
from faithqa_spark.core.sampling import SamplingIndex, choose_replacement
from faithqa_spark.core.substitution import occurrences, substitute
from faithqa_spark.core.text import contains_ci, context_id, find_ci, literal_pattern, norm

# ---------------------------------------------------------------- text strategies

METACHARS = ".^$*+?{}[]\\|()"
QUOTES = "\"'`\u201c\u201d\u2019"
COMBINING = "\u0301\u0308\u064e\u05b8"  # acute, diaeresis, Arabic fatha, Hebrew qamats
# Arabic alef/beh/seen/meem, Hebrew alef/bet/shin
RTL = "\u0627\u0628\u0633\u0645\u05d0\u05d1\u05e9"
EMOJI = "\U0001F680\U0001F469\u200d\u2764"  # rocket, woman, zero-width joiner, heart
# Letters whose case mapping is odd for re.IGNORECASE: dotted/dotless i, sharp s, the
# Kelvin sign (matches k), long s (matches s).
ODD_CASE = "\u0130\u0131\u00df\u212a\u017f"
ASCII = "abcAB ZkKsS019_-,"
WHITESPACE = " \t\n\u00a0"
ALPHABET = ASCII + METACHARS + QUOTES + COMBINING + RTL + EMOJI + ODD_CASE + WHITESPACE + "e\u00e9"

TEXT = st.text(alphabet=ALPHABET, max_size=40)
ENTITY = st.text(alphabet=ALPHABET, min_size=1, max_size=8).filter(lambda s: s.strip())
REPLACEMENT = st.text(alphabet=ALPHABET, max_size=8)
# one character or none either side of an embedded entity: word characters or not
NEIGHBOUR = st.sampled_from(["", " ", ",", "(", ")", ".", "\n", "-", "\u201c", "\U0001F680",
                             "a", "Z", "9", "_", "\u00e9", "\u0627", "\u05d0", "\u0301"])
NON_WORD_NEIGHBOUR = st.sampled_from([" ", ",", "(", ")", ".", "\n", "-", "\u201c", "!",
                                      "\U0001F680", "$"])
WORD = re.compile(r"\w")


def is_word(ch: str) -> bool:
    return WORD.match(ch) is not None


def is_mark(ch: str) -> bool:
    return unicodedata.category(ch)[0] == "M"


def ci_equal(pattern_text: str, text: str) -> bool:
    """Equal under exactly the rules `occurrences` uses (re.IGNORECASE, char by char)."""
    return literal_pattern(pattern_text, False).fullmatch(text) is not None


@st.composite
def case_variant(draw: st.DrawFn, text: str, *, keep_match: bool = False) -> str:
    """`text` with random per-character case changes. Python's case maps can change length
    ('\u00df'.upper() == 'SS') or give a character re does not equate; with `keep_match`
    only variants that still match the original under re.IGNORECASE are used."""
    out = []
    for ch in text:
        options = [ch, ch.upper(), ch.lower(), ch.swapcase()]
        if keep_match:
            options = [o for o in options if ci_equal(ch, o)]
        out.append(draw(st.sampled_from(options)))
    return "".join(out)


@st.composite
def embedding(draw: st.DrawFn, neighbour: st.SearchStrategy[str] = NEIGHBOUR,
              keep_match: bool = False) -> tuple[str, str, int]:
    """(context, entity, copies): random text embedding the entity `copies` times, each copy
    case-changed and with a random neighbour on each side."""
    entity = draw(ENTITY)
    copies = draw(st.integers(0, 5))
    parts = [draw(TEXT)]
    for _ in range(copies):
        parts += [draw(neighbour), draw(case_variant(entity, keep_match=keep_match)),
                  draw(neighbour), draw(TEXT)]
    return "".join(parts), entity, copies


CONTEXT_AND_ENTITY = st.one_of(
    st.tuples(TEXT, ENTITY),
    embedding().map(lambda t: (t[0], t[1])),
)


def rebuild(new_text: str, spans: list[tuple[int, int]], originals: list[str]) -> str:
    """Put the original occurrence texts back into the substituted text."""
    pieces, last = [], 0
    for (a, b), orig in zip(spans, originals, strict=True):
        pieces += [new_text[last:a], orig]
        last = b
    pieces.append(new_text[last:])
    return "".join(pieces)


def replacement_cannot_form_entity(entity: str, replacement: str) -> bool:
    """True when, whatever text surrounds it, an inserted `replacement` can neither be part
    of nor unblock a boundary-respecting occurrence of `entity`.

    These are the assumptions really needed for "no occurrence is left after substitution".
    The brief's "the replacement does not contain the entity and the entity does not contain
    the replacement" is not enough: entity "X Y", replacement "Q X", context "X Y Y" gives
    "Q X Y" (a suffix of the replacement plus kept text). What is needed:
    - the replacement is not empty (an empty one joins its two neighbours into new text);
    - no occurrence of the entity can overlap an inserted replacement: for every offset at
      which the entity would overlap it, either some overlapping character differs (under
      re.IGNORECASE) or a look-around character that falls inside the replacement blocks it
      (a word character next to an entity edge that is a word character). So "US" -> "Peru"
      is fine ("Peru" ends in "u", but "r" before it blocks), and so is "US" -> "USB";
    - the replacement does not unblock an occurrence that only touches it: where the entity
      starts (ends) with a word character, so does the replacement. Otherwise entity "a-",
      context "a-a-": only the second "a-" is at a boundary; replacement "!" gives "a-!",
      where the first "a-" now is one.
    Everything else is text the substitution did not touch, and `finditer` finds every
    boundary-respecting occurrence there that does not overlap an earlier one. Overlaps are
    checked against one replacement with the text around it left free, which also covers an
    occurrence spanning two replacements.
    """
    e, r = entity, replacement
    if not r:
        return False
    n, m = len(e), len(r)
    for j in range(-(n - 1), m):  # entity at [j, j + n), replacement at [0, m)
        if not all(ci_equal(e[i], r[j + i]) for i in range(n) if 0 <= j + i < m):
            continue
        if 0 <= j - 1 < m and is_word(r[j - 1]) and is_word(e[0]):
            continue
        if 0 <= j + n < m and is_word(r[j + n]) and is_word(e[-1]):
            continue
        return False
    if is_word(e[0]) and not is_word(r[0]):
        return False
    if is_word(e[-1]) and not is_word(r[-1]):
        return False
    # a combining mark next to an occurrence glues it to a word (`boundary_matches`): an
    # entity that ends (starts) with one blocks an occurrence right after (before) it, and a
    # replacement must block it too ("-\u0301-\u0301" with "." gives ".-\u0301": a new one)
    if is_mark(e[-1]) and not is_mark(r[-1]):
        return False
    if is_mark(e[0]) and not is_mark(r[0]):
        return False
    return True


# ---------------------------------------------------------------- substitution

@settings(max_examples=400, deadline=None)
@given(ce=CONTEXT_AND_ENTITY, replacement=REPLACEMENT, boundaries=st.booleans())
def test_substitute_spans_point_at_the_replacement_and_undo_exactly(
        ce: tuple[str, str], replacement: str, boundaries: bool) -> None:
    """(2) every span holds the replacement; (3) putting the original occurrence texts back
    gives the original context; (4) one span per occurrence. No assumptions needed."""
    context, entity = ce
    found = occurrences(context, entity, boundaries)
    sub = substitute(context, entity, replacement, boundaries)
    assert len(sub.spans) == sub.count == len(found)
    for a, b in sub.spans:
        assert sub.text[a:b] == replacement
    assert sub.spans == sorted(sub.spans)
    assert all(b1 <= a2 for (_, b1), (a2, _) in zip(sub.spans, sub.spans[1:]))
    assert rebuild(sub.text, sub.spans, [context[a:b] for a, b in found]) == context
    assert len(sub.text) == len(context) + len(found) * len(replacement) - sum(
        b - a for a, b in found)
    if not found:
        assert sub.text == context


@settings(max_examples=400, deadline=None)
@given(ce=CONTEXT_AND_ENTITY, replacement=REPLACEMENT)
def test_substitute_leaves_no_occurrence_of_the_entity(ce: tuple[str, str],
                                                       replacement: str) -> None:
    """(1) after substitution no boundary-respecting occurrence of the entity is left, given
    the assumptions of `replacement_cannot_form_entity` (see its docstring)."""
    context, entity = ce
    assume(replacement_cannot_form_entity(entity, replacement))
    sub = substitute(context, entity, replacement)
    assert occurrences(sub.text, entity) == []
    # substituting again changes nothing
    assert substitute(sub.text, entity, replacement).text == sub.text


def test_the_assumptions_are_needed() -> None:
    """The counter-examples named in `replacement_cannot_form_entity`, checked."""
    assert substitute("X Y Y", "X Y", "Q X").text == "Q X Y"
    assert occurrences("Q X Y", "X Y") == [(2, 5)]
    assert substitute("a-a-", "a-", "!").text == "a-!"
    assert occurrences("a-!", "a-") == [(0, 2)]
    assert not replacement_cannot_form_entity("X Y", "Q X")
    assert not replacement_cannot_form_entity("a-", "!")
    assert replacement_cannot_form_entity("US", "Peru")
    assert replacement_cannot_form_entity("US", "USB")
    assert not replacement_cannot_form_entity("US", "US-B")
    assert substitute("US and USA", "US", "US-B").text == "US-B and USA"
    assert occurrences("US-B and USA", "US") == [(0, 2)]


@settings(max_examples=300, deadline=None)
@given(ce=CONTEXT_AND_ENTITY)
def test_no_boundaries_never_finds_fewer(ce: tuple[str, str]) -> None:
    """(5) boundary-respecting occurrences are a subset of the candidate positions, and the
    leftmost non-overlapping scan of equal-length matches is maximal, so dropping the
    boundaries can only find more. Also: each boundary occurrence is a literal match."""
    context, entity = ce
    with_b = occurrences(context, entity, True)
    without = occurrences(context, entity, False)
    assert len(without) >= len(with_b)
    for a, b in with_b:
        assert b - a == len(entity) and ci_equal(entity, context[a:b])
        assert a == 0 or not is_word(context[a - 1]) or not is_word(entity[0])
        assert b == len(context) or not is_word(context[b]) or not is_word(entity[-1])


@settings(max_examples=300, deadline=None)
@given(emb=embedding(NON_WORD_NEIGHBOUR, keep_match=True), replacement=REPLACEMENT)
def test_every_embedded_copy_between_non_word_neighbours_is_replaced(
        emb: tuple[str, str, int], replacement: str) -> None:
    """Copies of the entity (case changed in ways re.IGNORECASE equates) with a non-word
    character on each side are all valid occurrences, so at least that many are replaced."""
    context, entity, copies = emb
    sub = substitute(context, entity, replacement)
    assert sub.count >= copies
    assert sub.text.count(replacement) >= (copies if replacement else 0)


COMBINING_MARKS = st.sampled_from(["\u0301", "\u0308", "\u0327", "\u064e", "\u064c", "\u05b8"])


@settings(max_examples=50, deadline=None)
@given(word=st.text(alphabet="abcJosePdr\u0627\u0628\u0633\u05d0\u05d1", min_size=1, max_size=6),
       mark=COMBINING_MARKS)
def test_an_entity_never_matches_inside_a_word_with_a_combining_mark(word: str,
                                                                     mark: str) -> None:
    context = f"{word}{mark} lives here."
    assert unicodedata.category(mark) == "Mn"
    assert occurrences(context, word) == []


def test_combining_mark_before_or_after_blocks_only_that_occurrence() -> None:
    assert substitute("Jose\u0301 met Jose.", "Jose", "Pedro").text == "Jose\u0301 met Pedro."
    assert occurrences("e\u0301Jose and Jose", "Jose") == [(11, 15)]
    # a rejected occurrence must not hide an overlapping one that stands on its own
    assert occurrences("e\u0301ab-ab-ab", "ab-ab") == [(5, 10)]


# ---------------------------------------------------------------- process_row

CFG = load_config("conf/paper.toml")  # the paper policy's properties; coherent: test_coherent
CFG_NO_BOUNDARIES = CFG.replace(substitution={"word_boundaries": False})
PROV = Provenance("test", "cfg0", "fake-ner")
FILLER = " The harbour records were kept in the old town hall for many years."
TYPES = ["PERSON", "GPE", "ORG", "DATE", "PERCENT"]  # PERCENT has no bank entries
NAME = st.text(alphabet="abcdeklmnoAKMZ019 -.'()+\u00e9\u0301\u0627\u05d0\U0001F680",
               min_size=1, max_size=10).filter(lambda s: s.strip())
BANK_POOL = ["Oda Renn", "Halvard Quist", "Skarn", "1868", "Ostrava Nova", "Q", "Tove",
             "K(9)", "a+b", "\u0627\u0628\u0633", "Jos\u00e9", "Ren\u00e9e Lo"]


def qa_row(context: str, answer: str, i: int = 0) -> dict[str, Any]:
    """A reader row as the pipeline sees it (every QA field; see test_spark_transforms)."""
    row: dict[str, Any] = {name: None for name, _ in C.QA_FIELDS}
    row.update({C.ID: f"squad:p{i}", C.SOURCE: "squad", C.QUESTION: f"Question {i}?",
                C.CONTEXT: context, C.CONTEXT_ID: context_id(context), C.ANSWER: answer,
                C.ANSWER_START: max(context.find(answer), 0), C.ALIASES: [answer],
                C.INPUT_FILE: "in.json", C.RECORD_LOC: f"qa={i}", C.STATUS: C.OK})
    return row


@st.composite
def fake_rows(draw: st.DrawFn) -> tuple[dict[str, Any], list[Entity], dict[str, list[str]]]:
    """A context of random words and entities (entities recur, case-changed), the entities'
    spans as NER would give them, a bank and an answer close to one of the entities."""
    names = draw(st.lists(NAME, min_size=1, max_size=4, unique=True))
    labels = [draw(st.sampled_from(TYPES)) for _ in names]
    pieces: list[str] = []
    entities: list[Entity] = []
    pos = 0
    for _ in range(draw(st.integers(1, 6))):
        filler = draw(st.sampled_from([" ", " and ", ", ", " (", ") ", " met ", "-", "x"]))
        k = draw(st.integers(0, len(names) - 1))
        text = draw(case_variant(names[k]))
        pieces += [filler, text]
        pos += len(filler)
        entities.append(Entity(text, labels[k], pos, pos + len(text)))
        pos += len(text)
    context = "".join(pieces) + FILLER
    answer = draw(st.one_of(
        st.sampled_from(names).flatmap(case_variant),
        st.sampled_from(names).map(lambda n: f" {n} "),
        st.sampled_from(names).map(lambda n: n[: max(1, len(n) // 2)]),
        NAME,
    ))
    bank = {t: draw(st.lists(st.one_of(st.sampled_from(BANK_POOL), NAME, st.sampled_from(names)),
                             max_size=8))
            for t in TYPES[:-1]}
    return qa_row(context, answer), entities, bank


@settings(max_examples=400, deadline=None)
@given(fake=fake_rows(), boundaries=st.booleans())
def test_process_row_successes_are_consistent(fake: Any, boundaries: bool) -> None:
    row, entities, bank = fake
    cfg = CFG if boundaries else CFG_NO_BOUNDARIES
    index = SamplingIndex.from_bank(bank)
    out = process_row(row, entities, index, cfg, PROV)
    assert out == process_row(row, entities, SamplingIndex.from_bank(bank), cfg, PROV)
    event(f"{out[C.STATUS]}:{out[C.REASON]}")
    assert out[C.ID] == row[C.ID] and out[C.ORIGINAL_CONTEXT] == row[C.CONTEXT]
    if out[C.STATUS] != C.OK:
        assert out[C.STATUS] == C.FILTERED and out[C.REASON] in reasons.FILTER_REASONS
        assert out[C.MODIFIED_CONTEXT] is None and out[C.ANSWER_STARTS] is None
        return
    context, modified = row[C.CONTEXT], out[C.MODIFIED_CONTEXT]
    original, replacement = out[C.ORIGINAL_ENTITY], out[C.REPLACEMENT_ENTITY]
    assert out[C.FAITHFUL_ANSWER] == replacement
    assert original in {e.text.strip() for e in entities}
    assert replacement in bank[out[C.ENTITY_TYPE]]
    assert out[C.MATCH_STRATEGY] in (EXACT, SUBSTRING, POSITIONAL)
    # every answer start points at the faithful answer, one per replaced region
    starts = out[C.ANSWER_STARTS]
    assert starts and len(starts) == out[C.NUM_REPLACEMENTS]
    for s in starts:
        assert modified[s:s + len(replacement)] == replacement
    assert starts == [sp[C.SPAN_START] for sp in out[C.MODIFIED_SPANS]]
    assert all(sp[C.SPAN_END] - sp[C.SPAN_START] == len(replacement)
               for sp in out[C.MODIFIED_SPANS])
    # the length ratio, distinctness and novelty the paper asks for
    assert cfg.sampling.min_length_ratio <= len(replacement) / len(original) <= (
        cfg.sampling.max_length_ratio)
    assert norm(replacement) != norm(original)
    assert not contains_ci(context, replacement)
    assert len(modified) >= cfg.quality.min_context_chars
    assert out[C.NUM_REPLACEMENTS] <= cfg.quality.max_occurrences
    # and the faithful answer shows up only where it was put: any case-insensitive
    # occurrence overlaps a replaced region (it was in no original text)
    spans = [(sp[C.SPAN_START], sp[C.SPAN_END]) for sp in out[C.MODIFIED_SPANS]]
    for a, b in occurrences(modified, replacement, word_boundaries=False):
        assert any(a < e and s < b for s, e in spans)


def test_process_row_generator_reaches_success() -> None:
    """The fixed row the property generator is modelled on does succeed, so the property
    above is not vacuous (its `event`s show the mix under `pytest --hypothesis-show-statistics`)."""
    context = "Lida Marsh met LIDA MARSH in Grenwick." + FILLER
    entities = [Entity("Lida Marsh", "PERSON", 0, 10), Entity("LIDA MARSH", "PERSON", 15, 25),
                Entity("Grenwick", "GPE", 29, 37)]
    out = process_row(qa_row(context, "lida marsh"), entities,
                      SamplingIndex.from_bank({"PERSON": ["Oda Renn"]}), CFG, PROV)
    assert out[C.STATUS] == C.OK and out[C.MATCH_STRATEGY] == EXACT
    assert out[C.MODIFIED_CONTEXT] == "Oda Renn met Oda Renn in Grenwick." + FILLER
    assert out[C.ANSWER_STARTS] == [0, 13]


# ---------------------------------------------------------------- matching

@st.composite
def matching_inputs(draw: st.DrawFn) -> tuple[str, str, list[Entity]]:
    context = draw(TEXT)
    texts = draw(st.lists(st.one_of(NAME, TEXT, st.just(" ")), max_size=5))
    entities = []
    for t in texts:
        start = draw(st.integers(0, max(len(context), 1)))
        entities.append(Entity(t, draw(st.sampled_from(TYPES)), start,
                               start + draw(st.integers(0, 12))))
    answer = draw(st.one_of(TEXT, NAME, st.sampled_from(texts or [""]).flatmap(case_variant)))
    if draw(st.booleans()):
        context = context + " " + answer + " " + draw(TEXT)
    return answer, context, entities


@settings(max_examples=400, deadline=None)
@given(inp=matching_inputs(), min_overlap=st.integers(1, 5),
       fraction=st.sampled_from([0.25, 0.5, 1.0]))
def test_match_answer_picks_a_given_entity_by_its_rule(inp: tuple[str, str, list[Entity]],
                                                       min_overlap: int, fraction: float) -> None:
    answer, context, entities = inp
    kw = dict(min_substring_overlap=min_overlap, positional_min_overlap=fraction)
    m = match_answer(answer, context, entities, **kw)
    # deterministic, also on equal but distinct Entity objects
    assert m == match_answer(answer, context, entities, **kw)
    assert m == match_answer(answer, context, [Entity(e.text, e.label, e.start, e.end)
                                               for e in entities], **kw)
    a = norm(answer)
    if any(norm(e.text) == a for e in entities) and a:
        assert m is not None and m.strategy == EXACT
    if m is None:
        return
    assert any(m.entity is e for e in entities)
    t = norm(m.entity.text)
    if m.strategy == EXACT:
        assert t == a
    elif m.strategy == SUBSTRING:
        assert (a in t or t in a) and min(len(a), len(t)) >= min_overlap
        assert not any(norm(e.text) == a for e in entities)
    else:
        assert m.strategy == POSITIONAL
        pos = find_ci(context, answer.strip())
        assert pos >= 0
        overlap = min(m.entity.end, pos + len(answer.strip())) - max(m.entity.start, pos)
        assert overlap > 0 and overlap >= fraction * len(answer.strip())


# ---------------------------------------------------------------- sampling

BANK_TEXT = st.text(alphabet="abcAB KZ019-.\u00e9\u0301\u0627\U0001F680\u00df\u0130", min_size=1,
                    max_size=14)
# Ratios as a config writes them (decimals). length_window subtracts/adds 1e-9 so that
# 0.3 * 10 = 3.0000000000000004 still admits length 3; with arbitrary binary floats that
# tolerance lets through ratios below the bound by ~1e-18 (n=500, min_ratio =
# 0.010000000000000002 admits length 5), which no TOML value produces.
RATIO_PAIRS = st.one_of(
    st.just((0.3, 3.0)),
    st.tuples(st.integers(1, 20), st.integers(0, 60)).map(
        lambda t: (t[0] / 20, t[0] / 20 + t[1] / 20)),
)


@settings(max_examples=400, deadline=None)
@given(bank_list=st.lists(BANK_TEXT, max_size=20), original=BANK_TEXT,
       add_variant=st.booleans(), ratios=RATIO_PAIRS, seed=st.integers(0, 2**32),
       row_id=st.text(max_size=10), attempts=st.integers(1, 10),
       rnd=st.randoms(use_true_random=False))
def test_choose_replacement_respects_the_ratio_and_ignores_bank_order(
        bank_list: list[str], original: str, add_variant: bool, ratios: tuple[float, float],
        seed: int, row_id: str, attempts: int, rnd: Any) -> None:
    if add_variant:  # case variants of the original must never be chosen
        bank_list = bank_list + [original.upper(), original.lower(), original]
    lo, hi = ratios
    kw = dict(seed=seed, min_ratio=lo, max_ratio=hi, max_attempts=attempts)
    got = choose_replacement(SamplingIndex.from_bank({"PERSON": bank_list}), "PERSON",
                             original, row_id, **kw)
    shuffled = bank_list[:]
    rnd.shuffle(shuffled)
    assert got == choose_replacement(SamplingIndex.from_bank({"PERSON": shuffled}), "PERSON",
                                     original, row_id, **kw)
    assert got == choose_replacement(SamplingIndex.from_bank({"PERSON": bank_list}), "PERSON",
                                     original, row_id, **kw)
    assert choose_replacement(SamplingIndex.from_bank({"GPE": bank_list}), "PERSON",
                              original, row_id, **kw) is None
    window = [c for c in bank_list if lo <= len(c) / len(original) <= hi]
    if got is None:
        # only possible when the window is empty or a draw kept hitting the original (or a
        # candidate containing it, or inside it)
        assert not window or any(overlaps_original(c, original) for c in window)
        return
    assert got in window
    assert lo <= len(got) / len(original) <= hi
    assert norm(got) != norm(original) and not overlaps_original(got, original)


# ---------------------------------------------------------------- splitting

@st.composite
def split_keys(draw: st.DrawFn) -> list[splitting.Key]:
    """n keys (0..3000) with unique ids. `shift` squeezes the 63-bit keys towards 0 so that
    many rows share a bucket, and at large shifts many share a split key (ties by id)."""
    n = draw(st.integers(0, 3000))
    seed = draw(st.integers(0, 1000))
    shift = draw(st.sampled_from([0, 0, 20, 47, 50, 58, 62]))
    return [(split_key(seed, f"s:{i}") >> shift, f"s:{i}") for i in range(n)]


@settings(max_examples=60, deadline=None)
@given(ks=split_keys(), cap=st.one_of(st.just(0), st.integers(0, 3500)),
       fractions=st.one_of(st.just((0.8, 0.1)),
                           st.tuples(st.integers(0, 20), st.integers(0, 20)).filter(
                               lambda t: t[0] + t[1] <= 20).map(lambda t: (t[0] / 20, t[1] / 20))))
def test_split_counts_are_exact_and_buckets_agree_with_the_full_sort(
        ks: list[splitting.Key], cap: int, fractions: tuple[float, float]) -> None:
    train, dev = fractions
    n = len(ks)
    expected = splitting.label_sorted(ks, cap, train, dev)
    assert len(expected) == n
    kept = min(n, cap) if cap > 0 else n
    sizes = splitting.split_sizes(kept, train, dev)
    labels = list(expected.values())
    assert [labels.count(s) for s in C.SPLITS] == list(sizes)
    assert labels.count(splitting.OVER_CAP) == n - kept
    # the Spark path: counts per bucket, then a sort inside the buckets where a cut falls
    counts: dict[int, int] = {}
    by_bucket: dict[int, list[splitting.Key]] = {}
    for k in ks:
        b = splitting.bucket_of(k[0])
        counts[b] = counts.get(b, 0) + 1
        by_bucket.setdefault(b, []).append(k)
    bounds = splitting.boundary_keys(counts, splitting.cut_ranks(n, cap, train, dev), by_bucket)
    assert {k[1]: splitting.label_for_key(k, bounds) for k in ks} == expected
    # labels follow the rank order: train keys < dev keys < test keys < over-cap keys
    order = {label: i for i, label in enumerate((*C.SPLITS, splitting.OVER_CAP))}
    ranks = [order[expected[k[1]]] for k in sorted(ks)]
    assert ranks == sorted(ranks)


@settings(max_examples=500)
@given(haystack=st.text(alphabet=st.characters(max_codepoint=127), max_size=40),
       needle=st.text(alphabet=st.characters(max_codepoint=127), min_size=1, max_size=4))
def test_find_ci_without_regex_for_ascii_equals_the_regex(haystack: str, needle: str) -> None:
    import re as re_
    m = re_.compile(re_.escape(needle), re_.IGNORECASE).search(haystack)
    assert find_ci(haystack, needle) == (m.start() if m else -1)
    assert find_ci(haystack + needle.swapcase(), needle) >= 0
