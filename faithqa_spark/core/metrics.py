"""Per-prediction metrics of faithfulness: pure functions on strings, no Spark.

Definitions (the README's "Evaluating a model" section refers here):

- **Normalisation** (`normalize_answer`) is the official SQuAD v1.1 one (lower-case, drop
  punctuation, drop the articles a/an/the, collapse whitespace), preceded by Unicode NFKC.
  NFKC composes decomposed accents (NFD "e" + U+0301 equals the precomposed "é") and folds
  compatibility forms (full-width letters, the ligature "ﬁ", no-break spaces), so two
  strings that render the same compare equal. Accents themselves are kept ("Zürich" is not
  "Zurich"), as in SQuAD. Punctuation is every Unicode punctuation character (category P*),
  a superset of the official ASCII set, so curly quotes and dashes go too.
- **EM / F1**: SQuAD's exact match and token-level F1 of the normalised strings.
- **contains**: the normalised answer occurs in the normalised prediction as a contiguous
  run of whole tokens ("york" is in "new york city", not in "yorkshire"). An answer that
  normalises to nothing (e.g. "The") is contained in nothing.
- **p_s / p_o** (Longpre et al.): the prediction contains the substituted (faithful) answer /
  the original answer. When one answer's tokens contain the other's (original "York",
  substituted "New York"), an occurrence of the shorter answer inside an occurrence of the
  longer one is masked: "New York" counts for the longer answer only, "York" alone for the
  shorter, and "New York, not York" for both. Here a "." or "," between digits is kept
  (SQuAD's rule makes "2.1" and "21" one answer). Rows whose two answers are still equal
  after that ("U.S." / "US") cannot show which one a prediction follows: they are counted
  as `ambiguous` and left out of p_s, p_o, MR and neither.
- **Refusals** are configured phrases matched at word boundaries on the NFKC, case-folded
  prediction (curly apostrophes read as straight ones), never as substrings: "another"
  does not contain the refusal word "not".
- **Grounding** (AeroGround, model-free), see `sentence_support` and `entity_support`.
"""

from __future__ import annotations

import math
import re
import string
import unicodedata
from collections import Counter
from functools import lru_cache

_ARTICLES = re.compile(r"\b(a|an|the)\b", re.UNICODE)
_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'"})


def _is_punct(ch: str) -> bool:
    return ch in string.punctuation or unicodedata.category(ch).startswith("P")


def normalize_answer(s: str, keep_number_marks: bool = False) -> str:
    """SQuAD's normalisation after Unicode NFKC (see the module docstring). With
    `keep_number_marks` a "." or "," between two digits stays ("2.1" is not "21")."""
    s = unicodedata.normalize("NFKC", s).lower()
    s = "".join(ch for i, ch in enumerate(s) if not _is_punct(ch) or (
        keep_number_marks and ch in ".," and 0 < i < len(s) - 1
        and s[i - 1].isdigit() and s[i + 1].isdigit()))
    s = _ARTICLES.sub(" ", s)
    return " ".join(s.split())


def answer_tokens(s: str, keep_number_marks: bool = False) -> list[str]:
    return normalize_answer(s, keep_number_marks).split()


def distinguishable(original: str, substituted: str) -> bool:
    """The two answers differ after normalisation (number marks kept), so a prediction can
    tell which one it states. Rows where they do not are left out of p_s, p_o and MR."""
    return answer_tokens(original, True) != answer_tokens(substituted, True)


def exact_match(prediction: str, gold: str) -> bool:
    """SQuAD exact match after normalisation."""
    return normalize_answer(prediction) == normalize_answer(gold)


def f1_score(prediction: str, gold: str) -> float:
    """SQuAD token-level F1 (bag of tokens); two empty strings score 1, one empty scores 0."""
    p, g = answer_tokens(prediction), answer_tokens(gold)
    if not p or not g:
        return float(p == g)
    common = sum((Counter(p) & Counter(g)).values())
    if common == 0:
        return 0.0
    precision, recall = common / len(p), common / len(g)
    return 2 * precision * recall / (precision + recall)


def token_occurrences(haystack: list[str], needle: list[str]) -> list[tuple[int, int]]:
    """Token spans [start, end) where `needle` occurs in `haystack` as a contiguous run."""
    n = len(needle)
    if n == 0:
        return []
    return [(i, i + n) for i in range(len(haystack) - n + 1) if haystack[i:i + n] == needle]


def contains_answer(prediction: str, answer: str) -> bool:
    """The normalised answer occurs in the normalised prediction at token boundaries."""
    return bool(token_occurrences(answer_tokens(prediction), answer_tokens(answer)))


def _outside(spans: list[tuple[int, int]], masks: list[tuple[int, int]]) -> bool:
    """Some span of `spans` lies outside every span of `masks`."""
    return any(not any(ms <= s and e <= me for ms, me in masks) for s, e in spans)


def substitution_flags(prediction: str, original: str, substituted: str) -> tuple[bool, bool]:
    """(p_o, p_s): the prediction contains the original / the substituted answer, an
    occurrence of the shorter answer inside one of the longer answer not counting. Numbers
    keep their "." and "," here, so that "2.1" and "21" stay two answers."""
    pred = answer_tokens(prediction, True)
    orig, subst = answer_tokens(original, True), answer_tokens(substituted, True)
    at_o, at_s = token_occurrences(pred, orig), token_occurrences(pred, subst)
    if orig == subst or not at_o or not at_s:
        return bool(at_o), bool(at_s)
    if len(subst) > len(orig):
        return _outside(at_o, at_s), True
    if len(orig) > len(subst):
        return True, _outside(at_s, at_o)
    return True, True  # same length, different tokens: the occurrences cannot nest


# ---------------------------------------------------------------- refusals

@lru_cache(maxsize=64)
def refusal_pattern(phrases: tuple[str, ...]) -> re.Pattern[str] | None:
    """One pattern for all phrases: literal text at word boundaries, any run of whitespace
    between words. None when no phrase is configured."""
    bodies = []
    for p in phrases:
        words = _fold(p).split()
        if words:
            bodies.append(r"\s+".join(re.escape(w) for w in words))
    if not bodies:
        return None
    # longest first, so a long phrase wins over its prefix (only matters for reporting)
    bodies.sort(key=lambda b: (-len(b), b))
    return re.compile(r"(?<!\w)(?:" + "|".join(bodies) + r")(?!\w)")


def _fold(s: str) -> str:
    return unicodedata.normalize("NFKC", s).translate(_APOSTROPHES).casefold()


def is_refusal(prediction: str, phrases: tuple[str, ...]) -> bool:
    """The prediction contains one of the refusal phrases as whole words."""
    pat = refusal_pattern(tuple(phrases))
    return pat is not None and pat.search(_fold(prediction)) is not None


# ---------------------------------------------------------------- grounding

# Function words left out of "content words" for sentence support: articles, pronouns,
# auxiliaries, prepositions, conjunctions and a few adverbs of English. A sentence made of
# these only has no content word and is not counted.
STOPWORDS: frozenset[str] = frozenset("""
a an the and or but nor so yet if then than that this these those there here
i me my we our us you your he him his she her it its they them their what which who whom
whose when where why how is am are was were be been being do does did done have has had
having will would shall should can could may might must of in on at by for with from to
into onto upon about as over under between through during before after above below up
down out off again not no yes also just only very too s t
""".split())

_SENTENCE_END = re.compile(r"(?<=[.!?。！？])\s+")
_WORD = re.compile(r"\w+")
_NUMBER = re.compile(r"(?<![\w.])\d+(?:[.,]\d+)*(?!\w)")
# identifiers: one word mixing letters and digits ("3D", "B52", "H2O")
_IDENT = re.compile(r"(?<!\w)(?=\w*\d)(?=\w*[^\W\d_])\w+(?!\w)")
# a word for names: starts with a letter at a word start, may hold ' and - ("Years'", "Jean-Luc")
_WORD_TOKEN = re.compile(r"(?<!\w)[^\W\d_][\w'’-]*")


def sentences(text: str) -> list[str]:
    """Sentences of a prediction: split after ., ! or ? followed by whitespace."""
    return [s for s in (p.strip() for p in _SENTENCE_END.split(text.strip())) if s]


def content_words(text: str) -> list[str]:
    """Lower-cased (NFKC, case-folded) word tokens that are not stopwords."""
    return [w for w in _WORD.findall(_fold(text)) if w not in STOPWORDS]


def sentence_support(prediction: str, context: str, threshold: float) -> tuple[int, int]:
    """(supported, counted) sentences of the prediction. A sentence is counted when it has a
    content word, and supported when at least `threshold` of its content words (a share,
    1.0 = all) occur as words in the context."""
    vocab = set(_WORD.findall(_fold(context)))
    supported = counted = 0
    for sent in sentences(prediction):
        words = content_words(sent)
        if not words:
            continue
        counted += 1
        # at least ceil(threshold * n) words; the epsilon keeps 0.7 * 10 from needing 8
        if sum(w in vocab for w in words) >= math.ceil(threshold * len(words) - 1e-9):
            supported += 1
    return supported, counted


def _digits(number: str) -> str:
    return number.replace(",", "")


def prediction_entities(text: str) -> list[str]:
    """Numbers, identifiers and capitalised names in a prediction, in order. A name is a
    maximal run of words that start with an upper-case letter, separated by spaces only, with
    stopwords trimmed from its ends ("The Velmora Rail" -> "Velmora Rail"; a sentence-initial
    "In" alone is no name); it is kept as written ("Seven Years' War")."""
    text = unicodedata.normalize("NFKC", text)
    found = [(m.start(), m.group()) for pat in (_NUMBER, _IDENT) for m in pat.finditer(text)]
    run: list[re.Match[str]] = []

    def close() -> None:
        while run and run[0].group().lower() in STOPWORDS:
            run.pop(0)
        while run and run[-1].group().lower() in STOPWORDS:
            run.pop()
        if run:
            found.append((run[0].start(), text[run[0].start():run[-1].end()]))
        run.clear()

    for m in _WORD_TOKEN.finditer(text):
        # a word with a digit is an identifier (found above), not part of a name
        capital = m.group()[0].isupper() and not any(ch.isdigit() for ch in m.group())
        # anything but spaces between two capitalised words (a comma, "and") ends a name
        if not capital or (run and text[run[-1].end():m.start()].strip()):
            close()
        if capital:
            run.append(m)
    close()
    return [t for _, t in sorted(found)]


def entity_support(prediction: str, context: str) -> tuple[int, int]:
    """(supported, counted) numbers and names of the prediction: a number is supported when
    the context has the same number (thousands separators ignored), a name when the context
    contains it case-insensitively at word boundaries."""
    ents = prediction_entities(prediction)
    if not ents:
        return 0, 0
    ctx = unicodedata.normalize("NFKC", context)
    numbers = {_digits(n) for n in _NUMBER.findall(ctx)}
    folded = _fold(ctx)
    supported = 0
    for e in ents:
        if _NUMBER.fullmatch(e):
            supported += _digits(e) in numbers
        else:
            pat = r"(?<!\w)" + r"\s+".join(re.escape(w) for w in _fold(e).split()) + r"(?!\w)"
            supported += re.search(pat, folded) is not None
    return supported, len(ents)
