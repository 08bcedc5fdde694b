"""The fast paths of the hot loops give exactly what the plain code they replace gives:
Arrow -> Python conversion (`arrow.pylist`, `arrow.batch_rows` against pyarrow's
to_pylist), the look-backs of the sentence splitter and of `names.word_before` (against
the regex searches from 0 they replace), and the coherent policy's candidate search
(`coherent.cascade` against a fresh walk of every pool at every level;
`sampling.overlap_test`, `text.contains_ci_in` and `coherent.stem_words` against the word
matches, the per-needle search and the pattern); the gender window asks whether a mention
leads its sentence only when a pronoun opens the next one."""

from __future__ import annotations

import re

import pyarrow as pa
from hypothesis import given, settings
from hypothesis import strategies as st

from faithqa_spark.arrow import arrow_type, batch_rows, pylist
from faithqa_spark.core import fields as C
from faithqa_spark.core import names
from faithqa_spark.core.coherent import cascade, stem_words
from faithqa_spark.core.sampling import overlap_test
from faithqa_spark.core.text import boundary_matches, contains_ci, contains_ci_in, norm
from faithqa_spark.core.sentences import _word_before


def typed(value):
    """A value with the Python type of every part spelled out (True == 1, but not here)."""
    if isinstance(value, dict):
        return {k: typed(v) for k, v in value.items()}
    if isinstance(value, list):
        return [typed(v) for v in value]
    return type(value).__name__, value


TYPES = [pa.string(), pa.large_string(), pa.int32(), pa.int64(), pa.bool_(), pa.float64(),
         pa.list_(pa.int32()), pa.list_(pa.string()), arrow_type(C.SPANS),
         pa.struct([("a", pa.bool_()), ("b", pa.string())]),
         pa.list_(pa.struct([("text", pa.string()), ("label", pa.string())]))]


def values_of(t: pa.DataType) -> st.SearchStrategy:
    if pa.types.is_string(t) or pa.types.is_large_string(t):
        inner = st.text(max_size=6)
    elif pa.types.is_integer(t):
        inner = st.integers(-2**31, 2**31 - 1)
    elif pa.types.is_boolean(t):
        inner = st.booleans()
    elif pa.types.is_floating(t):
        inner = st.floats(allow_nan=False)
    elif pa.types.is_struct(t):
        inner = st.fixed_dictionaries({t.field(i).name: values_of(t.field(i).type)
                                       for i in range(t.num_fields)})
    else:
        inner = st.lists(values_of(t.value_type), max_size=4)
    return st.one_of(st.none(), inner)


@st.composite
def arrays(draw):
    t = draw(st.sampled_from(TYPES))
    array = pa.array(draw(st.lists(values_of(t), max_size=8)), type=t)
    start = draw(st.integers(0, len(array)))
    return array.slice(start, draw(st.integers(0, len(array) - start)))  # offsets too


@settings(max_examples=400, deadline=None)
@given(arrays())
def test_pylist_is_to_pylist(array):
    assert typed(pylist(array)) == typed(array.to_pylist())


@settings(max_examples=100, deadline=None)
@given(st.lists(arrays(), min_size=1, max_size=3))
def test_batch_rows_is_to_pylist(columns):
    n = min(len(c) for c in columns)
    batch = pa.RecordBatch.from_arrays([c.slice(0, n) for c in columns],
                                       names=[f"c{i}" for i in range(len(columns))])
    assert typed(batch_rows(batch)) == typed(batch.to_pylist())
    assert typed(pylist(pa.chunked_array([columns[0], columns[0]]))) == typed(
        columns[0].to_pylist() * 2)


TEXT = st.text(alphabet="ab A.T-'’\n \u00a0\t:;\"“()\u0301é\u2028", max_size=14)


@settings(max_examples=2000, deadline=None)
@given(st.sampled_from(["", "x" * 70, " " * 70, ". " + " " * 70, "a" * 66 + " "]), TEXT,
       st.data())
def test_word_before_is_the_search_from_the_start(prefix, text, data):
    text = prefix + text
    start = data.draw(st.integers(0, len(text)))
    m = re.compile(r"(\S+)$").search(text, 0, start)
    assert _word_before(text, start) == (m.group(1) if m else "")
    assert names.word_before(text, start) == _word_before_by_search(text, start)


def _word_before_by_search(text: str, start: int) -> str:
    """`names.word_before` as it was: every search of text[:end] from 0."""
    if start < 2 or text[start - 1] not in " \u00a0":
        return ""
    m = names._WORD_END.search(text, 0, start - 1)
    if not m:
        return ""
    word = m.group(0).rstrip("'’")
    if names._SENTENCE_START.search(text, 0, m.start()):
        return ""
    if word.endswith(".") and not (word[:-1].lower() in names.TITLES
                                   or names._INITIAL.match(word)):
        return ""
    if names._ARTICLE_BEFORE.search(text, 0, m.start()):
        return ""
    return word


# letters, case pairs, word edges, and the characters that IGNORECASE folds to ASCII
# letters although lower() does not (Kelvin sign, long s, dotted and dotless i)
NAME = st.text(alphabet="aAbBkKsSiI -.'\u212a\u017f\u0130\u0131\u0301é", max_size=8)


@settings(max_examples=3000, deadline=None)
@given(NAME, NAME, st.sampled_from(["", " ", "West ", " Island"]))
def test_overlap_test_is_the_word_match(original, candidate, around):
    candidate = around + candidate if around.endswith(" ") else candidate + around
    plain = norm(candidate) == norm(original) or bool(
        boundary_matches(candidate, original) or boundary_matches(original, candidate))
    assert overlap_test(original)(candidate) == plain


@settings(max_examples=3000, deadline=None)
@given(st.text(alphabet="aAbBkKsSiI .\u212a\u017f\u0130\u0131é", max_size=16), NAME)
def test_contains_ci_in_is_contains_ci(haystack, needle):
    assert contains_ci_in(haystack)(needle) == contains_ci(haystack, needle)


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from(["Mexic", "an", "o", "-", " ", "_", "é", "\u0301", "1",
                                  "Soviet", "s", ".", "x.", "M", "\u00a0"]), max_size=10),
       st.sampled_from(["Mexic", "Soviet", "M", "x.", "é"]))
def test_stem_words_is_the_pattern(pieces, stem):
    text = "".join(pieces)
    pattern = re.compile(rf"(?<![\w-]){re.escape(stem)}(\w*)(?![\w-])")
    assert list(stem_words(text, stem)) == [
        (m.start(), m.end(), m.group(1)) for m in pattern.finditer(text)]


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.lists(st.lists(st.sampled_from("abcdefgh"), max_size=6), max_size=3),
                min_size=1, max_size=3),
       st.integers(1, 4), st.dictionaries(st.sampled_from("abcdefgh"), st.integers(0, 4)),
       st.sets(st.sampled_from("abcdefgh")))
def test_cascade_is_a_fresh_walk_per_level(groups, levels, level_map, fitting):
    # groups of pools of candidates (a pool's visit order is its list; the same candidate
    # may come again, in one pool or in several); a candidate's level and whether it fits
    def level_of(cand):
        return level_map.get(cand, 0)

    def fits(cand):
        return cand in fitting

    def plain():
        for at in range(levels):
            for pools in groups:
                for pool in pools:
                    found = next((c for c in pool if level_of(c) <= at and fits(c)), None)
                    if found is not None:
                        return found
        return None

    walks = []

    def visit(pool):
        walks.append(pool)
        return iter(pool)

    looked_up = []

    def group(g):
        def pools():
            looked_up.append(g)
            return groups[g]
        return pools

    got = cascade([group(g) for g in range(len(groups))], levels, level_of, fits, visit)
    assert got == plain()
    # each pool's draws are made once: later levels walk what its first walk kept
    assert len(walks) <= sum(len(pools) for pools in groups)
    # ... and each group's pools are looked up once, the first time it is reached
    assert sorted(looked_up) == sorted(set(looked_up))


def test_a_worker_builds_its_index_once_across_tasks():
    # Each task unpickles its function anew, with a copy of the module globals a closure
    # names: a cache the closure named itself was empty in every task, and each task
    # rebuilt the index. `worker_index` is called by reference, so its cache is the
    # process's own.
    from pyspark import cloudpickle

    from faithqa_spark.spark import tasks

    key = ("test-bank-fingerprint", None)

    def task():
        return tasks.worker_index(key, object)

    try:
        firsts = [cloudpickle.loads(cloudpickle.dumps(task))() for _ in range(3)]
    finally:
        tasks._index_cache.pop(key, None)
    assert firsts[0] is firsts[1] is firsts[2]

    # what this replaced: a nested function that names a module-level cache itself gets a
    # copy of it with each unpickling
    def naive():
        return _NAIVE_CACHE.setdefault("index", object())
    assert cloudpickle.loads(cloudpickle.dumps(naive))() is not \
        cloudpickle.loads(cloudpickle.dumps(naive))()


_NAIVE_CACHE: dict = {}  # `test_a_worker_builds_its_index_once_across_tasks`'s counter-example


def test_a_workers_index_is_out_of_the_collectors_reach_once_built():
    # every full collection had walked the worker's index and pools (SQuAD train: 21.5 s
    # of worker time that freed nothing): once built, they are frozen out of the generations
    import gc
    import weakref

    from faithqa_spark.spark import tasks

    class Pools(list):  # weakly referable, and tracked by the collector as the pools are
        pass

    key = ("test-bank-frozen", None)
    gc.collect()
    gc.unfreeze()
    try:
        index = tasks.worker_index(key, lambda: Pools([["a pool"], ["another"]]))
        made_after = Pools()
        assert gc.is_tracked(index) and gc.get_freeze_count() > 0
        in_generations = gc.get_objects()
        assert not any(o is index for o in in_generations)
        assert any(o is made_after for o in in_generations)
        # ... and still freed by reference counting when the worker lets it go
        gone = weakref.ref(index)
        del index, in_generations
        tasks._index_cache.pop(key)
        assert gone() is None
    finally:
        tasks._index_cache.pop(key, None)
        gc.unfreeze()


def test_the_leading_pronoun_rule_scans_back_only_for_a_leading_pronoun(monkeypatch):
    # `gender._first_named` scans the text before the mention for the sentence's start; it
    # is asked only when the next sentence opens with a pronoun, not for every mention
    from faithqa_spark.core import gender

    calls = []
    real = gender._first_named

    def counted(*args):
        calls.append(args[1])
        return real(*args)

    monkeypatch.setattr(gender, "_first_named", counted)
    text = ("Madonna starred in Dick Tracy, with Warren Beatty playing the title role. "
            "Her performance won praise. Prince said he liked it.")
    starts = [text.index(n) for n in ("Madonna", "Warren Beatty", "Prince")]
    mentions = [(s, s + n) for s, n in zip(starts, (7, 13, 6))]
    # Beatty's window reaches "Her", which opens the next sentence: Madonna came first
    assert gender.window_genders(text, mentions[1:2], [mentions[0], mentions[2]]) == []
    assert calls == [starts[1]]
    # Prince's own sentence holds "he": no look back
    assert gender.window_genders(text, mentions[2:], mentions[:2]) == ["m"]
    assert calls == [starts[1]]
    alone = "Madonna starred in Dick Tracy. Her performance won praise."
    assert gender.window_genders(alone, [(0, 7)], []) == ["f"]
    assert calls == [starts[1], 0]

