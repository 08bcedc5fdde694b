"""Clarification and correction dialogues, built without a language model.

From a dataset row whose faithful answer lies in one sentence of the modified context:
remove that sentence (the *ablated* context), verify that the faithful answer no longer
appears in what is left, then write one of the two paths of the clarification-dialogue work:

- clarification: the user asks over the ablated context; the assistant says what is
  missing and asks for it; the user supplies the sentence; the assistant answers;
- correction: the assistant answers from memory (the original answer); the user corrects
  it by supplying the sentence; the assistant gives the faithful answer.

Which rows get a dialogue, which path, and which phrasing of each turn are all chosen by
stable hashes of the row id (core/hashing.py), so the output is the same on every runner.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from faithqa_spark.config import DialogueCfg, TrainingCfg
from faithqa_spark.core import fields as C
from faithqa_spark.core import reasons as R
from faithqa_spark.core.hashing import stable_u64
from faithqa_spark.core.sentences import remove_span, sentence_spans
from faithqa_spark.core.templates import render
from faithqa_spark.core.text import contains_ci
from faithqa_spark.core.training import (chosen_by_share, message, prompt_messages,
                                         record_id, squad_normalize)


@dataclass(frozen=True)
class Ablation:
    """The sentence that holds the faithful answer, and the context without it."""
    sentence: str
    ablated_context: str


def ablate(context: str, answer: str, answer_starts: list[int]) -> Ablation | str:
    """Remove the one sentence of `context` that holds every occurrence of `answer` (at
    `answer_starts`). Returns the Ablation, or the reason (core/reasons.py) there is none."""
    if not answer_starts or not answer:
        return R.DIALOGUE_NO_ANSWER_SPAN
    spans = sentence_spans(context)
    holders = set()
    for start in answer_starts:
        end = start + len(answer)
        inside = [i for i, (s, e) in enumerate(spans) if s <= start and end <= e]
        if not inside:  # the answer runs over a sentence end
            return R.DIALOGUE_ANSWER_ACROSS_SENTENCES
        holders.add(inside[0])
    if len(holders) > 1:
        return R.DIALOGUE_ANSWER_ACROSS_SENTENCES
    if len(spans) < 2:
        return R.DIALOGUE_SINGLE_SENTENCE
    (i,) = holders
    ablated = remove_span(context, spans, i)
    # the check that makes the dialogue honest: plain case-insensitive containment, stricter
    # than the word-boundary matches that gave `answer_starts`
    if contains_ci(ablated, answer):
        return R.DIALOGUE_ANSWER_REMAINS
    s, e = spans[i]
    return Ablation(context[s:e], ablated)


def _pick(options: list[str], seed: int, turn: str, row_id: str) -> str:
    return options[stable_u64(seed, f"dialogue:{turn}", row_id) % len(options)]


def missing_phrase(d: DialogueCfg, entity_type: str | None) -> str:
    """What the assistant says is missing, by the answer's entity type."""
    return d.missing.get(entity_type or "", d.missing["default"])


def dialogue_kind(seed: int, row_id: str, d: DialogueCfg) -> str | None:
    """The path of the row's dialogue (CLARIFICATION / CORRECTION), or None for no dialogue."""
    if not chosen_by_share(seed, "dialogue", row_id, d.share):
        return None
    return (C.CORRECTION if chosen_by_share(seed, "dialogue:path", row_id, d.correction_share)
            else C.CLARIFICATION)


def dialogue_record(row: Mapping[str, Any], cfg: TrainingCfg,
                    seed: int) -> dict[str, Any] | tuple[str, str] | None:
    """The row's dialogue record; None when the row is not drawn for one; (reason, kind) when
    it is drawn but cannot have one (counted in the report)."""
    rid = row[C.ID]
    kind = dialogue_kind(seed, rid, cfg.dialogue)
    if kind is None:
        return None
    answer, original = row[C.FAITHFUL_ANSWER], row[C.ORIGINAL_ANSWER]
    if kind == C.CORRECTION and squad_normalize(answer) == squad_normalize(original):
        return R.SAME_ANSWER, kind  # nothing to correct
    cut = ablate(row[C.MODIFIED_CONTEXT], answer, list(row[C.ANSWER_STARTS] or []))
    if isinstance(cut, str):
        return cut, kind
    d = cfg.dialogue
    turns = prompt_messages(cfg, cut.ablated_context, row[C.QUESTION])
    if kind == C.CLARIFICATION:
        turns += [
            message("assistant", render(_pick(d.clarify_ask, seed, "clarify_ask", rid),
                                        missing=missing_phrase(d, row.get(C.ENTITY_TYPE)),
                                        question=row[C.QUESTION])),
            message("user", render(_pick(d.clarify_supply, seed, "clarify_supply", rid),
                                   sentence=cut.sentence)),
            message("assistant", render(_pick(d.clarify_answer, seed, "clarify_answer", rid),
                                        answer=answer)),
        ]
    else:
        turns += [
            message("assistant", render(_pick(d.memory_answer, seed, "memory_answer", rid),
                                        original_answer=original)),
            message("user", render(_pick(d.correct_supply, seed, "correct_supply", rid),
                                   sentence=cut.sentence, original_answer=original)),
            message("assistant", render(_pick(d.correct_answer, seed, "correct_answer", rid),
                                        answer=answer, original_answer=original)),
        ]
    return {C.ID: record_id(rid, kind), C.KIND: kind, C.SPLIT: row[C.SPLIT],
            C.SOURCE: row[C.SOURCE], C.MESSAGES: turns}
